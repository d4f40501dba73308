"""The recording proxy the client under test is pointed at (HTTPS_PROXY, HTTP_PROXY).

It records every connection the client asks for (CONNECT host:port, or a plain-HTTP request in
absolute form), tunnels a CONNECT to the spy host's listener when the host is one of the spy's,
and refuses everything else with 403: a private, link-local or unlisted address a client tries
is recorded and never reached. The proxy itself connects only to loopback listeners it was given.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from dataclasses import field

__all__ = ["ProxyAttempt", "RecordingProxy"]

MAX_HEAD = 16 * 1024
HEAD_DEADLINE = 5.0
CHUNK = 64 * 1024


@dataclass(frozen=True)
class ProxyAttempt:
    """A connection the client asked the proxy for, and whether the proxy made it."""

    method: str
    host: str
    port: int
    tunnelled: bool
    at: float

    @property
    def authority(self) -> str:
        return f"{self.host}:{self.port}"


def _authority(target: str, default_port: int) -> tuple[str, int]:
    """host and port of a CONNECT target or an absolute URL's authority ("[::1]:443", "a.test")."""
    if "://" in target:
        target = target.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1]
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit() or (target.startswith("[") and not host.endswith("]")):
        host, port = target, str(default_port)
    return host.strip("[]").lower(), int(port)


@dataclass
class RecordingProxy:
    routes: dict[str, int]  # host -> the loopback port of the listener that serves it
    deadline: float = 60.0  # seconds a tunnel may stay open
    attempts: list[ProxyAttempt] = field(default_factory=list)
    url: str = ""
    _server: asyncio.Server | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def start(self) -> str:
        """Listen on loopback; the proxy's URL."""
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, limit=MAX_HEAD)
        self.url = f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"
        return self.url

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 1)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            async with asyncio.timeout(self.deadline):
                await self._handle(reader, writer)
        except (
            TimeoutError,
            ConnectionError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            ValueError,
        ):
            pass
        except asyncio.CancelledError:
            # closed under it (the run ends, or is interrupted): the connection ends here. Raised
            # on, Python 3.11's stream protocol asks the cancelled task for its exception and logs
            # that as an error with a traceback, on the user's terminal at a Ctrl-C (3.12 asks
            # first whether it was cancelled); nothing else awaits this task but close()
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        async with asyncio.timeout(HEAD_DEADLINE):
            head = await reader.readuntil(b"\r\n\r\n")  # LimitOverrunError past MAX_HEAD
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        method, _, rest = line.partition(" ")
        target = rest.rpartition(" ")[0] or rest
        host, port = _authority(target, 443 if method == "CONNECT" else 80)
        route = self.routes.get(host) if method == "CONNECT" else None
        self.attempts.append(ProxyAttempt(method, host, port, route is not None, time.monotonic()))
        if route is None:
            writer.write(
                b"HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length:"
                b" 45\r\nconnection: close\r\n\r\nthe suite's proxy does not connect to this.\r\n"
            )
            await writer.drain()
            return
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", route)
        writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        await writer.drain()
        try:
            await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))
        finally:
            upstream_writer.close()


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    try:
        while chunk := await source.read(CHUNK):
            sink.write(chunk)
            await sink.drain()
    finally:
        with contextlib.suppress(Exception):
            if sink.can_write_eof():
                sink.write_eof()
