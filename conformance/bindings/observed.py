"""What the suite saw pass between two parties, rather than sent itself: the passive proxy's traffic
between a real client and a real host, or the fuzzer's requests and the host's answers.

    Traffic([Observed, ...])     every exchange, in the order it ended
    traffic.discovery(target)    the first fetch of the WoA document, as if the suite had made it
    traffic.response(observed)   an exchange as the HttpResponse the checks judge

A run over observed traffic (`RunOptions.observed`) judges it with the same registered checks as a
run that sends: each check reads the exchanges it judges from the traffic, and a check that would
need to send a request of its own meets `NotObserved`, which the engine reports as a skip. Nothing
is sent: the run's client speaks through `ObservedOnly`, which refuses every request.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import Any

import httpx

from ..recording import NotRecorded
from ..recording import Recorder
from ..recording import Replay
from ..report.model import Exchange
from ..report.model import truncate
from .http import HttpResponse
from .http import media_type_of
from .jsonparse import NotJson
from .jsonparse import parse_json
from .reply import Reply
from .woa_rest import WELL_KNOWN_PATH
from .woa_rest import DocumentFetch
from .woa_rest import document_from

__all__ = ["MAX_BODY", "NotObserved", "Observed", "ObservedOnly", "Traffic", "carried"]

#: The largest body kept of an exchange that passed by (the proxy's cap).
MAX_BODY = 10 * 1024 * 1024


class NotObserved(NotRecorded):
    """The check needs an exchange the traffic does not hold: a run that watches sends nothing."""


@dataclass(frozen=True)
class Observed:
    """One exchange that passed by, with the bodies as sent (the response's decoded)."""

    method: str
    url: str  # where it went (the upstream's URL, for the proxy)
    path: str  # path and query, as the client sent them
    request_headers: dict[str, str]
    request_body: bytes
    status: int | None
    response_headers: dict[str, str]
    response_body: bytes
    elapsed_ms: float
    error: str | None = None
    at: float = field(default_factory=time.time)  # when it ended (wall clock)
    #: of the connection it went over, where known (the proxy's to the upstream)
    tls_version: str | None = None

    @property
    def is_document(self) -> bool:
        return self.path.split("?")[0] == WELL_KNOWN_PATH

    def request_json(self) -> Any:
        return _json(self.request_body)

    def response_json(self) -> Any:
        return _json(self.response_body)

    def exchange(self) -> Exchange:
        sent, _ = truncate(self.request_body.decode("utf-8", "backslashreplace"))
        answered, cut = truncate(self.response_body.decode("utf-8", "backslashreplace"))
        return Exchange(
            self.method,
            self.url,
            self.request_headers,
            sent,
            self.status,
            self.response_headers,
            answered,
            cut,
            elapsed_ms=self.elapsed_ms,
            tls_version=self.tls_version,
            error=self.error,
        )

    def reply(self, body: Any) -> Reply:
        """`body` (the answer, or a message it carried) as a binding's reply to this exchange, its
        raw bytes and signature kept."""
        return Reply(
            self.status,
            body,
            media_type_of(self.response_headers),
            self.exchange(),
            None if self.status is not None else self.error or "no answer",
            self.response_body,
            self.response_headers.get("jws-signature"),
        )

    def response(self) -> HttpResponse:
        """The answer as the suite's client would have handed it over (the exchange did get an
        answer)."""
        assert self.status is not None
        return HttpResponse(
            self.status,
            httpx.Headers(self.response_headers),
            self.response_body,
            self.url,
            self.exchange(),
        )


def _json(body: bytes) -> Any:
    try:
        return parse_json(body)
    except NotJson:
        return None


@dataclass
class Traffic:
    """Every exchange seen, in order, what the proxy changed, and where it came from (`source`:
    proxy, fuzz); with a recorder, each is also written to a recording as it completes."""

    exchanges: list[Observed] = field(default_factory=list)
    rewrites: int = 0
    recorder: Recorder | None = None
    source: str = "proxy"

    def rewritten(self, url: str) -> None:
        """A document the proxy rewrote before delivering it (counted, and kept in the recording so
        that a re-judging says the same)."""
        self.rewrites += 1
        if self.recorder is not None:
            self.recorder.observed("document-rewritten", self.recorder.redaction.url(url))

    def add(self, observed: Observed) -> None:
        self.exchanges.append(observed)
        if self.recorder is not None:
            request = httpx.Request(observed.method, observed.url, headers=observed.request_headers)
            outcome = (
                {
                    "failure": "exchange",
                    "message": observed.error,
                    "elapsed_ms": observed.elapsed_ms,
                }
                if observed.status is None
                else {
                    "status": observed.status,
                    "response_headers": observed.response_headers,
                    "response_body": observed.response_body,
                    "elapsed_ms": observed.elapsed_ms,
                }
            )
            client = {
                "path": observed.path,
                "headers": observed.request_headers,
                "at": observed.at,  # as the client sent them
                "tls_version": observed.tls_version,
            }
            self.recorder.exchange(request, observed.request_body, outcome | {"proxied": client})

    @classmethod
    def recorded(cls, replay: Replay, source: str = "proxy") -> Traffic:
        """The traffic a `proxy --record` run kept, in the order it completed (bodies no longer
        than the proxy's cap)."""
        exchanges = []
        for line in replay.lines("exchanges.jsonl"):
            client = line.get("proxied", {"path": line["url"], "headers": line["request_headers"]})
            sent = replay.body(line["request_body"], MAX_BODY)
            answered = (
                replay.body(line["response_body"], MAX_BODY) if "response_body" in line else b""
            )
            error = line.get("message") if line.get("failure") else None
            if len(sent) > MAX_BODY or len(answered) > MAX_BODY:
                error, answered = f"a recorded body exceeds the proxy's {MAX_BODY:,}-byte cap", b""
            exchanges.append(
                Observed(
                    line["method"],
                    line["url"],
                    client["path"],
                    client["headers"],
                    sent[:MAX_BODY],
                    line.get("status") if error is None else None,
                    line.get("response_headers", {}),
                    answered,
                    line.get("elapsed_ms") or 0.0,
                    error,
                    float(client.get("at") or line.get("ended_at") or 0.0),
                    client.get("tls_version"),
                )
            )
        rewrites = sum(
            line.get("what") == "document-rewritten" for line in replay.lines("observed.jsonl")
        )
        return cls(exchanges, source=source, rewrites=rewrites)

    def calls(self) -> Iterator[Observed]:
        """The exchanges that are not fetches of the WoA document: where the drafts' messages travel
        (a document's schemas name their members too, and carry none of them)."""
        return (o for o in self.exchanges if not o.is_document)

    def documents(self) -> Iterator[Observed]:
        """The fetches of the WoA document (GET), in order."""
        return (o for o in self.exchanges if o.is_document and o.method == "GET")

    def discovery(self, target: str) -> DocumentFetch:
        """The first fetch of the WoA document that was answered, as the suite's own fetch would
        have found it; `cause` "not-observed" when the traffic holds none."""
        url = target.rstrip("/") + WELL_KNOWN_PATH
        fetch = next((o for o in self.documents() if o.status is not None), None)
        if fetch is None:
            return DocumentFetch(
                url, None, problem="no fetch of the WoA document passed by", cause="not-observed"
            )
        return document_from(fetch.url, fetch.response())


class ObservedOnly(httpx.AsyncBaseTransport):
    """The transport of a run that watches: it sends nothing, and says so to the check that
    asked."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        raise NotObserved(
            f"not in the observed traffic: {request.method} {request.url} (a run that watches sends"
            " nothing; run the suite against the target to judge it)"
        )


def carried(value: Any, *members: str, depth: int = 0) -> list[dict[str, Any]]:
    """The objects in `value` (an envelope's input, an answer: anywhere, six levels deep at most,
    256 items of an array at most) that have all of `members`: a draft's message wherever it
    travels."""
    if depth > 6:
        return []
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        if all(m in value for m in members):
            found.append(value)
        for member in value.values():
            found += carried(member, *members, depth=depth + 1)
    elif isinstance(value, list):
        for item in value[:256]:
            found += carried(item, *members, depth=depth + 1)
    return found
