"""A recorded run of the reference agents (all three drafts, every role: WoA host and client,
SDSI server and client, ACI master and invoked agents) re-judges, contacting nothing, to the same
report apart from times; a changed check shows up as a changed verdict; the format is as
documented."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from typer.testing import CliRunner

import mocks.serve as serving
from conformance.checks import CHECKS
from conformance.checks import Verdict
from conformance.checks import failed
from conformance.cli import app
from conformance.recording import FORMAT
from conformance.recording import Replay
from tests.command import EVERY_ROLE

runner = CliRunner()
_TIMES = {"elapsed_ms", "duration_ms", "started", "finished", "replayed_from"}
CLIENT = (
    f"{sys.executable} -m mocks.woa_client {{document}} {{agent}} {{operation}} {{input}}"
    " {cacert}"
)


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("recorded")
    result = runner.invoke(
        app,
        [
            *("run", "--mock", "--suite", "all", *EVERY_ROLE, "--quiet", "--seed", "7"),
            *("--record", str(folder / "rec"), "--report-dir", str(folder / "reports")),
        ],
    )
    assert result.exit_code == 0, result.output
    return folder / "rec"


def without_times(value: Any) -> Any:
    """A report with what differs from run to run taken out: times, and where a replay came from."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if k not in _TIMES}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def rejudged_report(recording: Path, folder: Path) -> tuple[dict[str, Any], str]:
    """The report `rejudge` writes, with no server of the suite's started and nothing reachable."""
    result = runner.invoke(app, ["rejudge", str(recording), "--report-dir", str(folder)])
    assert result.exit_code == 0, result.output
    return json.loads((folder / "report.json").read_text()), result.output


def test_the_recording_is_in_its_documented_format(recording: Path) -> None:
    meta = json.loads((recording / "meta.json").read_text())
    assert (
        meta["format"] == FORMAT
        and meta["drafts"]["woa"] == "draft-gaikwad-woa-00"
        and meta["seed"] == 7
        and len(meta["catalogue_sha256"]) == 64
    )
    lines = [json.loads(line) for line in (recording / "exchanges.jsonl").read_text().splitlines()]
    assert lines and all((recording / "bodies" / line["request_body"]).exists() for line in lines)
    assert all(
        (recording / "bodies" / line["response_body"]).exists()
        for line in lines
        if "response_body" in line
    )
    assert lines[0]["url"].endswith("/.well-known/woa.json")


def test_a_recording_of_every_draft_and_role_rejudges_to_the_same_report_contacting_nothing(
    recording: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_server(*_: object, **__: object) -> None:
        raise AssertionError("a replay started a server")

    monkeypatch.setattr(serving, "serve", no_server)
    monkeypatch.setattr(httpx.AsyncHTTPTransport, "handle_async_request", no_server)
    monkeypatch.setattr(httpx2.AsyncHTTPTransport, "handle_async_request", no_server)
    report, output = rejudged_report(recording, tmp_path)
    original = json.loads((recording.parent / "reports" / "report.json").read_text())
    assert "0 verdicts changed since the recording." in output and "not judged" not in output
    assert without_times(report) == without_times(original)
    judged = {(r["draft"], r["status"]) for r in report["results"]}
    assert {("woa", "pass"), ("sdsi", "pass"), ("aci", "pass")} <= judged
    inbound = [json.loads(line) for line in (recording / "inbound.jsonl").read_text().splitlines()]
    assert {line["hosted"] for line in inbound if "hosted" in line} == {
        "sdsi-spy",
        "aci-spies",
        "context-store",
    }


def test_a_recorded_client_certification_rejudges_to_the_same_report(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "run",
            "--client-command",
            CLIENT,
            "--quiet",
            "--record",
            str(tmp_path / "rec"),
            "--report-dir",
            str(tmp_path / "live"),
        ],
    )
    assert result.exit_code == 0, result.output
    report, output = rejudged_report(tmp_path / "rec", tmp_path / "again")
    assert "0 verdicts changed since the recording." in output
    assert without_times(report) == without_times(
        json.loads((tmp_path / "live" / "report.json").read_text())
    )
    assert sum(r["status"] == "pass" for r in report["results"]) >= 15
    # attested, the client's recording verifies: what the client did is read back, not driven again
    key = tmp_path / "key"
    assert runner.invoke(app, ["keygen", "--out", str(key)]).exit_code == 0
    live, recording = str(tmp_path / "live"), str(tmp_path / "rec")
    assert (
        runner.invoke(app, ["attest", live, "--key", str(key), "--recording", recording]).exit_code
        == 0
    )
    verified = runner.invoke(
        app, ["verify", f"{live}/attestation.json", "--key", f"{key}.pub", "--recording", recording]
    )
    assert verified.exit_code == 0, verified.output


def test_a_changed_check_shows_up_as_a_changed_verdict(
    recording: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    async def stricter(_: object) -> Verdict:
        return failed("a stricter reading in a newer suite")

    check = next(c for c in CHECKS.values() if c.requirement == "WOA-4-VERSION-1")
    monkeypatch.setitem(CHECKS, check.name, type(check)(check.name, check.requirement, stricter))
    result = runner.invoke(app, ["rejudge", str(recording), "--report-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "WOA-4-VERSION-1: pass -> fail: a stricter reading in a newer suite" in result.output
    assert "1 verdicts changed since the recording:" in result.output


def test_a_recorded_body_over_the_cap_replays_as_the_failure_it_would_have_been(
    recording: Path,
) -> None:
    from conformance.bindings.http import ExchangeFailed
    from conformance.bindings.http import HttpClient

    first = json.loads((recording / "exchanges.jsonl").read_text().splitlines()[0])
    replay = Replay.load(recording)

    async def fetch() -> None:
        async with HttpClient(max_body=10, replay=replay) as client:
            await client.request("GET", first["url"])

    with pytest.raises(ExchangeFailed, match="exceeds the 10-byte cap"):
        asyncio.run(fetch())


def test_a_run_recorded_with_its_own_options_rejudges_as_that_run(tmp_path: Path) -> None:
    """--max-probes, a selection and a baseline come back from the recording: the re-judged run
    sends the probes the recorded one sent, judges what it judged, and says every verdict that no
    longer holds (none here)."""
    baseline = tmp_path / "baseline.json"
    baseline.write_text(
        json.dumps(
            {
                "format": "agent-conformance-baseline/1",
                "expected_failures": {"WOA-7-CACHING-HEADERS": "the CDN strips it"},
            }
        )
    )
    recorded = runner.invoke(
        app,
        [
            *("run", "--mock", "--suite", "woa", "--quiet", "--max-probes", "5"),
            *("--level", "must", "--level", "should", "--exclude", "WOA-4-VERSION-1"),
            *("--fault", "woa-7-caching-headers", "--baseline", str(baseline)),
            *("--record", str(tmp_path / "rec"), "--report-dir", str(tmp_path / "reports")),
        ],
    )
    assert recorded.exit_code == 0, recorded.output
    report, output = rejudged_report(tmp_path / "rec", tmp_path / "again")
    assert "0 verdicts changed since the recording." in output, output
    original = json.loads((tmp_path / "reports" / "report.json").read_text())
    assert without_times(report) == without_times(original)
    options = report["header"]["options"]
    assert options["max_probes"] == 5 and options["baseline"]["expected_failures"]
    assert options["selection"]["excluded"] == ["WOA-4-VERSION-1"]


def test_a_verdict_the_replay_cannot_reach_is_a_change_never_silence() -> None:
    from conformance.report import Result
    from conformance.report import Skip
    from conformance.report import Status
    from conformance.requirements import catalogue
    from conformance.usecases.rejudge import NOT_JUDGED
    from conformance.usecases.rejudge import changed_verdicts

    requirement = catalogue()["WOA-4-VERSION-1"]
    lost = Result.of(requirement, Status.SKIP, "not in the recording", skip=Skip.NOT_RECORDED)
    assert changed_verdicts({"WOA-4-VERSION-1": ["pass"]}, [lost]) == [
        ("WOA-4-VERSION-1", ["pass"], [NOT_JUDGED], "not in the recording")
    ]
    assert changed_verdicts({"WOA-4-VERSION-1": ["skip"]}, [lost]) == []
