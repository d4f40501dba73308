"""uvicorn servers that stop when told: `PromptServer`, and `LoopServer`, one in the caller's event
loop; and `serve`, one on loopback in a thread of its own, over HTTPS with a CA made on the fly (the
suite's spies and context store use it over plain HTTP, the reference agents in mocks/ over HTTPS).

uvicorn notices it should stop at its next tick (every 0.1 s) and then naps 0.1 s before closing
connections: 0.2 s for every server a run starts and stops. `PromptServer` wakes at once and waits
only for what is still open. The spy host and the passive proxy serve from inside a run: their
servers are tasks of the run's loop, so that a signal still reaches the run (which finishes it and
writes the reports)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import ssl
import tempfile
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    import trustme

__all__ = [
    "LoopServer",
    "ProblemH11Protocol",
    "PromptServer",
    "ServedMock",
    "make_certificates",
    "serve",
    "start_server",
    "write_leaf",
]


def write_leaf(leaf: trustme.LeafCert, folder: Path, stem: str) -> tuple[Path, Path]:
    """Write a certificate's chain and private key into `folder` (stem.pem, stem.key) for a
    server to load."""
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
        # a tick still refreshes the Date header once a second
        while not await self.on_tick(counter):
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
            # an idle keep-alive connection closes now; a busy one after its answer
            connection.shutdown()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.config.timeout_graceful_shutdown):
                while self.server_state.connections or self.server_state.tasks:
                    await asyncio.sleep(0.005)
        for task in self.server_state.tasks:
            task.cancel()
        # still busy past the grace: closed, not left to the collector
        for connection in list(self.server_state.connections):
            transport = getattr(connection, "transport", None)
            if transport is not None and not transport.is_closing():
                transport.close()
        for server in self.servers:
            await server.wait_closed()
        if not self.force_exit:
            await self.lifespan.shutdown()


class LoopServer(PromptServer):
    """A prompt uvicorn in the caller's loop, without the signal handlers it installs when it
    runs the main thread's loop."""

    def capture_signals(self) -> contextlib.AbstractContextManager[None]:  # type: ignore[override]
        return contextlib.nullcontext()

    async def stop(self, task: asyncio.Task[None]) -> None:
        self.stop_soon()
        await asyncio.gather(task, return_exceptions=True)


async def start_server(
    build: Callable[[int], ASGIApp],
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    certfile: Path | None = None,
    keyfile: Path | None = None,
    own_headers: bool = True,
) -> tuple[LoopServer, asyncio.Task[None], int]:
    """Serve the app `build(port)` (over TLS when given a certificate) once the socket is bound;
    the server, its task and the port it listens on. `own_headers`: uvicorn adds its Date and
    Server headers (a proxy, which hands on the upstream's, says False)."""
    sock = socket.socket(
        socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP
    )
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    config = uvicorn.Config(
        build(sock.getsockname()[1]),
        log_level="critical",
        log_config=None,  # see serve()
        ssl_certfile=str(certfile) if certfile else None,
        ssl_keyfile=str(keyfile) if keyfile else None,
        lifespan="off",
        timeout_graceful_shutdown=1,
        access_log=False,
        server_header=own_headers,
        date_header=own_headers,
    )
    server = LoopServer(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not task.done():
        await asyncio.sleep(0.005)
    if task.done():
        task.result()  # raises why it could not start
    return server, task, sock.getsockname()[1]


class ProblemH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1, saying no to a request it cannot parse (malformed, or a header section
    over h11's limit) in problem details rather than text/plain. The connection still closes: after
    a request that is not HTTP there is no telling where the next one starts."""

    def send_400_response(self, msg: str) -> None:
        body = json.dumps(
            {
                "type": "about:blank",
                "title": "Bad Request",
                "status": 400,
                "detail": (
                    "the request is not valid HTTP/1.1 (malformed, or its header section too large)"
                ),
            }
        ).encode()
        headers = [
            (b"content-type", b"application/problem+json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


@dataclass(frozen=True)
class ServedMock:
    url: str
    cacert: Path | None


def make_certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A throw-away CA and a certificate for 127.0.0.1 and localhost: (CA cert, cert chain, key)."""
    import trustme  # with cryptography: only a server over TLS needs it

    ca = trustme.CA()
    leaf = ca.issue_cert("127.0.0.1", "localhost", "::1")
    paths = directory / "ca.pem", directory / "cert.pem", directory / "key.pem"
    ca.cert_pem.write_to_path(str(paths[0]))
    leaf.cert_chain_pems[0].write_to_path(str(paths[1]))
    for extra in leaf.cert_chain_pems[1:]:
        extra.write_to_path(str(paths[1]), append=True)
    leaf.private_key_pem.write_to_path(str(paths[2]))
    return paths


@contextmanager
def serve(
    build: Callable[[str], ASGIApp],
    *,
    port: int = 0,
    tls: bool = True,
    host: str = "127.0.0.1",
    tls_maximum: ssl.TLSVersion | None = None,
) -> Iterator[ServedMock]:
    """Serve the app `build(base_url)` until the block ends (`tls_maximum` caps the TLS version
    offered)."""
    # IPPROTO_TCP: asyncio then sets TCP_NODELAY
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    url = f"{'https' if tls else 'http'}://{host}:{sock.getsockname()[1]}"
    with (
        contextlib.closing(sock),
        tempfile.TemporaryDirectory(prefix="agent-conformance-mock-") as folder,
    ):
        cacert, certfile, keyfile = make_certificates(Path(folder)) if tls else (None, None, None)
        config = uvicorn.Config(
            build(url),
            log_level="error",
            # no dictConfig of uvicorn's: applied as another server starts in another thread, it
            # let that server's INFO lines through while it ran
            log_config=None,
            ssl_certfile=certfile,
            ssl_keyfile=keyfile,
            lifespan="on",
            timeout_graceful_shutdown=1,
            http=ProblemH11Protocol,
        )
        config.load()
        if tls_maximum is not None and config.ssl is not None:
            config.ssl.maximum_version = tls_maximum
        server = PromptServer(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not server.started:
            raise RuntimeError("the mock server did not start within 10 s")
        try:
            yield ServedMock(url, cacert)
        finally:
            server.stop_soon()
            thread.join(timeout=5)
