"""The interop manifest: the implementations to pair, each as `run` reaches it.

    {"implementations": [
        {"name": "acme", "host": "https://acme.example", "cacert": "acme-ca.pem",
         "client_command": "acme-client {document} {agent} {operation} {input} {cacert}"},
        {"name": "zenith", "host": "https://zenith.example"}
    ]}

(or the same as TOML: one `[[implementations]]` table each). `host` is the origin of a WoA host
(what `run --target` takes): the roles it plays come from its WoA document (a WoA host; an ACI
master if an agent offers run_task, ACI invoked agents if some offer execute_subtask; an SDSI
server if an agent offers get_schema_template, an SDSI client if one offers
handle_user_request). `client_command` is a WoA client (what `run --client-command` takes, with
the same placeholders). `cacert` is the CA the host's certificate chains to, `headers` what every
request to the host carries.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["FIELDS", "Implementation", "ManifestUnusable", "read_manifest"]


class ManifestUnusable(ValueError):
    """The manifest cannot be used (its message says where and why)."""


@dataclass(frozen=True)
class Implementation:
    """One implementation of the drafts, and how to reach each of its roles."""

    name: str
    host: str | None = None
    cacert: str | None = None
    client_command: str | None = None
    headers: tuple[str, ...] = ()


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
#: What an implementation's entry may hold, and the type of each.
FIELDS: dict[str, type] = {
    "name": str,
    "host": str,
    "cacert": str,
    "client_command": str,
    "headers": list,
}


def _implementation(entry: Any, n: int, folder: Path) -> Implementation:
    where = f"implementation {n + 1}"
    if not isinstance(entry, dict):
        raise ManifestUnusable(f"{where} is not an object")
    unknown = sorted(set(entry) - set(FIELDS))
    if unknown:
        raise ManifestUnusable(
            f"{where}: {', '.join(unknown)} is not a field (fields: {', '.join(FIELDS)})"
        )
    for key, kind in FIELDS.items():
        if key in entry and not isinstance(entry[key], kind):
            raise ManifestUnusable(f"{where}: {key} is not a {kind.__name__}")
    name = entry.get("name", "").strip()
    if not name:
        raise ManifestUnusable(f"{where} has no name")
    if not _NAME.fullmatch(name):
        raise ManifestUnusable(
            f"{where}: name {name!r} holds other than letters, digits, '.', '_' and '-' (it names"
            " the pairs' folders)"
        )
    host = entry.get("host")
    if host is not None and (
        urlsplit(host).scheme not in ("https", "http") or not urlsplit(host).hostname
    ):
        raise ManifestUnusable(f"{name}: host {host!r} is not an http(s) origin")
    if host is None and "client_command" not in entry:
        raise ManifestUnusable(f"{name} has neither a host nor a client_command")
    cacert = entry.get("cacert")
    if cacert is not None:
        path = (folder / cacert).resolve()
        if not path.is_file():
            raise ManifestUnusable(f"{name}: cacert {cacert} is not a file")
        cacert = str(path)
    headers = tuple(entry.get("headers", ()))
    if any(not isinstance(h, str) or ":" not in h for h in headers):
        raise ManifestUnusable(f"{name}: each header is 'Name: value'")
    return Implementation(
        name, host.rstrip("/") if host else None, cacert, entry.get("client_command"), headers
    )


def read_manifest(path: Path) -> list[Implementation]:
    """The implementations `path` lists (JSON, or TOML when it ends in .toml), in its order;
    `ManifestUnusable` says what is wrong with it."""
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ManifestUnusable(f"{path}: {error}") from None
    entries = data.get("implementations") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ManifestUnusable(f"{path}: no list of implementations")
    implementations = [_implementation(e, n, path.parent) for n, e in enumerate(entries)]
    names = [i.name for i in implementations]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ManifestUnusable(f"{path}: {', '.join(twice)} named more than once")
    return implementations
