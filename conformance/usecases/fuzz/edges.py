"""The strings a JSON text may carry that generators leave out: fuzz sends them too.

schemathesis draws its strings from what can be encoded for the wire (UTF-8), so it never sends a
lone surrogate; JSON (RFC 8259, 7) spells one as an escape, and a host that decodes it must not
fail for it (a 4xx problem or a served answer; never a 5xx). For each fuzzed agent, a valid input
(conformance/instances) with one string at a time replaced by each edge string, and one input
nested deeper than a parser is likely to allow."""

from __future__ import annotations

import json
from itertools import islice
from typing import Any

from ...instances import Ungeneratable
from ...instances import valid_examples

__all__ = ["EDGE_STRINGS", "edge_bodies"]

#: Each edge string, and what it is.
EDGE_STRINGS: tuple[tuple[str, str], ...] = (
    ("\ud800", "a lone high surrogate"),
    ("\udfff", "a lone low surrogate"),
    ("\ufffe\uffff", "noncharacters"),
    ("a\u0000b", "a NUL"),
    ("\u202e\u200b\u2028", "a bidirectional override, a zero-width space and a line separator"),
    ("x" * 70_000, "a 70,000-character string"),
)
#: Strings of one input replaced, at most.
_STRINGS = 3
#: How deep the nested input goes.
_DEPTH = 2_000


def _string_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, str):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _string_paths(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _string_paths(v, (*path, i))]
    return []


def _replaced(value: Any, path: tuple[Any, ...], new: str) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    copied = list(value)
    copied[head] = _replaced(copied[head], rest, new)
    return copied


def edge_bodies(
    agent_id: str, operation: str | None, inputs: Any, named: bool
) -> list[tuple[str, bytes]]:
    """(what it holds, the JSON body) of each edge invocation of one agent: `named` when the
    envelope must name the agent."""
    try:
        example = next(e for e in valid_examples(inputs, limit=4) if isinstance(e, dict))
    except (Ungeneratable, StopIteration):
        example = {}
    envelope: dict[str, Any] = {"agent": agent_id} if named else {}
    if operation not in (None, "default"):
        envelope["operation"] = operation
    bodies = []
    for path in islice(_string_paths(example), _STRINGS):
        where = "/".join(map(str, path))
        for edge, what in EDGE_STRINGS:
            body = {**envelope, "input": _replaced(example, path, edge)}
            # ensure_ascii: a lone surrogate travels as its escape, valid JSON text
            bodies.append((f"input/{where} holding {what}", json.dumps(body).encode()))
    nested = "[" * _DEPTH + "]" * _DEPTH
    bodies.append(
        (
            f"an input nested {_DEPTH:,} arrays deep",
            f'{{"agent": {json.dumps(agent_id)}, "input": {{"deep": {nested}}}}}'.encode(),
        )
    )
    return bodies
