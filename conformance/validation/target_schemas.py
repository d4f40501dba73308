"""Validators for schemas that a target wrote (a WoA agent's inputs and outputs).

Such a schema is untrusted: its references resolve only to the JSON Schema meta-schemas, never to
the network, and formats are annotations (WoA 4.2 lets clients ignore what they do not
understand). A schema whose references cannot be resolved is `Unjudgeable`, never a pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema_specifications import REGISTRY as SPECIFICATIONS
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable

__all__ = ["Unjudgeable", "target_validator"]


class Unjudgeable(Exception):
    """A target's schema that cannot be applied (it references a document that is not here)."""


def _refuse(uri: str) -> Resource[Any]:
    raise NoSuchResource(ref=uri)


_REGISTRY: Registry[Any] = Registry(retrieve=_refuse).combine(SPECIFICATIONS)  # type: ignore[call-arg]


class _Guarded:
    def __init__(self, validator: Draft202012Validator) -> None:
        self._validator = validator

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        try:
            yield from self._validator.iter_errors(instance)
        except Unresolvable as error:
            raise Unjudgeable(f"the schema references {error.ref!r}, which the suite does not fetch") from None
        except RecursionError:
            raise Unjudgeable("the schema or the instance nests too deeply") from None


def target_validator(schema: dict[str, Any]) -> _Guarded:
    """A validator for `schema` that never fetches and turns unresolvable references into `Unjudgeable`."""
    return _Guarded(Draft202012Validator(schema, registry=_REGISTRY))
