"""Validators for schemas that a target wrote (a WoA agent's inputs and outputs).

Such a schema is untrusted: its references resolve only to the JSON Schema meta-schemas, never to
the network; formats are annotations (WoA 4.2 lets clients ignore what they do not understand);
and `pattern` runs under a time limit, so that a regular expression built to backtrack forever
cannot hang the suite; and one validation has a budget of keyword evaluations and of time, so that
a schema built to explode (nested anyOf, references that fan out) cannot either: validation runs
on the event loop, where no deadline can interrupt it. A schema that cannot be applied is
`Unjudgeable`, never a pass.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import regex
from jsonschema import Draft7Validator
from jsonschema import Draft201909Validator
from jsonschema import Draft202012Validator
from jsonschema import validators
from jsonschema.exceptions import SchemaError
from jsonschema.exceptions import UnknownType
from jsonschema.exceptions import ValidationError
from jsonschema_specifications import REGISTRY as SPECIFICATIONS
from referencing import Registry
from referencing import Resource
from referencing.exceptions import NoSuchResource
from referencing.exceptions import Unresolvable

__all__ = ["Unjudgeable", "ecma_pattern", "ecma_spelled", "pattern_matches", "target_validator"]


class Unjudgeable(Exception):
    """A target's schema that cannot be applied (it references a document that is not here)."""


def _refuse(uri: str) -> Resource[Any]:
    raise NoSuchResource(uri)


_REGISTRY: Registry[Any] = Registry(retrieve=_refuse).combine(SPECIFICATIONS)  # type: ignore[call-arg]
#: Seconds one regular expression may take on one string.
PATTERN_SECONDS = 0.25


#: ECMA-262's classes where Python's differ: `\\d` and `\\w` are ASCII, `\\s` is its own list of
#: white space and line terminators (21.2.2.12 CharacterClassEscape).
_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_CLASSES = {"d": "0-9", "w": "a-zA-Z0-9_", "s": _SPACE}


#: What spells a Unicode property escape: (its name, whether negated (\\P), whether inside a
#: class) -> the text that stands for it.
Properties = Callable[[str, bool, bool], str]


@lru_cache(maxsize=1024)
def ecma_pattern(pattern: str) -> str:
    """`pattern`, an ECMA-262 regular expression as 2020-12 says (6.4), for the `regex` module: the
    ASCII `\\d` and `\\w`, ECMA's `\\s`, and `\\cX` (which Python does not know) spelled out;
    `\\p{...}` is left to `regex`, which knows it."""
    return ecma_spelled(pattern)


def ecma_spelled(pattern: str, properties: Properties | None = None) -> str:
    """`ecma_pattern`, with each Unicode property escape spelled by `properties` when given (for
    a parser without them, Python's own)."""
    out: list[str] = []
    inside = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            escaped = pattern[i + 1]
            if (
                properties is not None
                and escaped in "pP"
                and pattern.startswith("{", i + 2)
                and "}" in pattern[i + 3 :]
            ):
                end = pattern.index("}", i + 3)
                out.append(properties(pattern[i + 3 : end], escaped == "P", inside))
                i = end + 1
                continue
            if escaped.lower() in _CLASSES:
                chars = _CLASSES[escaped.lower()]
                if not inside:
                    out.append(f"[{chars}]" if escaped.islower() else f"[^{chars}]")
                    i += 2
                    continue
                if escaped.islower():
                    out.append(chars)
                    i += 2
                    continue
            elif escaped == "c" and regex.fullmatch("[A-Za-z]", pattern[i + 2 : i + 3]):
                out.append(f"\\x{ord(pattern[i + 2]) % 32:02x}")
                i += 3
                continue
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "[" and not inside:
            # ECMA's empty classes, which Python reads as a class that starts with "]"
            if pattern.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            if pattern.startswith("[^]", i):
                out.append("[\\s\\S]")
                i += 3
                continue
            inside = True
        if c == "]" and inside:
            inside = False
        out.append(c)
        i += 1
    return "".join(out)


def pattern_matches(pattern: str, text: str) -> bool:
    """Whether `pattern` finds a match in `text`, under the time limit (`Unjudgeable` past it)."""
    try:
        return regex.search(ecma_pattern(pattern), text, timeout=PATTERN_SECONDS) is not None
    except TimeoutError:
        raise Unjudgeable(
            f"the pattern {pattern[:80]!r} takes longer than {PATTERN_SECONDS} s on one string"
        ) from None
    except regex.error as error:
        raise Unjudgeable(
            f"the pattern {pattern[:80]!r} is not a regular expression: {error}"
        ) from None


def _pattern(
    validator: Any, pattern: str, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not pattern_matches(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for name, value in instance.items():
            if pattern_matches(pattern, name):
                yield from validator.descend(value, subschema, path=name, schema_path=pattern)


def _unmatched(names: Any, schema: dict[str, Any]) -> list[str]:
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [
        name
        for name in names
        if name not in properties and not any(pattern_matches(p, name) for p in patterns)
    ]


def _additional_properties(
    validator: Any, extra: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """jsonschema's additionalProperties, with the patterns matched by the guarded engine (its own
    uses Python's `re`: no `\\p{...}`, and no time limit)."""
    if not validator.is_type(instance, "object"):
        return
    extras = _unmatched(instance, schema)
    if validator.is_type(extra, "object"):
        for name in extras:
            yield from validator.descend(instance[name], extra, path=name)
    elif extra is False and extras:
        yield ValidationError(f"Additional properties are not allowed ({sorted(extras)!r})")


def _evaluated(validator: Any, instance: dict[str, Any], schema: Any) -> set[str]:
    """The members of `instance` that `schema` evaluates (jsonschema's walk for
    unevaluatedProperties, with the patterns matched by the guarded engine)."""
    if not isinstance(schema, dict):
        return set()
    found: set[str] = set()
    for keyword in ("$ref", "$dynamicRef"):
        if isinstance(schema.get(keyword), str):
            resolved = validator._resolver.lookup(schema[keyword])
            inner = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            found |= _evaluated(inner, instance, resolved.contents)
    if isinstance(schema.get("properties"), dict):
        found |= schema["properties"].keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema:
            found |= {
                name
                for name, value in instance.items()
                if next(validator.descend(value, schema[keyword]), None) is None
            }
    for pattern in (
        schema.get("patternProperties", {})
        if isinstance(schema.get("patternProperties"), dict)
        else {}
    ):
        found |= {name for name in instance if pattern_matches(pattern, name)}
    for name, subschema in (schema.get("dependentSchemas") or {}).items():
        if name in instance:
            found |= _evaluated(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if next(validator.descend(instance, subschema), None) is None:
                found |= _evaluated(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            found |= _evaluated(validator, instance, schema["if"])
            found |= _evaluated(validator, instance, schema.get("then", True))
        else:
            found |= _evaluated(validator, instance, schema.get("else", True))
    return found


def _unevaluated_properties(
    validator: Any, unevaluated: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated(validator, instance, schema)
    rejected = [
        name
        for name in instance
        if name not in evaluated
        and next(validator.descend(instance[name], unevaluated, path=name), None) is not None
    ]
    if rejected:
        yield ValidationError(f"Unevaluated properties are not allowed ({sorted(rejected)!r})")


#: Keyword evaluations and seconds one validation may take.
MAX_STEPS = 2_000_000
VALIDATION_SECONDS = 1.0
_work = threading.local()


def _tick() -> None:
    _work.steps = getattr(_work, "steps", 0) + 1
    if _work.steps % 1024 == 0 and time.monotonic() > getattr(_work, "deadline", float("inf")):
        raise Unjudgeable(
            f"validating against the schema takes longer than {VALIDATION_SECONDS:g} s"
        )
    if _work.steps > MAX_STEPS:
        raise Unjudgeable(f"validating against the schema takes more than {MAX_STEPS:,} steps")


def _counted(keyword: Callable[..., Any]) -> Callable[..., Iterator[ValidationError]]:
    def counted(
        validator: Any, value: Any, instance: Any, schema: Any
    ) -> Iterator[ValidationError]:
        _tick()
        errors = keyword(validator, value, instance, schema)
        if errors is not None:
            yield from errors

    return counted


def _guarded(dialect: Any) -> Any:
    keywords = {
        **dialect.VALIDATORS,
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
    }
    if dialect is Draft202012Validator:
        keywords["unevaluatedProperties"] = _unevaluated_properties
    return validators.extend(
        dialect, {name: _counted(function) for name, function in keywords.items()}
    )  # type: ignore[no-untyped-call]


_Guarded202012 = _guarded(Draft202012Validator)
#: The dialects a target's schema may declare with $schema (zod-to-json-schema emits draft-07);
#: 2020-12 otherwise (WoA 4.2).
_DIALECTS = {
    "http://json-schema.org/draft-07/schema": _guarded(Draft7Validator),
    "https://json-schema.org/draft/2019-09/schema": _guarded(Draft201909Validator),
}


class _Guarded:
    def __init__(self, validator: Any) -> None:
        self._validator = validator

    def for_subschema(self, subschema: Any) -> _Guarded:
        """The same guards for a part of the schema, its references resolved against the whole."""
        return _Guarded(self._validator.evolve(schema=subschema))

    def is_valid(self, instance: Any) -> bool:
        return next(self.iter_errors(instance), None) is None

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        _work.steps, _work.deadline = 0, time.monotonic() + VALIDATION_SECONDS
        try:
            yield from self._validator.iter_errors(instance)
        except Unresolvable as error:
            raise Unjudgeable(
                f"the schema references {error.ref!r}, which the suite does not fetch"
            ) from None
        except RecursionError:
            raise Unjudgeable("the schema or the instance nests too deeply") from None
        except (UnknownType, SchemaError) as error:
            raise Unjudgeable(
                f"the schema cannot be applied: {str(error).splitlines()[0]}"
            ) from None
        except (AttributeError, TypeError) as error:
            # a keyword whose value is of the wrong kind (a list for a schema)
            raise Unjudgeable(
                f"the schema cannot be applied: {type(error).__name__}: {error}"
            ) from None


#: The validators built lately, by the identity of their schema (which each entry keeps alive, so
#: that the identity cannot pass to another object): a document's schemas are read many times.
_BUILT: OrderedDict[tuple[int, bool], tuple[Any, _Guarded]] = OrderedDict()
_KEPT = 256
_BUILDING = threading.Lock()


def target_validator(schema: dict[str, Any] | bool, *, formats: bool = False) -> _Guarded:
    """A validator for `schema` that never fetches and turns unresolvable references into
    `Unjudgeable`; with `formats`, formats are assertions (what the suite builds keeps to them: a
    host may assert them). Built once for the same schema object (a schema is never changed once
    read)."""
    key = (id(schema), formats)
    with _BUILDING:  # fleets and the mocks validate from several threads
        built = _BUILT.get(key)
        if built is not None and built[0] is schema:
            _BUILT.move_to_end(key)
            return built[1]
        guarded = _built(schema, formats)
        _BUILT[key] = (schema, guarded)
        while len(_BUILT) > _KEPT:
            _BUILT.popitem(last=False)
        return guarded


def _built(schema: dict[str, Any] | bool, formats: bool) -> _Guarded:
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    dialect = _DIALECTS.get(
        declared.rstrip("#") if isinstance(declared, str) else "", _Guarded202012
    )
    # every format 2020-12 knows, whatever the dialect
    checker = Draft202012Validator.FORMAT_CHECKER if formats else None
    return _Guarded(dialect(schema, registry=_REGISTRY, format_checker=checker))
