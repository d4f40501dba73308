"""Deterministic examples from a JSON Schema: valid instances with boundary values, and near-misses.

The generator knows the profile WoA 4.2 says every implementation supports (an object with typed
properties and required names) and the common validation keywords (enum, const, minimum,
maximum, lengths, items, formats), and reads `examples` and `default` where a schema gives them.
Every candidate is checked against the schema with a real validator, so a keyword the generator
does not understand can only lose examples, never produce a wrong one. When no candidate is
valid, `Ungeneratable` says so and the checks that needed an example report a skip.

What the suite builds from a target's schema is bounded (`CAPS`): a string's length, an array's
items, nesting, numbers' magnitude. A schema that demands more (`minLength: 100000000`) is
`Ungeneratable` with the bound named; an invalid example that would exceed a cap is not made.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..validation.target_schemas import Unjudgeable, target_validator

__all__ = ["CAPS", "Caps", "Ungeneratable", "invalid_examples", "valid_examples"]


class Ungeneratable(Exception):
    """No valid instance of the schema could be made."""


@dataclass(frozen=True)
class Caps:
    """The most the suite builds from a target's schema."""

    string_length: int = 65_536
    items: int = 1_024
    depth: int = 8
    magnitude: float = 2.0**53  # I-JSON's interoperable range (RFC 7493, 2.2)
    schema_nodes: int = 20_000  # subschemas looked at when searching for a demand beyond the caps


CAPS = Caps()
_LENGTHS = {"minLength": ("string_length", "characters"), "minItems": ("items", "items"),
            "minProperties": ("items", "properties"), "minContains": ("items", "items")}
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _beyond_caps(schema: Any) -> str | None:
    """The first demand of `schema` that the caps do not allow, said in words; None if there is none."""
    stack, seen = [schema], 0
    while stack and seen < CAPS.schema_nodes:
        node = stack.pop()
        seen += 1
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        for keyword, (cap, unit) in _LENGTHS.items():
            value = node.get(keyword)
            if isinstance(value, int | float) and not isinstance(value, bool) and value > getattr(CAPS, cap):
                return f"{keyword} {value:g} is beyond the suite's cap of {getattr(CAPS, cap):,} {unit}"
        for keyword in _BOUNDS:
            value = node.get(keyword)
            if isinstance(value, int | float) and not isinstance(value, bool) and not abs(value) <= CAPS.magnitude:
                return f"{keyword} {value:g} is beyond the suite's cap of ±{CAPS.magnitude:,.0f} on numbers"
        stack.extend(v for v in node.values() if isinstance(v, dict | list))
    return None


_FORMATS = {"date-time": "2026-05-04T09:00:00Z", "date": "2026-05-04", "time": "09:00:00Z", "email": "user@example.com",
            "uri": "https://example.com/", "uri-reference": "/example", "uuid": "123e4567-e89b-12d3-a456-426614174000",
            "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1"}
_WRONG = {"string": 12345, "integer": "12", "number": "1.5", "boolean": "true", "object": [], "array": {}, "null": 0}


def _type(schema: dict[str, Any]) -> str | None:
    declared = schema.get("type")
    if isinstance(declared, list):
        declared = next((t for t in declared if t != "null"), declared[0] if declared else None)
    if isinstance(declared, str):
        return declared
    if "properties" in schema or "required" in schema:
        return "object"
    if "items" in schema:
        return "array"
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
        return "number"
    if any(k in schema for k in ("minLength", "maxLength", "pattern", "format")):
        return "string"
    return None


def _numbers(schema: dict[str, Any], integer: bool) -> Iterator[Any]:
    try:  # the bounds are a target's: whatever arithmetic they defeat only loses candidates
        yield from _bounded_numbers(schema, integer)
    except (OverflowError, ZeroDivisionError, ValueError, TypeError):
        return


def _bounded_numbers(schema: dict[str, Any], integer: bool) -> Iterator[Any]:
    low, high = schema.get("minimum"), schema.get("maximum")
    if isinstance(schema.get("exclusiveMinimum"), int | float):
        low = schema["exclusiveMinimum"] + (1 if integer else 0.5)
    if isinstance(schema.get("exclusiveMaximum"), int | float):
        high = schema["exclusiveMaximum"] - (1 if integer else 0.5)
    middle = 1 if low is None and high is None else (low if high is None else high if low is None else (low + high) / 2)
    for value in (middle, low, high):
        if value is not None:
            yield int(value) if integer else value
    step = schema.get("multipleOf")
    if isinstance(step, int | float) and step > 0:
        yield step if low is None or step >= low else step * ((low // step) + 1)


def _strings(schema: dict[str, Any]) -> Iterator[str]:
    fmt = schema.get("format")
    if fmt in _FORMATS:  # a host may assert a format: valid examples keep to it, whatever the lengths allow
        yield _FORMATS[fmt]
        return
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    low = low if isinstance(low, int) and 0 <= low <= CAPS.string_length else 0
    high = min(high, CAPS.string_length) if isinstance(high, int) and high >= 0 else None
    typical = "The IETF is an open community of designers."
    if high is not None:
        typical = typical[:high]
    yield typical if len(typical) >= low else typical + "x" * (low - len(typical))
    if low > 0:
        yield "a" * low
    if high is not None:
        yield "a" * high


def _candidates(schema: Any, depth: int = 0) -> Iterator[Any]:
    if schema is True or schema == {}:
        yield "example"
        return
    if not isinstance(schema, dict) or depth > CAPS.depth:
        return
    for key in ("examples",):
        if isinstance(schema.get(key), list):
            yield from schema[key]
    for key in ("const", "default"):
        if key in schema:
            yield schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        yield schema["enum"][0]
        yield schema["enum"][-1]
    for branch in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(branch), list) and schema[branch]:
            merged = {k: v for k, v in schema.items() if k != branch}
            for option in schema[branch]:
                if isinstance(option, dict):
                    yield from _candidates({**merged, **option}, depth + 1)
    kind = _type(schema)
    if kind == "object":
        yield from _objects(schema, depth)
    elif kind == "array":
        item = next(_candidates(schema.get("items", {}), depth + 1), "example")
        least = schema.get("minItems", 1)
        yield [item] * (least if isinstance(least, int) and 1 <= least <= CAPS.items else 1)
        if not schema.get("minItems"):
            yield []
    elif kind in ("integer", "number"):
        yield from _numbers(schema, kind == "integer")
    elif kind == "string":
        yield from _strings(schema)
    elif kind == "boolean":
        yield from (True, False)
    elif kind == "null":
        yield None


def _first(schema: Any, depth: int) -> Any:
    return next(_candidates(schema, depth + 1), "example")


def _objects(schema: dict[str, Any], depth: int) -> Iterator[dict[str, Any]]:
    properties: dict[str, Any] = schema["properties"] if isinstance(schema.get("properties"), dict) else {}
    required = [r for r in schema.get("required", []) if isinstance(r, str)] if isinstance(schema.get("required"), list) else []
    minimal = {name: _first(properties.get(name, {}), depth) for name in required}
    full = {**minimal, **{name: _first(sub, depth) for name, sub in properties.items()}}
    yield minimal
    yield full
    for name, sub in properties.items():  # boundary values, one property at a time
        for value in list(_candidates(sub, depth + 1))[1:]:
            yield {**full, name: value}


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def valid_examples(schema: Any, limit: int = 6) -> list[Any]:
    """Up to `limit` distinct valid instances of `schema`, the simplest first. Raises `Ungeneratable`."""
    beyond = _beyond_caps(schema)
    if beyond:
        raise Ungeneratable(beyond)
    try:
        validator = target_validator(schema if isinstance(schema, dict) else {})
        list(validator.iter_errors({}))  # surfaces a schema that cannot be applied before any guessing
        found: dict[str, Any] = {}
        for candidate in _candidates(schema):
            if _key(candidate) not in found and not list(validator.iter_errors(candidate)):
                found[_key(candidate)] = candidate
                if len(found) >= limit:
                    break
    except Unjudgeable as error:
        raise Ungeneratable(str(error)) from None
    if not found:
        raise Ungeneratable("no instance the suite could make validates against the schema")
    return list(found.values())


def _near_misses(schema: dict[str, Any], base: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    properties: dict[str, Any] = schema["properties"] if isinstance(schema.get("properties"), dict) else {}
    for name in schema.get("required", []) if isinstance(schema.get("required"), list) else []:
        if name in base:
            yield f"without the required {name!r}", {k: v for k, v in base.items() if k != name}
    for name, sub in properties.items():
        if not isinstance(sub, dict):
            continue
        kind = _type(sub)
        if kind in _WRONG:
            yield f"{name!r} of the wrong type", {**base, name: _WRONG[kind]}
        for bound, delta, words in (("minimum", -1, "below its minimum"), ("maximum", 1, "above its maximum")):
            if isinstance(sub.get(bound), int | float) and not isinstance(sub.get(bound), bool) and abs(sub[bound]) < CAPS.magnitude:
                yield f"{name!r} {words}", {**base, name: sub[bound] + delta}
        if isinstance(sub.get("minLength"), int) and sub["minLength"] > 0:
            yield f"{name!r} shorter than its minLength", {**base, name: "a" * (sub["minLength"] - 1)}
        if isinstance(sub.get("maxLength"), int) and sub["maxLength"] < CAPS.string_length:
            yield f"{name!r} longer than its maxLength", {**base, name: "a" * (sub["maxLength"] + 1)}
        if isinstance(sub.get("enum"), list):
            yield f"{name!r} outside its enum", {**base, name: "not-one-of-the-listed-values"}
    if schema.get("additionalProperties") is False:
        yield "with a property the schema does not allow", {**base, "unexpected_property": "x"}
    if schema.get("type") == "object":
        yield "not an object", ["an", "array"]


def invalid_examples(schema: Any, limit: int = 8) -> list[tuple[str, Any]]:
    """Up to `limit` instances that each break one constraint of `schema`, with what they break."""
    if not isinstance(schema, dict):
        return []
    try:
        base = next((e for e in valid_examples(schema, limit=2) if isinstance(e, dict)), None)
        if base is None:
            return []
        validator = target_validator(schema)
        misses = [(d, v) for d, v in _near_misses(schema, base) if list(validator.iter_errors(v))]
    except (Ungeneratable, Unjudgeable):
        return []
    return misses[:limit]
