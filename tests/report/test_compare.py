"""`compare`: two implementations side by side, their differences marked, version skew warned about."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from conformance.cli import app
from conformance.report.compare import load_matrix

runner = CliRunner()
SELECTED = ["--suite", "woa", "--section", "4"]


def report(tmp_path: Path, name: str, *arguments: str) -> Path:
    runner.invoke(app, ["run", "--mock", "--report-dir", str(tmp_path / name), *SELECTED, *arguments])
    return tmp_path / name / "report.json"


def test_two_implementations_side_by_side(tmp_path: Path) -> None:
    healthy, faulty = report(tmp_path, "a"), report(tmp_path, "b", "--fault", "woa-4-version-1")
    result = runner.invoke(app, ["compare", str(healthy), str(faulty), "--output", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    matrix = load_matrix([healthy, faulty])
    assert [r for r, _, _ in matrix.rows if matrix.differs(r)] == ["WOA-4-VERSION-1"]
    assert matrix.warnings == []
    markdown = (tmp_path / "out" / "comparison.md").read_text()
    assert "| ≠ | `WOA-4-VERSION-1` | WOA 4 | MUST | ✅ pass | ❌ fail |" in markdown
    html = (tmp_path / "out" / "comparison.html").read_text()
    assert '<tr class="differs"><td><code>WOA-4-VERSION-1</code>' in html and "draft-gaikwad-woa-00" in html


def test_reports_of_different_suite_versions_are_compared_with_a_warning(tmp_path: Path) -> None:
    healthy = report(tmp_path, "a")
    older = json.loads(healthy.read_text())
    older["header"]["tool_version"] = "0.0.1"
    (tmp_path / "older.json").write_text(json.dumps(older))
    result = runner.invoke(app, ["compare", str(healthy), str(tmp_path / "older.json"), "--output", str(tmp_path / "out")])
    assert result.exit_code == 0 and "different suite versions" in result.output
    assert "(" in load_matrix([healthy, tmp_path / "older.json"]).columns[0].label  # same target: told apart by file


def test_a_file_that_is_not_a_report_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("[]")
    assert runner.invoke(app, ["compare", str(tmp_path / "x.json")]).exit_code == 2
