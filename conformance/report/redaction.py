"""Credentials never reach what the suite writes or prints: each is replaced, once, where an
exchange or a result is made known, by a marker that keeps its shape and tells two values apart.

    Authorization: Bearer eyJhbGc...   ->  Authorization: Bearer <redacted:sha256:3f1a9c0b2d4e>
    https://user:s3cret@host/          ->  https://<redacted:sha256:9b0e...>@host/
    https://host/x?api_key=abc         ->  https://host/x?api_key=<redacted:sha256:...>

What is a credential: the value of a header the user sent (`--header`), of Authorization,
Proxy-Authorization, Cookie and Set-Cookie, and of any header or query parameter whose name says
key, token, secret, session, password or auth; of a query parameter whose name says signature
or is `sig` (a signed URL's, as ACI ContextURIs are); a URL's userinfo. A value once seen is
replaced wherever it appears after (a message quoting it, an answer echoing it). The marker is a
digest of the value under a key made for the run and never written: two values stay apart within a
run, and no marker can be tried against guesses of the value. What the target itself handed out in
a body (a signed URL) is marked under a second key, which a recording keeps with the bodies that
hold those values anyway, so that a re-judging marks them alike. The runner applies the run's
`Redaction` to every event before any handler sees it, and the recorder to every exchange it
keeps (bodies too, but for what the target handed out), so that no writer can forget it.
`--keep-credentials-in-evidence` (for recordings kept in a private place) turns it off, and every
report says so.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from urllib.parse import parse_qsl
from urllib.parse import quote
from urllib.parse import unquote
from urllib.parse import urlsplit
from urllib.parse import urlunsplit

from .model import REDACTED
from .model import Exchange
from .model import Result
from .model import RunHeader

__all__ = ["KEPT", "MARK", "Redaction", "is_credential", "is_marked", "plain", "public"]

#: How a replaced value begins.
MARK = REDACTED
#: What every report of a run that kept its credentials says.
KEPT = "credentials kept in the evidence (--keep-credentials-in-evidence)"
_ALWAYS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
#: Headers the suite sends with values it makes up from the run's seed (the SDSI test clock's
#: session): no credential, whatever their name says.
_SUITES_OWN = frozenset({"sdsi-test-session"})
_NAMED = re.compile(r"key|token|secret|session|passw|auth|credential", re.IGNORECASE)
#: A query parameter that signs a URL makes it a capability (an S3 or ContextURI signature);
#: a header of that name carries a signature anyone may verify (RFC 9421, JWS), no secret.
_SIGNING = re.compile(r"signature|^sig$", re.IGNORECASE)
#: NAME=value and --name=value or --name value, in a shell command.
_ASSIGNED = re.compile(r"(?:^|\s)-{0,2}([A-Za-z_][\w-]*)(?:=|\s+(?=[^-\s]))(\S+)")
#: Values too short to replace wherever they appear (they would mark innocent text).
_SHORTEST = 4
#: A query parameter of a URL written in text (a message, a body handing out a signed URL).
_QUERY_IN_TEXT = re.compile(r"[?&]([A-Za-z0-9_.~%-]{1,64})=([^&#\s\"'<>\\]{8,4096})")


def is_marked(text: str) -> bool:
    return MARK in text


def plain() -> Redaction:
    """A redaction whose marker is the same for every value, and so for every run: for names
    anyone may read and every run spells alike (a fleet's folders and rows)."""
    return Redaction(marker_of=lambda _: "<redacted>")


def public(url: str) -> str:
    """`url` with its userinfo and credential query values replaced by a plain marker."""
    return plain().url(url)


def is_credential(name: str, *, query: bool = False) -> bool:
    """Whether a header (or, with `query`, a query parameter) of this name carries a credential
    by its name."""
    lowered = name.lower()
    return (
        lowered in _ALWAYS
        or (lowered not in _SUITES_OWN and _NAMED.search(name) is not None)
        or (query and _SIGNING.search(name) is not None)
    )


@dataclass
class Redaction:
    """What one run replaces: the names of the headers the user sent, and every credential value
    seen so far."""

    names: frozenset[str] = frozenset()
    keep: bool = False
    #: how a value is marked; by default a digest under the run's own key
    marker_of: Callable[[str], str] | None = field(default=None, repr=False)
    _values: dict[str, str] = field(default_factory=dict, repr=False)
    #: credential values first seen in a body (handed out by the target, a signed URL's): a
    #: recording keeps bodies as they crossed the wire, so its URLs may keep them too (`url`)
    issued: set[str] = field(default_factory=set, repr=False)
    _key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    #: the key of the markers of issued values: a recording, which keeps those values anyway,
    #: keeps it too, so that a re-judging marks them alike (`issued_key`, `handed_out`)
    _issued_key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)

    @classmethod
    def of(
        cls,
        target: str,
        headers: Iterable[tuple[str, str]] = (),
        *,
        keep: bool = False,
        command: str | None = None,
    ) -> Redaction:
        """The run's redaction: its target's userinfo and credential query values, its headers'
        values, and the credentials a client command passes (`command`)."""
        redaction = cls(frozenset(name.lower() for name, _ in headers), keep)
        redaction.url(target)
        redaction.headers(dict(headers))
        if command:
            redaction.command(command)
        return redaction

    def command(self, command: str) -> str:
        """A shell command with the values it gives credential-named variables or options
        (`API_TOKEN=...`, `--api-key=...`, `--token ...`) marked."""
        if self.keep:
            return command
        for name, value in _ASSIGNED.findall(command):
            if is_credential(name):
                self._learn(value.strip("'\""))
        return self.text(command)

    @property
    def issued_key(self) -> str:
        """What a recording keeps to mark the values the target handed out (hex)."""
        return self._issued_key.hex()

    def handed_out(self, texts: Iterable[str], key: str) -> None:
        """A re-judging's redaction: the values a recording's bodies hand out learned first, and
        marked with the recording's `key`, as the recorded run marked them."""
        self._issued_key = bytes.fromhex(key)
        for text in texts:
            self.learn(text)

    def marker(self, value: str, *, issued: bool = False) -> str:
        if self.marker_of is not None:
            return self.marker_of(value)
        key = self._issued_key if issued else self._key
        digest = hmac.new(key, value.encode("utf-8", "surrogatepass"), hashlib.sha256)
        return f"{MARK}{digest.hexdigest()[:12]}>"

    def _learn(self, value: str, *, issued: bool = False) -> str:
        """The marker of a credential `value`, which is replaced wherever it appears from now on."""
        if not value or is_marked(value) or value == "<redacted>":
            return value
        marked = self.marker(value, issued=issued)
        if len(value) >= _SHORTEST:
            self._values[value] = marked
        return marked

    def learn(self, text: str) -> None:
        """Learns the credential query values of the URLs written in `text` (a body handing out a
        signed URL, a message quoting one): they are replaced wherever they appear from now on."""
        if self.keep or "=" not in text:
            return
        for name, value in _QUERY_IN_TEXT.findall(text):
            if is_credential(unquote(name), query=True) and value not in self._values:
                for form in {value, unquote(value)}:
                    if form not in self._values:
                        self.issued.add(form)
                        self._learn(form, issued=True)

    def text(self, text: str, spare: Collection[str] = ()) -> str:
        """`text` with every credential seen so far replaced (the longest first), those in `spare`
        kept."""
        if self.keep or not text:
            return text
        self.learn(text)
        for value in sorted(self._values, key=len, reverse=True):
            if value in text and value not in spare:
                text = text.replace(value, self._values[value])
        return text

    def echoed(self, body: bytes) -> bytes:
        """A body as a recording keeps it: every credential seen so far replaced, but those the
        target handed out itself (`issued`: a re-judging finds the requests that use them by
        them). A compressed body is kept as it is."""
        if self.keep or not self._values:
            return body
        for value in sorted(self._values, key=len, reverse=True):
            raw = value.encode("utf-8", "surrogatepass")
            if value not in self.issued and raw in body:
                body = body.replace(raw, self._values[value].encode())
        return body

    def header_value(self, name: str, value: str) -> str:
        """A header's value as evidence: its scheme word kept ("Bearer", "Basic"), the rest
        marked, when the header carries a credential."""
        if self.keep or not (name.lower() in self.names or is_credential(name)):
            return self.text(value)
        scheme, _, rest = value.partition(" ")
        if rest and scheme.isalpha() and len(scheme) <= 16:
            self._learn(value)
            return f"{scheme} {self._learn(rest)}"
        return self._learn(value)

    def headers(self, headers: Mapping[str, str]) -> dict[str, str]:
        return {name: self.header_value(name, value) for name, value in headers.items()}

    def url(self, url: str, *, spare_issued: bool = False) -> str:
        """`url` (or a path with its query) with its userinfo and credential query values
        marked; with `spare_issued`, those the target handed out in a body kept (a recording,
        whose bodies keep them, finds its requests again by them)."""
        if self.keep:
            return url
        spared: Collection[str] = self.issued if spare_issued else ()
        try:
            parts = urlsplit(url)
        except ValueError:
            return self.text(url)
        netloc = parts.netloc
        if "@" in netloc:
            userinfo, _, host = netloc.rpartition("@")
            if is_marked(unquote(userinfo)):  # redacted already (a replay of a recording)
                netloc = f"{unquote(userinfo)}@{host}"
            else:
                password = userinfo.partition(":")[2]
                if password:
                    self._learn(password)
                netloc = f"{self._learn(userinfo)}@{host}"
        query = parts.query
        if query:
            pairs = parse_qsl(query, keep_blank_values=True)
            if any(
                is_credential(name, query=True) and value not in spared for name, value in pairs
            ):
                query = "&".join(
                    f"{quote(name)}="
                    + (
                        self._learn(value)
                        if is_credential(name, query=True) and value not in spared
                        else quote(value)
                    )
                    for name, value in pairs
                )
        return self.text(urlunsplit(parts._replace(netloc=netloc, query=query)), spared)

    def exchange(self, exchange: Exchange) -> Exchange:
        if self.keep:
            return exchange
        request_headers = self.headers(exchange.request_headers)
        response_headers = self.headers(exchange.response_headers)
        return dataclasses.replace(
            exchange,
            url=self.url(exchange.url),
            request_headers=request_headers,
            request_body=self.text(exchange.request_body),
            response_headers=response_headers,
            response_body=self.text(exchange.response_body),
            error=self.text(exchange.error) if exchange.error else exchange.error,
        )

    def result(self, result: Result) -> Result:
        if self.keep:
            return result
        evidence = tuple(self.exchange(e) for e in result.evidence)
        return dataclasses.replace(result, evidence=evidence, message=self.text(result.message))

    def header(self, header: RunHeader) -> RunHeader:
        options = {**self.value(header.options), "credentials": KEPT if self.keep else "redacted"}
        return dataclasses.replace(header, target=self.url(header.target), options=options)

    def value(self, value: Any) -> Any:
        """Any JSON-like value with every string's credentials replaced."""
        if self.keep:
            return value
        if not self._values and isinstance(value, Mapping | list | tuple):
            # nothing learned yet and no URL anywhere: nothing to replace (a coverage map of
            # 80,000 agents is not walked in Python for nothing)
            with suppress(TypeError, ValueError):
                if "://" not in json.dumps(value, default=str):
                    return value
        return self._value(value)

    def _value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.url(value) if "://" in value else self.text(value)
        if isinstance(value, Mapping):
            return {k: self._value(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return type(value)(self._value(v) for v in value)
        return value

    def proxied(self, client: Mapping[str, Any]) -> dict[str, Any]:
        """What a client sent through the proxy, as the recording keeps it."""
        return {
            **client,
            "path": self.url(str(client.get("path", ""))),
            "headers": self.headers(client.get("headers") or {}),
        }
