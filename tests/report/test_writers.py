"""Every writer on a report holding every status: JUnit parsed back by a JUnit library, JSON
against its schema."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from junitparser import Error
from junitparser import Failure
from junitparser import JUnitXml
from junitparser import Skipped

from conformance.engine.gate import gated
from conformance.report import Exchange
from conformance.report import Result
from conformance.report import ResultRecorded
from conformance.report import RunFinished
from conformance.report import RunHeader
from conformance.report import RunStarted
from conformance.report import Status
from conformance.report import broadcast
from conformance.report import summarize
from conformance.report.writers import writers_for
from conformance.report.writers.jsonl import read_events
from conformance.requirements import catalogue

EVIDENCE = Exchange(
    "POST",
    "https://host.test/agents/summarizer/invoke",
    {"content-type": "application/json"},
    '{"agent": "translator"}',
    200,
    {"content-type": "application/json"},
    '{"summary": "<b>&"}',
)


def _results() -> list[Result]:
    picks = [
        "WOA-5.2-AGENT-MISMATCH-400",
        "WOA-4-VERSION-1",
        "WOA-7-CACHING-HEADERS",
        "WOA-8.1-HOST-USES-HTTPS",
        "SDSI-4.3-OTHER-OPTIONAL",
        "ACI-5.2-ITEM-STATE-BINARY",
    ]
    statuses = [
        Status.FAIL,
        Status.PASS,
        Status.SKIP,
        Status.WAIVED,
        Status.ERROR,
        Status.NOT_APPLICABLE,
    ]
    return [
        Result.of(
            catalogue()[r],
            s,
            f"{s.value}: message with <xml> & | pipes",
            check="a_check",
            evidence=(EVIDENCE,) if s in (Status.FAIL, Status.ERROR) else (),
            duration_ms=12.5,
        )
        for r, s in zip(picks, statuses, strict=True)
    ]


@pytest.fixture
def written(tmp_path: Path) -> Path:
    header = RunHeader(
        "0.1.0",
        "https://host.test",
        ("woa", "sdsi", "aci"),
        "woa-rest",
        "2026-05-04T09:00:00Z",
        {"timeout": 10},
    )
    results = _results()
    handlers = writers_for(tmp_path)
    broadcast(RunStarted(header), handlers)
    for result in results:
        broadcast(ResultRecorded(result), handlers)
    summary = summarize(results, finished="2026-05-04T09:00:01Z", duration_ms=75.0)
    broadcast(RunFinished(gated(summary)), handlers)
    return tmp_path


def test_junit_xml_reads_back_with_a_junit_library(written: Path) -> None:
    xml = JUnitXml.fromfile(str(written / "junit.xml"))
    cases = {case.name: case for suite in xml for case in suite}
    assert len(cases) == 7  # a result each, and the run's outcome
    assert isinstance(cases["outcome"].result[0], Failure)  # the run exits 1
    assert isinstance(cases["WOA-5.2-AGENT-MISMATCH-400"].result[0], Failure)
    assert isinstance(cases["SDSI-4.3-OTHER-OPTIONAL"].result[0], Error)
    for skipped in (
        "WOA-7-CACHING-HEADERS",
        "WOA-8.1-HOST-USES-HTTPS",
        "ACI-5.2-ITEM-STATE-BINARY",
    ):
        assert isinstance(cases[skipped].result[0], Skipped)
    assert cases["WOA-4-VERSION-1"].is_passed
    assert cases["WOA-5.2-AGENT-MISMATCH-400"].classname == "woa.5.2.MUST"
    totals = {(s.name, s.tests, s.failures, s.errors, s.skipped) for s in xml}
    assert totals == {
        ("agent-conformance", 1, 1, 0, 0),
        ("woa", 4, 1, 0, 2),
        ("sdsi", 1, 0, 1, 0),
        ("aci", 1, 0, 0, 1),
    }


def test_report_json_matches_its_schema_and_reads_back(written: Path) -> None:
    document = json.loads((written / "report.json").read_text())
    schema = json.loads(
        resources.files("conformance.report").joinpath("report.schema.json").read_text()
    )
    Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(
        document
    )
    assert [Result.from_dict(r) for r in document["results"]] == _results()
    assert document["summary"]["level"] == "non-compliant"
    assert document["summary"]["by_status"] == {s.value: 1 for s in Status}


def test_events_jsonl_has_header_results_and_footer(written: Path) -> None:
    header, results, footer = read_events(written / "events.jsonl")
    assert (
        header["target"] == "https://host.test"
        and header["report_format"] == "1.3"
        and header["drafts"]["woa"] == "draft-gaikwad-woa-00"
    )
    assert len(results) == 6 and footer is not None and footer["level"] == "non-compliant"


def test_a_run_cut_short_leaves_events_without_a_footer(tmp_path: Path) -> None:
    handlers = writers_for(tmp_path, ("jsonl",))
    broadcast(
        RunStarted(RunHeader("0.1.0", "https://t", ("woa",), "woa-rest", "2026-05-04T09:00:00Z")),
        handlers,
    )
    broadcast(ResultRecorded(_results()[0]), handlers)
    _, results, footer = read_events(tmp_path / "events.jsonl")
    assert len(results) == 1 and footer is None


def test_markdown_summary_leads_with_the_verdict_and_lists_failures(written: Path) -> None:
    text = (written / "summary.md").read_text()
    assert text.startswith("## ❌ agent-conformance: **non-compliant**")
    assert (
        "`WOA-5.2-AGENT-MISMATCH-400` | MUST | WOA 5.2 | If the host derives an agent identifier"
        in text
    )
    assert "| fail | fail: message" in text
    # pipes in messages are escaped, tables stay whole
    assert "### Waived" in text and "\\|" in text


def _write(directory: Path, results: list[Result], **summary: object) -> None:
    header = RunHeader(
        "0.1.0",
        "https://host.test/`<img src=x onerror=alert(1)>`",
        ("woa",),
        "woa-rest",
        "2026-05-04T09:00:00Z",
    )
    handlers = writers_for(directory)
    broadcast(RunStarted(header), handlers)
    for result in results:
        broadcast(ResultRecorded(result), handlers)
    broadcast(RunFinished(gated(summarize(results, **summary))), handlers)  # type: ignore[arg-type]


HOSTILE_TEXT = (
    "agent \x00\x07\x1b[31m\ud800\ufffe <script>alert(1)</script> [x](javascript:alert(1)) | `tick`"
)


def test_what_a_target_sends_cannot_break_junit_or_render_in_markdown(tmp_path: Path) -> None:
    exchange = Exchange("GET", "https://host.test/", response_body=HOSTILE_TEXT)
    results = [
        Result.of(catalogue()["WOA-4-VERSION-1"], Status.FAIL, HOSTILE_TEXT, evidence=(exchange,))
    ]
    _write(tmp_path, results)
    import xml.etree.ElementTree as ET

    tree = ET.parse(tmp_path / "junit.xml")  # well-formed XML 1.0
    failure = tree.find(".//testcase[@name='WOA-4-VERSION-1']/failure")
    assert (
        failure is not None
        and "\\x07" in failure.get("message", "")
        and "\\ud800" in failure.get("message", "")
    )
    markdown = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "<script>" not in markdown and "&lt;script&gt;" in markdown
    assert "<img" not in markdown and "](javascript" not in markdown


def test_an_interrupted_run_is_marked_in_every_report(tmp_path: Path) -> None:
    _write(tmp_path, _results(), completion="interrupted")
    log = read_events(tmp_path / "events.jsonl")
    assert (
        not log.truncated and log.footer is not None and log.footer["completion"] == "interrupted"
    )
    assert log.state() == "incomplete: the run ended early (interrupted)"
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert (
        report["summary"]["completion"] == "interrupted"
        and report["summary"]["gate"]["exit_code"] == 1
    )
    assert "incomplete: interrupted" in (tmp_path / "summary.md").read_text(encoding="utf-8")
    suites = JUnitXml.fromfile(str(tmp_path / "junit.xml"))
    properties = {p.name: p.value for suite in suites for p in suite.properties()}  # type: ignore[no-untyped-call]
    assert properties["completion"] == "interrupted"


def test_a_truncated_log_says_so(tmp_path: Path) -> None:
    _write(tmp_path, _results())
    path = tmp_path / "events.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20], encoding="utf-8")  # died mid-line
    log = read_events(path)
    assert log.truncated and len(log.results) == 2
    assert log.state().startswith("truncated: no footer after 2 results")


def test_a_new_run_removes_an_earlier_runs_reports(tmp_path: Path) -> None:
    _write(tmp_path, _results())
    writers_for(tmp_path, ("jsonl",))
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_an_unwritable_report_folder_is_the_users_path(tmp_path: Path) -> None:
    from conformance.report.writers import ReportDirUnusable

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(ReportDirUnusable, match="cannot write reports to"):
        writers_for(blocker / "reports")


def test_every_result_carries_its_sentence_in_every_report(written: Path) -> None:
    quote = catalogue()["WOA-5.2-AGENT-MISMATCH-400"].quote
    report = json.loads((written / "report.json").read_text())
    result = next(r for r in report["results"] if r["requirement"] == "WOA-5.2-AGENT-MISMATCH-400")
    assert result["quote"] == quote and result["basis"] == "keyword" and result["section"] == "5.2"
    import xml.etree.ElementTree as ET

    case = ET.parse(written / "junit.xml").find(".//testcase[@name='WOA-5.2-AGENT-MISMATCH-400']")
    assert case is not None
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert (
        properties["quote"] == quote
        and properties["level"] == "MUST"
        and properties["section"] == "5.2"
    )
    assert quote[:60] in (written / "summary.md").read_text(encoding="utf-8")


def test_report_html_leads_with_the_failures_and_links_every_requirement(tmp_path: Path) -> None:
    """The failures come first, each a link to its row; a row's id is its requirement's ID (a
    permalink); the filters are hidden until the page's script shows them (without it they would
    do nothing)."""
    failing = Result.of(catalogue()["WOA-4-AGENTS-ARRAY"], Status.FAIL, "agents is an object")
    _write(tmp_path, [*_results(), failing])
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.index('id="failures"') < page.index('id="results"')
    assert (
        '<a href="#WOA-4-AGENTS-ARRAY">WOA-4-AGENTS-ARRAY</a>' in page
        and '<tr class="result" id="WOA-4-AGENTS-ARRAY"' in page
    )
    assert '<div class="filters" id="filters" hidden>' in page
