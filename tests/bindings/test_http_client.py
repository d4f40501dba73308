"""The suite's one HTTP path: a pooled connection the server closed as it was reused never
becomes a verdict."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from conformance.bindings import ExchangeFailed
from conformance.bindings import HttpClient
from conformance.bindings.http import KEEPALIVE_SECONDS


def _closing_once() -> tuple[httpx.MockTransport, list[str]]:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.method)
        # what httpcore raises when the server closed the idle connection under the request
        if len(seen) == 1:
            raise httpx.RemoteProtocolError(
                "Server disconnected without sending a response.", request=request
            )
        return httpx.Response(200, json={"ok": True})

    return httpx.MockTransport(handler), seen


def test_an_idempotent_request_is_sent_again_on_a_fresh_connection() -> None:
    transport, seen = _closing_once()

    async def get() -> int:
        async with HttpClient(transport=transport) as client:
            return (await client.request("GET", "https://agent.test/.well-known/woa.json")).status

    assert asyncio.run(get()) == 200 and seen == ["GET", "GET"]


def test_a_post_is_never_sent_twice() -> None:
    transport, seen = _closing_once()

    async def post() -> None:
        async with HttpClient(transport=transport) as client:
            await client.request("POST", "https://agent.test/agents/a/invoke", json={})

    with pytest.raises(ExchangeFailed, match="Server disconnected"):
        asyncio.run(post())
    assert seen == ["POST"]


def test_idle_connections_are_dropped_before_common_servers_close_them() -> None:
    assert KEEPALIVE_SECONDS < 5  # uvicorn's and Node's keep-alive timeout
