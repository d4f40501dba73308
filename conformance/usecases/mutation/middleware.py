"""The ASGI middleware that puts a mutant in front of a real agent: every answer to the mutant's
request (method and path) goes through its operator; every other answer passes unchanged. The
same class, without a mutant, records the answers a run received, to plan mutants from."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from .operators import OPERATORS
from .operators import Answer
from .variations import VARIATIONS

__all__ = ["Mutating", "Recorded", "Site"]

MAX_RECORDED = 256 * 1024  # bytes of a body kept for planning


@dataclass(frozen=True)
class Site:
    """Where a mutant acts: every answer to this method and path."""

    method: str
    path: str


@dataclass
class Recorded:
    site: Site
    status: int
    media_type: str
    body: bytes


@dataclass
class Mutating:
    """Wrap `app`; apply `operator` at `member` to every answer at `site` (or, with no site,
    record)."""

    app: ASGIApp
    site: Site | None = None
    operator: str = ""
    member: tuple[Any, ...] = ()
    recorded: list[Recorded] = field(default_factory=list)
    applied: int = 0
    answered: int = 0  # answers at the site so far
    _previous: bytes | None = None
    #: mutants are planned from the first answer at each site, and a stale answer is the one
    #: before at its site: answered one at a time at a site, in the order they came, the same
    #: requests get the same answers every run (concurrent ones would finish in any order)
    _turns: dict[Site, asyncio.Lock] = field(default_factory=dict)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        here = Site(scope["method"], scope["path"])
        if self.site is not None and here != self.site:
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def hold(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    await self._answer(here, start, b"".join(chunks), send)
            else:
                await send(message)

        if self.site is None or self.operator == "replay-stale":
            async with self._turns.setdefault(here, asyncio.Lock()):
                await self.app(scope, receive, hold)
        else:
            await self.app(scope, receive, hold)

    async def _answer(self, here: Site, start: dict[str, Any], body: bytes, send: Send) -> None:
        answer = Answer(
            start["status"],
            [(n, v) for n, v in start.get("headers", []) if n.lower() != b"content-length"],
            body,
            previous=self._previous,
            index=self.answered,
        )
        self.answered += 1
        if self.site is None:
            self.recorded.append(
                Recorded(here, answer.status, answer.media_type, body[:MAX_RECORDED])
            )
        elif (
            VARIATIONS[self.operator].apply(answer)
            if self.operator in VARIATIONS
            else OPERATORS[self.operator](answer, self.member)
        ):
            self.applied += 1
        self._previous = body
        if answer.delay:
            await asyncio.sleep(answer.delay)
        size = max(1, -(-len(answer.body) // answer.chunks))  # a 304 has no body
        pieces = [answer.body[i : i + size] for i in range(0, len(answer.body), size)] or [b""]
        length = [] if len(pieces) > 1 else [(b"content-length", str(len(answer.body)).encode())]
        await send(
            {
                "type": "http.response.start",
                "status": answer.status,
                "headers": [*answer.headers, *length],
            }
        )
        for index, piece in enumerate(pieces):
            more = index < len(pieces) - 1
            await send({"type": "http.response.body", "body": piece, "more_body": more})
