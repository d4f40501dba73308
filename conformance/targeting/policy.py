"""The address policy: which URLs are loopback, which are on the open Internet, and where a WoA
document's rest transport is configured. The suite calls the target's own origin and any origin the
user allows (`--allow-origin`); a URL a target advertises elsewhere is never called."""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

__all__ = ["is_loopback", "on_the_open_internet", "rest_config"]


def is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def on_the_open_internet(url: str) -> bool:
    """Whether `url`'s host is on the open Internet (WoA 8.1; E-WOA-8.1-OPEN-INTERNET): not a
    loopback, private, link-local or unique-local address, not localhost, a single label, or a name
    under a suffix no public registry delegates: .local, .internal, .lan, .home.arpa, and .corp,
    .home, .intranet, .private, .localdomain (names a company's resolver answers alone). A name
    under a public domain is on the open Internet, whatever one resolver says of it."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    try:
        return ipaddress.ip_address(host).is_global
    except ValueError:
        pass
    if not host or "." not in host or host == "localhost" or host.endswith(".localhost"):
        return False
    return not host.endswith(_PRIVATE_SUFFIXES)


#: Suffixes no public registry delegates (RFC 6762, RFC 8375, ICANN's .internal, and the names
#: ICANN never delegated for collision with private use).
_PRIVATE_SUFFIXES = (
    ".local",
    ".internal",
    ".lan",
    ".home.arpa",
    ".corp",
    ".home",
    ".intranet",
    ".private",
    ".localdomain",
)


def rest_config(document: Any) -> Any:
    """The document's rest transport configuration, whatever its shape (None when there is none)."""
    transports = document.get("transports") if isinstance(document, dict) else None
    return transports.get("rest") if isinstance(transports, dict) else None
