"""An integration test per command, as a user types it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from conformance import __version__
from conformance.cli import app
from conformance.requirements import catalogue
from tests.command import REPORT_FILES

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def test_version() -> None:
    result = runner.invoke(app, ["version"])
    assert result.exit_code == 0 and result.output.strip() == f"agent-conformance {__version__}"


def test_requirements_json_lists_every_requirement_with_all_fields() -> None:
    result = runner.invoke(app, ["requirements", "--format", "json"])
    rows = json.loads(result.output)
    assert result.exit_code == 0 and len(rows) == len(catalogue())
    fields = {
        "id",
        "draft",
        "section",
        "level",
        "keyword",
        "basis",
        "strict_level",
        "role",
        "quote",
        "also",
        "condition",
        "testability",
        "testability_note",
        "url",
        "checks",
        "schemas",
    }
    assert all(set(row) == fields for row in rows)
    by_id = {row["id"]: row for row in rows}
    assert by_id["WOA-4.1-AGENT-ID-ABNF"]["schemas"] == ["woa/agent"]


def test_requirements_table_for_one_draft() -> None:
    result = runner.invoke(app, ["requirements", "--draft", "aci"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "ACI-5.2-ITEM-STATE-BINARY" in result.output and "WOA-" not in result.output


def test_vectors_validate_counts_the_cases() -> None:
    result = runner.invoke(app, ["vectors", "validate"])
    assert result.exit_code == 0
    assert "cases in 19 files" in result.output and "all as expected" in result.output


def test_errata_as_markdown_and_json() -> None:
    markdown = runner.invoke(app, ["errata", "--draft", "aci"])
    assert markdown.output.startswith("# Review of draft-chang-agent-context-interaction-02")
    assert re.search(
        r"^### \d+\. E-ACI-5.2-ITEMSTATE-SPELLING\b.*\(editorial slip", markdown.output, re.M
    )
    assert "**Original text** (Section 5.2):" in markdown.output
    entries = json.loads(runner.invoke(app, ["errata", "--format", "json"]).output)
    assert {e["kind"] for e in entries} >= {"slip", "gap", "ambiguity", "figure-repair"}


def test_an_unreachable_target_exits_2_within_5_seconds_with_one_line(tmp_path: Path) -> None:
    """...and writes no report: a report folder the run made is gone with it (one the user made
    is left, with what it held but the earlier run's reports, which are no verdict of this run)."""
    made, kept = tmp_path / "made", tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("the user's")
    (kept / "report.json").write_text("{}")
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from conformance.cli import main; main()",
            "run",
            "--target",
            "https://127.0.0.1:9",
            "--report-dir",
            str(made),
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert time.monotonic() - started < 5
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    assert done.stderr.startswith("agent-conformance: target unreachable:")
    assert not made.exists()
    again = runner.invoke(
        app, ["run", "--target", "https://127.0.0.1:9", "--report-dir", str(kept)]
    )
    assert again.exit_code == 2
    assert [p.name for p in kept.iterdir()] == ["notes.txt"]


def test_usage_errors_exit_2() -> None:
    for arguments in (
        ["run"],
        ["run", "--target", "ftp://x"],
        ["run", "--target", "https://x", "--mock"],
        ["run", "--target", "https://x", "--format", "pdf"],
    ):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 2, arguments


def test_run_the_reference_mock_writes_every_report(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", "--mock", "--report-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert {p.name for p in tmp_path.iterdir()} == REPORT_FILES
    report = json.loads((tmp_path / "report.json").read_text())
    assert len(report["results"]) == len(catalogue())
    assert "pass" not in {r["status"] for r in report["results"] if not r["check"]}


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    command = next(
        line.strip()
        for line in readme.splitlines()
        if "pytest" in line and line.strip().startswith("python3")
    )
    assert command in (ROOT / ".ci" / "run").read_text()


def test_each_command_is_imported_only_when_it_runs() -> None:
    """`version` and `--help` import no command's module (issue 25: the start as quick as
    typer's); the one line the command list shows is the first sentence of the command's own
    help."""
    import importlib

    import typer

    from conformance.cli import COMMANDS
    from conformance.cli import short_help

    probe = (
        "import sys, runpy; sys.argv = ['agent-conformance', '{}']\ntry:\n   "
        " runpy.run_module('conformance.cli', run_name='__main__')\nexcept SystemExit:\n   "
        " pass\nimport json; print(json.dumps(sorted(m for m in sys.modules if"
        " m.startswith('conformance.'))))"
    )
    for argument in ("version", "--help"):
        done = subprocess.run(
            [sys.executable, "-c", probe.format(argument)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0 and done.stdout.strip(), done.stdout + done.stderr
        imported = json.loads(done.stdout.strip().splitlines()[-1])
        assert not [
            m
            for m in imported
            if m.split(".")[1] in {"engine", "usecases", "checks", "report", "instances", "oracle"}
        ], imported
    for name, (target, line) in COMMANDS.items():
        module, attribute = target.split(":")
        found = getattr(importlib.import_module(f"conformance.cli.{module}"), attribute)
        assert line == (found.info.help if isinstance(found, typer.Typer) else short_help(found)), (
            name
        )
