"""The exit contract under signals, at every moment a user's Ctrl-C or a CI runner's cancel can
come: during start-up, while the document is fetched, while checks run, between repeated runs, while
fuzzing and while the proxy serves. Exit 4 with every report marked interrupted wherever anything
was judged, exit 130 with one line where nothing was; never 1, never a traceback."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path

import pytest
from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from mocks.host import create_app
from mocks.hostile import HOSTILE
from mocks.serve import serve
from mocks.serve import serve_host
from tests.command import CLI
from tests.command import against
from tests.command import at_loopback
from tests.outcome import assert_one_story

SIGNALS = [signal.SIGINT, signal.SIGTERM]


def _interrupt(
    arguments: Sequence[str], ready: Callable[[Path], bool], signum: int, reports: Path
) -> subprocess.CompletedProcess[str]:
    """The command, `signum` sent once `ready(reports)` holds; what it printed and its exit."""
    process = subprocess.Popen(
        [*CLI, *arguments, "--report-dir", str(reports)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not ready(reports) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, "the command ended before the moment came"
    process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def _after(seconds: float) -> Callable[[Path], bool]:
    started = time.monotonic()
    return lambda _: time.monotonic() - started >= seconds


def _results_written(count: int) -> Callable[[Path], bool]:
    def ready(reports: Path) -> bool:
        events = reports / "events.jsonl"
        return events.exists() and events.read_text().count('"event": "result"') >= count

    return ready


def _nothing_judged(done: subprocess.CompletedProcess[str], reports: Path) -> None:
    assert done.returncode == 130, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("agent-conformance: interrupted"), lines
    assert "Traceback" not in done.stdout + done.stderr
    assert not reports.exists() or not list(reports.glob("*.json"))


def _judged_then_interrupted(done: subprocess.CompletedProcess[str], reports: Path) -> None:
    assert done.returncode == 4, done.stderr
    report = assert_one_story(reports, 4, done.stdout, done.stderr)
    assert report["summary"]["completion"] == "interrupted"


@pytest.mark.parametrize("signum", SIGNALS)
def test_during_start_up(tmp_path: Path, signum: int) -> None:
    done = _interrupt(["run", "--mock"], _after(0.2), signum, tmp_path / "reports")
    _nothing_judged(done, tmp_path / "reports")


@pytest.mark.parametrize("signum", SIGNALS)
def test_while_the_document_is_fetched(tmp_path: Path, signum: int) -> None:
    with HOSTILE["silent"].serve() as url:
        arguments = [*at_loopback(url), "--timeout", "20"]
        done = _interrupt(arguments, _after(2.0), signum, tmp_path / "reports")
    _nothing_judged(done, tmp_path / "reports")


@pytest.mark.parametrize("signum", SIGNALS)
def test_while_checks_run(tmp_path: Path, signum: int) -> None:
    with HOSTILE["slow-invocations"].serve() as url:
        done = _interrupt(at_loopback(url), _results_written(3), signum, tmp_path / "reports")
    _judged_then_interrupted(done, tmp_path / "reports")


def test_between_repeated_runs(tmp_path: Path) -> None:
    """A run of --repeat cut short reports the runs it made, marked interrupted."""
    with serve_host() as host:
        arguments = ["run", *against(host), "--suite", "woa", "--repeat", "50"]
        done = _interrupt(arguments, _after(6), signal.SIGINT, tmp_path / "reports")
    _judged_then_interrupted(done, tmp_path / "reports")
    header = json.loads((tmp_path / "reports" / "report.json").read_text())["header"]
    assert 1 <= header["options"]["repeat"]["runs"] < 50


class _FirstInvocation:
    """The reference host, telling when the first invocation reaches it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app, self.arrived = app, threading.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            self.arrived.set()
        await self.app(scope, receive, send)


@pytest.mark.parametrize("signum", SIGNALS)
def test_while_fuzzing(tmp_path: Path, signum: int) -> None:
    """What schemathesis sent before the signal is judged; the reports say the run was cut. The
    signal comes once the fuzzer's first request has arrived, in the first of ten operations of 100
    examples each (the fuzzer ends the operation under way, then judges)."""
    reports = tmp_path / "reports"
    watched: list[_FirstInvocation] = []

    def build(base: str) -> ASGIApp:
        watched.append(_FirstInvocation(create_app(base)))
        return watched[0]

    with serve(build) as host:
        arguments = ["fuzz", *against(host), "--max-examples", "100"]
        done = _interrupt(arguments, lambda _: watched[0].arrived.is_set(), signum, reports)
    assert done.returncode == 4, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    report = json.loads((reports / "report.json").read_text())
    assert report["summary"]["completion"] == "interrupted"
    assert report["summary"]["gate"]["exit_code"] == 4
    assert "Fuzzing: incomplete: interrupted" in done.stdout


@pytest.mark.parametrize("signum", SIGNALS)
def test_the_proxy_before_it_serves(tmp_path: Path, signum: int) -> None:
    with serve_host() as host:
        arguments = ["proxy", "--upstream", host.url, "--cacert", str(host.cacert)]
        done = _interrupt(arguments, _after(0.2), signum, tmp_path / "reports")
    _nothing_judged(done, tmp_path / "reports")


def test_a_signal_once_the_reports_are_written_changes_nothing() -> None:
    """The run's work finishes (its reports written) and a signal comes before the loop hands its
    result on: the result stands, nothing is cancelled after the fact."""
    import asyncio
    import os

    from conformance.cli._lifecycle import interruptible

    async def work() -> str:
        await asyncio.sleep(0)
        os.kill(os.getpid(), signal.SIGINT)  # as the last report is written
        return "reports written"

    previous = signal.getsignal(signal.SIGINT)
    try:
        assert asyncio.run(interruptible(work())) == "reports written"
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize(
    ("command", "moment"), [("mutate", 1.5), ("mutate", 4), ("fleet", 4), ("interop", 4)], ids=str
)
def test_mutate_and_fleet_say_one_line(tmp_path: Path, command: str, moment: float) -> None:
    """Interrupted, `mutate`, `fleet` and `interop` end at once with one line (a fleet's runs
    under way finish as interrupted, their reports written; an interop pair's client command is
    killed), never silence or a traceback. At 1.5 s mutate is starting or recording its
    baselines, a run that finishes itself as interrupted: it went on to judge every mutant and
    exit 0 (seen under load)."""
    with HOSTILE["slow-invocations"].serve() as url:
        targets = tmp_path / "targets.json"
        targets.write_text(json.dumps([{"target": url, "allow_http_loopback": True}]))
        manifest = tmp_path / "manifest.json"
        hanging = {"name": "hanging", "client_command": "sleep 60 # {document}"}
        manifest.write_text(
            json.dumps({"implementations": [{"name": "slow", "host": url}, hanging]})
        )
        arguments = {
            "mutate": ["mutate", "--suite", "woa"],
            "fleet": ["fleet", "--targets", str(targets)],
            "interop": ["interop", str(manifest)],
        }[command]
        started = time.monotonic()
        done = _interrupt(arguments, _after(moment), signal.SIGINT, tmp_path / "reports")
    assert time.monotonic() - started < 30
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("agent-conformance: interrupted")
    assert "Traceback" not in done.stdout + done.stderr
    if command == "fleet":
        (folder,) = [p for p in (tmp_path / "reports").iterdir() if p.is_dir()]
        report = json.loads((folder / "report.json").read_text())
        assert report["summary"]["completion"] == "interrupted"


def test_a_terminals_ctrl_c_while_the_reference_client_is_certified(tmp_path: Path) -> None:
    """Ctrl-C in a terminal signals the whole foreground process group, while an invocation of the
    reference client is under way. The run ends interrupted, and what was judged stays true: the
    client's long-lived process is not in that group, so the invocation under way does not fail
    because the signal reached the client too."""
    import os

    reports = tmp_path / "reports"
    process = subprocess.Popen(
        [
            *CLI,
            "run",
            "--mock",
            *("--suite", "woa", "--role", "client", "--report-dir", str(reports)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a group of its own, as a terminal's foreground job
    )

    seen: set[str] = set()

    def invoking() -> bool:  # the tenth invocation's forwarder (the client command) is running
        found = subprocess.run(
            ["pgrep", "-P", str(process.pid), "-f", "woa_client_forward"],
            capture_output=True,
            text=True,
        )
        seen.update(found.stdout.split())
        return len(seen) >= 10 and found.returncode == 0

    deadline = time.monotonic() + 60
    while not invoking() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    assert process.poll() is None, "the run ended before the moment came"
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    done = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    _judged_then_interrupted(done, reports)
    report = json.loads((reports / "report.json").read_text())
    broken = [r["requirement"] for r in report["results"] if r["status"] in ("fail", "error")]
    assert broken == [], broken
