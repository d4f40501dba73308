"""A named fault applied to a fraction of the requests: a flaky reference, to prove repeated runs.

    app = create_app(base, "woa-5.2-agent-mismatch-400", fault_rate=0.2, fault_seed=0)

(`create_app` of mocks/host.py.)

A fault that is a wrapper around the host (mocks/faults/woa_host.py) breaks its rule on the requests
a seeded coin picked, the others going to the host itself. A fault that is a subclass of a
reference agent overrides one of its methods with `@breaks`: the override runs on the picked
requests, the reference's method on the others. The coin is tossed once per request, in `AtRate`,
so every decision within one request agrees. A fault made once rather than per request (a document
edit, plain HTTP, a TLS version, an agent's definitions built when it starts) cannot be applied at a
rate.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any
from typing import ClassVar

from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

__all__ = ["AgentFault", "AtRate", "breaks"]

#: Whether this request breaks the rule: every request does, unless a rate's coin passed it over.
_PICKED: ContextVar[bool] = ContextVar("fault_picked", default=True)


class AgentFault:
    """What a fault that subclasses a reference agent says of itself: the rule it breaks, how, and
    a variant's name when a rule is broken two ways, and whether it breaks what its agent builds
    once, when it starts (a template it defines): such a fault cannot be applied at a rate."""

    requirement: ClassVar[str] = ""
    description: ClassVar[str] = ""
    variant: ClassVar[str] = ""
    made_once: ClassVar[bool] = False


class breaks:
    """A fault's override of a reference agent's method: it runs on every request, or at a rate
    on the requests the coin picked, the reference's method answering the others."""

    def __init__(self, method: Callable[..., Any]) -> None:
        self.method = method

    def __set_name__(self, owner: type, name: str) -> None:
        self.owner, self.name = owner, name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        if not _PICKED.get():
            return getattr(super(self.owner, instance), self.name)
        return self.method.__get__(instance, owner)


class AtRate:
    """ASGI middleware: each HTTP request is picked with probability `rate`, from a coin seeded by
    `seed`, and goes to the `faulty` app when picked (a fault's wrapper around the same host), to
    `app` otherwise; a fault's `@breaks` overrides hold on the picked requests alone."""

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
