"""The MCP binding against endpoints that are not what they claim: a clear McpFailed, in time."""

from __future__ import annotations

import socket
import time

import pytest

from conformance.bindings.mcp import McpFailed
from conformance.bindings.mcp import call_tool
from mocks.serve import serve
from mocks.serve import serve_host
from tests import hostile


async def test_a_tool_call_on_the_reference_host() -> None:
    with serve_host() as host:
        call = await call_tool(
            host.url + "/mcp/",
            ["summarizer"],
            {"text": "one two three"},
            cacert=host.cacert,
            timeout=5,
        )
    assert (
        call.tool == "summarizer"
        and not call.is_error
        and call.structured == {"summary": "one two three"}
    )


async def test_a_missing_tool_is_named() -> None:
    with serve_host() as host, pytest.raises(McpFailed, match="offers no tool named 'translator'"):
        await call_tool(host.url + "/mcp/", ["translator"], {}, cacert=host.cacert, timeout=5)


async def test_an_endpoint_that_is_not_mcp_fails_clearly() -> None:
    with serve(hostile.answers_html, tls=False) as host:
        started = time.monotonic()
        with pytest.raises(McpFailed, match="the MCP exchange failed"):
            await call_tool(host.url + "/.well-known/woa.json", ["summarizer"], {}, timeout=2)
    assert time.monotonic() - started < 10


async def test_nothing_listening_fails_clearly() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(McpFailed, match="ConnectError"):
        await call_tool(f"http://127.0.0.1:{port}/mcp/", ["summarizer"], {}, timeout=2)
