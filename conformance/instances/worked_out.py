"""Examples already worked out, kept for the next run that meets the same schema.

Building examples is a pure function of the schema's text (member order included: the walk reads
members in order) and the number asked for, and the same schemas come back run after run: one
server certified again and again, a fleet of hosts built on one framework, `mutate`'s hundreds of
certifications of the reference, the pytest plugin's sessions. What a run is handed is parsed anew
from the kept JSON text, so no run can change what the next is handed.

Bounded: at most `KEPT` entries, the oldest dropped, each a schema and a build of at most `LONGEST`
characters of JSON each (ASCII: 16 MiB in all at most; the reference's every configuration keeps
36 builds, 68,000 characters). A build that used half of its time budget or more is not kept: cut
by the clock, it might have found more on another day.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

__all__ = ["KEPT", "LONGEST", "forget", "kept", "worked_out"]

KEPT = 256
LONGEST = 32 * 1024

#: (kind, the schema's JSON text, limit) -> (the build's JSON text, or None when it raised) and
#: the exception's message
_KEPT: OrderedDict[tuple[str, str, int], tuple[str | None, str]] = OrderedDict()
_LOCK = threading.Lock()  # fleets and the mocks build from several threads


def worked_out(
    kind: str,
    schema: Any,
    limit: int,
    build: Callable[[], list[Any]],
    *,
    seconds: float,
    refused: type[Exception],
) -> list[Any]:
    """`build()`'s examples of `schema`, from an earlier build of the same `kind`, schema text and
    `limit` when there was one; `refused` (raised by `build`, with its message) is kept alike.
    `seconds`: the build's time budget."""
    try:
        text = json.dumps(schema, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return build()  # no JSON text to know it by
    if len(text) > LONGEST:
        return build()
    key = (kind, text, limit)
    with _LOCK:
        kept = _KEPT.get(key)
        if kept is not None:
            _KEPT.move_to_end(key)
    if kept is not None:
        examples, message = kept
        if examples is None:
            raise refused(message)
        found: list[Any] = json.loads(examples)
        return found
    started = time.monotonic()
    try:
        built = build()
    except refused as error:
        _keep(key, (None, str(error)), started, seconds)
        raise
    try:
        kept_text = json.dumps(built)
    except (TypeError, ValueError, RecursionError):
        return built  # not JSON: built again when asked again
    # what reads back otherwise (NaN, a tuple) is not kept, nor a build too long to keep
    if len(kept_text) <= LONGEST and json.loads(kept_text) == built:
        _keep(key, (kept_text, ""), started, seconds)
    return built


def kept() -> int:
    """How many builds are kept."""
    with _LOCK:
        return len(_KEPT)


def forget() -> None:
    """Drop every kept build (the next of each is built again)."""
    with _LOCK:
        _KEPT.clear()


def _keep(
    key: tuple[str, str, int], value: tuple[str | None, str], started: float, seconds: float
) -> None:
    if time.monotonic() - started >= seconds / 2:
        return
    with _LOCK:
        _KEPT[key] = value
        while len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)
