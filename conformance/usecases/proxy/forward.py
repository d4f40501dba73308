"""The forwarding half of the passive proxy: an ASGI app that sends each request on to the upstream
host, hands its answer back unchanged, and records both.

It forwards only to the upstream's origin (the address the user gave): the request's path and
query are kept, the host is always the upstream's. Hop-by-hop headers are dropped both ways, as
any HTTP proxy does (RFC 9110, 7.6.1). One change is made, and said in the report: a WoA document's
transport URLs on the upstream's origin are pointed at the proxy (`rewrite`), or a client would
invoke the upstream directly and the proxy would see no invocation; the document is judged as
the upstream served it.
"""

from __future__ import annotations

import asyncio
import json
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

import httpx
from starlette.types import ASGIApp, Receive, Scope, Send

from ...bindings.jsonparse import NotJson, parse_json
from ...recording import Recorder, Replay
from ...report.model import Exchange, truncate

__all__ = ["MAX_BODY", "Recorded", "Traffic", "forwarding_app"]

MAX_BODY = 10 * 1024 * 1024
WELL_KNOWN = "/.well-known/woa.json"
_HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
                         "transfer-encoding", "upgrade", "host", "content-length"})


@dataclass(frozen=True)
class Recorded:
    """One exchange that passed through the proxy, with the bodies as sent (the response's decoded)."""

    method: str
    url: str  # the upstream URL it went to
    path: str  # path and query, as the client sent them
    request_headers: dict[str, str]
    request_body: bytes
    status: int | None
    response_headers: dict[str, str]
    response_body: bytes
    elapsed_ms: float
    error: str | None = None

    @property
    def is_document(self) -> bool:
        return self.path.split("?")[0] == WELL_KNOWN

    def request_json(self) -> Any:
        return _json(self.request_body)

    def response_json(self) -> Any:
        return _json(self.response_body)

    def exchange(self) -> Exchange:
        sent, _ = truncate(self.request_body.decode("utf-8", "backslashreplace"))
        answered, cut = truncate(self.response_body.decode("utf-8", "backslashreplace"))
        return Exchange(self.method, self.url, self.request_headers, sent, self.status, self.response_headers, answered,
                        cut, elapsed_ms=self.elapsed_ms, error=self.error)


def _json(body: bytes) -> Any:
    try:
        return parse_json(body)
    except NotJson:
        return None


@dataclass
class Traffic:
    """Every exchange seen, in order, and what the proxy changed; with a recorder, each is also written
    to a recording (conformance/recording) as it completes."""

    exchanges: list[Recorded] = field(default_factory=list)
    rewrites: int = 0
    recorder: Recorder | None = None

    def add(self, recorded: Recorded) -> None:
        self.exchanges.append(recorded)
        if self.recorder is not None:
            request = httpx.Request(recorded.method, recorded.url, headers=recorded.request_headers)
            outcome = ({"failure": "exchange", "message": recorded.error, "elapsed_ms": recorded.elapsed_ms} if recorded.status is None
                       else {"status": recorded.status, "response_headers": recorded.response_headers,
                             "response_body": recorded.response_body, "elapsed_ms": recorded.elapsed_ms})
            client = {"path": recorded.path, "headers": recorded.request_headers}  # as the client sent them
            self.recorder.exchange(request, recorded.request_body, outcome | {"proxied": client})

    @classmethod
    def recorded(cls, replay: Replay) -> Traffic:
        """The traffic a `proxy --record` run kept, in the order it completed (bodies no longer than the proxy's cap)."""
        exchanges = []
        for line in replay.lines("exchanges.jsonl"):
            client = line.get("proxied", {"path": line["url"], "headers": line["request_headers"]})
            sent = replay.body(line["request_body"], MAX_BODY)
            answered = replay.body(line["response_body"], MAX_BODY) if "response_body" in line else b""
            error = line.get("message") if line.get("failure") else None
            if len(sent) > MAX_BODY or len(answered) > MAX_BODY:
                error, answered = f"a recorded body exceeds the proxy's {MAX_BODY:,}-byte cap", b""
            exchanges.append(Recorded(line["method"], line["url"], client["path"], client["headers"], sent[:MAX_BODY],
                                      line.get("status") if error is None else None, line.get("response_headers", {}),
                                      answered, line.get("elapsed_ms") or 0.0, error))
        return cls(exchanges)


def _decoded(body: bytes, encoding: str) -> bytes:
    """The body decoded for judging, never past MAX_BODY bytes (a compression bomb stops there)."""
    if encoding not in ("gzip", "deflate"):
        return body
    try:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS)
        return inflater.decompress(body, MAX_BODY)
    except zlib.error:
        return body


async def _read_body(receive: Receive) -> bytes | None:
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return bytes(body)
        body += message.get("body", b"")
        if len(body) > MAX_BODY:
            return None
        if not message.get("more_body"):
            return bytes(body)


def _rewritten(document: Any, upstream: str, proxy: str) -> Any:
    """The document with its transport URLs on the upstream's origin moved to the proxy's (None: nothing to move)."""
    transports = document.get("transports") if isinstance(document, dict) else None
    changed = False
    for name, member in (("rest", "base"), ("mcp", "server")):
        config = transports.get(name) if isinstance(transports, dict) else None
        url = config.get(member) if isinstance(config, dict) else None
        if isinstance(config, dict) and isinstance(url, str) and url.startswith(upstream.rstrip("/")):
            config[member] = proxy.rstrip("/") + url[len(upstream.rstrip("/")):]
            changed = True
    return document if changed else None


async def _respond(send: Send, status: int, headers: dict[str, str], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
                + [(b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _problem(status: int, detail: str) -> tuple[int, dict[str, str], bytes]:
    body = json.dumps({"type": "about:blank", "title": "agent-conformance proxy", "status": status, "detail": detail})
    return status, {"content-type": "application/problem+json"}, body.encode()


def forwarding_app(upstream: str, client: httpx.AsyncClient, traffic: Traffic, proxy_url: str, *, rewrite: bool = True,
                   deadline: float = 30.0) -> ASGIApp:
    """The app that forwards to `upstream` (an origin, maybe with a base path) through `client`, recording into `traffic`.
    Reading the client's request and the upstream's whole answer each have `deadline` seconds."""
    upstream = upstream.rstrip("/")

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        path = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        query = scope.get("query_string", b"").decode("latin-1")
        path += f"?{query}" if query else ""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        try:
            async with asyncio.timeout(deadline):
                body = await _read_body(receive)
        except TimeoutError:
            await _respond(send, *_problem(408, f"the request was not received within {deadline:g} s"))
            return
        if body is None:
            await _respond(send, *_problem(413, f"the request body exceeds the proxy's {MAX_BODY:,}-byte cap"))
            return
        url, started = upstream + path, time.perf_counter()
        forwarded = {k: v for k, v in headers.items() if k not in _HOP_BY_HOP}
        try:
            async with asyncio.timeout(deadline), client.stream(scope["method"], url, headers=forwarded, content=body) as response:
                raw = bytearray()
                async for chunk in response.aiter_raw():
                    raw += chunk
                    if len(raw) > MAX_BODY:
                        raise httpx.DecodingError(f"the upstream's answer exceeds the proxy's {MAX_BODY:,}-byte cap")
        except (httpx.HTTPError, TimeoutError) as error:
            problem = str(error) or f"no complete answer within {deadline:g} s"
            status, answer_headers, answer = _problem(502, f"the upstream did not answer: {problem}")
            traffic.add(Recorded(scope["method"], url, path, headers, body, None, {}, b"",
                                 round((time.perf_counter() - started) * 1000, 1), problem))
            await _respond(send, status, answer_headers, answer)
            return
        answer_headers = {k.lower(): v for k, v in response.headers.items() if k.lower() not in _HOP_BY_HOP}
        decoded = _decoded(bytes(raw), answer_headers.get("content-encoding", "").strip().lower())
        recorded = Recorded(scope["method"], url, path, headers, body, response.status_code, answer_headers, decoded,
                            round((time.perf_counter() - started) * 1000, 1))
        traffic.add(recorded)
        delivered = bytes(raw)
        if rewrite and recorded.is_document and response.status_code == 200 and "content-encoding" not in answer_headers:
            moved = _rewritten(recorded.response_json(), upstream, proxy_url)
            if moved is not None:
                delivered = json.dumps(moved).encode()
                traffic.rewrites += 1
        await _respond(send, response.status_code, answer_headers, delivered)

    return app
