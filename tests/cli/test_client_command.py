"""`run --client-command`: the contract as a user meets it, from the README's example client to a
client that does nothing, hangs or floods its output."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "woa_client.py"


def certify(tmp_path: Path, *arguments: str) -> tuple[int, dict[str, dict[str, str]], str]:
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "run", "--report-dir", str(tmp_path), *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    report = tmp_path / "report.json"
    results = (
        {r["requirement"]: r for r in json.loads(report.read_text())["results"]}
        if report.exists()
        else {}
    )
    return done.returncode, results, done.stdout + done.stderr


def test_the_readme_example_client_keeps_every_must_and_shows_its_missing_cache(
    tmp_path: Path,
) -> None:
    code, results, _ = certify(
        tmp_path,
        "--client-command",
        f"{sys.executable} {EXAMPLE} {{document}} {{agent}} {{operation}} {{input}} {{cacert}}",
    )
    assert code == 0
    assert {r for r, v in results.items() if v["status"] in ("fail", "error")} == {
        "WOA-7-CLIENT-HONORS-CACHING"
    }
    assert results["WOA-8.1-CLIENT-VALIDATES-CERTIFICATES"]["status"] == "pass"


def test_the_readme_shows_the_example_client_as_it_is() -> None:
    readme = (ROOT / "README.md").read_text()
    assert EXAMPLE.read_text().strip() in readme


def test_a_client_that_does_nothing_is_never_a_pass(tmp_path: Path) -> None:
    code, results, output = certify(tmp_path, "--client-command", "true")
    assert code == 4, output  # inconclusive: the MUST checks could not reach a verdict
    assert not [r for r in results.values() if r["status"] == "pass" and r["level"] == "MUST"]
    assert (
        "never invoked the plain agent"
        in results["WOA-8.1-CLIENT-VALIDATES-CERTIFICATES"]["message"]
    )


@pytest.mark.parametrize("command", ["sleep 60", "yes"])
def test_a_client_that_hangs_or_floods_is_stopped_at_its_deadline(
    tmp_path: Path, command: str
) -> None:
    started = time.monotonic()
    code, results, output = certify(tmp_path, "--timeout", "0.5", "--client-command", command)
    assert time.monotonic() - started < 60
    assert code == 4, output
    assert (
        "killed at its deadline" if command.startswith("sleep") else "stopped for writing more than"
    ) in results["WOA-4.3.1-CLIENT-USES-POST"]["message"]


def test_the_reference_client_with_a_fault_through_the_command_line(tmp_path: Path) -> None:
    code, results, _ = certify(
        tmp_path,
        "--mock",
        "--suite",
        "woa",
        "--role",
        "client",
        "--fault",
        "woa-8.1-client-validates-certificates",
    )
    assert code == 1
    assert results["WOA-8.1-CLIENT-VALIDATES-CERTIFICATES"]["status"] == "fail"


def test_the_reference_clients_process_ends_with_the_run_even_a_killed_one(tmp_path: Path) -> None:
    """`run --mock --role client` drives the reference client as one long-lived process: it ends
    with the run, and when the run is killed (SIGKILL: nothing of the run's own runs) it ends
    itself within a second or two."""
    import os
    import signal

    def running(pid: int) -> bool:  # a zombie no one reaps has ended too
        stat = Path(f"/proc/{pid}/stat")
        return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"

    run = subprocess.Popen(
        [
            *(sys.executable, "-m", "conformance.cli", "run", "--mock", "--suite", "woa"),
            *("--role", "client", "--quiet", "--report-dir", str(tmp_path)),
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    daemons: list[int] = []
    while not daemons and run.poll() is None and time.monotonic() < deadline:
        found = subprocess.run(
            ["pgrep", "-P", str(run.pid), "-f", "mocks.woa_client_daemon"],
            capture_output=True,
            text=True,
        )
        daemons = [int(pid) for pid in found.stdout.split()]
        time.sleep(0.01)
    assert daemons, "the run started no reference client of its own"
    os.kill(run.pid, signal.SIGKILL)
    run.wait(timeout=10)
    deadline = time.monotonic() + 5
    while any(map(running, daemons)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in daemons if running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "the reference client outlived a killed run"


@pytest.mark.parametrize(
    "arguments",
    [
        ["--client-command", "true", "--target", "https://x.example"],
        ["--client-command", "true", "--suite", "sdsi"],
        ["--mock", "--suite", "woa", "--role", "client", "--fault", "woa-4-version-1"],
    ],
)
def test_client_command_usage_errors(tmp_path: Path, arguments: list[str]) -> None:
    code, _, output = certify(tmp_path, *arguments)
    assert code == 2, output


def test_where_the_long_lived_client_cannot_start_each_invocation_is_a_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No Unix sockets (the daemon does not start): the reference client's command is the client
    itself, an interpreter per invocation, as before."""
    import mocks.woa_client_daemon
    from mocks.references import REFERENCES

    def cannot_start() -> None:
        raise RuntimeError("the reference client's daemon did not start")

    monkeypatch.setattr(mocks.woa_client_daemon, "client_daemon", cannot_start)
    with REFERENCES.client_daemon() as made:
        command = made("woa-4.3.1-client-uses-post", minimal=False)
    assert " -m mocks.woa_client {document}" in command
    assert command.startswith("WOA_CLIENT_FAULT=woa-4.3.1-client-uses-post ")


def test_certifying_the_reference_client_imports_no_host_and_no_sdk(tmp_path: Path) -> None:
    """The reference agents import what they serve when it is first used (mocks/references.py):
    a client certification serves the suite's spy host, so its process imports neither the
    reference host, the MCP and A2A SDKs it serves through, nor the fault catalogue (0.4 s of a
    1.4 s command, measured when they were imported anyway)."""
    probe = (
        "import sys, runpy\nsys.argv = ['agent-conformance', *sys.argv[1:]]\ntry:\n"
        "    runpy.run_module('conformance.cli', run_name='__main__')\n"
        "except SystemExit as end:\n    code = end.code\n"
        "import json\nprint(json.dumps([code, sorted(m for m in sys.modules if m.split('.')[0]"
        " in ('mcp', 'a2a') or m.startswith(('mocks.reference.woa_host', 'mocks.faults.cat')))]))"
    )
    done = subprocess.run(
        [
            *(sys.executable, "-c", probe, "run", "--mock", "--suite", "woa", "--role", "client"),
            *("--quiet", "--report-dir", str(tmp_path)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    code, imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert code == 0, done.stdout + done.stderr
    assert imported == []
