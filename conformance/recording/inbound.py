"""The traffic a target sends to the servers the suite hosts: recorded on its way through their
ASGI app, and fed back through the same app in-process when the run is replayed."""

from __future__ import annotations

import time
from typing import Any

from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from .recorder import STAMPS
from .recorder import Recorder

__all__ = ["RecordedInbound", "replay_request"]

_CAP = 4 * 1024 * 1024  # what is kept of a request or an answer: the hosted servers read no more


class RecordedInbound:
    """ASGI middleware: every HTTP request the app answers goes to the recorder, with its answer
    and the clock readings the app took (`stamp`)."""

    def __init__(self, app: ASGIApp, recorder: Recorder, server: str) -> None:
        self.app, self.recorder, self.server = app, recorder, server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        at = time.time()
        body, response = bytearray(), bytearray()
        answer: dict[str, Any] = {"status": None, "response_headers": []}

        async def receiving() -> Message:
            message = await receive()
            if message["type"] == "http.request" and len(body) < _CAP:
                body.extend(message.get("body", b"")[: _CAP - len(body)])
                if not message.get("more_body"):
                    self.recorder.handed(bytes(body))  # before the app fetches what it was handed
            return message

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["response_headers"] = [
                    [k.decode("latin-1"), v.decode("latin-1")]
                    for k, v in message.get("headers", [])
                ]
            elif message["type"] == "http.response.body" and len(response) < _CAP:
                response.extend(message.get("body", b"")[: _CAP - len(response)])
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        finally:
            request = {
                "method": scope["method"],
                "path": scope["path"],
                "query": scope.get("query_string", b"").decode("latin-1"),
                "request_headers": [
                    [k.decode("latin-1"), v.decode("latin-1")] for k, v in scope.get("headers", [])
                ],
                "at": at,
            }
            self.recorder.inbound(
                self.server,
                request,
                bytes(body),
                answer | {"stamps": scope.get(STAMPS, {})},
                bytes(response),
            )


async def replay_request(app: ASGIApp, record: dict[str, Any], body: bytes) -> None:
    """Feed a recorded request through `app`, handing back the clock readings it took then; what
    the app answers now is discarded (the target's side of it is in the recording already)."""
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "scheme": "http",
        "method": record["method"],
        "path": record["path"],
        "raw_path": record["path"].encode(),
        "query_string": record.get("query", "").encode("latin-1"),
        "root_path": "",
        "headers": [
            (k.encode("latin-1"), v.encode("latin-1")) for k, v in record.get("request_headers", [])
        ],
        "client": ("127.0.0.1", 0),
        "server": ("127.0.0.1", 0),
        "state": {},
        STAMPS: dict(record.get("stamps", {})),
    }
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(_: Message) -> None:
        return None

    await app(scope, receive, send)
