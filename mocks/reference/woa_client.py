"""The reference WoA client: fetch and cache a host's document, pick an agent by id, invoke it.

It does what WoA asks of clients:
- caches the document and honours ETag, Last-Modified and Cache-Control when polling (section 7);
- builds the URL from base and invoke_path, replacing {agent_id} (4.3.1), POSTs the envelope as
  application/json (4.3.1, 5.2), and may validate input and output locally (4.2);
- refuses, before sending anything, transport URLs and redirect targets that resolve to private,
  loopback, link-local or other special-purpose addresses unless the user allows them (8.2),
  and plain HTTP unless allowed (8.1);
- treats names and descriptions as untrusted text: it never reads them to choose an agent or a
  URL (4.1, 8.3). Agents are chosen by id, by the caller.

Known limit: the address check resolves the host name, then connects; a host name whose DNS
answer changes between the two (rebinding) is not pinned.
"""

from __future__ import annotations

import asyncio
import email.utils
import ipaddress
import socket
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

import httpx

from conformance.bindings.jsonparse import parse_json
from conformance.validation.target_schemas import target_validator

__all__ = ["ClientPolicy", "InvalidMessage", "Refused", "WoaClient"]

Resolver = Callable[[str], Awaitable[list[str]]]
REDIRECTS = frozenset({301, 302, 303, 307, 308})


class Refused(Exception):
    """The client will not send this request (address, scheme or redirect not allowed)."""


class InvalidMessage(Exception):
    """A document, input or output that does not hold to the schema it must follow."""


async def resolve(host: str) -> list[str]:
    """Every address `host` resolves to (an IP literal resolves to itself)."""
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        infos = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
        return sorted({str(info[4][0]) for info in infos})


@dataclass(frozen=True)
class ClientPolicy:
    allow_private: bool = False  # an administrator's explicit permission (WoA 8.2)
    allowed_hosts: frozenset[str] = frozenset()  # hosts allowed whatever they resolve to
    allow_plain_http: bool = False
    allowlist_only: bool = False  # refuse every host not in allowed_hosts, without even resolving it
    timeout: float = 10.0
    max_body: int = 10 * 1024 * 1024
    max_redirects: int = 3


@dataclass
class _Cached:
    document: Any
    etag: str | None
    last_modified: str | None
    fresh_until: float


@dataclass
class WoaClient:
    policy: ClientPolicy = field(default_factory=ClientPolicy)
    resolver: Resolver = resolve
    cacert: Path | None = None
    transport: httpx.AsyncBaseTransport | None = None
    _cache: dict[str, _Cached] = field(default_factory=dict)

    def _client(self) -> httpx.AsyncClient:
        verify: ssl.SSLContext | bool = ssl.create_default_context(cafile=str(self.cacert)) if self.cacert else True
        return httpx.AsyncClient(timeout=self.policy.timeout, verify=verify, transport=self.transport, follow_redirects=False)

    async def check_url(self, url: str) -> None:
        """Raise `Refused` unless `url` may be called under the policy (WoA 8.1, 8.2)."""
        parts = urlsplit(url)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise Refused(f"{url!r} is not an http(s) URL")
        if parts.scheme == "http" and not self.policy.allow_plain_http:
            raise Refused(f"{url} is plain HTTP (WoA 8.1)")
        if parts.hostname in self.policy.allowed_hosts or self.policy.allow_private:
            return
        if self.policy.allowlist_only:
            raise Refused(f"{parts.hostname} is not on the client's allow-list")
        try:
            addresses = await self.resolver(parts.hostname)
        except OSError as error:
            raise Refused(f"{parts.hostname} does not resolve: {error}") from None
        for address in addresses:
            ip = ipaddress.ip_address(address)
            if not ip.is_global or ip.is_multicast:
                raise Refused(f"{parts.hostname} resolves to {ip}, a private, loopback, link-local or reserved address (WoA 8.2)")

    async def _send(self, client: httpx.AsyncClient, method: str, url: str, **kwargs: Any) -> tuple[httpx.Response, bytes]:
        """One request, its redirects checked like the first URL (WoA 8.2), its body capped."""
        for _ in range(self.policy.max_redirects + 1):
            await self.check_url(url)
            async with asyncio.timeout(self.policy.timeout), client.stream(method, url, **kwargs) as response:
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > self.policy.max_body:
                        raise InvalidMessage(f"the answer from {url} exceeds {self.policy.max_body} bytes")
            if response.status_code in REDIRECTS and "location" in response.headers:
                url = urljoin(url, response.headers["location"])
                continue
            return response, bytes(body)
        raise Refused(f"more than {self.policy.max_redirects} redirects")

    async def document(self, origin: str) -> Any:
        """The host's WoA document, from the cache while it is fresh, revalidated when it is not."""
        url = origin.rstrip("/") + "/.well-known/woa.json"
        cached = self._cache.get(url)
        if cached and time.monotonic() < cached.fresh_until:
            return cached.document
        headers = {"accept": "application/woa+json, application/json"}
        if cached and cached.etag:
            headers["if-none-match"] = cached.etag
        elif cached and cached.last_modified:
            headers["if-modified-since"] = cached.last_modified
        async with self._client() as client:
            response, body = await self._send(client, "GET", url, headers=headers)
        if response.status_code == 304 and cached:
            document = cached.document
        elif response.status_code == 200:
            document = parse_json(body)
        else:
            raise InvalidMessage(f"GET {url} answered {response.status_code}")
        self._cache[url] = _Cached(document, response.headers.get("etag") or (cached.etag if cached else None),
                                   response.headers.get("last-modified"), time.monotonic() + _max_age(response.headers))
        return document

    async def invoke(self, origin: str, agent_id: str, value: Any, operation: str | None = None, *, validate: bool = True) -> Any:
        """Invoke `agent_id` over rest with `value` as input; the answer, validated against the outputs schema."""
        document = await self.document(origin)
        agents = [a for a in document.get("agents", []) if isinstance(a, dict)] if isinstance(document, dict) else []
        agent = next((a for a in agents if a.get("id") == agent_id), None)
        if agent is None or "rest" not in agent.get("transports", []):
            raise InvalidMessage(f"{origin} offers no agent {agent_id!r} over rest")
        rest = document.get("transports", {}).get("rest", {})
        if not isinstance(rest.get("base"), str) or not str(rest.get("invoke_path", "")).startswith("/"):
            raise InvalidMessage("the rest transport has no usable base and invoke_path")
        url = rest["base"].rstrip("/") + rest["invoke_path"].replace("{agent_id}", quote(agent_id, safe=""))
        chosen = next((o for o in agent.get("operations", []) if isinstance(o, dict) and o.get("name") == operation), {})
        inputs, outputs = chosen.get("inputs", agent.get("inputs")), chosen.get("outputs", agent.get("outputs"))
        if validate:
            _validate(inputs, value, "input")
        envelope = {"agent": agent_id, **({"operation": operation} if operation else {}), "input": value}
        async with self._client() as client:
            response, body = await self._send(client, "POST", url, json=envelope, headers={"accept": "application/json"})
        answer = parse_json(body)
        if not 200 <= response.status_code < 300:
            raise InvalidMessage(f"{url} answered {response.status_code}: {answer}")
        if validate:
            _validate(outputs, answer, "output")
        return answer


def _validate(schema: Any, value: Any, what: str) -> None:
    if isinstance(schema, dict):
        errors = [e.message for e in target_validator(schema).iter_errors(value)]
        if errors:
            raise InvalidMessage(f"the {what} does not conform to its schema: {'; '.join(errors)}")


def _max_age(headers: httpx.Headers) -> float:
    """Seconds the document stays fresh: Cache-Control max-age, else Expires, else 0 (revalidate)."""
    directives = {d.strip().split("=")[0].lower(): d.strip().partition("=")[2] for d in headers.get("cache-control", "").split(",") if d.strip()}
    if "no-store" in directives or "no-cache" in directives:
        return 0.0
    if directives.get("max-age", "").isdigit():
        return float(directives["max-age"])
    expires = headers.get("expires")
    if expires:
        try:
            return max(0.0, email.utils.parsedate_to_datetime(expires).timestamp() - time.time())
        except (TypeError, ValueError):
            return 0.0
    return 0.0
