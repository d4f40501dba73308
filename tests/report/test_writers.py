"""Every writer on a report holding every status: JUnit parsed back by a JUnit library, JSON against its schema."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from junitparser import Error, Failure, JUnitXml, Skipped

from conformance.report import (
    Exchange,
    Result,
    ResultRecorded,
    RunFinished,
    RunHeader,
    RunStarted,
    Status,
    broadcast,
    summarize,
)
from conformance.report.writers import writers_for
from conformance.report.writers.jsonl import read_events
from conformance.requirements import catalogue

EVIDENCE = Exchange("POST", "https://host.test/agents/summarizer/invoke", {"content-type": "application/json"},
                    '{"agent": "translator"}', 200, {"content-type": "application/json"}, '{"summary": "<b>&"}')


def _results() -> list[Result]:
    picks = ["WOA-5.2-AGENT-MISMATCH-400", "WOA-4-VERSION-1", "WOA-7-CACHING-HEADERS", "WOA-8.1-HOST-USES-HTTPS",
             "SDSI-4.3-OTHER-OPTIONAL", "ACI-5.2-ITEM-STATE-BINARY"]
    statuses = [Status.FAIL, Status.PASS, Status.SKIP, Status.WAIVED, Status.ERROR, Status.NOT_APPLICABLE]
    return [Result.of(catalogue()[r], s, f"{s.value}: message with <xml> & | pipes", check="a_check",
                      evidence=(EVIDENCE,) if s in (Status.FAIL, Status.ERROR) else (), duration_ms=12.5)
            for r, s in zip(picks, statuses, strict=True)]


@pytest.fixture
def written(tmp_path: Path) -> Path:
    header = RunHeader("0.1.0", "https://host.test", ("woa", "sdsi", "aci"), "woa-rest", "2026-05-04T09:00:00Z", {"timeout": 10})
    results = _results()
    handlers = writers_for(tmp_path)
    broadcast(RunStarted(header), handlers)
    for result in results:
        broadcast(ResultRecorded(result), handlers)
    broadcast(RunFinished(summarize(results, finished="2026-05-04T09:00:01Z", duration_ms=75.0)), handlers)
    return tmp_path


def test_junit_xml_reads_back_with_a_junit_library(written: Path) -> None:
    xml = JUnitXml.fromfile(str(written / "junit.xml"))
    cases = {case.name: case for suite in xml for case in suite}
    assert len(cases) == 6
    assert isinstance(cases["WOA-5.2-AGENT-MISMATCH-400"].result[0], Failure)
    assert isinstance(cases["SDSI-4.3-OTHER-OPTIONAL"].result[0], Error)
    for skipped in ("WOA-7-CACHING-HEADERS", "WOA-8.1-HOST-USES-HTTPS", "ACI-5.2-ITEM-STATE-BINARY"):
        assert isinstance(cases[skipped].result[0], Skipped)
    assert cases["WOA-4-VERSION-1"].is_passed
    assert cases["WOA-5.2-AGENT-MISMATCH-400"].classname == "woa.5.2.MUST"
    totals = {(s.name, s.tests, s.failures, s.errors, s.skipped) for s in xml}
    assert totals == {("woa", 4, 1, 0, 2), ("sdsi", 1, 0, 1, 0), ("aci", 1, 0, 0, 1)}


def test_report_json_matches_its_schema_and_reads_back(written: Path) -> None:
    document = json.loads((written / "report.json").read_text())
    schema = json.loads(resources.files("conformance.report").joinpath("report.schema.json").read_text())
    Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(document)
    assert [Result.from_dict(r) for r in document["results"]] == _results()
    assert document["summary"]["level"] == "non-compliant"
    assert document["summary"]["by_status"] == {s.value: 1 for s in Status}


def test_events_jsonl_has_header_results_and_footer(written: Path) -> None:
    header, results, footer = read_events(written / "events.jsonl")
    assert header["target"] == "https://host.test" and header["report_format"] == "1.0"
    assert len(results) == 6 and footer is not None and footer["level"] == "non-compliant"


def test_a_run_cut_short_leaves_events_without_a_footer(tmp_path: Path) -> None:
    handlers = writers_for(tmp_path, ("jsonl",))
    broadcast(RunStarted(RunHeader("0.1.0", "https://t", ("woa",), "woa-rest", "2026-05-04T09:00:00Z")), handlers)
    broadcast(ResultRecorded(_results()[0]), handlers)
    _, results, footer = read_events(tmp_path / "events.jsonl")
    assert len(results) == 1 and footer is None


def test_markdown_summary_leads_with_the_verdict_and_lists_failures(written: Path) -> None:
    text = (written / "summary.md").read_text()
    assert text.startswith("## ❌ agent-conformance: **non-compliant**")
    assert "`WOA-5.2-AGENT-MISMATCH-400` | MUST | WOA 5.2 | fail |" in text
    assert "### Waived" in text and "\\|" in text  # pipes in messages are escaped, tables stay whole
