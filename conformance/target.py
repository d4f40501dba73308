"""What a check gets: the run's options, the binding to talk through, what the probe found, a memo
for work several checks share, and the address policy that keeps the suite where the user allowed.

The suite calls the target's own origin and any origin the user allows (`--allow-origin`); a URL a
target advertises elsewhere (another host, a private or link-local address) is never called.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx

from .bindings import DocumentFetch, HttpClient, WoaRestBinding
from .bindings.http import same_origin

__all__ = ["DEFAULT_ROLES", "RunOptions", "Target", "is_loopback", "may_call"]

T = TypeVar("T")
#: The roles a target is certified in unless told otherwise: a WoA host, an SDSI server, an ACI agent.
DEFAULT_ROLES = ("host", "server", "master", "invoked", "any")


def is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def may_call(options: RunOptions, url: str) -> bool:
    """Whether `url` is on the target's origin or one the user allowed."""
    return any(same_origin(url, origin) for origin in (options.target, *options.allowed_origins))


@dataclass(frozen=True)
class RunOptions:
    target: str
    suites: tuple[str, ...] = ("woa", "sdsi", "aci")
    binding: str = WoaRestBinding.name
    roles: tuple[str, ...] = DEFAULT_ROLES
    timeout: float = 10.0
    max_body: int = 10 * 1024 * 1024
    cacert: Path | None = None
    allow_http_loopback: bool = False
    allowed_origins: tuple[str, ...] = ()
    transport: httpx.AsyncBaseTransport | None = field(default=None, compare=False)

    def recorded(self) -> dict[str, object]:
        """The options as they go into a report's header."""
        return {"roles": list(self.roles), "timeout": self.timeout, "max_body": self.max_body,
                "cacert": str(self.cacert) if self.cacert else None, "allow_http_loopback": self.allow_http_loopback,
                "allowed_origins": list(self.allowed_origins), "in_process": self.transport is not None}


@dataclass
class Target:
    options: RunOptions
    client: HttpClient
    binding: WoaRestBinding
    discovery: DocumentFetch
    cache: dict[str, Any] = field(default_factory=dict)
    _memo: dict[str, asyncio.Task[Any]] = field(default_factory=dict)

    @property
    def document(self) -> Any:
        return self.discovery.document

    def may_call(self, url: str) -> bool:
        """Whether the user allowed the suite to send requests to `url`."""
        return may_call(self.options, url)

    def waives_plain_http(self, url: str) -> bool:
        """Plain HTTP on loopback, which --allow-http-loopback reports as waived."""
        return self.options.allow_http_loopback and url.startswith("http://") and is_loopback(url)

    async def memo(self, key: str, work: Callable[[], Awaitable[T]]) -> T:
        """Do `work` once per run, however many checks ask for it."""
        if key not in self._memo:
            self._memo[key] = asyncio.ensure_future(work())
        result: T = await self._memo[key]
        return result
