"""Hostile little targets for the suite's own tests: each misbehaves in one way."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.responses import StreamingResponse
from starlette.routing import Route

__all__ = ["answers_50_mb", "answers_html", "answers_nested", "never_answers"]


def _app(handler) -> Starlette:  # type: ignore[no-untyped-def]
    return Starlette(routes=[Route("/.well-known/woa.json", handler)])


def answers_html(_: str) -> Starlette:
    async def handler(request: Request) -> Response:
        return Response("<html>not json</html>", media_type="text/html")

    return _app(handler)


def answers_nested(_: str) -> Starlette:
    async def handler(request: Request) -> Response:
        return Response("[" * 100_000 + "]" * 100_000, media_type="application/woa+json")

    return _app(handler)


def answers_50_mb(_: str) -> Starlette:
    async def body() -> AsyncIterator[bytes]:
        chunk = b" " * (1024 * 1024)
        for _ in range(50):
            yield chunk

    async def handler(request: Request) -> Response:
        return StreamingResponse(body(), media_type="application/woa+json")

    return _app(handler)


def never_answers(_: str) -> Starlette:
    async def handler(request: Request) -> Response:
        await asyncio.sleep(30)
        return Response("{}")

    return _app(handler)


def planted_500(base: str) -> Any:
    """The reference host with one planted bug: a 500 when max_words is at its maximum (500)."""
    import json

    from mocks.reference.woa_host import create_app

    inner = create_app(base)

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] != "http" or scope["method"] != "POST":
            return await inner(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        try:
            planted = json.loads(body).get("input", {}).get("max_words") == 500
        except (ValueError, AttributeError, RecursionError):
            planted = False
        if planted:
            return await Response("boom", status_code=500)(scope, receive, send)

        async def replay():  # type: ignore[no-untyped-def]
            return {"type": "http.request", "body": body, "more_body": False}

        return await inner(scope, replay, send)

    return app
