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

A fault is a subclass that overrides one of the methods `WoaClient` calls (mocks/faults/
woa_client.py), each named after what the reference does there. The command the suite's client
driver runs is mocks/woa_client.py.

Known limit: the address check resolves the host name, then connects; a host name whose DNS
answer changes between the two (rebinding) is not pinned.
"""

from __future__ import annotations

import asyncio
import email.utils
import ipaddress
import json
import socket
import ssl
import time
from collections.abc import Awaitable
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from typing import Literal
from urllib.parse import quote
from urllib.parse import urljoin
from urllib.parse import urlsplit

import httpx

from conformance.bindings.http import tls_context
from conformance.bindings.jsonparse import parse_json
from conformance.validation.target_schemas import target_validator

__all__ = ["ClientPolicy", "InvalidMessage", "Refused", "WoaClient"]

Resolver = Callable[[str], Awaitable[list[str]]]
Purpose = Literal["document", "transport", "redirect"]
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
    #: refuse every host not in allowed_hosts, without even resolving it
    allowlist_only: bool = False
    timeout: float = 10.0
    max_body: int = 10 * 1024 * 1024
    max_redirects: int = 3


@dataclass
class _Cached:
    document: Any
    etag: str | None
    last_modified: str | None
    #: wall-clock seconds (time.time()), so that a cache on disk outlives the process
    fresh_until: float


@dataclass
class WoaClient:
    policy: ClientPolicy = field(default_factory=ClientPolicy)
    resolver: Resolver = resolve
    cacert: Path | None = None
    transport: httpx.AsyncBaseTransport | None = None
    cache_dir: Path | None = None  # where the document cache is kept between processes
    #: the minimal conformer (mocks/minimal.py): no cache, no validation, no Accept header
    minimal: bool = False
    #: the proxy every request goes through (None: HTTPS_PROXY and its kin, as httpx reads them)
    proxy: str | None = None
    _cache: dict[str, _Cached] = field(default_factory=dict)
    #: agent id -> URL, kept by a client that remembers endpoints (a fault)
    _endpoints: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.cache_dir is not None and (self.cache_dir / "cache.json").is_file():
            saved = json.loads((self.cache_dir / "cache.json").read_text(encoding="utf-8"))
            self._cache = {
                url: _Cached(**entry) for url, entry in saved.get("documents", {}).items()
            }
            self._endpoints = dict(saved.get("endpoints", {}))

    def _save(self) -> None:
        if self.cache_dir is not None:
            saved = {
                "documents": {url: entry.__dict__ for url, entry in self._cache.items()},
                "endpoints": self._endpoints,
            }
            (self.cache_dir / "cache.json").write_text(json.dumps(saved), encoding="utf-8")

    # -- what a fault overrides: each the reference's behaviour, by the draft --

    def verifies(self) -> ssl.SSLContext | bool:
        """How a server's certificate is checked: against the trusted roots (WoA 8.1)."""
        return tls_context(str(self.cacert) if self.cacert else None)

    def checks(self, purpose: Purpose, check: Literal["range", "allow-list"]) -> bool:
        """Whether a URL of this purpose gets this check: every one does (WoA 8.2)."""
        return True

    def uses_cache(self) -> bool:
        """Whether a cached document is used while fresh and revalidated after (WoA 7); the minimal
        conformer keeps no cache."""
        return not self.minimal

    def chooses(self, agent: dict[str, Any], agent_id: str) -> str:
        """The agent invoked: the one the caller named, whatever the document's text says
        (WoA 8.3)."""
        return agent_id

    def invocation_url(self, rest: dict[str, Any], agent_id: str) -> str:
        """base joined with invoke_path, {agent_id} replaced by the id (WoA 4.3.1)."""
        path = str(rest["invoke_path"]).replace("{agent_id}", quote(agent_id, safe=""))
        return str(rest["base"]).rstrip("/") + path

    def endpoint(self, agent_id: str, url: str) -> str:
        """The URL to invoke: the one this document gives, never one remembered by agent id from
        another (WoA 4.1)."""
        return url

    async def reads(self, agent: dict[str, Any], inputs: Any) -> None:
        """What the client makes of an agent's entry before invoking it: nothing but the schemas;
        keywords it does not know are ignored (WoA 4.1, 4.2)."""

    def prepares(self, inputs: Any, value: Any, validate: bool) -> tuple[Any, bool]:
        """The input as the caller gave it, and whether it is validated first (WoA 4.2, 5.1)."""
        return value, validate

    def request(self) -> tuple[str, str]:
        """The method and content type of an invocation: POST, application/json (WoA 4.3.1)."""
        return "POST", "application/json"

    def envelope(self, agent_id: str, operation: str | None, value: Any) -> dict[str, Any]:
        """The invocation envelope: agent, the operation if any, input (WoA 5.1, 5.2)."""
        envelope: dict[str, Any] = {"agent": agent_id}
        if operation:
            envelope["operation"] = operation
        envelope["input"] = value
        return envelope

    def encodes(self, envelope: dict[str, Any]) -> bytes:
        """The envelope's bytes: compact JSON (RFC 8259)."""
        return json.dumps(envelope, separators=(",", ":")).encode()

    def headers(self, content_type: str) -> dict[str, str]:
        """The fields of an invocation request (WoA 4.3.1)."""
        return {
            "content-type": content_type,
            **({} if self.minimal else {"accept": "application/json"}),
        }

    # -- the client --

    def _client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            timeout=self.policy.timeout,
            verify=self.verifies(),
            transport=self.transport,
            follow_redirects=False,
            proxy=self.proxy,
            trust_env=self.proxy is None,
        )

    async def check_url(self, url: str, purpose: Purpose = "transport") -> None:
        """Raise `Refused` unless `url` may be called under the policy (WoA 8.1, 8.2).

        An IP address must be a global one (8.2's private and link-local ranges, and loopback, are
        refused); a host name must be on the administrator's allow-list, or resolve only to global
        addresses when the client is not limited to its allow-list."""
        parts = urlsplit(url)
        if parts.scheme not in ("https", "http") or not parts.hostname:
            raise Refused(f"{url!r} is not an http(s) URL")
        if parts.scheme == "http" and not self.policy.allow_plain_http:
            raise Refused(f"{url} is plain HTTP (WoA 8.1)")
        if parts.hostname in self.policy.allowed_hosts or self.policy.allow_private:
            return
        try:
            literal = ipaddress.ip_address(parts.hostname.strip("[]"))
        except ValueError:
            literal = None
        if literal is not None:
            if not self.checks(purpose, "range"):
                return
            _refuse_special(parts.hostname, literal)
        elif not self.checks(purpose, "allow-list"):
            return
        if self.policy.allowlist_only:
            raise Refused(f"{parts.hostname} is not on the client's allow-list (WoA 8.2)")
        try:
            addresses = await self.resolver(parts.hostname)
        except OSError as error:
            raise Refused(f"{parts.hostname} does not resolve: {error}") from None
        for address in addresses:
            _refuse_special(parts.hostname, ipaddress.ip_address(address))

    async def _send(
        self,
        client: httpx.AsyncClient,
        method: str,
        url: str,
        purpose: Purpose = "transport",
        **kwargs: Any,
    ) -> tuple[httpx.Response, bytes]:
        """One request, its redirects checked like the first URL (WoA 8.2), its body capped."""
        for _ in range(self.policy.max_redirects + 1):
            await self.check_url(url, purpose)
            purpose = "redirect"
            async with (
                asyncio.timeout(self.policy.timeout),
                client.stream(method, url, **kwargs) as response,
            ):
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > self.policy.max_body:
                        raise InvalidMessage(
                            f"the answer from {url} exceeds {self.policy.max_body} bytes"
                        )
            if response.status_code in REDIRECTS and "location" in response.headers:
                url = urljoin(url, response.headers["location"])
                continue
            return response, bytes(body)
        raise Refused(f"more than {self.policy.max_redirects} redirects")

    async def document(self, origin: str) -> Any:
        """The host's WoA document, from the cache while it is fresh, revalidated when it is not."""
        return await self.document_at(origin.rstrip("/") + "/.well-known/woa.json")

    async def document_at(self, url: str) -> Any:
        """The WoA document at `url`, from the cache while it is fresh, revalidated when it is
        not."""
        cached = self._cache.get(url) if self.uses_cache() else None
        if cached and time.time() < cached.fresh_until:
            return cached.document
        headers = {"accept": "application/woa+json, application/json"}
        if cached and cached.etag:
            headers["if-none-match"] = cached.etag
        elif cached and cached.last_modified:
            headers["if-modified-since"] = cached.last_modified
        async with self._client() as client:
            response, body = await self._send(client, "GET", url, "document", headers=headers)
        if response.status_code == 304 and cached:
            document = cached.document
        elif response.status_code == 200:
            document = parse_json(body)
        else:
            raise InvalidMessage(f"GET {url} answered {response.status_code}")
        self._cache[url] = _Cached(
            document,
            response.headers.get("etag") or (cached.etag if cached else None),
            response.headers.get("last-modified"),
            time.time() + _max_age(response.headers),
        )
        self._save()
        return document

    async def invoke(self, origin: str, *arguments: Any, **options: Any) -> Any:
        """`invoke_from` the document at `origin`'s well-known location."""
        return await self.invoke_from(
            origin.rstrip("/") + "/.well-known/woa.json", *arguments, **options
        )

    async def invoke_from(
        self,
        document_url: str,
        agent_id: str,
        value: Any,
        operation: str | None = None,
        *,
        validate: bool = True,
    ) -> Any:
        """Invoke `agent_id` of the document at `document_url` over rest; the answer, validated
        against the outputs schema."""
        document = await self.document_at(document_url)
        agents = (
            [a for a in document.get("agents", []) if isinstance(a, dict)]
            if isinstance(document, dict)
            else []
        )
        agent = next((a for a in agents if a.get("id") == agent_id), None)
        if agent is not None and (chosen_id := self.chooses(agent, agent_id)) != agent_id:
            agent_id = chosen_id
            agent = next((a for a in agents if a.get("id") == agent_id), None)
        if agent is None or "rest" not in agent.get("transports", []):
            raise InvalidMessage(f"{document_url} lists no agent {agent_id!r} over rest")
        rest = document.get("transports", {}).get("rest", {})
        if not isinstance(rest.get("base"), str) or not str(rest.get("invoke_path", "")).startswith(
            "/"
        ):
            raise InvalidMessage("the rest transport has no usable base and invoke_path")
        url = self.endpoint(agent_id, self.invocation_url(rest, agent_id))
        chosen = next(
            (
                o
                for o in agent.get("operations", [])
                if isinstance(o, dict) and o.get("name") == operation
            ),
            {},
        )
        inputs, outputs = (
            chosen.get("inputs", agent.get("inputs")),
            chosen.get("outputs", agent.get("outputs")),
        )
        await self.reads(agent, inputs)
        value, validate = self.prepares(inputs, value, validate)
        validate = validate and not self.minimal  # WoA 4.2: clients MAY validate
        if validate:
            _validate(inputs, value, "input")
        envelope = self.envelope(agent_id, operation, value)
        method, content_type = self.request()
        async with self._client() as client:
            response, body = await self._send(
                client,
                method,
                url,
                content=self.encodes(envelope),
                headers=self.headers(content_type),
            )
        answer = parse_json(body)
        if not 200 <= response.status_code < 300:
            raise InvalidMessage(f"{url} answered {response.status_code}: {answer}")
        if validate:
            _validate(outputs, answer, "output")
        return answer


def _refuse_special(host: str, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> None:
    if not ip.is_global or ip.is_multicast:
        raise Refused(
            f"{host} is {ip}, a private, loopback, link-local or reserved address (WoA 8.2)"
        )


def _validate(schema: Any, value: Any, what: str) -> None:
    if isinstance(schema, dict):
        errors = [e.message for e in target_validator(schema).iter_errors(value)]
        if errors:
            raise InvalidMessage(f"the {what} does not conform to its schema: {'; '.join(errors)}")


def _max_age(headers: httpx.Headers) -> float:
    """Seconds the document stays fresh: Cache-Control max-age, else Expires, else 0
    (revalidate)."""
    directives = {
        d.strip().split("=")[0].lower(): d.strip().partition("=")[2]
        for d in headers.get("cache-control", "").split(",")
        if d.strip()
    }
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
