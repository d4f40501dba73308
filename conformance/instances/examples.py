"""Deterministic examples from a JSON Schema: valid instances with boundary values, and near-misses.

The builder reads JSON Schema 2020-12 as frameworks emit it (pydantic, FastAPI, the MCP SDK, zod,
OpenAI function calling): `$ref` to `$defs` or `definitions`, `$anchor`, embedded `$id`, recursion,
`allOf` (merged), `anyOf`/`oneOf` (each branch in turn: nullable and discriminated unions),
`if`/`then`/`else`, `const` and `enum` anywhere, `prefixItems`, `contains`, `uniqueItems`,
`patternProperties`, `propertyNames`, `additionalProperties` as a schema, `dependentRequired`,
`dependentSchemas`, `minProperties`, `pattern` (strings walked from the expression,
`patterns.py`), `multipleOf`, formats, `examples` and `default`. What the walk cannot make, the
simplest value of each type may be; what neither can, schemathesis's generator is asked for
(`_generated`: a pattern's lookahead or backreference). Values are built part by part,
each part the first candidate its own subschema accepts, so the simplest instance comes first and
the same schema always gives the same instances.

Every candidate is checked against the whole schema with a real validator that asserts formats,
so a keyword the builder does not understand can only lose examples, never produce a wrong one.
When no candidate is valid, `Ungeneratable` says so and the checks that needed an example report
a skip. What the suite builds from a target's schema is bounded (`CAPS`): a string's length, an
array's items, nesting, numbers' magnitude, and the candidates one build looks at. A schema that
demands more (`minLength: 100000000`) is `Ungeneratable` with the bound named; an invalid example
that would exceed a cap is not made. References never leave the schema (nothing is fetched).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from itertools import chain
from itertools import islice
from itertools import zip_longest
from typing import Any
from typing import TypeGuard

from referencing import Registry
from referencing import Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from ..validation.target_schemas import Unjudgeable
from ..validation.target_schemas import pattern_matches
from ..validation.target_schemas import target_validator
from .patterns import pattern_strings
from .worked_out import worked_out

__all__ = ["CAPS", "Caps", "Ungeneratable", "invalid_examples", "listed_values", "valid_examples"]


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
    candidates: int = 400  # candidates one part of an instance may try before it gives up
    references: int = 32  # $ref hops followed in a row (a chain of references to references)
    seconds: float = 2.0  # one schema's build, candidates and their validation together


CAPS = Caps()
_LENGTHS = {
    "minLength": ("string_length", "characters"),
    "minItems": ("items", "items"),
    "minProperties": ("items", "properties"),
    "minContains": ("items", "items"),
}
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_COUNTS = (
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
)
#: Branches kept when two anyOf (or oneOf) meet in one merged schema: each pair of theirs is one.
_BRANCHES = 64
#: Below this depth objects are built whole and arrays with an item; deeper, only what is required.
_SHALLOW = 3


def _beyond_caps(schema: Any) -> str | None:
    """The first demand of `schema` that the caps do not allow, said in words; None if there is
    none."""
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
            if (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and value > getattr(CAPS, cap)
            ):
                return (
                    f"{keyword} {value:g} is beyond the suite's cap of {getattr(CAPS, cap):,}"
                    f" {unit}"
                )
        for keyword in _BOUNDS:
            value = node.get(keyword)
            # a lower bound far below (an upper far above) asks nothing of the numbers made
            if (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and not (
                    abs(value) <= CAPS.magnitude
                    or (keyword in ("minimum", "exclusiveMinimum") and value < 0)
                    or (keyword in ("maximum", "exclusiveMaximum") and value > 0)
                )
            ):
                return (
                    f"{keyword} {value:g} is beyond the suite's cap of ±{CAPS.magnitude:,.0f} on"
                    " numbers"
                )
        stack.extend(v for v in node.values() if isinstance(v, dict | list))
    return None


_FORMATS = {
    "date-time": "2026-05-04T09:00:00Z",
    "date": "2026-05-04",
    "time": "09:00:00Z",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "uri": "https://example.com/",
    "iri": "https://example.com/",
    "uri-reference": "/example",
    "iri-reference": "/example",
    "uri-template": "https://example.com/{id}",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "duration": "P1D",
    "json-pointer": "/a/b",
    "relative-json-pointer": "0/a",
    "regex": "^[a-z]+$",
    "byte": "aGVsbG8=",
    "binary": "hello",
    "password": "correct horse battery staple",
    "int32": "1",
    "int64": "1",
    "color": "#336699",
}
_WRONG = {
    "string": 12345,
    "integer": "12",
    "number": "1.5",
    "boolean": "true",
    "object": [],
    "array": {},
    "null": 0,
}
_TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")
#: The simplest values of every type, tried when the walk made nothing valid.
_SIMPLEST: tuple[Any, ...] = (
    {},
    {"example": 1},
    [],
    [1],
    "example",
    "",
    0,
    1,
    -1,
    1.5,
    True,
    False,
    None,
)
#: Keywords that say nothing of which instances are valid: they do not stop a $ref's target from
#: being used whole.
_ANNOTATIONS = {
    "$ref",
    "$dynamicRef",
    "$defs",
    "definitions",
    "$id",
    "$schema",
    "$anchor",
    "$dynamicAnchor",
    "$comment",
    "title",
    "description",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "discriminator",
}
_GREATEST = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
_LEAST = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")


class _Stop(Exception):
    """The build looked at more than its share of candidates."""


@dataclass
class _Budget:
    """What one build may spend: candidates looked at, and seconds (a schema built so that every
    validation takes nearly its own limit cannot keep the run's event loop for long)."""

    left: int = CAPS.candidates * 20
    until: float = field(default_factory=lambda: time.monotonic() + CAPS.seconds)

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0 or (self.left % 16 == 0 and time.monotonic() > self.until):
            raise _Stop


@dataclass(frozen=True)
class _Walk:
    """Where the builder stands: the resolver at the current base URI, how deep, and the shared
    budget."""

    resolver: Any
    validator: Any
    budget: _Budget = field(default_factory=_Budget)
    depth: int = 0

    def deeper(self) -> _Walk:
        return replace(self, depth=self.depth + 1)

    def accepts(self, schema: Any, value: Any) -> bool:
        try:
            return bool(self.validator.for_subschema(schema).is_valid(value))
        except (Unjudgeable, RecursionError):
            return False


def _dict_of(schema: dict[str, Any], key: str) -> dict[str, Any]:
    value = schema.get(key)
    return value if isinstance(value, dict) else {}


def _list_of(schema: dict[str, Any], key: str) -> list[Any]:
    value = schema.get(key)
    return value if isinstance(value, list) else []


def _types(schema: dict[str, Any]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        declared = [declared]
    if isinstance(declared, list):
        named = [t for t in declared if t in _TYPES]
        return sorted(named, key=lambda t: t == "null")
    if any(
        k in schema
        for k in (
            "properties",
            "required",
            "patternProperties",
            "additionalProperties",
            "minProperties",
            "propertyNames",
            "dependentRequired",
            "unevaluatedProperties",
        )
    ):
        return ["object"]
    if any(k in schema for k in ("items", "prefixItems", "contains", "minItems", "uniqueItems")):
        return ["array"]
    if any(
        k in schema
        for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
    ):
        return ["number"]
    if any(k in schema for k in ("minLength", "maxLength", "pattern", "format")):
        return ["string"]
    return []


def _whole_counts(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with its counts written as decimals (`maxLength: 2.0`, which 2020-12 allows) as
    integers."""
    decimal = [
        k for k in _COUNTS if isinstance(schema.get(k), float) and float(schema[k]).is_integer()
    ]
    return {**schema, **{k: int(schema[k]) for k in decimal}} if decimal else schema


def _multiple(a: Any, b: Any) -> Any:
    """A step both `a` and `b` divide into, when the builder can find one; `b` otherwise."""
    if isinstance(a, int) and isinstance(b, int) and a > 0 and b > 0:
        return math.lcm(a, b)
    with suppress(TypeError, ZeroDivisionError, OverflowError):
        if float(a / b).is_integer():
            return a
    return b


def _both(a: Any, b: Any) -> Any:
    return a if b is True or b == {} else b if a is True or a == {} else {"allOf": [a, b]}


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """One schema that asks what `a` and `b` both ask (allOf), as far as the builder needs to
    know."""
    merged = dict(a)
    for key, value in b.items():
        if key not in merged:
            merged[key] = value
        elif (
            key in ("properties", "patternProperties", "dependentSchemas")
            and isinstance(value, dict)
            and isinstance(merged[key], dict)
        ):
            merged[key] = {
                **merged[key],
                **{
                    n: _both(merged[key][n], s) if n in merged[key] else s for n, s in value.items()
                },
            }
        elif key == "prefixItems" and isinstance(value, list) and isinstance(merged[key], list):
            mine = merged[key]
            merged[key] = [
                (
                    _both(mine[i], value[i])
                    if i < len(mine) and i < len(value)
                    else (mine if i < len(mine) else value)[i]
                )
                for i in range(max(len(mine), len(value)))
            ]
        elif key == "required" and isinstance(value, list) and isinstance(merged[key], list):
            merged[key] = list(dict.fromkeys([*merged[key], *value]))
        elif key == "type":
            mine = set(_types({"type": merged[key]}))
            theirs = set(_types({"type": value}))
            common = mine & theirs or (
                {"integer"}
                if {"integer", "number"} <= mine | theirs
                and ("integer" in mine or "integer" in theirs)
                else set()
            )
            merged[key] = sorted(common, key=_TYPES.index)
        elif key == "enum" and isinstance(value, list) and isinstance(merged[key], list):
            keys = {_key(v) for v in value}
            merged[key] = [v for v in merged[key] if _key(v) in keys]
        elif (
            key in _GREATEST
            and isinstance(value, int | float)
            and isinstance(merged[key], int | float)
        ):
            merged[key] = max(merged[key], value)
        elif (
            key in _LEAST
            and isinstance(value, int | float)
            and isinstance(merged[key], int | float)
        ):
            merged[key] = min(merged[key], value)
        elif (
            key in ("anyOf", "oneOf") and isinstance(value, list) and isinstance(merged[key], list)
        ):
            merged[key] = [{"allOf": [mine, theirs]} for mine in merged[key] for theirs in value][
                :_BRANCHES
            ]
        elif key == "multipleOf":
            merged[key] = _multiple(merged[key], value)
        elif key == "allOf" and isinstance(value, list) and isinstance(merged[key], list):
            merged[key] = [*merged[key], *value]
        elif key in _ANNOTATIONS:
            continue
        elif isinstance(value, dict | bool) and isinstance(merged[key], dict | bool):
            merged[key] = _both(merged[key], value)
        else:
            merged[key] = value
    return merged


def _resolved(schema: Any, walk: _Walk) -> tuple[Any, _Walk]:
    """`schema` with its references followed (siblings kept, as 2020-12 reads them) and its allOf
    merged."""
    for _ in range(CAPS.references):
        walk.budget.spend()
        if not isinstance(schema, dict):
            return schema, walk
        if isinstance(schema.get("$id"), str) and walk.depth > 0:
            # an $id the resolver cannot take: references from here resolve against the parent
            with suppress(Exception):
                walk = replace(
                    walk, resolver=walk.resolver.in_subresource(DRAFT202012.create_resource(schema))
                )
        reference = schema.get("$ref", schema.get("$dynamicRef"))
        if isinstance(reference, str):
            try:
                found = walk.resolver.lookup(reference.replace("$dynamicRef", "$ref"))
            except (Unresolvable, ValueError, TypeError, KeyError, IndexError):
                return False, walk
            siblings = {k: v for k, v in schema.items() if k not in ("$ref", "$dynamicRef")}
            walk = replace(walk, resolver=found.resolver)
            target = found.contents
            if not any(k not in _ANNOTATIONS for k in siblings):
                schema = target
            elif isinstance(target, dict):
                schema = _merge(target, siblings)
            else:
                schema = siblings if target is True else False
            continue
        if isinstance(schema.get("allOf"), list) and schema["allOf"]:
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for part in schema["allOf"]:
                part, _ = _resolved(part, walk)
                if part is False:
                    return False, walk
                if isinstance(part, dict):
                    merged = _merge(merged, part)
            schema = merged
            continue
        return schema, walk
    return False, walk


_NOTHING = object()


def _first(schema: Any, walk: _Walk, besides: Any = _NOTHING) -> Any:
    """The first candidate that `schema` accepts (other than `besides`, while another one is); its
    first candidate if none does; "example" for an open schema."""
    fallback: Any = _NOTHING
    accepted: Any = _NOTHING
    for candidate in islice(_candidates(schema, walk), CAPS.candidates):
        if walk.accepts(schema, candidate):
            if besides is _NOTHING or candidate != besides:
                return candidate
            if accepted is _NOTHING:
                accepted = candidate
        if fallback is _NOTHING:
            fallback = candidate
    if accepted is not _NOTHING:
        return accepted
    return "example" if fallback is _NOTHING else fallback


def _default_of(schema: Any) -> Any:
    return schema.get("default", _NOTHING) if isinstance(schema, dict) else _NOTHING


def _distinct(schema: Any, walk: _Walk, count: int) -> list[Any]:
    """Up to `count` distinct values `schema` accepts, the simplest first."""
    found: dict[str, Any] = {}
    for candidate in islice(_candidates(schema, walk), CAPS.candidates):
        if _key(candidate) not in found and walk.accepts(schema, candidate):
            found[_key(candidate)] = candidate
            if len(found) >= count:
                break
    return list(found.values())


def _candidates(schema: Any, walk: _Walk) -> Iterator[Any]:
    walk.budget.spend()
    if schema is True:
        yield "example"
        return
    if walk.depth > CAPS.depth:
        return
    schema, walk = _resolved(schema, walk)
    if schema is True or schema == {}:
        yield "example"
        return
    if not isinstance(schema, dict):
        return
    schema = _whole_counts(schema)
    if isinstance(schema.get("examples"), list):
        yield from schema["examples"][: CAPS.items]
    for key in ("const", "default"):
        if key in schema:
            yield schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        yield from schema["enum"][: CAPS.items]
        return
    if "const" in schema:
        return
    base = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf", "if", "then", "else")}
    for branch in ("oneOf", "anyOf"):
        if isinstance(schema.get(branch), list) and schema[branch]:
            for option in schema[branch]:
                option, inner = _resolved(option, walk)
                if isinstance(option, dict):
                    yield from _candidates(
                        {**_merge(base, option), **_rest(schema, branch)},
                        replace(walk, resolver=inner.resolver),
                    )
                elif option is True:
                    yield from _candidates({**base, **_rest(schema, branch)}, walk)
            return
    if isinstance(schema.get("if"), dict | bool):
        condition, _ = _resolved(schema["if"], walk)
        condition = {} if condition is True else condition
        then, _ = _resolved(schema.get("then", True), walk)
        otherwise, _ = _resolved(schema.get("else", True), walk)
        if isinstance(condition, dict) and isinstance(then, dict):
            yield from _candidates(_merge(_merge(base, condition), then), walk)
        if isinstance(otherwise, dict):
            yield from _candidates(_merge(base, otherwise), walk)
        yield from _candidates(base, walk)
        return
    for kind in _types(schema) or ["string", "integer", "object"]:
        if kind == "object":
            yield from _objects(schema, walk)
        elif kind == "array":
            yield from _arrays(schema, walk)
        elif kind in ("integer", "number"):
            yield from _numbers(schema, kind == "integer")
        elif kind == "string":
            yield from _strings(schema)
        elif kind == "boolean":
            yield from (True, False)
        elif kind == "null":
            yield None


def _rest(schema: dict[str, Any], branch: str) -> dict[str, Any]:
    """The branching keywords of `schema` other than `branch` (anyOf beside oneOf), still to be
    applied."""
    return {k: schema[k] for k in ("anyOf", "oneOf") if k != branch and k in schema}


def _numbers(schema: dict[str, Any], integer: bool) -> Iterator[Any]:
    try:  # the bounds are a target's: whatever arithmetic they defeat only loses candidates
        yield from _bounded_numbers(schema, integer)
    except (OverflowError, ZeroDivisionError, ValueError, TypeError):
        return


def _bounded_numbers(schema: dict[str, Any], integer: bool) -> Iterator[Any]:
    low, high = schema.get("minimum"), schema.get("maximum")
    low = low if isinstance(low, int | float) and not isinstance(low, bool) else None
    high = high if isinstance(high, int | float) and not isinstance(high, bool) else None
    above, below = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if isinstance(above, int | float) and not isinstance(above, bool):
        low = (
            max(low, above + (1 if integer else 0.5))
            if low is not None
            else above + (1 if integer else 0.5)
        )
    if isinstance(below, int | float) and not isinstance(below, bool):
        high = (
            min(high, below - (1 if integer else 0.5))
            if high is not None
            else below - (1 if integer else 0.5)
        )
    if integer:
        low = math.ceil(low) if low is not None else None
        high = math.floor(high) if high is not None else None
    middle: float = (
        (low + high) / 2
        if low is not None and high is not None
        else low
        if low is not None
        else high
        if high is not None
        else 1
    )
    step = schema.get("multipleOf")
    if isinstance(step, int | float) and not isinstance(step, bool) and step > 0:
        start = (
            math.ceil(low / step)
            if low is not None
            else (1 if high is None or high >= step else math.floor(high / step))
        )
        for k in (start, start + 1, math.floor(high / step) if high is not None else start + 2):
            value = k * step
            yield round(value) if integer or float(value).is_integer() else round(value, 12)
        return
    for bound in (middle, low, high):
        if bound is not None:
            yield int(bound) if integer else bound
    if integer and not float(middle).is_integer():
        yield math.floor(middle)
    for n in range(1, 5):  # distinct values, for uniqueItems
        yield (int(middle) if integer else middle) + n


def _strings(schema: dict[str, Any]) -> Iterator[str]:
    fmt = schema.get("format")
    # a host may assert a format: valid examples keep to it, whatever the lengths allow
    if fmt in _FORMATS:
        yield _FORMATS[fmt]
        return
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    low = low if isinstance(low, int) and 0 <= low <= CAPS.string_length else 0
    high = min(high, CAPS.string_length) if isinstance(high, int) and high >= 0 else None
    if isinstance(schema.get("pattern"), str):
        for made in pattern_strings(schema["pattern"]):
            # a pattern that asks little, with a minLength that asks more: the string again
            if len(made) < low:
                made = (made * (low // max(len(made), 1) + 1)) if made else "a" * low
            yield made if high is None else made[:high]
        return
    typical = "The IETF is an open community of designers."
    if high is not None:
        typical = typical[:high]
    yield typical if len(typical) >= low else typical + "x" * (low - len(typical))
    if low > 0:
        yield "a" * low
    if high is not None:
        yield "a" * high
    for n in range(1, 6):  # distinct values, for uniqueItems and enough properties
        made = f"item-{n}"
        yield (
            (made + "x" * (low - len(made)))[:high]
            if high is not None
            else made + "x" * (low - len(made))
        )


def _name_for(schema: dict[str, Any], walk: _Walk, index: int, taken: set[str]) -> str | None:
    """A property name not in `taken`, accepted by propertyNames and wanted by a
    patternProperties if any."""
    names = schema.get("propertyNames", True)
    options: list[str] = []
    for pattern in _dict_of(schema, "patternProperties"):
        options.extend(pattern_strings(pattern, variants=min(4 + index, 16)))
    options.extend(_distinct(names, walk.deeper(), min(4 + index, 16)) if names is not True else [])
    options.extend(f"key{n}" for n in range(index + 8))
    for name in options:
        if isinstance(name, str) and name not in taken and walk.accepts(names, name):
            return name
    return None


def _value_schema(schema: dict[str, Any], name: str) -> Any:
    """What a property called `name` must satisfy: its properties entry, the patternProperties it
    matches, or additionalProperties."""
    properties = _dict_of(schema, "properties")
    if name in properties:
        return properties[name]
    matched = [
        sub
        for pattern, sub in _dict_of(schema, "patternProperties").items()
        if _matches(pattern, name)
    ]
    if matched:
        return matched[0] if len(matched) == 1 else {"allOf": matched}
    extra = schema.get("additionalProperties", schema.get("unevaluatedProperties", True))
    return extra if isinstance(extra, dict | bool) else True


def _matches(pattern: str, name: str) -> bool:
    try:
        return pattern_matches(pattern, name)
    except Unjudgeable:
        return False


def _objects(schema: dict[str, Any], walk: _Walk) -> Iterator[dict[str, Any]]:
    properties = _dict_of(schema, "properties")
    required = [r for r in _list_of(schema, "required") if isinstance(r, str)]
    depends = _dict_of(schema, "dependentRequired")
    # draft-07's spelling of both dependent keywords
    if isinstance(schema.get("dependencies"), dict):
        depends = {
            **{k: v for k, v in schema["dependencies"].items() if isinstance(v, list)},
            **depends,
        }
        schema = {
            **schema,
            "dependentSchemas": {
                **{k: v for k, v in schema["dependencies"].items() if isinstance(v, dict)},
                **_dict_of(schema, "dependentSchemas"),
            },
        }
    inner = walk.deeper()

    def completed(names: list[str]) -> dict[str, Any]:
        names = list(dict.fromkeys(names))
        for name in list(names):  # dependentRequired: a present property brings the ones it names
            names.extend(n for n in depends.get(name, []) if isinstance(n, str) and n not in names)
        # an optional member is given a value of its own, not the default it would have anyway
        value = {
            name: _first(
                _value_schema(schema, name),
                inner,
                _NOTHING if name in required else _default_of(_value_schema(schema, name)),
            )
            for name in names
        }
        # dependentSchemas: a present property brings what its schema requires
        for name in list(value):
            extra, _ = _resolved(_dict_of(schema, "dependentSchemas").get(name, True), walk)
            if isinstance(extra, dict):
                for needed in _list_of(extra, "required"):
                    if isinstance(needed, str) and needed not in value:
                        value[needed] = _first(
                            _dict_of(extra, "properties").get(
                                needed, _value_schema(schema, needed)
                            ),
                            inner,
                        )
        least = schema.get("minProperties")
        if isinstance(least, int) and len(value) < least:
            for name in properties:
                if len(value) >= least:
                    break
                value.setdefault(name, _first(properties[name], inner))
            index = 0
            while len(value) < least and index < least + 8:
                extra_name = _name_for(schema, walk, index, set(value))
                index += 1
                if extra_name is not None:
                    value[extra_name] = _first(_value_schema(schema, extra_name), inner)
        return value

    minimal = completed(required)
    yield minimal
    if walk.depth >= _SHALLOW:
        return
    most = schema.get("maxProperties")
    optional = [n for n in properties if n not in minimal]
    if isinstance(most, int):
        optional = optional[: max(most - len(minimal), 0)]
    full = completed([*required, *optional])
    yield full
    if walk.depth > 0:
        return
    # boundary values, each property's first before any property's second, so a few examples reach
    # every property
    alternatives = (islice(_candidates(sub, inner), 1, 6) for sub in properties.values())
    for values in zip_longest(*alternatives, fillvalue=_NOTHING):
        for name, value in zip(properties, values, strict=True):
            if value is not _NOTHING:
                yield {**full, name: value}


def _arrays(schema: dict[str, Any], walk: _Walk) -> Iterator[list[Any]]:
    inner = walk.deeper()
    prefix = _list_of(schema, "prefixItems")
    items = schema.get("items", schema.get("unevaluatedItems", True))
    # draft-07's tuple form (zod-to-json-schema): items as a list, additionalItems after it
    if isinstance(items, list):
        prefix, items = items, schema.get("additionalItems", True)
    items = items if isinstance(items, dict | bool) else True
    unique = schema.get("uniqueItems") is True
    least = schema.get("minItems", 0)
    least = least if isinstance(least, int) and 0 <= least <= CAPS.items else 0
    most = schema.get("maxItems")
    head: list[Any] = []
    for sub in prefix:
        head.append(_first(sub, inner, head[-1] if unique and head else _NOTHING))
    contains = schema.get("contains")
    wanted = schema.get("minContains", 1) if contains is not None else 0
    wanted = wanted if isinstance(wanted, int) and 0 <= wanted <= CAPS.items else 1
    contained = _both(items, contains) if contains is not None and items is not False else contains
    middle = (
        _distinct(contained, inner, wanted)
        if unique and contains is not None
        else [_first(contained, inner)] * wanted
        if contains is not None
        else []
    )
    shallow = walk.depth < _SHALLOW
    for count in dict.fromkeys((max(least, 1 if shallow else 0), least)):
        need = max(count - len(head) - len(middle), 0)
        if need and items is False:
            continue
        tail = (
            _distinct(items, inner, need)
            if unique
            else [_first(items, inner)] * need
            if need
            else []
        )
        value = [*head, *middle, *tail]
        if isinstance(most, int) and len(value) > most:
            value = value[:most]
        yield value
    if shallow and isinstance(items, dict) and not prefix and contains is None:
        # items of different kinds (each branch of a union), as many as the array may hold
        room = min(3, most) if isinstance(most, int) else 3
        varied = _distinct(items, inner, room)
        if len(varied) > 1 and len(varied) >= least:
            yield varied


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _start(schema: Any) -> _Walk:
    resource: Resource[Any] = (
        DRAFT202012.create_resource(schema)
        if isinstance(schema, dict | bool)
        else DRAFT202012.create_resource({})
    )
    base = resource.id() or "urn:agent-conformance:target-schema"
    registry: Registry[Any] = Registry().with_resource(base, resource)
    return _Walk(
        resolver=registry.resolver(base_uri=base), validator=target_validator(schema, formats=True)
    )


def _generated(schema: Any, walk: _Walk) -> list[Any]:
    """The simplest instance schemathesis's generator draws that the validator accepts (none when
    it cannot model the schema, finds none, or the build's budget runs out): derandomized, so the
    same schema gives the same instance."""
    try:
        import jsonschema_rs
        from hypothesis import HealthCheck
        from hypothesis import Phase
        from hypothesis import find
        from hypothesis import settings
        from schemathesis.generation.jsonschema.builder import build

        strategy = build(schema, draft=jsonschema_rs.Draft202012, formats={})

        def accepted(value: Any) -> bool:
            walk.budget.spend()
            return bool(walk.validator.is_valid(value))

        return [
            find(
                strategy,
                accepted,
                settings=settings(
                    database=None,
                    derandomize=True,
                    max_examples=200,
                    deadline=None,
                    phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck),
                ),
            )
        ]
    except Exception:  # whatever stops the fallback leaves the schema ungeneratable
        return []


def valid_examples(schema: Any, limit: int = 6) -> list[Any]:
    """Up to `limit` distinct valid instances of `schema`, the simplest first. Raises
    `Ungeneratable`. Worked out once for the same schema text and limit (worked_out.py)."""
    return worked_out(
        f"valid {CAPS!r}",
        schema,
        limit,
        lambda: _valid_examples(schema, limit),
        seconds=CAPS.seconds,
        refused=Ungeneratable,
    )


def _valid_examples(schema: Any, limit: int) -> list[Any]:
    beyond = _beyond_caps(schema)
    if beyond:
        raise Ungeneratable(beyond)
    if not isinstance(schema, dict | bool):
        raise Ungeneratable("the schema is neither an object nor a boolean")
    try:
        walk = _start(schema)
        # surfaces a schema that cannot be applied before any guessing
        list(walk.validator.iter_errors({}))
        found: dict[str, Any] = {}
        try:
            for candidate in _candidates(schema, walk):
                if _key(candidate) not in found and walk.validator.is_valid(candidate):
                    found[_key(candidate)] = candidate
                    if len(found) >= limit:
                        break
        except (_Stop, RecursionError):
            pass  # what was found in the budget stands
        if not found:
            # what the walk cannot read (`not`, a $dynamicRef's scope, a keyword's implied type
            # shutting out the others): the simplest value of each type, judged the same way
            found = {_key(v): v for v in _SIMPLEST if walk.validator.is_valid(v)}
            found = dict(islice(found.items(), limit))
        if not found:
            # what neither can make (a pattern's lookahead or backreference): schemathesis's
            # generator, judged the same way, within what is left of the same budget
            found = {_key(v): v for v in _generated(schema, walk)}
    except Unjudgeable as error:
        raise Ungeneratable(str(error)) from None
    if not found:
        raise Ungeneratable("no instance the suite could make validates against the schema")
    return list(found.values())


def _near_misses(
    schema: dict[str, Any], base: dict[str, Any], walk: _Walk
) -> Iterator[tuple[str, str, Any]]:
    """(what kind of constraint it breaks, a description, the instance) for each near miss."""
    properties = _dict_of(schema, "properties")
    for name in _list_of(schema, "required"):
        if name in base:
            yield (
                "required",
                f"without the required {name!r}",
                {k: v for k, v in base.items() if k != name},
            )
    for name, sub in properties.items():
        sub, _ = _resolved(sub, walk.deeper())
        if not isinstance(sub, dict):
            continue
        kinds = _types(sub)
        if len(kinds) == 1 and kinds[0] in _WRONG:
            yield "type", f"{name!r} of the wrong type", {**base, name: _WRONG[kinds[0]]}
        for bound, delta, words in (
            ("minimum", -1, "below its minimum"),
            ("maximum", 1, "above its maximum"),
        ):
            if (
                isinstance(sub.get(bound), int | float)
                and not isinstance(sub.get(bound), bool)
                and abs(sub[bound]) < CAPS.magnitude
            ):
                yield bound, f"{name!r} {words}", {**base, name: sub[bound] + delta}
        if isinstance(sub.get("minLength"), int) and sub["minLength"] > 0:
            yield (
                "minLength",
                f"{name!r} shorter than its minLength",
                {**base, name: "a" * (sub["minLength"] - 1)},
            )
        if isinstance(sub.get("maxLength"), int) and sub["maxLength"] < CAPS.string_length:
            yield (
                "maxLength",
                f"{name!r} longer than its maxLength",
                {**base, name: "a" * (sub["maxLength"] + 1)},
            )
        if isinstance(sub.get("enum"), list) or "const" in sub:
            listed = "enum" if "enum" in sub else "const"
            yield (
                listed,
                f"{name!r} outside its {listed}",
                {**base, name: "not-one-of-the-listed-values"},
            )
        if isinstance(sub.get("pattern"), str):
            yield (
                "pattern",
                f"{name!r} not matching its pattern",
                {**base, name: "\u0000 does not match \u0000"},
            )
    if schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False:
        yield (
            "additional",
            "with a property the schema does not allow",
            {**base, "unexpected_property": "x"},
        )
    if "object" in _types(schema):
        yield "type of the whole", "not an object", ["an", "array"]


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _broken(schema: Any, value: Any, walk: _Walk) -> Iterator[tuple[str, str, Any]]:
    """(the keyword it breaks, a description, the instance) for each near miss of `value`, a valid
    instance of `schema`: one value changed at this level, or (two levels down) in one member or
    item."""
    schema, walk = _resolved(schema, walk)
    if not isinstance(schema, dict):
        return
    schema = _whole_counts(schema)
    if _number(value):
        yield from _broken_number(schema, value)
    elif isinstance(value, str):
        yield from _broken_string(schema, value)
    elif isinstance(value, list):
        yield from _broken_array(schema, value, walk)
    elif isinstance(value, dict):
        yield from _broken_object(schema, value, walk)
    if "const" in schema or isinstance(schema.get("enum"), list):
        listed = "const" if "const" in schema else "enum"
        yield listed, f"outside its {listed}", "not-one-of-the-listed-values"
        yield listed, f"outside its {listed}", -987654321
    if isinstance(schema.get("not"), dict | bool):
        with suppress(Ungeneratable):
            for shut_out in valid_examples(schema["not"], limit=2):
                yield "not", "an instance its 'not' shuts out", shut_out
    if "type" in schema:
        for other in _SIMPLEST:
            yield "type", f"of another type ({type(other).__name__})", other


def _broken_number(schema: dict[str, Any], value: Any) -> Iterator[tuple[str, str, Any]]:
    for bound, moved, words in (
        ("minimum", -1, "below its minimum"),
        ("exclusiveMinimum", 0, "at its exclusiveMinimum"),
        ("maximum", 1, "above its maximum"),
        ("exclusiveMaximum", 0, "at its exclusiveMaximum"),
    ):
        if _number(schema.get(bound)) and abs(schema[bound]) < CAPS.magnitude:
            yield bound, words, schema[bound] + moved
    step = schema.get("multipleOf")
    if _number(step) and 0 < step < CAPS.magnitude:
        yield "multipleOf", "not a multiple of its multipleOf", value + step / 2
        yield "multipleOf", "not a multiple of its multipleOf", value + step * 1.5
    if "integer" in _types(schema):
        yield "type", "not a whole number", value + 0.5


def _broken_string(schema: dict[str, Any], value: str) -> Iterator[tuple[str, str, Any]]:
    least, most = schema.get("minLength"), schema.get("maxLength")
    if isinstance(least, int) and least > 0:
        yield "minLength", "shorter than its minLength", value[: least - 1]
        yield "minLength", "shorter than its minLength", "a" * (least - 1)
    if isinstance(most, int) and 0 <= most < CAPS.string_length:
        yield "maxLength", "longer than its maxLength", "a" * (most + 1)
    if isinstance(schema.get("pattern"), str):
        for text in ("\u0000 does not match \u0000", "", "!", value + "\u0000!"):
            yield "pattern", "not matching its pattern", text


def _broken_array(
    schema: dict[str, Any], value: list[Any], walk: _Walk
) -> Iterator[tuple[str, str, Any]]:
    least, most = schema.get("minItems"), schema.get("maxItems")
    if isinstance(least, int) and 0 < least <= len(value):
        yield "minItems", "with fewer items than its minItems", value[: least - 1]
    if isinstance(most, int) and 0 <= most < CAPS.items:
        more = [value[-1] if value else 1] * (most + 1 - len(value))
        yield "maxItems", "with more items than its maxItems", value + more
    if schema.get("uniqueItems") is True and value:
        yield "uniqueItems", "with an item twice", [*value, value[0]]
    if "contains" in schema:
        yield "contains", "with no item its contains asks for", []
        kept = [v for v in value if not walk.accepts(schema["contains"], v)]
        yield "contains", "with no item its contains asks for", kept
        if value and isinstance(schema.get("maxContains"), int):
            yield "maxContains", "with more items than its maxContains", value * 2
    if walk.depth >= 2:
        return
    prefix = _list_of(schema, "prefixItems")
    items = schema.get("items", True)
    for index, item in enumerate(value[:3]):
        sub = prefix[index] if index < len(prefix) else items
        for kind, words, changed in islice(_broken(sub, item, walk.deeper()), 12):
            yield kind, f"item {index} {words}", [*value[:index], changed, *value[index + 1 :]]
    if items is False or (isinstance(items, dict) and prefix and len(value) >= len(prefix)):
        yield "items", "with an item past its prefixItems", [*value, "unexpected-item"]


def _broken_object(
    schema: dict[str, Any], value: dict[str, Any], walk: _Walk
) -> Iterator[tuple[str, str, Any]]:
    yield from _near_misses(schema, value, walk)
    least, most = schema.get("minProperties"), schema.get("maxProperties")
    if isinstance(least, int) and 0 < least <= len(value):
        yield (
            "minProperties",
            "with fewer members than its minProperties",
            dict(islice(value.items(), least - 1)),
        )
    if isinstance(most, int) and 0 <= most < CAPS.items:
        extra = {f"extra{n}": "x" for n in range(most + 1 - len(value))}
        yield "maxProperties", "with more members than its maxProperties", {**value, **extra}
    if "propertyNames" in schema:
        for name in ("", "!", "%%unexpected name%%", "a" * 300):
            yield "propertyNames", f"with a member named {name[:20]!r}", {**value, name: 1}
    for trigger, needed in _dict_of(schema, "dependentRequired").items():
        if isinstance(needed, list) and needed:
            lacking = {k: v for k, v in value.items() if k not in needed}
            yield (
                "dependentRequired",
                f"with {trigger!r} but not what it requires",
                {**lacking, trigger: value.get(trigger, 1)},
            )
    for pattern in _dict_of(schema, "patternProperties"):
        for name in islice(pattern_strings(pattern), 1):
            for other in _SIMPLEST:
                yield (
                    "patternProperties",
                    f"{name!r} of a type its pattern denies",
                    {**value, name: other},
                )
    if walk.depth >= 2:
        return
    properties = _dict_of(schema, "properties")
    for name, member in value.items():
        sub = properties.get(name, _value_schema(schema, name))
        for kind, words, changed in islice(_broken(sub, member, walk.deeper()), 12):
            yield kind, f"{name!r} {words}", {**value, name: changed}


def invalid_examples(schema: Any, limit: int = 8) -> list[tuple[str, Any]]:
    """Up to `limit` instances that each break one constraint of `schema` (near misses of a valid
    instance, around every type), with what they break: one of each kind of constraint (a
    required member, a type, a bound, a length, an enum, a pattern, an unknown member, an item, a
    count...) before a second of any, so a few break every kind. The kinds the suite has always
    sent come first; the simplest value of each type closes the list, labelled by the keyword it
    breaks. Each is judged invalid by the same validator as the valid instances."""
    return [
        (kind, value)
        for kind, value in worked_out(
            f"invalid {CAPS!r}",
            schema,
            limit,
            lambda: [[kind, value] for kind, value in _invalid_examples(schema, limit)],
            seconds=CAPS.seconds,
            refused=Ungeneratable,
        )
    ]


def _invalid_examples(schema: Any, limit: int) -> list[tuple[str, Any]]:
    if not isinstance(schema, dict | bool):
        return []
    kinds: dict[str, list[tuple[str, Any]]] = {}
    seen: set[str] = set()
    try:
        try:
            bases = valid_examples(schema, limit=2)
        except Ungeneratable:
            bases = []
        base = next((e for e in bases if isinstance(e, dict)), bases[0] if bases else _NOTHING)
        walk = _start(schema)
        # formats are annotations (WoA 4.2): a near miss breaks something a host must check
        judge = target_validator(schema)
        found: Iterator[tuple[str, str, Any]] = iter(())
        if base is not _NOTHING:
            found = _broken(schema, base, walk)
        simplest = ((None, "a value of another kind", v) for v in _SIMPLEST)
        for kind, description, value in chain(found, simplest):
            key = _key(value)
            if key in seen or len(seen) > CAPS.candidates:
                continue
            seen.add(key)
            if judge.is_valid(value):
                continue
            if kind is None:
                error = next(judge.iter_errors(value))
                kind, description = str(error.validator), f"breaking its {error.validator}"
            kinds.setdefault(kind, []).append((description, value))
    except (Unjudgeable, _Stop, RecursionError):
        pass  # what was found in the budget stands
    return [m for turn in zip_longest(*kinds.values()) for m in turn if m is not None][:limit]


def _listing(schema: Any, walk: _Walk) -> list[Any] | None:
    schema, walk = _resolved(schema, walk)
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return [schema["const"]]
    if isinstance(schema.get("enum"), list):
        return list(schema["enum"])
    for branch in ("oneOf", "anyOf"):
        if isinstance(schema.get(branch), list) and schema[branch]:
            values: list[Any] = []
            for option in schema[branch]:
                listed = _listing(option, walk.deeper())
                if listed is None:
                    return None
                values.extend(v for v in listed if v not in values)
            return values
    return None


def listed_values(schema: Any, name: str) -> list[Any] | None:
    """The values property `name` of the object schema `schema` may take, when the schema lists them
    in any spelling (an enum, a const, a $ref to either as pydantic emits an Enum, a oneOf or anyOf
    of consts); None when it does not."""
    try:
        walk = _start(schema)
        root, walk = _resolved(schema, walk)
        properties = root.get("properties") if isinstance(root, dict) else None
        if not isinstance(properties, dict) or name not in properties:
            return None
        return _listing(properties[name], walk.deeper())
    except (_Stop, RecursionError, Unjudgeable):
        return None
