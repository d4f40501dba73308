"""The spy host: serves each scenario's WoA documents and answers invocations, recording every
request.

One ASGI app serves every scenario; the Host header says which (each scenario has its own origin).
It answers GET /.well-known/woa.json with the scenario's document (and its caching headers, with a
304 to a matching If-None-Match), and any other request as an invocation: an echo of the input that
conforms to the outputs schema, or the scenario's redirect. Anything else a client sends is still
recorded, as it came (method, path, headers, the body up to a cap): the checks judge what was sent.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any

from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from ..bindings.jsonparse import NotJson
from ..bindings.jsonparse import parse_json
from .scenarios import Scenario

__all__ = ["MAX_RECORDED_BODY", "Recorder", "SpyRequest", "spy_app"]

MAX_RECORDED_BODY = 1024 * 1024
WELL_KNOWN = "/.well-known/woa.json"


@dataclass(frozen=True)
class SpyRequest:
    """One request that reached the spy host, through one of its listeners."""

    listener: str
    host: str
    method: str
    path: str  # with the query, as sent
    headers: dict[str, str]
    body: bytes
    at: float
    truncated: bool = False
    status: int | None = None  # how it was answered (None: it got no answer)
    answered: dict[str, str] = field(default_factory=dict)  # the answer's headers
    #: where it went, when not to the spy host (a request a run that watches saw pass by)
    url: str = ""

    @property
    def is_document(self) -> bool:
        return self.path.split("?")[0] == WELL_KNOWN

    @property
    def is_json(self) -> bool:
        """Whether the body parses as one JSON text (null included)."""
        try:
            parse_json(self.body)
        except NotJson:
            return False
        return True

    def json(self) -> Any:
        """The body as JSON, or None when it is not JSON (deep nesting and huge numbers
        included)."""
        try:
            return parse_json(self.body)
        except NotJson:
            return None

    def as_evidence(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "url": self.url or f"https://{self.host}{self.path}",
            "request_headers": self.headers,
            "request_body": self.body[:4096].decode("utf-8", "backslashreplace"),
        }


@dataclass
class Recorder:
    requests: list[SpyRequest] = field(default_factory=list)

    def on(self, host: str) -> list[SpyRequest]:
        return [r for r in self.requests if r.host == host]


def _host(scope: Scope) -> str:
    headers: dict[bytes, bytes] = dict(scope.get("headers") or [])
    raw = headers.get(b"host", b"").decode("latin-1").lower()
    name, _, port = raw.rpartition(":")
    return name if name and port.isdigit() else raw


async def _body(receive: Receive) -> tuple[bytes, bool]:
    body, truncated = bytearray(), False
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        room = MAX_RECORDED_BODY - len(body)
        body += chunk[:room]
        truncated = truncated or len(chunk) > room
        if not message.get("more_body"):
            break
    return bytes(body), truncated


def spy_app(scenarios: dict[str, Scenario], recorder: Recorder, listener: str) -> ASGIApp:
    """The ASGI app of one listener (its certificate is the listener's): `scenarios` maps each
    host to its scenario."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        host = _host(scope)
        body, truncated = await _body(receive)
        path = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        query = scope.get("query_string", b"").decode("latin-1")
        request = SpyRequest(
            listener,
            host,
            scope["method"],
            path + (f"?{query}" if query else ""),
            {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])},
            body,
            time.monotonic(),
            truncated,
        )
        status, headers, payload = _answer(scenarios.get(host), request)
        recorder.requests.append(replace(request, status=status, answered=headers))
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    return app


def _problem(status: int, detail: str) -> tuple[int, dict[str, str], bytes]:
    body = json.dumps(
        {"type": "about:blank", "title": "spy host", "status": status, "detail": detail}
    ).encode()
    return status, {"content-type": "application/problem+json"}, body


def _answer(scenario: Scenario | None, request: SpyRequest) -> tuple[int, dict[str, str], bytes]:
    if scenario is None:
        return _problem(404, f"the spy host serves no scenario at {request.host}")
    if request.is_document:
        if request.method != "GET":
            return _problem(405, "the WoA document is read with GET")
        headers = {"content-type": "application/woa+json", **scenario.document_headers}
        etag = scenario.document_headers.get("etag")
        if etag and etag in request.headers.get("if-none-match", ""):
            return 304, {k: v for k, v in headers.items() if k != "content-type"}, b""
        return 200, headers, json.dumps(scenario.documents[request.host]).encode()
    answer = scenario.answers.get(request.host)
    if answer is not None and answer.redirect:
        return 307, {"location": answer.redirect, "content-type": "application/problem+json"}, b"{}"
    envelope = request.json()
    text = (
        envelope.get("input", {}).get("text")
        if isinstance(envelope, dict) and isinstance(envelope.get("input"), dict)
        else None
    )
    return (
        200,
        {"content-type": "application/json"},
        json.dumps({"echo": text if isinstance(text, str) else "ok"}).encode(),
    )
