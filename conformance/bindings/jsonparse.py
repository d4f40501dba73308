"""Strict JSON parsing of bytes a target sent: UTF-8 (RFC 8259 section 8.1), no NaN or Infinity,
no nesting beyond what the interpreter can walk. Every defect is a `NotJson` with its reason."""

from __future__ import annotations

import gc
import json
from typing import Any

__all__ = ["LASTING_FROM", "NotJson", "parse_json", "parse_lasting"]

#: a body at least this large, parsed into a value that lasts a whole run (the WoA document), is
#: kept out of the cyclic collector's walks while it lasts: at 80,000 agents the full collections
#: walking it were an eighth of the run
LASTING_FROM = 1 << 20


class NotJson(ValueError):
    """The bytes are not one JSON text; the message says why, `encoding` whether the bytes are not
    even UTF-8 text (not UTF-8, or a byte order mark: RFC 8259 section 8.1), and `limit` whether
    they may be JSON beyond what this parser takes (nesting, digits), as RFC 8259 section 9 lets
    a parser limit: no defect of the text's."""

    def __init__(self, message: str, *, encoding: bool = False, limit: bool = False) -> None:
        super().__init__(message)
        self.encoding, self.limit = encoding, limit


def _reject_constant(name: str) -> Any:
    raise NotJson(f"{name} is not JSON (RFC 8259 has no NaN or Infinity)")


def parse_lasting(body: bytes) -> tuple[Any, bool]:
    """`body` parsed into a value that lasts a whole run, and whether it was frozen (`gc.freeze`):
    a body of `LASTING_FROM` bytes or more, in a process where nothing else froze. The caller
    gives it back (`gc.unfreeze()`) when the value's time ends.

    Parsed JSON holds no cycle, so the collector could never free any of it. Collecting first
    keeps garbage out of what is frozen: only what was alive goes, and garbage made later is
    collected as ever (a long-lived process certified again and again stays flat)."""
    if len(body) < LASTING_FROM or gc.get_freeze_count() or not gc.isenabled():
        return parse_json(body), False
    gc.collect()
    value = parse_json(body)
    gc.freeze()
    return value, True


def parse_json(body: bytes) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotJson(f"not UTF-8 at byte {error.start}", encoding=True) from None
    if text.startswith("\ufeff"):
        raise NotJson(
            "starts with a byte order mark, which RFC 8259 section 8.1 forbids", encoding=True
        )
    # parsing makes no cycle: the collector, run every 700 new containers, would only walk what
    # is being built again and again (a 9 MB document of 80,000 agents: a tenth of the run)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise NotJson(
            f"not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise NotJson("nests too deeply to be parsed", limit=True) from None
    except ValueError as error:  # e.g. an integer with more digits than Python will convert
        raise NotJson(f"not usable JSON: {error}", limit=True) from None
    finally:
        if collecting:
            gc.enable()
