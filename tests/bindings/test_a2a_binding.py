"""The A2A binding against hostile agents: a card pointing elsewhere is not followed, a card that is
not one and an answer without a data part are reasons, never exceptions."""

from __future__ import annotations

from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.responses import Response
from starlette.routing import Route

from conformance.bindings.a2a import send_data
from conformance.bindings.http import HttpClient

BASE = "http://agent.test"


def _card(rpc: str) -> dict[str, Any]:
    return {
        "name": "hostile",
        "description": "d",
        "version": "1",
        "capabilities": {"streaming": False},
        "supportedInterfaces": [
            {"url": rpc, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "defaultInputModes": ["application/json"],
        "defaultOutputModes": ["application/json"],
        "skills": [{"id": "s", "name": "s", "description": "s", "tags": ["t"]}],
    }


def _app(card: Any, answer: Any = None) -> Starlette:
    async def well_known(_: Request) -> Response:
        return JSONResponse(card)

    async def rpc(request: Request) -> Response:
        body = await request.json()
        return JSONResponse({"jsonrpc": "2.0", "id": body.get("id"), "result": answer})

    return Starlette(
        routes=[
            Route("/.well-known/agent-card.json", well_known),
            Route("/rpc", rpc, methods=["POST"]),
        ]
    )


async def _send(app: Starlette) -> Any:
    async with HttpClient(timeout=5, transport=httpx.ASGITransport(app=app)) as client:
        return await send_data(
            client,
            BASE,
            {"AgentContext": {"AgentID": "a"}},
            lambda url: url.startswith(BASE),
            "m-1",
        )


async def test_a_card_that_points_off_origin_is_not_followed() -> None:
    reply = await _send(_app(_card("https://169.254.169.254/rpc")))
    assert reply.status is None and "address policy" in (reply.problem or "")


async def test_a_card_that_is_not_a_card_is_a_reason() -> None:
    reply = await _send(_app(["not", "a", "card"]))
    assert reply.status is None and reply.problem


async def test_an_answer_without_a_data_part_is_an_answer_a_rejected_task_declines() -> None:
    """E-ACI-A2A-DECLINED: a message (or a completed task) without a data part is an answer, its
    text the body the rules judge; a task that ends rejected is A2A's own way of saying no."""
    message = {"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "hello"}]}}
    reply = await _send(_app(_card(f"{BASE}/rpc"), message))
    assert reply.ok and reply.body == "hello"
    rejected = {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_REJECTED"}}}
    reply = await _send(_app(_card(f"{BASE}/rpc"), rejected))
    assert not reply.ok and "declined: the A2A task ended TASK_STATE_REJECTED" in (
        reply.problem or ""
    ), reply


async def test_a_url_with_control_characters_is_unreachable_not_an_exception() -> None:
    from conformance.bindings.http import Unreachable

    async with HttpClient(timeout=5) as client:
        try:
            await client.request("GET", "http://localhost/\x13\x80")
        except Unreachable as error:
            assert "not a usable URL" in str(error)
        else:
            raise AssertionError("the request was sent")
