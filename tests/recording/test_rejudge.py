"""A recorded run re-judges, contacting nothing, to the same verdicts (but what needs a live counterpart, which
is a skip "not in the recording"); a changed check shows up as a changed verdict; the format is as documented."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.checks import CHECKS, Verdict, failed
from conformance.cli import app
from conformance.recording import FORMAT, Replay
from conformance.report import Result, Status
from conformance.runner import RunOptions, run
from tests.checks.mutants import Collect

runner = CliRunner()
LIVE_ONLY = {"WOA-5.3-MCP-TOOL-INVOCATION"}  # the MCP SDK's client is not recorded


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("recorded")
    result = runner.invoke(app, ["run", "--mock", "--suite", "woa", "--quiet", "--record", str(folder / "rec"),
                                 "--report-dir", str(folder / "reports")])
    assert result.exit_code == 0, result.output
    return folder / "rec"


def rejudged(recording: Path) -> list[Result]:
    replay = Replay.load(recording)
    collect = Collect()
    options = RunOptions(target=replay.meta["target"], suites=("woa",), seed=replay.meta["seed"], replay=replay, timeout=10)
    asyncio.run(run(options, [collect]))
    return collect.results


def test_the_recording_is_in_its_documented_format(recording: Path) -> None:
    meta = json.loads((recording / "meta.json").read_text())
    assert meta["format"] == FORMAT and meta["drafts"] == {"woa": "draft-gaikwad-woa-00"} and len(meta["catalogue_sha256"]) == 64
    lines = [json.loads(line) for line in (recording / "exchanges.jsonl").read_text().splitlines()]
    assert lines and all((recording / "bodies" / line["request_body"]).exists() for line in lines)
    assert all((recording / "bodies" / line["response_body"]).exists() for line in lines if "response_body" in line)
    assert lines[0]["url"].endswith("/.well-known/woa.json")


def test_a_recording_rejudges_to_the_same_verdicts_contacting_nothing(recording: Path) -> None:
    before = {json.loads(line)["requirement"]: json.loads(line) for line in (recording / "results.jsonl").read_text().splitlines()}
    after = {r.requirement: r for r in rejudged(recording)}
    assert {r for r in after if (after[r].status.value, after[r].message) != (before[r]["status"], before[r]["message"])} == LIVE_ONLY
    assert after["WOA-5.3-MCP-TOOL-INVOCATION"].status is Status.SKIP
    assert after["WOA-5.3-MCP-TOOL-INVOCATION"].message.startswith("not in the recording")


def test_a_changed_check_shows_up_as_a_changed_verdict(recording: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    async def stricter(_: object) -> Verdict:
        return failed("a stricter reading in a newer suite")

    check = next(c for c in CHECKS.values() if c.requirement == "WOA-4-VERSION-1")
    monkeypatch.setitem(CHECKS, check.name, type(check)(check.name, check.requirement, stricter))
    result = runner.invoke(app, ["rejudge", str(recording), "--report-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "WOA-4-VERSION-1: pass -> fail: a stricter reading in a newer suite" in result.output
    assert "1 verdicts changed since the recording: (1 not judged: not in the recording)" in result.output
