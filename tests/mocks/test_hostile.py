"""The suite against every hostile target (mocks/hostile/): the exit code of the contract, a report
whenever the target answered, the run within its budget, peak memory under 500 MB, and not one
connection to an address the user did not allow. Each run is a separate process, as a user's is."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit
from xml.etree import ElementTree

import pytest

from conformance.report.writers.jsonl import read_events
from mocks.hostile import HOSTILE
from mocks.hostile import Hostile
from tests.command import agent_conformance
from tests.command import at_loopback

ROOT = Path(__file__).resolve().parents[2]
#: seconds for the whole run (--budget); the process may take a few more to start and stop (the
#: 80,000 agents take about 3 s alone, twice that beside another test worker on two cores)
BUDGET = 30
MEMORY_MB = 500


def _watched(record: Path) -> tuple[str, ...]:
    """The command line under tests/outbound.py, which writes what it connected to in `record`."""
    return (sys.executable, str(ROOT / "tests" / "outbound.py"), str(record))


@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_suite_stays_whole_against(hostile: Hostile, tmp_path: Path) -> None:
    record, reports = tmp_path / "record.json", tmp_path / "reports"
    with hostile.serve() as url:
        started = time.monotonic()
        done = agent_conformance(
            *(*at_loopback(url), "--budget", str(BUDGET), "--report-dir", str(reports)),
            *hostile.args,
            command=_watched(record),
            timeout=BUDGET + 30,
            cwd=tmp_path,
        )
        seconds = time.monotonic() - started
    seen = json.loads(record.read_text())
    print(f"\n{hostile.name}: exit {done.returncode}, {seconds:.1f} s, {seen['peak_mb']:.0f} MB")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == hostile.exit_code, done.stderr[-2000:]
    assert seconds < BUDGET + 10
    assert seen["peak_mb"] < MEMORY_MB
    allowed = urlsplit(url)
    assert all(
        host == allowed.hostname and port == allowed.port for host, port in seen["connect"]
    ), seen["connect"]
    assert set(seen["getaddrinfo"]) <= {allowed.hostname}, seen["getaddrinfo"]
    if hostile.answers:
        ElementTree.parse(reports / "junit.xml")  # well-formed, whatever the target sent
        assert "<script" not in (reports / "summary.md").read_text(encoding="utf-8")
        log = read_events(reports / "events.jsonl")
        assert (
            not log.truncated
            and json.loads((reports / "report.json").read_text())["summary"]["gate"]["exit_code"]
            == hostile.exit_code
        )


def test_the_reference_run_stays_under_500_mb_and_on_loopback(tmp_path: Path) -> None:
    record = tmp_path / "record.json"
    done = agent_conformance(
        "run",
        "--mock",
        "--report-dir",
        str(tmp_path / "reports"),
        command=_watched(record),
        cwd=tmp_path,
    )
    seen = json.loads(record.read_text())
    assert done.returncode == 0, done.stderr
    assert seen["peak_mb"] < MEMORY_MB and {host for host, _ in seen["connect"]} == {"127.0.0.1"}
