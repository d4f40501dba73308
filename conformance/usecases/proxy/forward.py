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
from typing import Any

import httpx
from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from ...bindings.observed import MAX_BODY
from ...bindings.observed import Observed
from ...bindings.observed import Traffic
from ...recording.transport import tls_version_of

__all__ = ["forwarding_app"]

_HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
    }
)


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
    """The document with its transport URLs on the upstream's origin moved to the proxy's (None:
    nothing to move)."""
    transports = document.get("transports") if isinstance(document, dict) else None
    changed = False
    for name, member in (("rest", "base"), ("mcp", "server")):
        config = transports.get(name) if isinstance(transports, dict) else None
        url = config.get(member) if isinstance(config, dict) else None
        if (
            isinstance(config, dict)
            and isinstance(url, str)
            and url.startswith(upstream.rstrip("/"))
        ):
            config[member] = proxy.rstrip("/") + url[len(upstream.rstrip("/")) :]
            changed = True
    return document if changed else None


async def _respond(send: Send, status: int, headers: dict[str, str], body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": (
                [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
                + [(b"content-length", str(len(body)).encode())]
            ),
        }
    )
    await send({"type": "http.response.body", "body": body})


def _problem(status: int, detail: str) -> tuple[int, dict[str, str], bytes]:
    body = json.dumps(
        {
            "type": "about:blank",
            "title": "agent-conformance proxy",
            "status": status,
            "detail": detail,
        }
    )
    return status, {"content-type": "application/problem+json"}, body.encode()


def forwarding_app(
    upstream: str,
    client: httpx.AsyncClient,
    traffic: Traffic,
    proxy_url: str,
    *,
    rewrite: bool = True,
    deadline: float = 30.0,
) -> ASGIApp:
    """The app that forwards to `upstream` (an origin, maybe with a base path) through `client`,
    recording into `traffic`. Reading the client's request and the upstream's whole answer each
    have `deadline` seconds."""
    upstream = upstream.rstrip("/")

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        path = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        query = scope.get("query_string", b"").decode("latin-1")
        path += f"?{query}" if query else ""
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])
        }
        try:
            async with asyncio.timeout(deadline):
                body = await _read_body(receive)
        except TimeoutError:
            await _respond(
                send, *_problem(408, f"the request was not received within {deadline:g} s")
            )
            return
        if body is None:
            await _respond(
                send, *_problem(413, f"the request body exceeds the proxy's {MAX_BODY:,}-byte cap")
            )
            return
        url, started = upstream + path, time.perf_counter()
        forwarded = {k: v for k, v in headers.items() if k not in _HOP_BY_HOP}
        try:
            async with (
                asyncio.timeout(deadline),
                client.stream(scope["method"], url, headers=forwarded, content=body) as response,
            ):
                raw, tls = bytearray(), tls_version_of(response)
                async for chunk in response.aiter_raw():
                    raw += chunk
                    if len(raw) > MAX_BODY:
                        raise httpx.DecodingError(
                            f"the upstream's answer exceeds the proxy's {MAX_BODY:,}-byte cap"
                        )
        except (httpx.HTTPError, TimeoutError) as error:
            problem = str(error) or f"no complete answer within {deadline:g} s"
            status, answer_headers, answer = _problem(
                502, f"the upstream did not answer: {problem}"
            )
            traffic.add(
                Observed(
                    scope["method"],
                    url,
                    path,
                    headers,
                    body,
                    None,
                    {},
                    b"",
                    round((time.perf_counter() - started) * 1000, 1),
                    problem,
                )
            )
            await _respond(send, status, answer_headers, answer)
            return
        answer_headers = {
            k.lower(): v for k, v in response.headers.items() if k.lower() not in _HOP_BY_HOP
        }
        decoded = _decoded(bytes(raw), answer_headers.get("content-encoding", "").strip().lower())
        observed = Observed(
            scope["method"],
            url,
            path,
            headers,
            body,
            response.status_code,
            answer_headers,
            decoded,
            round((time.perf_counter() - started) * 1000, 1),
            tls_version=tls,
        )
        traffic.add(observed)
        delivered = bytes(raw)
        if (
            rewrite
            and observed.is_document
            and response.status_code == 200
            and "content-encoding" not in answer_headers
        ):
            moved = _rewritten(observed.response_json(), upstream, proxy_url)
            if moved is not None:
                delivered = json.dumps(moved).encode()
                traffic.rewritten(observed.url)
        await _respond(send, response.status_code, answer_headers, delivered)

    return app
