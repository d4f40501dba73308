"""The expected-failures baseline: listed failures are absorbed, unlisted ones fail, listed
passes are stale; and `baseline REPORT.json` writes one. Runs are cut down to two requirements
with --requirement."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from conformance.cli import app

runner = CliRunner()
SELECTED = [
    "--suite",
    "woa",
    "--requirement",
    "WOA-4-VERSION-1",
    "--requirement",
    "WOA-4-AGENTS-ARRAY",
]


def certify(
    tmp_path: Path, *arguments: str, baseline: dict[str, str] | None = None
) -> tuple[int, dict[str, dict[str, str]]]:
    """A run of the two requirements, with `baseline` as its expected failures if given."""
    if baseline is not None:
        arguments += ("--baseline", baseline_file(tmp_path, **baseline))
    result = runner.invoke(
        app, ["run", "--mock", "--report-dir", str(tmp_path / "reports"), *SELECTED, *arguments]
    )
    report = json.loads((tmp_path / "reports" / "report.json").read_text())
    return result.exit_code, {r["requirement"]: r for r in report["results"]}


def baseline_file(tmp_path: Path, **expected: str) -> str:
    path = tmp_path / "baseline.json"
    path.write_text(
        json.dumps({"format": "agent-conformance-baseline/1", "expected_failures": expected})
    )
    return str(path)


def test_a_listed_failure_is_absorbed_with_its_reason(tmp_path: Path) -> None:
    code, results = certify(
        tmp_path,
        *("--fault", "woa-4-version-1"),
        baseline={"WOA-4-VERSION-1": "migrating to version 1 in Q3"},
    )
    assert code == 0
    assert results["WOA-4-VERSION-1"]["status"] == "waived"
    assert (
        "absorbed by the baseline (migrating to version 1 in Q3)"
        in results["WOA-4-VERSION-1"]["message"]
    )


def test_an_unlisted_failure_fails_the_gate(tmp_path: Path) -> None:
    code, results = certify(
        tmp_path, *("--fault", "woa-4-version-1"), baseline={"WOA-4-AGENTS-ARRAY": "known"}
    )
    assert code == 1
    assert results["WOA-4-VERSION-1"]["status"] == "fail"


def test_a_listed_requirement_that_passes_is_a_stale_failure_on_every_surface(
    tmp_path: Path,
) -> None:
    """The README's words: a listed requirement that now passes is a `fail` ("stale baseline
    entry"), and every surface says "stale baseline", none a compliant level."""
    code, results = certify(tmp_path, baseline={"WOA-4-VERSION-1": "was failing"})
    assert code == 1
    assert results["WOA-4-VERSION-1"]["status"] == "fail"
    assert results["WOA-4-VERSION-1"]["message"].startswith("stale baseline entry")
    reports = tmp_path / "reports"
    report = json.loads((reports / "report.json").read_text())
    assert report["summary"]["stale_baseline"] == ["WOA-4-VERSION-1"]
    gate = report["summary"]["gate"]
    assert gate["kind"] == "stale-baseline" and gate["headline"].startswith("stale baseline")
    assert "the baseline lists 1 requirement(s) that now pass (WOA-4-VERSION-1)" in gate["reason"]
    assert "WoA-00: stale baseline" in (reports / "badge-woa.svg").read_text()
    assert (reports / "summary.md").read_text().startswith("## ❌ agent-conformance: **stale")
    junit = (reports / "junit.xml").read_text()
    assert 'name="WOA-4-VERSION-1"' in junit and "stale baseline entry" in junit


def test_the_baseline_command_lists_a_reports_failures(tmp_path: Path) -> None:
    certify(tmp_path, "--fault", "woa-4-version-1")
    written = runner.invoke(app, ["baseline", str(tmp_path / "reports" / "report.json")])
    baseline = json.loads(written.output)
    assert baseline["format"] == "agent-conformance-baseline/1"
    assert list(baseline["expected_failures"]) == ["WOA-4-VERSION-1"]
    (tmp_path / "written.json").write_text(written.output)
    code, _ = certify(
        tmp_path, "--fault", "woa-4-version-1", "--baseline", str(tmp_path / "written.json")
    )
    assert code == 0


def test_a_baseline_naming_unknown_requirements_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["run", "--mock", "--baseline", baseline_file(tmp_path, **{"WOA-99-NOPE": "x"})]
    )
    assert result.exit_code == 2


def test_a_stale_entry_for_a_may_is_no_failure(tmp_path: Path) -> None:
    from conformance.report import Result
    from conformance.report import Status
    from conformance.requirements import catalogue
    from conformance.targeting.baseline import Baseline

    may = next(r for r in catalogue() if r.level == "MAY")
    path = tmp_path / "b.json"
    path.write_text(
        json.dumps({"format": "agent-conformance-baseline/1", "expected_failures": {may.id: "x"}})
    )
    baseline = Baseline.load(path)
    applied = baseline.apply(Result.of(may, Status.PASS, "fine"))
    assert applied.status is Status.PASS  # a MAY never fails
    assert baseline.stale([applied]) == ()
