"""The reference WoA client as one long-lived process, for what drives it many times (`run --mock
--role client` and `mutate`, through the reference agents' `client_daemon()`; the tests): a Unix
socket server that answers each invocation as the command would (`mocks/woa_client.py`), with the
arguments and environment its forwarder (woa_client_forward.py) was run with, so that faults, the
allow-list, the cache folder and the proxy still come from each invocation's own environment. It
ends with the process that started it, killed or not.

    with client_daemon() as command:
        command("woa-8.2-no-private-ranges")   # a --client-command, one process per invocation
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

from .faults.woa_client import command_prefix
from .woa_client import answer

__all__ = ["client_daemon"]

FORWARD = Path(__file__).with_name("woa_client_forward.py")
#: How long one invocation may take in the daemon: past it, its answer is a failure (the suite's
#: own deadline on the forwarder is shorter).
SECONDS = 120.0
#: How often the daemon looks whether the process that started it is still there.
ORPHAN_CHECK_SECONDS = 0.5
#: The largest invocation (arguments and environment) the daemon reads.
MAX_REQUEST = 1024 * 1024


async def _serve(path: str, parent: int) -> None:
    async def one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(SECONDS):
                sent = bytearray()
                while len(sent) <= MAX_REQUEST and (chunk := await reader.read(65536)):
                    sent += chunk
                if len(sent) > MAX_REQUEST:
                    raise ValueError(f"an invocation of more than {MAX_REQUEST:,} bytes")
                request = json.loads(sent)
                done = await answer(request["arguments"], request["environ"], own=False)
        except TimeoutError:
            done = (1, "", f"woa-client: no answer within {SECONDS:g} s\n")
        except (ValueError, KeyError, TypeError) as error:  # not what the forwarder sends
            done = (2, "", f"woa-client daemon: {error}\n")
        writer.write(json.dumps(done).encode())
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        writer.close()

    server = await asyncio.start_unix_server(one, path, limit=16 * 1024 * 1024)
    async with server:
        # the process that started it (a run, mutate, a test; its pid is `parent`) ends it; killed,
        # it cannot, and the daemon then ends itself rather than outlive it
        while os.getppid() == parent:
            await asyncio.sleep(ORPHAN_CHECK_SECONDS)


@contextlib.contextmanager
def client_daemon() -> Iterator[Callable[..., str]]:
    """A daemon in a process of its own while the block runs; yields the function that makes the
    --client-command of the reference client (with `fault`, or as the minimal conformer) through
    it."""
    with tempfile.TemporaryDirectory(prefix="woa-client-") as folder:
        path = str(Path(folder) / "socket")
        # a session of its own, as the suite starts client commands: a terminal's Ctrl-C goes to
        # the run (which ends it at exit), not to it under an invocation
        daemon = subprocess.Popen(
            [sys.executable, "-m", __name__, path, str(os.getpid())], start_new_session=True
        )
        try:
            deadline = time.monotonic() + 30
            while not Path(path).exists():
                if daemon.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the reference client's daemon did not start")
                time.sleep(0.02)

            def command(
                fault: str | None = None, *, minimal: bool = False, variant: str | None = None
            ) -> str:
                prefix = command_prefix(fault, minimal=minimal, variant=variant)
                forward = " ".join(
                    shlex.quote(p) for p in (sys.executable, "-S", "-E", str(FORWARD))
                )
                return (
                    f"{prefix}{forward} {shlex.quote(path)} {{document}} {{agent}} {{operation}}"
                    " {input} {cacert}"
                )

            yield command
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(sys.argv[1], int(sys.argv[2])))
