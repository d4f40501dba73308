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

__all__ = ["Unjudgeable", "pattern_matches", "target_validator"]


class Unjudgeable(Exception):
    """A target's schema that cannot be applied (it references a document that is not here)."""


def _refuse(uri: str) -> Resource[Any]:
    raise NoSuchResource(uri)


_REGISTRY: Registry[Any] = Registry(retrieve=_refuse).combine(SPECIFICATIONS)  # type: ignore[call-arg]
#: Seconds one regular expression may take on one string.
PATTERN_SECONDS = 0.25


def pattern_matches(pattern: str, text: str) -> bool:
    """Whether `pattern` finds a match in `text`, under the time limit (`Unjudgeable` past it)."""
    try:
        return regex.search(pattern, text, timeout=PATTERN_SECONDS) is not None
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
    keywords = {**dialect.VALIDATORS, "pattern": _pattern, "patternProperties": _pattern_properties}
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
