"""uvicorn servers that stop when told: `PromptServer`, and `LoopServer`, one in the caller's event loop.

uvicorn notices it should stop at its next tick (every 0.1 s) and then naps 0.1 s before closing
connections: 0.2 s for every server a run starts and stops. `PromptServer` wakes at once and waits
only for what is still open. The spy host and the passive proxy serve from inside a run: their
servers are tasks of the run's loop, so that a signal still reaches the run (which finishes it and
writes the reports)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from pathlib import Path

import trustme
import uvicorn
from starlette.types import ASGIApp

__all__ = ["LoopServer", "PromptServer", "start_server", "write_leaf"]


def write_leaf(leaf: trustme.LeafCert, folder: Path, stem: str) -> tuple[Path, Path]:
    """Write a certificate's chain and private key into `folder` (stem.pem, stem.key) for a server to load."""
    chain, key = folder / f"{stem}.pem", folder / f"{stem}.key"
    for n, pem in enumerate(leaf.cert_chain_pems):
        pem.write_to_path(str(chain), append=n > 0)
    leaf.private_key_pem.write_to_path(str(key))
    return chain, key


class PromptServer(uvicorn.Server):
    """uvicorn, stopping as soon as `stop_soon` is called (from any thread)."""

    _wake: asyncio.Event | None = None
    _loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        counter = 0
        while not await self.on_tick(counter):  # a tick still refreshes the Date header once a second
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.1):
                    await self._wake.wait()

    def stop_soon(self) -> None:
        self.should_exit = True
        if self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()  # an idle keep-alive connection closes now; a busy one after its answer
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.config.timeout_graceful_shutdown):
                while self.server_state.connections or self.server_state.tasks:
                    await asyncio.sleep(0.005)
        for task in self.server_state.tasks:
            task.cancel()
        for server in self.servers:
            await server.wait_closed()
        if not self.force_exit:
            await self.lifespan.shutdown()


class LoopServer(PromptServer):
    """A prompt uvicorn in the caller's loop, without the signal handlers it installs when it runs the main thread's loop."""

    def capture_signals(self) -> contextlib.AbstractContextManager[None]:  # type: ignore[override]
        return contextlib.nullcontext()

    async def stop(self, task: asyncio.Task[None]) -> None:
        self.stop_soon()
        await asyncio.gather(task, return_exceptions=True)


async def start_server(build: Callable[[int], ASGIApp], *, host: str = "127.0.0.1", port: int = 0,
                       certfile: Path | None = None, keyfile: Path | None = None) -> tuple[LoopServer, asyncio.Task[None], int]:
    """Serve the app `build(port)` (over TLS when given a certificate) once the socket is bound; the server,
    its task and the port it listens on."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    config = uvicorn.Config(build(sock.getsockname()[1]), log_level="critical", ssl_certfile=str(certfile) if certfile else None,
                            ssl_keyfile=str(keyfile) if keyfile else None, lifespan="off", timeout_graceful_shutdown=1,
                            access_log=False)
    server = LoopServer(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not task.done():
        await asyncio.sleep(0.005)
    if task.done():
        task.result()  # raises why it could not start
    return server, task, sock.getsockname()[1]
