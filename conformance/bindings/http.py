"""The one way the suite speaks HTTP: every request with a deadline, every response with a size cap.

    HttpClient.request() -> HttpResponse (status, headers, body, TLS version, evidence)
        raises Unreachable      not connected to (DNS, refused, TLS, connect timeout)
        raises ExchangeFailed   reached, but the exchange broke (deadline, size cap, protocol)

Redirects are never followed here: a caller that wants to follow one must check where it leads
(see `same_origin`). A target can be a URL or, for in-process testing, an ASGI app's transport.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import httpx

from ..recording import Recorder
from ..recording import Replay
from ..recording.transport import RecordingTransport
from ..recording.transport import ReplayTransport
from ..recording.transport import tls_version_of
from ..report.model import Exchange
from ..report.model import truncate
from .sockets import cheap_idle_checks

__all__ = [
    "ExchangeFailed",
    "HttpClient",
    "HttpResponse",
    "Unreachable",
    "media_type_of",
    "same_origin",
]

USER_AGENT = "agent-conformance"


class Unreachable(Exception):
    """Nothing answered at the target's address."""


class ExchangeFailed(Exception):
    """The target answered, but the exchange could not be completed; `exchange` is the evidence."""

    def __init__(self, message: str, exchange: Exchange) -> None:
        super().__init__(message)
        self.exchange = exchange


def media_type_of(headers: Mapping[str, str]) -> str:
    """The media type a message's Content-Type names, lower case, without its parameters ("" when
    there is none)."""
    return str(headers.get("content-type", "")).split(";")[0].strip().lower()


@dataclass(frozen=True)
class HttpResponse:
    status: int
    headers: httpx.Headers
    body: bytes
    url: str
    exchange: Exchange

    @property
    def media_type(self) -> str:
        return media_type_of(self.headers)


def _origin(url: str) -> tuple[str, str, int | None] | None:
    """(scheme, host, port) as httpx reads `url`: the parser that would make the connection, so that
    no URL can mean one host to the address policy and another to the client."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        return None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        return None
    return (
        parsed.scheme,
        parsed.host.rstrip(".").lower(),
        parsed.port or (443 if parsed.scheme == "https" else 80),
    )


def same_origin(a: str, b: str) -> bool:
    x = _origin(a)
    return x is not None and x == _origin(b)


def _text(body: bytes) -> str:
    return body.decode("utf-8", errors="replace")


#: Seconds an idle pooled connection is kept: under the 5 s after which uvicorn and Node close
#: theirs, so that the suite does not send on a connection the server is closing.
KEEPALIVE_SECONDS = 2.0
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


@cache
def tls_context(cafile: str | None = None) -> ssl.SSLContext:
    """The client TLS context that trusts `cafile` (None: the defaults httpx would load), built
    once per process: loading a CA bundle costs 15 to 40 ms of CPU, and every client of a run
    trusts the same."""
    return ssl.create_default_context(cafile=cafile) if cafile else httpx.create_ssl_context()


class HttpClient:
    """An httpx client bound to the suite's limits; close it with `aclose()` or `async with`."""

    def __init__(
        self,
        *,
        timeout: float = 10.0,
        max_body: int = 10 * 1024 * 1024,
        cacert: Path | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        headers: dict[str, str] | None = None,
        recorder: Recorder | None = None,
        replay: Replay | None = None,
    ) -> None:
        """`transport`: an ASGI app's, for a target in-process (None: the network). `recorder`
        keeps every exchange (run --record); `replay` answers every request from a recording
        instead."""
        self.timeout = timeout
        self.max_body = max_body
        self._cacert, self._transport, self.recorder, self.replay = (
            cacert,
            transport,
            recorder,
            replay,
        )
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout),
            transport=self._composed(),
            follow_redirects=False,
            headers={"user-agent": USER_AGENT, **(headers or {})},
        )

    def _composed(self) -> httpx.AsyncBaseTransport:
        """The transport the client speaks through: a replay's, or the network's (a TLS context
        for the CA, idle connections dropped early) or an app's, recorded when the run is."""
        if self.replay is not None:
            return ReplayTransport(self.replay)
        inner = self._transport or cheap_idle_checks(
            httpx.AsyncHTTPTransport(
                verify=tls_context(str(self._cacert) if self._cacert else None),
                limits=httpx.Limits(keepalive_expiry=KEEPALIVE_SECONDS),
            )
        )
        return RecordingTransport(inner, self.recorder) if self.recorder is not None else inner

    def fresh(self) -> HttpClient:
        """A client like this one (its limits, headers, cookies, recorder) on connections of its
        own: what a request carries is the same, only the connection is new. Close it after use."""
        twin = HttpClient(
            timeout=self.timeout,
            max_body=self.max_body,
            cacert=self._cacert,
            transport=self._transport,
            headers=dict(self._client.headers),
            recorder=self.recorder,
            replay=self.replay,
        )
        twin._client.cookies = httpx.Cookies(self._client.cookies)
        return twin

    async def __aenter__(self) -> HttpClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._client.aclose()

    async def request(
        self,
        method: str,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        json: Any = None,
        content: bytes | None = None,
        without: tuple[str, ...] = (),
    ) -> HttpResponse:
        """One exchange; `without` names headers of the client's own (the run's credentials) to
        leave out."""
        try:
            request = self._client.build_request(
                method, url, headers=headers, json=json, content=content
            )
        except httpx.InvalidURL as error:  # a URL a target handed over may hold anything
            raise Unreachable(f"{url!r} is not a usable URL: {error}") from None
        for name in without:
            request.headers.pop(name, None)
        sent_body, _ = truncate(_text(request.content if request.content else b""))
        evidence: dict[str, Any] = {
            "method": method,
            "url": str(request.url),
            "request_headers": dict(request.headers.items()),
            "request_body": sent_body,
        }
        started = time.perf_counter()

        def failed(message: str, **more: Any) -> ExchangeFailed:
            elapsed = round((time.perf_counter() - started) * 1000, 1)
            return ExchangeFailed(
                message, Exchange(**evidence, **more, error=message, elapsed_ms=elapsed)
            )

        try:
            async with asyncio.timeout(self.timeout):
                try:
                    response = await self._client.send(request, stream=True)
                except httpx.RemoteProtocolError:
                    # a pooled connection the server closed as it was reused ("Server disconnected
                    # without sending a response"): a request that changes nothing is sent again, on
                    # a fresh connection
                    if method not in _IDEMPOTENT:
                        raise
                    response = await self._client.send(request, stream=True)
                # a replay answers by the recorded URL where the request's hid a credential
                evidence["url"] = str(request.url)
                try:
                    body = bytearray()
                    # decoded: a compression bomb meets the cap too
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if len(body) > self.max_body:
                            raise failed(
                                f"the response body exceeds the {self.max_body:,}-byte cap",
                                status=response.status_code,
                                response_headers=dict(response.headers.items()),
                            )
                    tls = tls_version_of(response)
                finally:
                    await response.aclose()
        except TimeoutError:
            raise failed(f"no complete answer within {self.timeout:g} s") from None
        except (httpx.ConnectError, httpx.ConnectTimeout) as error:
            raise Unreachable(f"cannot connect to {url}: {error or type(error).__name__}") from None
        except httpx.TransportError as error:  # read timeouts, protocol errors, broken connections
            raise failed(f"the exchange broke: {type(error).__name__}: {error}") from None
        # An in-process exchange (an ASGI app, a replay) never waits on a socket: without this,
        # one lane's run of them would hold the loop and starve the others (an ACI master calling
        # the suite's spies), which a network never does.
        await asyncio.sleep(0)
        decoded = bytes(body)
        shown, cut = truncate(_text(decoded))
        exchange = Exchange(
            **evidence,
            status=response.status_code,
            response_headers=dict(response.headers.items()),
            response_body=shown,
            response_truncated=cut,
            http_version=response.http_version,
            tls_version=tls,
            elapsed_ms=round((time.perf_counter() - started) * 1000, 1),
        )
        return HttpResponse(
            response.status_code, response.headers, decoded, str(request.url), exchange
        )
