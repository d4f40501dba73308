"""A named fault applied to a fraction of the requests: a flaky reference, to prove repeated runs.

    app = create_app(base, "woa-5.2-agent-mismatch-400", fault_rate=0.2, fault_seed=0)

A fault that is a wrapper around the host (mocks/faults/woa_host.py) breaks its rule on the requests
a seeded coin picked, the others going to the host itself. A fault the host still compares by its
key (`breaks == "SDSI-..."`) is, at a rate, a `Sometimes`, equal to the fault's key only on the
picked requests (the coin is tossed once per request, in `AtRate`, so every comparison within one
request agrees). A
fault made once rather than per request (a document edit, plain HTTP, a TLS version) cannot be
applied at a rate.
"""

from __future__ import annotations

import random
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

__all__ = ["AtRate", "Sometimes"]

_PICKED: ContextVar[bool] = ContextVar("fault_picked", default=False)


class Sometimes(str):
    """A fault's key that holds only on the requests the coin picked."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return _PICKED.get() and str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return str.__hash__(self)

    def __bool__(self) -> bool:
        return _PICKED.get()


class AtRate:
    """ASGI middleware: each HTTP request is picked with probability `rate`, from a coin seeded by
    `seed`, and goes to the `faulty` app when picked (a fault's wrapper around the same host), to
    `app` otherwise; a fault the host looks up by its key holds on the picked requests alone."""

    def __init__(self, app: ASGIApp, faulty: ASGIApp, rate: float, seed: int = 0) -> None:
        self.app, self.faulty, self.rate, self.coin = app, faulty, rate, random.Random(seed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        picked = self.coin.random() < self.rate
        token = _PICKED.set(picked)
        try:
            await (self.faulty if picked else self.app)(scope, receive, send)
        finally:
            _PICKED.reset(token)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)
