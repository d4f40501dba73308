"""WoA over MCP (WoA sections 4.3.2 and 5.3): an envelope becomes a tool call, made with the
official `mcp` SDK's client over streamable HTTP.

The SDK speaks through httpx2, so the suite's limits are applied here again: a deadline on the
whole exchange, a cap on every response body, a CA the user trusts, and no redirect the address
policy has not allowed. Whatever goes wrong comes back as `McpFailed` with the reason, unwrapped
from the SDK's exception groups.
"""

from __future__ import annotations

import asyncio
import json
import logging
import ssl
import time
from collections.abc import AsyncIterator
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from ..recording import Recorder
from ..recording import Replay
from ..recording.mcp_transport import McpRecordingTransport
from ..recording.mcp_transport import McpReplayTransport
from ..report.model import Exchange
from ..report.model import truncate
from .http import tls_context

__all__ = ["McpCall", "McpFailed", "call_tool"]

# The SDK logs a hostile server's defects with tracebacks; the suite reports them as results
# instead.
logging.getLogger("mcp").setLevel(logging.CRITICAL)


class McpFailed(Exception):
    """The MCP exchange could not be completed; `exchange` is the evidence."""

    def __init__(self, message: str, exchange: Exchange) -> None:
        super().__init__(message)
        self.exchange = exchange


class _TooLarge(Exception):
    pass


class _CappedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, limit: int) -> None:
        self.inner, self.limit, self.seen = inner, limit, 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            self.seen += len(chunk)
            if self.seen > self.limit:
                raise _TooLarge(f"an MCP response exceeds the {self.limit:,}-byte cap")
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()


class _CappedTransport(httpx2.AsyncBaseTransport):
    def __init__(self, inner: httpx2.AsyncBaseTransport, limit: int) -> None:
        self.inner, self.limit = inner, limit

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        response.stream = _CappedStream(response.stream, self.limit)  # type: ignore[arg-type]
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


@dataclass(frozen=True)
class McpCall:
    tool: str
    is_error: bool
    structured: Any
    text: str
    exchange: Exchange


def _leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def _result_text(result: Any) -> str:
    return "\n".join(getattr(block, "text", "") for block in getattr(result, "content", []) or [])


async def call_tool(
    server: str,
    names: Sequence[str],
    arguments: dict[str, Any],
    *,
    timeout: float = 10.0,
    max_body: int = 10 * 1024 * 1024,
    cacert: Path | None = None,
    headers: Sequence[tuple[str, str]] = (),
    transport: httpx2.AsyncBaseTransport | None = None,
    recorder: Recorder | None = None,
    replay: Replay | None = None,
) -> McpCall:
    """List the tools at `server`, call the first of `names` it offers with `arguments` (recorded by
    `recorder`, or answered from `replay`), with `headers` (the run's --header) on every request."""
    inner: httpx2.AsyncBaseTransport
    if replay is not None:
        inner = McpReplayTransport(replay)
    else:
        verify: ssl.SSLContext | bool = (
            tls_context(str(cacert) if cacert else None) if transport is None else True
        )
        inner = transport or httpx2.AsyncHTTPTransport(verify=verify)
        if recorder is not None:
            inner = McpRecordingTransport(inner, recorder)
    request = {"method": "tools/call", "candidates": list(names), "arguments": arguments}
    started = time.perf_counter()

    def evidence(status: int | None, body: Any, error: str | None = None) -> Exchange:
        shown, cut = truncate(
            json.dumps(body, ensure_ascii=False, default=str) if body is not None else ""
        )
        return Exchange(
            "MCP tools/call",
            server,
            request_body=json.dumps(request, ensure_ascii=False),
            status=status,
            response_body=shown,
            response_truncated=cut,
            error=error,
            elapsed_ms=round((time.perf_counter() - started) * 1000, 1),
        )

    try:
        async with (
            asyncio.timeout(timeout * 3),
            httpx2.AsyncClient(
                transport=_CappedTransport(inner, max_body),
                timeout=httpx2.Timeout(timeout),
                follow_redirects=False,
                headers=dict(headers),
            ) as http,
            Client(
                streamable_http_client(server, http_client=http),
                read_timeout_seconds=timeout,
                mode="legacy",
            ) as client,
        ):
            offered = [tool.name for tool in (await client.list_tools()).tools]
            tool = next((n for n in names if n in offered), None)
            if tool is None:
                raise McpFailed(
                    f"the MCP server offers no tool named {' or '.join(map(repr, names))} (it"
                    f" offers {offered[:10]})",
                    evidence(None, {"tools": offered}),
                )
            result = await client.call_tool(tool, arguments)
            structured = getattr(result, "structured_content", None)
            body = {
                "tool": tool,
                "isError": bool(result.is_error),
                "structuredContent": structured,
                "text": _result_text(result),
            }
            return McpCall(
                tool, bool(result.is_error), structured, _result_text(result), evidence(200, body)
            )
    except TimeoutError:
        raise McpFailed(
            f"no complete MCP exchange within {timeout * 3:g} s", evidence(None, None, "timeout")
        ) from None
    except Exception as error:  # the SDK wraps transport and protocol errors in exception groups
        leaf = _leaf(error)
        if isinstance(leaf, McpFailed):
            raise leaf from None
        message = f"{type(leaf).__name__}: {leaf}"
        raise McpFailed(
            f"the MCP exchange failed: {message}", evidence(None, None, message)
        ) from None
