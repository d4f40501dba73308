"""Strings that match a regular expression, made by walking its parse tree: the simplest first.

JSON Schema's `pattern` is an ECMA-262 regular expression, unanchored; pydantic, zod and tool
authors write the common subset (classes, ranges, repeats, groups, alternations, anchors). The
walk takes each repeat at its least count (then one more), each alternation's branches in order
and each class's first allowed character, so the strings are deterministic and short. What the
walk cannot make (lookarounds, backreferences, a class that excludes every printable character)
gives no string: the caller's validator has the last word on every candidate either way.

The pattern is read as ECMA-262 reads it (`ecma_spelled`: ASCII `\\d` and `\\w`, `\\cJ`), and each
Unicode property (`\\p{Letter}`, `\\P{Nd}`), which Python's parser lacks, becomes a class of the
sample characters the `regex` module finds in it.
"""

from __future__ import annotations

import re
import re._constants as sre  # type: ignore[import-not-found]  # the parser's own names (3.11+); sre_parse is deprecated
import re._parser as sre_parse  # type: ignore[import-not-found]
from collections.abc import Iterator
from typing import Any

import regex

from ..validation.target_schemas import ecma_spelled

__all__ = ["pattern_strings"]

#: Characters tried, in order, for a class or a negated literal.
_PRINTABLE = "a0A_-b1B .:/@z9Z"
_CATEGORIES = {
    sre.CATEGORY_DIGIT: "0123456789",
    sre.CATEGORY_WORD: "a0_",
    sre.CATEGORY_SPACE: " ",
    sre.CATEGORY_NOT_DIGIT: "a",
    sre.CATEGORY_NOT_WORD: "-",
    sre.CATEGORY_NOT_SPACE: "a",
}
#: Repeats past this many are cut: a pattern is a target's, and what it demands is bounded by the
#: caller's caps.
_MOST_REPEATS = 64
#: The longest string made: nested repeats multiply ((a{64}){64}){64} would be 262,144 characters).
_LONGEST = 4_096


class _Unmakeable(Exception):
    pass


#: Characters tried for a Unicode property escape: letters of both cases and scripts, digits of two
#: scripts, marks, punctuation, symbols and a space.
_SAMPLES = "aAzZéÉßπΩжЖ中0٣9_-.:/@+$ "


def _property_class(name: str, negated: bool, inside: bool) -> str:
    """The sample characters in (or, negated, outside) the Unicode property `name`, as a class."""
    try:
        test = regex.compile(("\\P{%s}" if negated else "\\p{%s}") % name)
    except regex.error:
        raise _Unmakeable(f"an unknown property {name!r}") from None
    chars = "".join(re.escape(c) for c in _SAMPLES if test.fullmatch(c))
    if not chars:
        raise _Unmakeable(f"no sample character in the property {name!r}")
    return chars if inside else f"[{chars}]"


def _in_class(items: list[tuple[Any, Any]], index: int) -> str:
    negated = bool(items) and items[0][0] is sre.NEGATE
    allowed: list[str] = []
    excluded: set[str] = set()
    for op, value in items[1:] if negated else items:
        chars = ""
        if op is sre.LITERAL:
            chars = chr(value)
        elif op is sre.RANGE:
            low, high = value
            chars = "".join(chr(c) for c in range(low, min(high, low + 25) + 1))
        elif op is sre.CATEGORY:
            chars = _CATEGORIES.get(value, "")
        (excluded.update if negated else allowed.extend)(chars)
    if negated:
        allowed = [
            c
            for c in _PRINTABLE
            if c not in excluded
            and not any(
                (op is sre.RANGE and value[0] <= ord(c) <= value[1])
                or (
                    op is sre.CATEGORY
                    and re.fullmatch(
                        {
                            sre.CATEGORY_DIGIT: r"\d",
                            sre.CATEGORY_WORD: r"\w",
                            sre.CATEGORY_SPACE: r"\s",
                        }.get(value, "(?!)"),
                        c,
                    )
                )
                for op, value in items[1:]
            )
        ]
    if not allowed:
        raise _Unmakeable("an empty class")
    return allowed[index % len(allowed)]


def _walk(tree: Any, variant: int) -> str:
    out: list[str] = []
    for op, value in tree:
        if op is sre.LITERAL:
            out.append(chr(value))
        elif op is sre.NOT_LITERAL:
            out.append(next(c for c in _PRINTABLE if ord(c) != value))
        elif op is sre.ANY:
            out.append("a")
        elif op is sre.IN:
            out.append(_in_class(value, variant))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            least, most, body = value
            count = least if variant == 0 or most == least else min(least + 1, most)
            if count > _MOST_REPEATS:
                raise _Unmakeable("a repeat beyond the cap")
            part = _walk(body, variant)
            if len(part) * count > _LONGEST:
                raise _Unmakeable("a string beyond the cap")
            out.append(part * count)
        elif op is sre.SUBPATTERN:
            out.append(_walk(value[-1], variant))
        elif op is sre.ATOMIC_GROUP:
            out.append(_walk(value, variant))
        elif op is sre.BRANCH:
            branches = value[1]
            out.append(_walk(branches[variant % len(branches)], variant))
        elif op is sre.AT:
            continue
        else:  # lookarounds, backreferences, conditionals
            raise _Unmakeable(str(op))
    return "".join(out)


def pattern_strings(pattern: str, variants: int = 3) -> Iterator[str]:
    """Up to `variants` distinct strings the walk makes for `pattern`, the shortest first (none
    when it cannot)."""
    try:
        tree = sre_parse.parse(ecma_spelled(pattern, _property_class))
    except (re.error, _Unmakeable, RecursionError, OverflowError, ValueError):
        return
    seen: set[str] = set()
    for variant in range(variants):
        try:
            made = _walk(tree, variant)
        except (_Unmakeable, RecursionError, ValueError):
            continue
        if made not in seen and len(made) <= _LONGEST:
            seen.add(made)
            yield made
