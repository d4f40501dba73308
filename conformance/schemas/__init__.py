"""The drafts' messages as JSON Schema 2020-12 documents, and validators for them.

Each schema file beside this module (`woa/document.json`, `sdsi/schema-template.json`, ...) marks
the subschemas that enforce a requirement with `x-requirements`, a list of catalogue IDs, so that
a validation error names the rule it breaks. References resolve only among these files and the
2020-12 meta-schemas shipped with jsonschema: nothing is ever fetched.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema_specifications import REGISTRY as SPECIFICATIONS
from referencing import Registry
from referencing import Resource
from referencing.exceptions import NoSuchResource

__all__ = [
    "BASE_URI",
    "fast_validator",
    "registry",
    "schema",
    "schema_names",
    "schemas_by_requirement",
    "validator",
]

BASE_URI = "https://schemas.agent-conformance.invalid/"
_GROUPS = ("common", "woa", "sdsi", "aci")


def _refuse(uri: str) -> Resource[Any]:
    raise NoSuchResource(uri)


@cache
def schema_names() -> tuple[str, ...]:
    """Every message schema, named "<group>/<file name without .json>"."""
    root = resources.files(__package__)
    return tuple(
        f"{group}/{entry.name.removesuffix('.json')}"
        for group in _GROUPS
        for entry in sorted(root.joinpath(group).iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".json")
    )


@cache
def schema(name: str) -> dict[str, Any]:
    """The schema document `name` (for example "woa/document")."""
    if name not in schema_names():
        raise KeyError(f"no message schema {name!r}; known: {', '.join(schema_names())}")
    text = resources.files(__package__).joinpath(f"{name}.json").read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


@cache
def registry() -> Registry[Any]:
    """Our schemas and the JSON Schema meta-schemas; any other URI is refused, never fetched."""
    ours = [
        (f"{BASE_URI}{name}.json", Resource.from_contents(schema(name))) for name in schema_names()
    ]
    return Registry(retrieve=_refuse).with_resources(ours).combine(SPECIFICATIONS).crawl()  # type: ignore[call-arg]


@cache
def validator(name: str) -> Draft202012Validator:
    """A validator for message `name` that also asserts formats (date-time, uri, ...)."""
    return Draft202012Validator(
        schema(name), registry=registry(), format_checker=Draft202012Validator.FORMAT_CHECKER
    )


@cache
def fast_validator(name: str) -> jsonschema_rs.Validator:
    """jsonschema-rs over the same schema, registry and format assertions: hundreds of times
    faster, used only to say that a message is valid (what it finds wrong is reported by
    `validator`, which keeps every error's path and the requirements its subschema names).
    tests/schemas/test_fast_validator.py shows the two agree on every golden vector and on fuzzed
    variants of them."""
    ours = jsonschema_rs.Registry(
        [(f"{BASE_URI}{other}.json", schema(other)) for other in schema_names()]
    )
    return jsonschema_rs.validator_for(
        schema(name), registry=ours, validate_formats=True, base_uri=f"{BASE_URI}{name}.json"
    )


def _tagged(node: Any, found: set[str]) -> set[str]:
    if isinstance(node, dict):
        found.update(node.get("x-requirements", ()))
        for value in node.values():
            _tagged(value, found)
    elif isinstance(node, list):
        for value in node:
            _tagged(value, found)
    return found


@cache
def schemas_by_requirement() -> dict[str, list[str]]:
    """Which message schemas enforce each requirement (from their x-requirements)."""
    table: dict[str, list[str]] = {}
    for name in schema_names():
        for requirement in sorted(_tagged(schema(name), set())):
            table.setdefault(requirement, []).append(name)
    return table
