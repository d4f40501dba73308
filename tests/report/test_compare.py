"""`compare`: two implementations side by side, their differences marked, version skew warned
about."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from conformance.cli import app
from conformance.report.compare import load_matrix

runner = CliRunner()
SELECTED = ["--suite", "woa", "--section", "4"]


def report(tmp_path: Path, name: str, *arguments: str) -> Path:
    runner.invoke(
        app, ["run", "--mock", "--report-dir", str(tmp_path / name), *SELECTED, *arguments]
    )
    return tmp_path / name / "report.json"


def test_two_implementations_side_by_side(tmp_path: Path) -> None:
    healthy, faulty = report(tmp_path, "a"), report(tmp_path, "b", "--fault", "woa-4-version-1")
    result = runner.invoke(
        app, ["compare", str(healthy), str(faulty), "--output", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    matrix = load_matrix([healthy, faulty])
    assert [r for r, _, _ in matrix.rows if matrix.differs(r)] == ["WOA-4-VERSION-1"]
    assert matrix.warnings == []
    markdown = (tmp_path / "out" / "comparison.md").read_text()
    assert "| ≠ | `WOA-4-VERSION-1` | WOA 4 | MUST | ✅ pass | ❌ fail |" in markdown
    html = (tmp_path / "out" / "comparison.html").read_text()
    assert (
        '<tr class="differs"><td><code>WOA-4-VERSION-1</code>' in html
        and "draft-gaikwad-woa-00" in html
    )


def test_reports_of_different_suite_versions_are_compared_with_a_warning(tmp_path: Path) -> None:
    healthy = report(tmp_path, "a")
    older = json.loads(healthy.read_text())
    older["header"]["tool_version"] = "0.0.1"
    (tmp_path / "older.json").write_text(json.dumps(older))
    result = runner.invoke(
        app,
        ["compare", str(healthy), str(tmp_path / "older.json"), "--output", str(tmp_path / "out")],
    )
    assert result.exit_code == 0 and "different suite versions" in result.output
    # same target: told apart by file
    assert "(" in load_matrix([healthy, tmp_path / "older.json"]).columns[0].label


def test_a_file_that_is_not_a_report_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("[]")
    assert runner.invoke(app, ["compare", str(tmp_path / "x.json")]).exit_code == 2


def test_a_draft_one_report_did_not_run_is_not_run_never_a_difference(tmp_path: Path) -> None:
    """The issue's case: the same revisions, one report covering fewer drafts: no revision
    warning, the other draft's rows `not run` in its column and not counted as differing; each
    judged cell links to its report's row (report.html#ID), and the page offers the disagreements
    alone."""
    woa_only = report(tmp_path, "a")
    both = tmp_path / "b" / "report.json"
    runner.invoke(
        app,
        [
            "run",
            "--mock",
            "--report-dir",
            str(both.parent),
            "--suite",
            "all",
            "--section",
            "4",
            "--section",
            "4.1",
        ],
    )
    matrix = load_matrix([woa_only, both])
    assert matrix.warnings == []
    sdsi = [r for r, _, _ in matrix.rows if r.startswith("SDSI-")]
    assert sdsi and all(
        matrix.columns[0].status(r) == "not-run" and not matrix.differs(r) for r in sdsi
    )
    result = runner.invoke(
        app, ["compare", str(woa_only), str(both), "--output", str(tmp_path / "out")]
    )
    assert "0 differ" in result.output, result.output
    html = (tmp_path / "out" / "comparison.html").read_text()
    assert '<a href="../a/report.html#WOA-4-VERSION-1">pass</a>' in html and 'id="only"' in html
    assert (
        "| not run | " in (tmp_path / "out" / "comparison.md").read_text()
        and '<td class="not-run">not-run</td>' in html
    )
