"""The exit-code contract from the user's side: each case as a process, the way CI sees it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conformance.report.writers.jsonl import read_events
from mocks.hostile import HOSTILE
from tests.command import REPORT_FILES
from tests.command import agent_conformance
from tests.command import at_loopback

CLI = [sys.executable, "-m", "conformance.cli"]


def _cli(*arguments: str, **options: object) -> subprocess.CompletedProcess[str]:
    done: subprocess.CompletedProcess[str] = subprocess.run(  # type: ignore[call-overload]
        [*CLI, *arguments], capture_output=True, text=True, timeout=120, **options
    )
    return done


def test_a_run_that_tests_nothing_exits_2_and_says_so(tmp_path: Path) -> None:
    done = _cli(
        "run", "--mock", "--role", "client", "--suite", "aci", "--report-dir", str(tmp_path)
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip().splitlines()[-1]
        == "agent-conformance: nothing was tested at MUST level (exit 2)"
    )
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["summary"]["level"] == "untested" and report["summary"]["gate"]["exit_code"] == 2


def _wait_for_results(events: Path, process: subprocess.Popen[str], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if events.exists() and events.read_text().count('"event": "result"') >= 3:
            return
        time.sleep(0.05)
    raise AssertionError("the run never got going")


def test_sigint_finishes_the_run_as_interrupted_with_every_report(tmp_path: Path) -> None:
    with HOSTILE["slow-invocations"].serve() as url:
        process = subprocess.Popen(
            [*CLI, *at_loopback(url), "--report-dir", str(tmp_path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        _wait_for_results(tmp_path / "events.jsonl", process)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 4, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr
    log = read_events(tmp_path / "events.jsonl")
    assert log.footer is not None and log.footer["completion"] == "interrupted"
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["summary"]["completion"] == "interrupted"
    assert any(r["message"] == "not judged: the run was interrupted" for r in report["results"])
    assert {p.name for p in tmp_path.iterdir()} == REPORT_FILES


def test_sigterm_removes_the_mocks_temporary_keys(tmp_path: Path) -> None:
    scratch, reports = tmp_path / "tmp", tmp_path / "reports"
    scratch.mkdir()
    process = subprocess.Popen(
        [*CLI, "run", "--mock", "--report-dir", str(reports)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    _wait_for_results(reports / "events.jsonl", process)
    assert any(scratch.iterdir())  # the mock's CA and key, while it runs
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    # interrupted: inconclusive, unless a MUST had already failed
    assert process.returncode in (1, 4), stderr
    assert "Traceback" not in stderr
    assert list(scratch.iterdir()) == []
    assert read_events(reports / "events.jsonl").footer["completion"] == "interrupted"  # type: ignore[index]


DEFECT = (
    "import sys; import conformance.engine.runner as r\n"
    "def broken(*a, **k): raise RuntimeError('a planted defect')\n"
    "r.summarize = broken\n"
    "from conformance.cli import main; sys.argv = ['agent-conformance', *sys.argv[1:]]; main()"
)


def test_a_defect_of_the_suite_exits_3_with_one_line_and_the_traceback_in_the_log(
    tmp_path: Path,
) -> None:
    planted = (sys.executable, "-c", DEFECT)
    done = agent_conformance(
        "run", "--mock", "--suite", "woa", "--report-dir", str(tmp_path), command=planted
    )
    assert done.returncode == 3
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "agent-conformance: internal error (a defect of the suite): RuntimeError: a planted defect"
    )
    assert str(tmp_path / "agent-conformance-debug.log") in last and "Traceback" not in done.stderr
    assert "Traceback" in (tmp_path / "agent-conformance-debug.log").read_text()
    debug = agent_conformance(
        *("run", "--mock", "--suite", "woa", "--debug", "--report-dir", str(tmp_path)),
        command=planted,
    )
    assert debug.returncode == 3 and "Traceback" in debug.stderr


def test_a_cacert_that_is_not_a_certificate_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate")
    done = _cli(
        "run",
        "--target",
        "https://127.0.0.1:9",
        "--cacert",
        str(bad),
        "--report-dir",
        str(tmp_path / "r"),
    )
    assert done.returncode == 2 and done.stderr.startswith(
        f"agent-conformance: --cacert {bad} is not a PEM CA certificate"
    )


def test_an_unwritable_report_folder_is_a_usage_error_before_anything_starts(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = _cli("run", "--mock", "--report-dir", str(blocker / "reports"))
    assert done.returncode == 2
    assert (
        done.stderr.startswith("agent-conformance: cannot write reports to")
        and "Reference mock" not in done.stdout
    )


def test_the_debug_log_follows_no_planted_link_and_holds_no_credential(tmp_path: Path) -> None:
    """Outside a report folder the debug log is a new file of the temporary folder, made
    exclusively: a link another user planted at the old fixed name is never followed; inside one,
    the traceback's credentials are redacted."""
    scratch, victim = tmp_path / "tmp", tmp_path / "victim"
    scratch.mkdir()
    victim.write_text("untouched")
    (scratch / "agent-conformance-debug.log").symlink_to(victim)
    planted = (
        sys.executable,
        "-c",
        "import sys; import conformance.cli.mutate as m\n"
        "async def broken(*a, **k): raise RuntimeError('a planted defect')\n"
        "m._mutate = broken\n"
        "from conformance.cli import main; sys.argv = ['agent-conformance', *sys.argv[1:]]; main()",
    )
    done = agent_conformance(
        "mutate",
        "--report-dir",
        str(tmp_path / "m"),
        command=planted,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    assert done.returncode == 3, done.stderr
    assert victim.read_text() == "untouched"
    (log,) = scratch.glob("agent-conformance-debug-*.log")
    assert str(log) in done.stderr and "a planted defect" in log.read_text()
    assert oct(log.stat().st_mode & 0o777) == "0o600"
    echoing = DEFECT.replace("'a planted defect'", "' '.join(sys.argv)")
    said = agent_conformance(
        *("run", "--mock", "--suite", "woa", "--report-dir", str(tmp_path / "r")),
        *("--header", "Authorization: Bearer CANARYDEBUG7"),
        command=(sys.executable, "-c", echoing),
    )
    assert said.returncode == 3 and "CANARYDEBUG7" not in said.stdout + said.stderr
    assert "CANARYDEBUG7" not in (tmp_path / "r" / "agent-conformance-debug.log").read_text()
