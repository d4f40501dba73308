"""Each kind of outcome a run can end in, made as a user makes it (a process of its own), and every
surface held to the one story the exit code tells: terminal, report.json, events.jsonl, summary.md,
report.html, junit.xml, each badge (tests/outcome.py)."""

from __future__ import annotations

import json
import resource
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from mocks.hostile import HOSTILE
from mocks.serve import serve_host
from tests.command import against
from tests.command import agent_conformance
from tests.command import at_loopback
from tests.outcome import assert_one_story

WOA = ("--suite", "woa")


def _run(tmp_path: Path, *arguments: str) -> tuple[int, dict[str, Any]]:
    done, gate = _told(tmp_path, *arguments)
    return done.returncode, gate


def _told(
    tmp_path: Path, *arguments: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """The command's run as the user saw it, and the gate its report holds (every surface checked
    against it)."""
    reports = tmp_path / "reports"
    done = agent_conformance(*arguments, "--report-dir", str(reports))
    report = assert_one_story(reports, done.returncode, done.stdout, done.stderr)
    gate: dict[str, Any] = report["summary"]["gate"]
    return done, gate


@pytest.mark.parametrize(
    ("arguments", "code", "kind", "headline"),
    [
        (("run", "--mock", *WOA), 0, "passed", "SHOULD-compliant"),
        (
            ("run", "--mock", *WOA, "--fault", "woa-7-caching-headers"),
            0,
            "passed",
            "MUST-compliant",
        ),
        (("run", "--mock", *WOA, "--fault", "woa-4-version-1"), 1, "must-failed", "non-compliant"),
        (("run", "--mock", "--role", "client", "--suite", "aci"), 2, "nothing-tested", "untested"),
        (
            ("run", "--mock", *WOA, "--max-probes", "3", "--require-every-agent"),
            4,
            "partial-agents",
            "incomplete: 1 of 10 agents exercised",
        ),
    ],
)
def test_every_surface_tells_the_outcome_of_a_run_of_the_reference(
    tmp_path: Path, arguments: tuple[str, ...], code: int, kind: str, headline: str
) -> None:
    ran, gate = _run(tmp_path, *arguments)
    assert (ran, gate["kind"]) == (code, kind)
    assert str(gate["headline"]).startswith(headline.split(",")[0]), gate


def test_a_stale_baseline_entry_is_a_failure_on_every_surface(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(
        json.dumps(
            {
                "format": "agent-conformance-baseline/1",
                "expected_failures": {"WOA-4-VERSION-1": "was failing"},
            }
        )
    )
    code, gate = _run(tmp_path, "run", "--mock", *WOA, "--baseline", str(baseline))
    assert (code, gate["kind"], gate["headline"]) == (1, "stale-baseline", "stale baseline")
    assert gate["drafts"] == {"woa": "stale baseline"}


@pytest.mark.parametrize(
    ("hostile", "code", "kind"),
    [
        ("not-found", 2, "not-certified"),
        ("html-200", 1, "must-failed"),
        ("private-rest-base", 2, "no-agent-exercised"),
        ("exploding-schema", 4, "must-errored"),
    ],
)
def test_a_target_that_is_no_certifiable_host_says_so_once(
    tmp_path: Path, hostile: str, code: int, kind: str
) -> None:
    """The commonest mistakes (a URL that is not a WoA host, a host whose agents cannot be called):
    the reason once, no line per requirement, no level the exit code contradicts."""
    with HOSTILE[hostile].serve() as url:
        done, gate = _told(tmp_path, *at_loopback(url), *WOA)
    assert (done.returncode, gate["kind"]) == (code, kind)
    assert len(done.stdout.splitlines()) < 25, done.stdout
    assert sum(line.startswith("ERROR") for line in done.stdout.splitlines()) <= 1
    if kind == "no-agent-exercised":
        assert gate["headline"] == "not certified: 0 of 1 agents exercised"
        assert "--allow-origin" in str(gate["reason"])


def test_a_run_out_of_budget_says_so_on_every_surface(tmp_path: Path) -> None:
    with HOSTILE["slow-invocations"].serve() as url:
        code, gate = _run(tmp_path, *at_loopback(url), *WOA, "--budget", "2")
    assert (code, gate["kind"]) == (4, "out-of-budget")
    assert gate["headline"].startswith("incomplete: out-of-budget")
    assert gate["drafts"]["woa"].startswith("incomplete")


def _small_files() -> None:
    """A quota of 64 KiB a file, as a full disk or a quota meets the report writers."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))


def test_reports_that_cannot_be_written_are_a_usage_error_and_leave_no_report(
    tmp_path: Path,
) -> None:
    import subprocess

    from tests.command import CLI

    reports = tmp_path / "reports"
    with serve_host() as host:
        done = subprocess.run(
            [*CLI, "run", *against(host), *WOA, "--report-dir", str(reports)],
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=_small_files,
        )
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"agent-conformance: cannot write reports to {reports}: "), last
    assert "Traceback" not in done.stderr
    # nothing is left to read as the run's: no report, whole or half-written, nor the folder the
    # run made for them
    assert not reports.exists(), list(reports.iterdir())


def test_a_client_command_that_cannot_start_is_one_reason(tmp_path: Path) -> None:
    code, gate = _run(tmp_path, "run", "--client-command", "/nonexistent/client {document}")
    assert (code, gate["kind"]) == (2, "not-certified")
    assert "the client command cannot start: /nonexistent/client: not found" in str(gate["reason"])
