"""What a user sees: progress per draft, a table per draft, one line per MUST or SHOULD failure;
--quiet; `requirements` never wraps an ID; help without type tags."""

from __future__ import annotations

import os
from pathlib import Path

from typer.testing import CliRunner

from conformance.cli import app
from conformance.requirements import catalogue
from tests.command import agent_conformance

runner = CliRunner()


def test_a_run_shows_each_draft_then_its_table_and_each_failure_on_one_line(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["run", "--mock", "--fault", "woa-4-version-1", "--report-dir", str(tmp_path)]
    )
    lines = result.output.splitlines()
    total = len(catalogue().for_draft("woa"))
    assert any(
        line.startswith("WOA: ")
        and line.endswith(f" of {total} requirements judged, 1 failing or erring")
        for line in lines
    )
    assert any(line.startswith("│ WOA") and "non-compliant" in line for line in lines)
    assert "FAIL  WOA-4-VERSION-1 (WOA 4, MUST): /woa_version: '1' was expected" in lines
    assert any(
        line.startswith("Reports: ") and "report.html" in line and "badge-woa.svg" in line
        for line in lines
    )


def test_quiet_shows_only_the_verdict(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["run", "--mock", "--suite", "woa", "--quiet", "--report-dir", str(tmp_path)]
    )
    assert result.exit_code == 0
    assert result.output.splitlines() == [f"Compliance: SHOULD-compliant. Reports: {tmp_path}"]


def test_the_live_display_on_a_terminal(tmp_path: Path) -> None:
    done = agent_conformance(
        *("run", "--mock", "--suite", "woa", "--report-dir", str(tmp_path)),
        env={**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120"},
    )
    assert done.returncode == 0, done.stderr
    assert (
        "Compliance: SHOULD-compliant" in done.stdout and "requirements judged" not in done.stdout
    )


def test_requirements_piped_is_a_header_and_one_line_per_requirement_never_wrapping_an_id() -> None:
    header, *lines = runner.invoke(app, ["requirements"]).output.splitlines()
    assert header.split("\t") == [
        "id",
        "level",
        "basis",
        "role",
        "testability",
        "checks",
        "schemas",
    ]
    assert len(lines) == len(catalogue())
    assert [line.split("\t")[0] for line in lines] == [r.id for r in catalogue()]
    assert {len(line.split("\t")) for line in lines} == {7}


def test_help_has_no_type_tags() -> None:
    for command in (["run"], ["proxy"], ["requirements"], ["compare"]):
        help_text = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "160"}).output
        assert (
            "<bool>" not in help_text and "<str>" not in help_text and "<float" not in help_text
        ), command
    assert (
        "woa|sdsi|aci|all" in runner.invoke(app, ["run", "--help"], env={"COLUMNS": "160"}).output
    )


def test_a_long_failure_is_cut_with_a_marker_and_the_level_never_is(tmp_path: Path) -> None:
    """Piped, a failure's message is cut to 160 characters, its start and its end (where a cause
    is said), with a marker saying how long it was; on a 60-column terminal the level stays whole
    ("non-compliant", not "non-…")."""
    from conformance.cli._terminal import RunDisplay
    from conformance.engine.gate import gated
    from conformance.report import Result
    from conformance.report import Status
    from conformance.report import summarize

    long = Result.of(catalogue()["WOA-4-VERSION-1"], Status.FAIL, "x" * 500 + " the cause")
    display = RunDisplay(quiet=False)
    display.failures.append(long)
    from conformance.cli._console import console

    with console.capture() as captured:
        display.finish(gated(summarize([long])), [], 1)
    assert "x the cause (cut; 510 characters in the reports)" in captured.get()
    done = agent_conformance(
        *("run", "--mock", "--fault", "woa-4-version-1", "--suite", "woa"),
        *("--report-dir", str(tmp_path)),
        env={**os.environ, "FORCE_COLOR": "1", "COLUMNS": "60"},
    )
    assert "non-compliant" in done.stdout and "non-…" not in done.stdout, done.stdout


def test_a_draft_that_ends_untested_says_why_on_the_terminal() -> None:
    """The exit says nothing was tested at MUST level; the line before it says why, as the report
    does (here: no SDSI server agent)."""
    from conformance.cli._console import console
    from conformance.cli._terminal import RunDisplay
    from conformance.engine.gate import gated
    from conformance.report import Result
    from conformance.report import ResultRecorded
    from conformance.report import Status
    from conformance.report import summarize

    why = "the target offers no SDSI server agent"
    results = [
        Result.of(r, Status.NOT_APPLICABLE, why)
        for r in catalogue().for_draft("sdsi")
        if r.level == "MUST"
    ]
    display = RunDisplay(quiet=False)
    with console.capture() as captured:
        for result in results:
            display.handle(ResultRecorded(result))
        display.finish(gated(summarize(results)), [], None)
    assert f"UNTESTED SDSI: {len(results)} MUST-level requirements not-applicable: {why}" in (
        captured.get().splitlines()
    )
