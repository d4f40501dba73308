"""A context store the suite hosts on loopback, to hand invoked agents ContextURI references
(ACI 5.2 "Context/ContextURI", ACI 6).

A reference is a signed, expiring capability URL:

    http://127.0.0.1:PORT/contexts/ID?exp=UNIX_SECONDS&sig=HMAC-SHA256(ID.exp)

The store answers 403 to a wrong signature and 410 to an expired reference, except for entries
put as `lenient`, which it serves whatever the time: a careless store, to learn whether the agent
itself refuses a reference whose time has passed. It records every request, so a check can tell
whether the agent fetched a reference, and what it got.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass
from dataclasses import field
from urllib.parse import parse_qs
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.responses import Response
from starlette.routing import Route

from ..recording import stamp
from ..recording.values import Values
from . import ProblemDetailsOnly
from . import problem

__all__ = ["ContextStore", "Fetched", "tampered"]


@dataclass(frozen=True)
class Fetched:
    id: str
    status: int


@dataclass
class _Entry:
    text: str
    lenient: bool


@dataclass
class ContextStore:
    values: Values  # the store's key, references and their times come from the run's values
    base: str = ""
    key: bytes = b""
    entries: dict[str, _Entry] = field(default_factory=dict)
    log: list[Fetched] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.key = self.key or self.values.bytes(32, "context-store")

    def _sign(self, ident: str, exp: int) -> str:
        return hmac.new(self.key, f"{ident}.{exp}".encode(), hashlib.sha256).hexdigest()

    def put(self, text: str, ttl: float = 600.0, lenient: bool = False) -> str:
        """Store `text`; its reference, valid for `ttl` seconds (negative: already expired)."""
        ident = self.values.hex(8, "context-store")
        self.entries[ident] = _Entry(text, lenient)
        exp = int(self.values.time("context-store") + ttl)
        return f"{self.base}/contexts/{ident}?exp={exp}&sig={self._sign(ident, exp)}"

    def fetched(self, uri: str) -> list[Fetched]:
        """The requests made for the entry `uri` names."""
        ident = urlsplit(uri).path.rsplit("/", 1)[-1]
        return [f for f in self.log if f.id == ident]

    async def serve(self, request: Request) -> Response:
        ident = request.path_params["ident"]
        entry = self.entries.get(ident)
        query = parse_qs(request.url.query)
        exp, sig = (query.get("exp") or [""])[0], (query.get("sig") or [""])[0]
        if entry is None:
            status, body = 404, "no such context"
        elif not exp.isdigit() or not hmac.compare_digest(sig, self._sign(ident, int(exp))):
            status, body = 403, "the reference's signature does not match"
        elif int(exp) <= stamp(request.scope, "now", time.time) and not entry.lenient:
            status, body = 410, "the reference has expired"
        else:
            self.log.append(Fetched(ident, 200))
            return PlainTextResponse(entry.text, headers={"cache-control": "no-store"})
        self.log.append(Fetched(ident, status))
        return problem(status, "Context refused", body)

    def app(self) -> Starlette:
        return Starlette(
            routes=[Route("/contexts/{ident}", self.serve)],
            middleware=[Middleware(ProblemDetailsOnly)],
        )


def tampered(uri: str) -> str:
    """The same reference with one character of its signature changed."""
    head, _, sig = uri.rpartition("sig=")
    return f"{head}sig={('0' if sig[:1] != '0' else '1')}{sig[1:]}"
