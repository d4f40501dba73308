"""Repeated runs for nondeterministic agents: violation rates with an exact upper bound, flaky
requirements first, the gate unchanged, every report format carrying it; the flaky reference
(--fault-rate) that proves it."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.usecases.repeat import pass_k
from conformance.usecases.repeat import upper_bound

runner = CliRunner()
MISMATCH = "WOA-5.2-AGENT-MISMATCH-400"


def _run(tmp_path: Path, *arguments: str) -> tuple[int, str, dict[str, Any]]:
    result = runner.invoke(
        app, ["run", "--mock", "--suite", "woa", "--report-dir", str(tmp_path), *arguments]
    )
    report = (
        json.loads((tmp_path / "report.json").read_text())
        if (tmp_path / "report.json").exists()
        else {}
    )
    return result.exit_code, result.output, report


def _result(report: dict[str, Any], requirement: str) -> dict[str, Any]:
    return next(r for r in report["results"] if r["requirement"] == requirement)


@pytest.mark.parametrize(
    ("failures", "runs", "bound"),
    [(0, 20, 0.1391), (4, 20, 0.4010), (0, 1, 0.95), (20, 20, 1.0), (1, 100, 0.0466)],
)
def test_the_bound_is_the_exact_one_sided_clopper_pearson(
    failures: int, runs: int, bound: float
) -> None:
    assert upper_bound(failures, runs) == pytest.approx(bound, abs=5e-4)


def test_pass_k_is_the_chance_that_k_runs_drawn_all_pass() -> None:
    """The unbiased estimate of p^k from c passes in n runs, C(c, k) / C(n, k): 3 of 4 runs
    passed, so two runs drawn both pass half the time, and four never all did."""
    assert pass_k(3, 4) == [0.75, 0.5, 0.25, 0.0]
    assert pass_k(5, 5) == [1.0] * 5 and pass_k(0, 3) == [0.0] * 3


def test_a_flaky_mismatch_is_caught_with_its_rate_where_single_runs_sometimes_pass(
    tmp_path: Path,
) -> None:
    """At a rate of 0.5 a run breaks the rule about half the time (it sends the summarizer one
    mismatched envelope): in 20 runs, some pass and some fail but for a chance of about 1e-5. At
    0.2 (a run breaks it 15% of the time) the chance that none of 20 did was 4%, and this test
    failed about that often."""
    code, output, report = _run(
        tmp_path, "--fault", "woa-5.2-agent-mismatch-400", "--fault-rate", "0.5", "--repeat", "20"
    )
    assert code == 1, output  # a MUST broken in any run fails the gate
    repeat = _result(report, MISMATCH)["repeat"]
    # single runs passed
    assert (
        repeat["runs"] == 20 and repeat["passes"] > 0 and repeat["failures"] > 0 and repeat["flaky"]
    )
    assert 0.05 <= repeat["rate"] <= 0.95 and repeat["upper_bound"] > repeat["rate"]
    assert repeat["method"] == "Clopper-Pearson, one-sided" and repeat["confidence"] == 0.95
    assert "flaky" in _result(report, MISMATCH)["message"] and "requirement(s) flaky" in output
    assert (
        len(report["header"]["options"]["repeat"]["seeds"])
        == 20
        == len(set(report["header"]["options"]["repeat"]["seeds"]))
    )
    assert "**flaky**" in (tmp_path / "summary.md").read_text()
    case = next(
        c for c in ET.parse(tmp_path / "junit.xml").iter("testcase") if c.get("name") == MISMATCH
    )
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert properties["repeat.flaky"] == "True" and properties["repeat.runs"] == "20"
    # pass^k for every k the runs support, beside the rate and the bound, in every format
    judged = repeat["passes"] + repeat["failures"]
    assert repeat["pass_k"] == pytest.approx(pass_k(repeat["passes"], judged), abs=1e-4)
    assert repeat["pass_k"][0] == pytest.approx(1 - repeat["rate"], abs=1e-4)
    assert len(repeat["pass_k"]) == judged and "repeat.pass_k" in properties
    assert "pass^1 " in (tmp_path / "summary.md").read_text()
    assert "pass^1 " in (tmp_path / "report.html").read_text()


def test_a_clean_repeated_run_states_its_bound_for_every_must(tmp_path: Path) -> None:
    code, output, report = _run(tmp_path, "--repeat", "5")
    assert code == 0, output
    judged = [
        r
        for r in report["results"]
        if r["level"] == "MUST" and r.get("repeat", {}).get("rate") is not None
    ]
    assert judged and all(
        r["repeat"]["failures"] == 0
        and r["repeat"]["upper_bound"] == pytest.approx(0.4507, abs=1e-3)
        for r in judged
    )
    assert (
        "0 of 5 runs broke it, violation rate <= 45.1% at 95%"
        in _result(report, MISMATCH)["message"]
    )
    assert report["summary"]["runs"] == 5 and "note" not in report["summary"]
    assert "Over 5 runs" in (tmp_path / "report.html").read_text()


def test_runs_go_on_until_every_must_is_bounded_by_the_rate_asked(tmp_path: Path) -> None:
    code, output, report = _run(tmp_path, "--max-violation-rate", "0.5", "--repeat", "30")
    repeat = report["header"]["options"]["repeat"]
    # 1 - 0.05**(1/5) <= 0.5
    assert code == 0 and repeat["runs"] == 5 and repeat["asked"] == 30 and repeat["stopped"], output
    assert "Stopped after 5 of 30 runs" in output


def test_one_run_says_it_bounds_nothing(tmp_path: Path) -> None:
    _, _, report = _run(tmp_path, "--requirement", MISMATCH)
    assert report["summary"]["runs"] == 1 and "bounds nothing" in report["summary"]["note"]
    assert "bounds nothing for a nondeterministic target" in (tmp_path / "summary.md").read_text()


def test_a_fault_made_once_cannot_be_applied_at_a_rate(tmp_path: Path) -> None:
    code, output, _ = _run(tmp_path, "--fault", "woa-4-version-1", "--fault-rate", "0.5")
    assert code == 2 and "cannot be applied at a rate" in output
