"""Claims against behaviour: what the document claims of each agent, next to what the run
verified."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app

runner = CliRunner()


def claims(tmp_path: Path, *arguments: str) -> dict[tuple[str, str, str], dict[str, str]]:
    runner.invoke(
        app,
        ["run", "--mock", "--suite", "woa", "--quiet", "--report-dir", str(tmp_path), *arguments],
    )
    report = json.loads((tmp_path / "report.json").read_text())
    return {(c["agent"], c["kind"], c["name"]): c for c in report["summary"]["claims"]}


def test_the_reference_host_keeps_every_claim_it_makes(tmp_path: Path) -> None:
    found = claims(tmp_path)
    assert found[("summarizer", "transport", "rest")]["verified"] == "pass"
    assert found[("summarizer", "transport", "mcp")]["verified"] == "pass"
    assert found[("summarizer", "operation", "default")]["verified"] == "pass"
    assert (
        found[("summarizer", "capability", "https://example.com/capability/summarization")][
            "verified"
        ]
        == "not verifiable"
    )
    assert "fail" not in {c["verified"] for c in found.values()}
    assert "What the document claims" in (tmp_path / "summary.md").read_text()
    assert "What the document claims" in (tmp_path / "report.html").read_text()


@pytest.mark.parametrize(
    ("fault", "claim"),
    [
        ("woa-5.2-success-conforms-outputs", ("summarizer", "transport", "rest")),
        ("woa-5.2-success-conforms-outputs", ("summarizer", "operation", "default")),
        ("woa-5.3-mcp-tool-invocation", ("summarizer", "transport", "mcp")),
    ],
)
def test_a_claim_the_host_breaks_is_a_failed_claim(
    tmp_path: Path, fault: str, claim: tuple[str, str, str]
) -> None:
    assert claims(tmp_path, "--fault", fault)[claim]["verified"] == "fail"


def test_a_claim_agrees_with_the_verdicts_on_the_agents_answers(tmp_path: Path) -> None:
    """The issue's case: the valid invocations are answered right, but the agent answers a
    mismatched envelope 200 (WOA-5.2-AGENT-MISMATCH-400 fails on its answers): its rest claim is
    no pass."""
    found = claims(tmp_path, "--fault", "woa-5.2-agent-mismatch-400")
    failed = [c for c in found.values() if c["verified"] == "fail"]
    assert failed and all("WOA-5.2-AGENT-MISMATCH-400" in c["detail"] for c in failed), found


def test_an_agent_answering_an_invocation_without_operation_was_exercised() -> None:
    """An envelope without `operation` to an agent with a default operation is a valid invocation
    (WoA 5.1; the probe kind "implied"): answered, it exercises the agent, as the invocation
    session counts it. A watched client that omits `operation` had left a host "not certified:
    0 agents exercised" while WOA-5.1-DEFAULT-OPERATION passed on that very exchange."""
    from types import SimpleNamespace

    from conformance.checks.woa.invocation_session import JUDGED_BY
    from conformance.checks.woa.invocation_session import Plan
    from conformance.checks.woa.invocation_session import Probe
    from conformance.engine.claims import coverage_of

    answered = SimpleNamespace(status=200, headers={})
    probe = Probe("implied", "echo", None, "as the client sent it", "https://h/agents/echo/invoke")
    plan = Plan(probes=[replace(probe, response=answered)])  # type: ignore[arg-type]
    document = {"agents": [{"id": "echo", "transports": ["rest"]}]}
    (coverage,) = coverage_of(document, plan, [], JUDGED_BY)
    assert coverage.exercised, coverage
