"""What reached an invoked agent, read for content and not only for member names: every value of a
message, and every value hidden in its strings (JSON text, base64, percent-encoding), so that a
master that pastes a TaskContext or another agent's AgentContext into `Context` as text is seen.

    views(message)          the message and each value decoded out of its strings (bounded depth)
    task_context_marks(m)   why `m` carries a TaskContext: the member, or an object with its members
    agent_contexts(m)       the AgentContexts in `m`, JSON text included

Member names in prose are not read: "StartTime: 09:00" in a booking's context is no TaskContext, and
"from AgentID: diagnosis" is how a dependent subtask is given its input (issue 22).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import itertools
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

__all__ = ["agent_contexts", "task_context_marks", "views"]

#: Members only a TaskContext has (ACI Figure 3): two of them together, one of them distinctive, are
#: its fingerprint. StartTime, EndTime or TaskName alone with another are ordinary words in a
#: subtask's own context (a booking from 09:00 to 10:00), so at least one must be a member no
#: subtask context would carry.
TASK_ONLY = (
    "TaskID",
    "TaskName",
    "TaskDescription",
    "GoalStatus",
    "OverallStatus",
    "StartTime",
    "EndTime",
)
DISTINCTIVE = frozenset({"TaskID", "GoalStatus", "OverallStatus"})
_BASE64 = re.compile(r"^[A-Za-z0-9+/_-]{24,}={0,2}$")
_MAX_DEPTH = 3
_SCAN = 256 * 1024  # characters of one string searched for embedded JSON
_TRIES = 16  # places in one string where embedded JSON is tried


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield str(key)
            yield from _strings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner)


def _decodings(text: str) -> Iterator[Any]:
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        with contextlib.suppress(ValueError, RecursionError):
            yield json.loads(stripped)
    if _BASE64.match(stripped):
        try:
            raw = base64.b64decode(
                stripped + "=" * (-len(stripped) % 4),
                altchars=b"-_" if "-" in stripped or "_" in stripped else None,
            )
            yield raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            pass
    if "%" in text and unquote(text) != text:
        yield unquote(text)
    starts = (m.start() for m in re.finditer(r"[{\[]", text[:_SCAN]) if m.start() > 0)
    # JSON embedded in prose: a few tries, never a quadratic scan
    for start in itertools.islice(starts, _TRIES):
        try:
            value, _ = json.JSONDecoder().raw_decode(text[start:_SCAN])
            yield value
            break
        except (ValueError, RecursionError):
            continue


def views(value: Any, depth: int = 0) -> Iterator[Any]:
    """`value`, then every value its strings hold in an encoding the suite recognises."""
    yield value
    if depth >= _MAX_DEPTH:
        return
    for text in _strings(value):
        for decoded in _decodings(text):
            yield from views(decoded, depth + 1)


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        yield from value.keys()
        for inner in value.values():
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def _fingerprint(members: set[str]) -> bool:
    return len(members) >= 2 and bool(members & DISTINCTIVE)


def task_context_marks(message: Any) -> list[str]:
    """Why `message` carries a TaskContext: a TaskContext member, or one object (JSON text included)
    holding two of its own members, one of them distinctive."""
    marks: set[str] = set()
    for view in views(message):
        if "TaskContext" in set(_keys(view)):
            marks.add("a TaskContext member")
        for found in _objects(view):
            if _fingerprint(set(found) & set(TASK_ONLY)):
                marks.add(f"the TaskContext's members {sorted(set(found) & set(TASK_ONLY))}")
    return sorted(marks)


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _objects(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _objects(inner)


def agent_contexts(message: Any) -> list[dict[str, Any]]:
    """The objects that look like AgentContexts (they carry an AgentID), JSON text included, each
    once."""
    found: list[dict[str, Any]] = []

    def collect(value: Any) -> None:
        if isinstance(value, dict):
            if "AgentID" in value and not any(value is f or value == f for f in found):
                found.append(value)
            for inner in value.values():
                collect(inner)
        elif isinstance(value, list):
            for inner in value:
                collect(inner)

    for view in views(message):
        collect(view)
    return found
