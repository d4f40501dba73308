"""The command line as a user runs it, in a process of its own, for the tests that need one (a
terminal, an exit code from a crash, a deadline): `agent-conformance ARGUMENTS...`."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path

from mocks.serve import ServedMock

__all__ = ["CLI", "OTHER_PLUGINS_OFF", "REPORT_FILES", "against", "agent_conformance"]

CLI = (sys.executable, "-m", "conformance.cli")
#: What `run` writes with every format: a badge per draft.
REPORT_FILES = frozenset(
    {"report.json", "events.jsonl", "junit.xml", "summary.md", "report.html"}
    | {f"badge-{draft}.svg" for draft in ("woa", "sdsi", "aci")}
)

#: A pytest session of the user's (pytester's subprocess) without the plugins this environment
#: installs beside ours (schemathesis's, hypothesis's, respx's): they are not under test and cost a
#: session about 1.3 s of start-up. tests/test_pytest_plugin.py's first two tests keep them, to
#: show that ours is inert, and works, among them.
OTHER_PLUGINS_OFF = ("-p", "no:schemathesis", "-p", "no:hypothesispytest", "-p", "no:respx")

#: The options of a run in every role (the client's too).
EVERY_ROLE = tuple(
    option
    for role in ("host", "server", "client", "master", "invoked")
    for option in ("--role", role)
)


def agent_conformance(
    *arguments: str,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
    command: Sequence[str] = CLI,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """The command run with `arguments` (by `command`, the CLI's module by default), its output
    captured as text."""
    return subprocess.run(
        [*command, *arguments], capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd
    )


def against(host: ServedMock) -> tuple[str, ...]:
    """The options that aim a command at a host served on loopback: its origin and its CA."""
    return ("--target", host.url, "--cacert", str(host.cacert))


def at_loopback(url: str) -> tuple[str, ...]:
    """The options of a run against a plain-HTTP target on loopback, a second a request."""
    return ("run", "--target", url, "--allow-http-loopback", "--timeout", "1")
