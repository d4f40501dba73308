"""Recording and replay as HTTP transports, handed to the clients a run builds: the suite's own
(`HttpClient`, on httpx) and the MCP SDK's (on httpx2, whose API is httpx's: mcp_transport.py,
imported only by a run that speaks MCP).

    RecordingTransport(inner, recorder)   each exchange goes to exchanges.jsonl as it ends
    ReplayTransport(replay)               each request is answered from there, as the network
                                          answered it

What is kept is what crossed the wire: the response body as it came (compressed, when it was), so
that a replay is decoded and capped by the client as the live answer was. A failure is kept as the
transport met it (no connection, a broken exchange, a deadline the client gave up at) and is raised
again in a replay, so that the client says what it said then.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from collections.abc import Callable
from typing import Any

import httpx

from . import Replay
from .recorder import Recorder

__all__ = ["RecordingTransport", "ReplayTransport", "tls_version_of"]

_UNREACHABLE = ("ConnectError", "ConnectTimeout")
_CHUNK = 64 * 1024


def tls_version_of(response: Any) -> str | None:
    """The TLS version the connection of an httpx (or httpx2) response negotiated; None without
    TLS."""
    request = getattr(response, "_request", None)
    if request is not None and request.url.scheme == "http":
        return None  # asking the stream costs a system call a request (anyio's getpeername)
    stream = response.extensions.get("network_stream")
    ssl_object = stream.get_extra_info("ssl_object") if stream is not None else None
    return str(ssl_object.version()) if ssl_object is not None else None


class _Kept:
    """A response stream that hands the recorder what went through it: all of it, as far as the
    client read it (a cap it stopped at), or the deadline it was cancelled at."""

    def __init__(self, inner: Any, done: Callable[[dict[str, Any]], None]) -> None:
        self.inner, self.done, self.seen = inner, done, bytearray()
        self.ended: dict[str, Any] | None = None

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self.inner:
                self.seen += chunk
                yield chunk
        except asyncio.CancelledError:
            self.ended = {"failure": "timeout", "message": "the client's deadline passed"}
            raise

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            if self.done is not None:
                self.done(self.ended or {"response_body": bytes(self.seen)})
                self.done = None  # type: ignore[assignment]


class _Recording:
    """Keeps each exchange in the recording as it ends (module: httpx or httpx2)."""

    module: Any
    kept: type[_Kept]

    def __init__(self, inner: Any, recorder: Recorder) -> None:
        self.inner, self.recorder = inner, recorder

    async def handle_async_request(self, request: Any) -> Any:
        sent, started = await request.aread(), time.perf_counter()

        def keep(outcome: dict[str, Any]) -> None:
            self.recorder.exchange(
                request,
                sent,
                outcome | {"elapsed_ms": round((time.perf_counter() - started) * 1000, 1)},
            )

        try:
            response = await self.inner.handle_async_request(request)
        except asyncio.CancelledError:
            keep({"failure": "timeout", "message": "the client's deadline passed"})
            raise
        except self.module.TransportError as error:
            kind = "unreachable" if type(error).__name__ in _UNREACHABLE else "exchange"
            keep({"failure": kind, "error": type(error).__name__, "message": str(error)})
            raise
        answered = {
            "status": response.status_code,
            "response_headers": dict(response.headers.items()),
            "http_version": (
                response.extensions.get("http_version", b"").decode("ascii", "replace") or None
            ),
            "tls_version": tls_version_of(response),
        }
        response.stream = self.kept(response.stream, lambda ended: keep(answered | ended))
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


class _Replayed:
    """The network stream of a replayed answer: what the client reads of its TLS."""

    def __init__(self, tls_version: str | None) -> None:
        self.tls_version = tls_version

    def get_extra_info(self, name: str) -> Any:
        return self if name == "ssl_object" and self.tls_version else None

    def version(self) -> str | None:
        return self.tls_version


class _Stored:
    """A recorded body, read from the recording in chunks (a recording may come from anyone)."""

    def __init__(self, replay: Replay, digest: str) -> None:
        self.replay, self.digest = replay, digest

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with self.replay.open_body(self.digest) as stored:
            while chunk := stored.read(_CHUNK):
                yield chunk

    async def aclose(self) -> None:
        return None


class _Replaying:
    """Answers each request with the recorded answer to it (module: httpx or httpx2)."""

    module: Any
    stored: type[_Stored]

    def __init__(self, replay: Replay) -> None:
        self.replay = replay

    async def handle_async_request(self, request: Any) -> Any:
        record = self.replay.answer(
            request.method, str(request.url), await request.aread(), request.headers
        )
        if record.get("hid"):
            request.url = self.module.URL(record["url"])
        # what the target sent the suite's servers meanwhile
        await self.replay.feed(record.get("ended_at"))
        failure = record.get("failure")
        if failure == "timeout":
            raise TimeoutError(record["message"])
        if failure:
            error = getattr(self.module, record.get("error") or "", None)
            if not (isinstance(error, type) and issubclass(error, self.module.TransportError)):
                error = (
                    self.module.ConnectError if failure == "unreachable" else self.module.ReadError
                )
            raise error(record["message"], request=request)
        extensions = {
            "http_version": (record.get("http_version") or "HTTP/1.1").encode("ascii"),
            "network_stream": _Replayed(record.get("tls_version")),
        }
        return self.module.Response(
            record["status"],
            headers=record["response_headers"],
            stream=self.stored(self.replay, record["response_body"]),
            request=request,
            extensions=extensions,
        )

    async def aclose(self) -> None:
        return None


class _HttpxKept(_Kept, httpx.AsyncByteStream):
    pass


class _HttpxStored(_Stored, httpx.AsyncByteStream):
    pass


class RecordingTransport(_Recording, httpx.AsyncBaseTransport):
    module, kept = httpx, _HttpxKept


class ReplayTransport(_Replaying, httpx.AsyncBaseTransport):
    module, stored = httpx, _HttpxStored
