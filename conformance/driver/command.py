"""Run the client under test as a command, once per invocation the suite asks of it.

    agent-conformance run --suite woa --role client \\
        --client-command 'python my_client.py {document} {agent} {operation} {input} {cacert}'

The placeholders are replaced, shell-quoted, by: the https URL of a WoA document on the spy host;
the agent id; the operation name (an empty string for the agent's default); the path of a JSON file
holding the inputs object; the path of the PEM CA the spy host's certificates chain to. The command
runs under /bin/sh with the environment of the suite plus

    HTTPS_PROXY, HTTP_PROXY (and lower case)  the suite's recording proxy (NO_PROXY emptied)
    WOA_CLIENT_ALLOWED_HOSTS                   the hosts an administrator allows, comma-separated
    WOA_CLIENT_CACHE_DIR                       a folder for the client's cache, kept across the
                                               runs of one scenario

A client prints the agent's outputs as JSON on stdout and exits 0, or exits non-zero to refuse.
The command has a deadline (its whole process group is killed past it) and its output is capped;
when it exits, whatever it left running in its process group (a helper it forked) is killed too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import shutil
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "MAX_STDERR",
    "MAX_STDOUT",
    "PLACEHOLDERS",
    "CommandDriver",
    "Outcome",
    "Request",
    "client_environment",
    "unstartable",
]

MAX_STDOUT = 1024 * 1024
MAX_STDERR = 64 * 1024
PLACEHOLDERS = ("{document}", "{agent}", "{operation}", "{input}", "{cacert}")
_PROXY_VARIABLES = (
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "https_proxy",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
)


@dataclass(frozen=True)
class Request:
    """What the client is asked to do in one run."""

    document: str
    agent: str
    operation: str
    input: Any


@dataclass(frozen=True)
class Outcome:
    """What one run of the client did, as the suite saw it from outside."""

    command: str
    exit_code: int | None  # None: killed at the deadline
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    flooded: bool = False  # stopped for writing more than MAX_STDOUT (or MAX_STDERR)

    @property
    def outputs(self) -> Any:
        """The outputs the client printed, or None when it printed no JSON."""
        try:
            return json.loads(self.stdout)
        except ValueError:
            return None

    def describe(self) -> str:
        ending = (
            "was killed at its deadline"
            if self.timed_out
            else (
                f"was stopped for writing more than {MAX_STDOUT:,} bytes"
                if self.flooded
                else f"exited {self.exit_code}"
            )
        )
        said = self.stderr.strip().splitlines()[-1:] or [""]
        return f"the client {ending}" + (f" ({said[0][:200]})" if said[0] else "")


class _Flooded(Exception):
    """The client wrote more than the cap: it is stopped there."""


async def _read_capped(stream: asyncio.StreamReader | None, cap: int) -> str:
    if stream is None:
        return ""
    kept = bytearray()
    while chunk := await stream.read(64 * 1024):
        kept += chunk
        if len(kept) > cap:
            raise _Flooded
    return kept.decode("utf-8", "backslashreplace")


async def _reap(process: asyncio.subprocess.Process) -> None:
    """Read the killed process's pipes to their end (asyncio reaps it only once they close),
    briefly."""

    async def drain(stream: asyncio.StreamReader | None) -> None:
        while stream is not None and await stream.read(64 * 1024):
            pass

    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(2):
            await asyncio.gather(drain(process.stdout), drain(process.stderr), process.wait())


#: Words /bin/sh runs itself: a command that starts with one is not looked up on the PATH.
_BUILTINS = frozenset({".", ":", "cd", "eval", "exec", "export", "set", "source", "true", "ulimit"})


def unstartable(template: str) -> str | None:
    """Why the client command cannot start at all (its program is nowhere), or None: one reason
    for the whole run, rather than each scenario's exit 127."""
    try:
        words = shlex.split(template)
    except ValueError as error:
        return f"the client command cannot be read as a shell command: {error}"
    program = next((w for w in words if "=" not in w.split("/")[0]), None)
    if program is None or program in _BUILTINS or program.startswith(("$", "{", "(")):
        return None
    if "/" in program:
        found = Path(program).is_file() and os.access(program, os.X_OK)
    else:
        found = shutil.which(program) is not None
    return None if found else f"the client command cannot start: {program}: not found"


@dataclass(frozen=True)
class CommandDriver:
    template: str
    deadline: float = 30.0

    def command(self, request: Request, input_path: Path, cacert: Path) -> str:
        values = {
            "{document}": request.document,
            "{agent}": request.agent,
            "{operation}": request.operation,
            "{input}": str(input_path),
            "{cacert}": str(cacert),
        }
        command = self.template
        for placeholder, value in values.items():
            command = command.replace(placeholder, shlex.quote(value))
        return command

    async def act(
        self, request: Request, *, workdir: Path, cacert: Path, environment: dict[str, str]
    ) -> Outcome:
        """Run the client once for `request`; `environment` adds to (and overrides) the suite's
        own."""
        input_path = workdir / "input.json"
        input_path.write_text(json.dumps(request.input), encoding="utf-8")
        command = self.command(request, input_path, cacert)
        started = time.perf_counter()
        process = await asyncio.create_subprocess_shell(
            command,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=os.getcwd(),
            env={**os.environ, **environment},
            start_new_session=True,
        )
        readers = [
            asyncio.ensure_future(_read_capped(process.stdout, MAX_STDOUT)),
            asyncio.ensure_future(_read_capped(process.stderr, MAX_STDERR)),
        ]
        timed_out = flooded = False
        try:
            async with asyncio.timeout(self.deadline):
                stdout, stderr = await asyncio.gather(*readers)
                await process.wait()
            # what the command left running in its group (a helper it forked) ends with it
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        except (TimeoutError, _Flooded, asyncio.CancelledError) as stopped:
            timed_out, flooded = isinstance(stopped, TimeoutError), isinstance(stopped, _Flooded)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            for reader in readers:
                reader.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
            await _reap(process)
            if isinstance(stopped, asyncio.CancelledError):
                raise
            stdout, stderr = "", ""
        return Outcome(
            command,
            None if timed_out or flooded else process.returncode,
            stdout,
            stderr,
            round(time.perf_counter() - started, 3),
            timed_out,
            flooded,
        )


def client_environment(
    proxy_url: str, allowed_hosts: tuple[str, ...], cache_dir: Path
) -> dict[str, str]:
    """The variables the contract gives every run."""
    return {
        **dict.fromkeys(_PROXY_VARIABLES, proxy_url),
        "NO_PROXY": "",
        "no_proxy": "",
        "WOA_CLIENT_ALLOWED_HOSTS": ",".join(allowed_hosts),
        "WOA_CLIENT_CACHE_DIR": str(cache_dir),
    }
