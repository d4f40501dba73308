"""Servers the suite itself runs on loopback: spies that play the other side and record every
request they get (an SDSI server for SDSI clients, ACI invoked agents for ACI masters), and a
context store for ACI invoked agents. They read bodies capped and say no with problem details;
`ProblemDetailsOnly` makes sure of it for what their frameworks answer themselves (the mocks use
it too)."""

import json
import logging
from http import HTTPStatus
from typing import Any

import anyio
from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from ..bindings.jsonparse import NotJson
from ..bindings.jsonparse import parse_json

__all__ = [
    "PROBLEM_JSON",
    "HttpMiddleware",
    "ProblemDetailsOnly",
    "TooLarge",
    "problem",
    "read_capped",
    "read_message",
]

_log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"


def problem(status: int, title: str, detail: str = "", **extensions: Any) -> JSONResponse:
    """RFC 9457 problem details: how the suite's servers, and the mocks, say no."""
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, **extensions}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


class TooLarge(Exception):
    """A request body over the cap."""


def read_message(body: bytes) -> Any:
    """A request's JSON body as the project's servers take it: JSON (`parse_json`), and only
    Unicode scalar values in its strings. A lone surrogate (`"\\ud800"`) is valid JSON, but RFC
    8259 section 8.2 leaves what a receiver does with it unpredictable, and no UTF-8 answer can
    hold it: it is refused (NotJson, a 400) rather than met by a 500 when the answer echoes it."""
    message = parse_json(body)
    try:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        raise NotJson(
            f"holds a lone surrogate (U+{ord(error.object[error.start]):04X}), which is no"
            " Unicode scalar value (RFC 8259 section 8.2)"
        ) from None
    return message


async def read_capped(request: Request, limit: int = 1024 * 1024) -> bytes:
    """The request body, refusing more than `limit` bytes whatever Content-Length claims."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the body exceeds {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise TooLarge(f"the body exceeds {limit} bytes")
    return bytes(body)


class HttpMiddleware:
    """ASGI middleware that has a say over HTTP requests alone (`http`); anything else (lifespan,
    WebSocket) goes straight to the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


_JSON_TYPES = (PROBLEM_JSON, "application/json")
_DETAIL_LIMIT = 1000


class ProblemDetailsOnly(HttpMiddleware):
    """ASGI middleware: every error the wrapped app answers is RFC 9457 problem details.

    An error a framework writes as text or HTML (a router's 404 and 405, an SDK's own refusals) is
    rewritten as problem+json with the same status; errors already in JSON are left as they are
    (a named fault may answer one on purpose). An exception that escapes the app becomes a 500 in
    problem details instead of a traceback and a dead connection, and a client that went away is
    let go quietly. The 500 is still a 5xx: the mocks' fuzz tests count it as the defect it is."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False
        # an error answer being rewritten: its status and first bytes
        held: dict[str, Any] | None = None

        async def guarded(message: Message) -> None:
            nonlocal started, held
            if message["type"] == "http.response.start":
                media = (
                    Headers(raw=message.get("headers", []))
                    .get("content-type", "")
                    .split(";")[0]
                    .strip()
                    .lower()
                )
                if message["status"] >= 400 and media not in _JSON_TYPES:
                    held = {"status": message["status"], "body": b""}
                    return
                started = True
                await send(message)
            elif message["type"] == "http.response.body" and held is not None:
                held["body"] = (held["body"] + message.get("body", b""))[:_DETAIL_LIMIT]
                if not message.get("more_body", False):
                    started = True
                    detail = held["body"].decode("utf-8", errors="replace").strip()
                    await problem(held["status"], _title(held["status"]), detail)(
                        scope, receive, send
                    )
            else:
                await send(message)

        try:
            await self.app(scope, receive, guarded)
        except ClientDisconnect:
            return
        except Exception as error:
            if _cut_by_shutdown(error):
                _log.warning("a request cut short by the server's shutdown")
                answer = problem(503, "Service Unavailable", "the server is shutting down")
            else:
                _log.exception("a defect answered as 500 problem details")
                answer = problem(500, "Internal Server Error", f"{type(error).__name__}")
            if not started:
                await answer(scope, receive, send)


def _cut_by_shutdown(error: BaseException | None) -> bool:
    """Whether the server's shutdown (SIGTERM) closed the streams under the request: the error is a
    closed stream, or was raised while an app handled one (the MCP SDK then answers on a connection
    the server has already finished). No defect of the app."""
    while error is not None:
        if isinstance(error, anyio.ClosedResourceError):
            return True
        error = error.__cause__ or error.__context__
    return False


def _title(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"
