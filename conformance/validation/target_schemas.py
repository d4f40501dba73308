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
from collections.abc import Callable, Iterator
from typing import Any

import regex
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import SchemaError, UnknownType, ValidationError
from jsonschema_specifications import REGISTRY as SPECIFICATIONS
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable

__all__ = ["Unjudgeable", "target_validator"]


class Unjudgeable(Exception):
    """A target's schema that cannot be applied (it references a document that is not here)."""


def _refuse(uri: str) -> Resource[Any]:
    raise NoSuchResource(uri)


_REGISTRY: Registry[Any] = Registry(retrieve=_refuse).combine(SPECIFICATIONS)  # type: ignore[call-arg]
#: Seconds one regular expression may take on one string.
PATTERN_SECONDS = 0.25


def _search(pattern: str, text: str) -> bool:
    try:
        return regex.search(pattern, text, timeout=PATTERN_SECONDS) is not None
    except TimeoutError:
        raise Unjudgeable(f"the pattern {pattern[:80]!r} takes longer than {PATTERN_SECONDS} s on one string") from None
    except regex.error as error:
        raise Unjudgeable(f"the pattern {pattern[:80]!r} is not a regular expression: {error}") from None


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not _search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for name, value in instance.items():
            if _search(pattern, name):
                yield from validator.descend(value, subschema, path=name, schema_path=pattern)


#: Keyword evaluations and seconds one validation may take.
MAX_STEPS = 2_000_000
VALIDATION_SECONDS = 1.0
_work = threading.local()


def _tick() -> None:
    _work.steps = getattr(_work, "steps", 0) + 1
    if _work.steps % 1024 == 0 and time.monotonic() > getattr(_work, "deadline", float("inf")):
        raise Unjudgeable(f"validating against the schema takes longer than {VALIDATION_SECONDS:g} s")
    if _work.steps > MAX_STEPS:
        raise Unjudgeable(f"validating against the schema takes more than {MAX_STEPS:,} steps")


def _counted(keyword: Callable[..., Any]) -> Callable[..., Iterator[ValidationError]]:
    def counted(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
        _tick()
        errors = keyword(validator, value, instance, schema)
        if errors is not None:
            yield from errors
    return counted


_KEYWORDS = {**Draft202012Validator.VALIDATORS, "pattern": _pattern, "patternProperties": _pattern_properties}
_Guarded202012 = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {name: _counted(function) for name, function in _KEYWORDS.items()})


class _Guarded:
    def __init__(self, validator: Draft202012Validator) -> None:
        self._validator = validator

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        _work.steps, _work.deadline = 0, time.monotonic() + VALIDATION_SECONDS
        try:
            yield from self._validator.iter_errors(instance)
        except Unresolvable as error:
            raise Unjudgeable(f"the schema references {error.ref!r}, which the suite does not fetch") from None
        except RecursionError:
            raise Unjudgeable("the schema or the instance nests too deeply") from None
        except (UnknownType, SchemaError) as error:
            raise Unjudgeable(f"the schema cannot be applied: {str(error).splitlines()[0]}") from None


def target_validator(schema: dict[str, Any]) -> _Guarded:
    """A validator for `schema` that never fetches and turns unresolvable references into `Unjudgeable`."""
    return _Guarded(_Guarded202012(schema, registry=_REGISTRY))
