"""Recording and replay for clients the suite does not write itself: an httpx2 transport (the MCP
SDK's client speaks through httpx2) that keeps each exchange in the recording's exchanges.jsonl,
or answers it from there, the same way `HttpClient` does for the suite's own requests."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import httpx2

from . import Recorder, Replay

__all__ = ["RecordingTransport", "ReplayTransport"]


class _Kept(httpx2.AsyncByteStream):
    """A response stream that hands the recorder what went through it once it is closed (a server-sent
    event stream is kept as far as the client read it)."""

    def __init__(self, inner: httpx2.AsyncByteStream, done: Any) -> None:
        self.inner, self.done, self.seen = inner, done, bytearray()

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            self.seen += chunk
            yield chunk

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            if self.done is not None:
                self.done(bytes(self.seen))
                self.done = None


class RecordingTransport(httpx2.AsyncBaseTransport):
    def __init__(self, inner: httpx2.AsyncBaseTransport, recorder: Recorder) -> None:
        self.inner, self.recorder = inner, recorder

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        sent, started = await request.aread(), time.perf_counter()
        try:
            response = await self.inner.handle_async_request(request)
        except httpx2.TransportError as error:
            self.recorder.exchange(request, sent, {"failure": "unreachable", "message": f"{type(error).__name__}: {error}"})  # type: ignore[arg-type]
            raise

        def done(body: bytes) -> None:
            self.recorder.exchange(request, sent, {  # type: ignore[arg-type]
                "status": response.status_code, "response_headers": dict(response.headers), "response_body": body,
                "http_version": response.extensions.get("http_version", b"").decode("ascii", "replace") or None,
                "elapsed_ms": round((time.perf_counter() - started) * 1000, 1)})

        response.stream = _Kept(response.stream, done)  # type: ignore[arg-type]
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


class ReplayTransport(httpx2.AsyncBaseTransport):
    def __init__(self, replay: Replay, limit: int) -> None:
        self.replay, self.limit = replay, limit

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        record = self.replay.answer(request.method, str(request.url), await request.aread(), request.headers, self.limit)
        await self.replay.feed(record.get("ended_at"))
        if record.get("failure"):
            raise httpx2.ConnectError(record["message"], request=request) if record["failure"] == "unreachable" \
                else httpx2.ReadError(record["message"], request=request)
        return httpx2.Response(record["status"], headers=record["response_headers"], content=record["response_body"], request=request)

