"""Selection: what a run leaves out is a skip that says which option left it out, never a pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.requirements import catalogue
from conformance.targeting.selection import Selection
from conformance.targeting.selection import UnknownSelection

runner = CliRunner()


def test_level_section_requirement_and_exclude_leave_the_rest_as_skips(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "run",
            "--mock",
            "--suite",
            "woa",
            "--level",
            "must",
            "--section",
            "4.1",
            "--exclude",
            "WOA-4.1-AGENT-ID-ABNF",
            "--report-dir",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0
    results = {
        r["requirement"]: r for r in json.loads((tmp_path / "report.json").read_text())["results"]
    }
    assert len(results) == len(catalogue().for_draft("woa"))
    judged = {i for i, r in results.items() if not r["message"].startswith("not selected")}
    assert judged == {
        r.id
        for r in catalogue().for_draft("woa")
        if r.section == "4.1" and r.level == "MUST" and r.id != "WOA-4.1-AGENT-ID-ABNF"
    }
    assert results["WOA-4.1-AGENT-ID-ABNF"] == results["WOA-4.1-AGENT-ID-ABNF"] | {
        "status": "skip",
        "message": "not selected: --exclude",
    }
    assert results["WOA-5.2-SUCCESS-2XX"]["status"] == "skip"


def test_a_section_selects_its_subsections() -> None:
    selection = Selection(sections=("4.3",))
    assert selection.left_out(catalogue()["WOA-4.3.1-REST-BASE-HTTPS"]) is None
    assert selection.left_out(catalogue()["WOA-4-VERSION-1"]) == "not selected: --section 4.3"


@pytest.mark.parametrize(
    "arguments", [["--requirement", "WOA-NOPE"], ["--level", "sometimes"], ["--section", "42.7"]]
)
def test_selecting_what_does_not_exist_is_a_usage_error(arguments: list[str]) -> None:
    assert runner.invoke(app, ["run", "--mock", *arguments]).exit_code == 2
    with pytest.raises(UnknownSelection):
        Selection(requirements=("WOA-NOPE",))
