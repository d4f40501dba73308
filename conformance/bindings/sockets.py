"""The network under the HTTP client's connection pool, asking cheaply whether a server closed an
idle connection.

httpcore asks that of every idle pooled connection each time it places a request; its asyncio
streams answer through anyio's attribute table, which calls getpeername() and builds a new poll
object every time. With eight connections that was a fifth of the client's time per exchange
(1,000 invocations: 0.68-0.72 s of CPU, 0.57-0.59 s with this). Here each stream keeps one poll
object on its socket, and every other question goes to httpcore's own stream."""

from __future__ import annotations

import select
import ssl
from typing import Any

import httpcore
import httpx

__all__ = ["cheap_idle_checks"]


class _Stream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self._inner = inner
        self._poll: Any = None

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return _Stream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        if info != "is_readable":
            return self._inner.get_extra_info(info)
        if self._poll is None:
            sock = self._inner.get_extra_info("socket")
            if sock is None or sock.fileno() == -1:
                return True  # as httpcore says of a stream without a usable socket
            self._poll = select.poll()
            self._poll.register(sock.fileno(), select.POLLIN)
        # readable while idle: the server closed it (or sent what it should not have)
        return bool(self._poll.poll(0))


class _Backend(httpcore.AsyncNetworkBackend):
    def __init__(self, inner: httpcore.AsyncNetworkBackend) -> None:
        self._inner = inner

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.AsyncNetworkStream:
        return _Stream(
            await self._inner.connect_tcp(host, port, timeout, local_address, socket_options)
        )

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.AsyncNetworkStream:
        return _Stream(await self._inner.connect_unix_socket(path, timeout, socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


def cheap_idle_checks(transport: httpx.AsyncHTTPTransport) -> httpx.AsyncHTTPTransport:
    """`transport` with its pool's connections on streams that answer "is it readable" with one
    poll. httpx offers no way to give its pool a network backend, so the pool's is wrapped in
    place; a pool of another shape (a proxy's, another httpx) is left as it is, only slower
    (tests/bindings/test_sockets.py says whether it is wrapped)."""
    pool = getattr(transport, "_pool", None)
    if (
        select.__dict__.get("poll") is not None
        and isinstance(pool, httpcore.AsyncConnectionPool)
        and isinstance(getattr(pool, "_network_backend", None), httpcore.AsyncNetworkBackend)
    ):
        pool._network_backend = _Backend(pool._network_backend)
    return transport
