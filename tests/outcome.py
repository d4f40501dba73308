"""One story: what every surface of a finished run says, held against the outcome the gate decided
(report.json's summary.gate), for the tests that make each kind of outcome."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from conformance.report.outcome import colour_of
from conformance.report.writers.jsonl import read_events

__all__ = ["assert_one_story"]

#: The compliant levels: the only verdicts a badge may draw green.
_GREEN = {colour_of("SHOULD-compliant"), colour_of("MUST-compliant")}


def assert_one_story(reports: Path, code: int, stdout: str, stderr: str) -> dict[str, Any]:
    """Every surface of the run in `reports` tells the outcome its exit `code` says; the gate."""
    report: dict[str, Any] = json.loads((reports / "report.json").read_text(encoding="utf-8"))
    gate = report["summary"]["gate"]
    assert gate["exit_code"] == code, (gate, stderr)
    assert report["summary"]["headline"] == gate["headline"]
    assert "Traceback" not in stdout + stderr
    # the summary's level and each draft's: what the verdict says (a stale baseline fails the
    # gate, not the level; what the judged part earned is `judged_level`, `judged_levels`)
    summary = report["summary"]
    if gate["kind"] != "stale-baseline":
        told = {1: "non-compliant", 2: "untested", 4: "inconclusive"}
        assert summary["level"] == told.get(code, gate["headline"].split(",")[0].split(" (")[0])
    for draft, verdict in gate["drafts"].items():
        level = summary["levels"][draft]
        assert (
            verdict == "stale baseline"
            or verdict.startswith(level)
            or (verdict.startswith("incomplete") and level == "inconclusive")
            or (verdict.startswith("not certified") and level == "untested")
        ), (draft, verdict, level)
    # the terminal: the verdict, and the reason as its last line whenever the exit is not 0
    assert f"Compliance: {gate['headline']}" in stdout, stdout
    if code:
        assert stderr.strip().splitlines()[-1] == (
            f"agent-conformance: {gate['reason']} (exit {code})"
        )
    # events.jsonl's footer is the same summary
    footer = read_events(reports / "events.jsonl").footer
    assert footer is not None and footer["gate"] == gate
    # summary.md's heading: a tick only for exit 0, the headline, the exit code and why
    markdown = (reports / "summary.md").read_text(encoding="utf-8").splitlines()
    assert markdown[0].startswith("## ✅" if code == 0 else "## ") and (
        code == 0 or "✅" not in markdown[0]
    )
    assert _unescaped(markdown[0]).endswith(f"agent-conformance: **{gate['headline']}**") or (
        f"**{gate['headline']}** (" in _unescaped(markdown[0])
    ), markdown[0]
    assert _unescaped(markdown[2]) == f"Exit code {code}: {gate['reason']}"
    # report.html's heading
    page = (reports / "report.html").read_text(encoding="utf-8")
    assert f"<h1>agent-conformance: {_html(gate['headline'])}</h1>" in page
    # junit.xml: the outcome is a testcase that passes exactly when the run exits 0, and a CI view
    # that counts failures and errors alone sees any other exit
    junit = ET.parse(reports / "junit.xml").getroot()
    outcome = junit.find("./testsuite[@name='agent-conformance']/testcase[@name='outcome']")
    assert outcome is not None
    said = [child.tag for child in outcome if child.tag in ("failure", "error")]
    assert said == ([] if code == 0 else ["failure"] if code == 1 else ["error"])
    if code:
        assert int(junit.get("failures", 0)) + int(junit.get("errors", 0)) > 0
    for suite in junit.findall("./testsuite"):
        if suite.get("name") in gate["drafts"]:
            compliance = suite.find("./properties/property[@name='compliance']")
            assert compliance is not None
            assert compliance.get("value") == gate["drafts"][suite.get("name")]
    # each badge: the draft's verdict, green only for a compliant level
    for draft, verdict in gate["drafts"].items():
        badge = (reports / f"badge-{draft}.svg").read_text(encoding="utf-8")
        assert f': {_html(verdict)}"' in badge, (draft, verdict)
        green = any(colour in badge for colour in _GREEN)
        compliant = verdict.split(",")[0] in ("SHOULD-compliant", "MUST-compliant")
        assert green == compliant, (draft, verdict)
    return report


def _unescaped(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown).replace("&gt;", ">").replace("&lt;", "<")


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
