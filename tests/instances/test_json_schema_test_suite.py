"""Instances for every 2020-12 schema of the JSON-Schema-Test-Suite (a copy beside this file):
valid ones for at least 99% of the satisfiable schemas, near misses for at least 80% of those that
admit an invalid instance, never a wrong one, never a crash.

Which schemas are satisfiable, and which admit an invalid instance, the test suite's own tests say.
Whether what the suite made is right, jsonschema-rs says: a second implementation of 2020-12 (with
ECMA-262 patterns), not the validator the builder checks its candidates with. Formats are
assertions for a valid instance (a host may assert them) and annotations for a near miss (a host
need not reject an unknown date, WoA 4.2), so a schema is counted as admitting an invalid instance
only when one of its invalid tests is invalid without format assertion. Schemas that reference
the test suite's remote documents (localhost:1234) are left out: the suite never fetches."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from conformance.instances import Ungeneratable
from conformance.instances import invalid_examples
from conformance.instances import valid_examples

SUITE = Path(__file__).parent / "json_schema_test_suite"
VALID_SHARE = 0.99
NEAR_MISS_SHARE = 0.80


def _groups() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted(SUITE.rglob("*.json")):
        for group in json.loads(path.read_text()):
            if "localhost:1234" not in json.dumps(group["schema"]):
                yield f"{path.relative_to(SUITE)}: {group['description']}", group


GROUPS = list(_groups())


def _admits_an_invalid_instance(group: dict[str, Any]) -> bool:
    checker = jsonschema_rs.validator_for(group["schema"], validate_formats=False)
    return any(not t["valid"] and not checker.is_valid(t["data"]) for t in group["tests"])


def test_the_copy_is_whole() -> None:
    assert len(GROUPS) >= 400
    assert (SUITE / "LICENSE").is_file()


def test_valid_instances_for_99_percent_never_a_wrong_one() -> None:
    satisfiable = [(name, g) for name, g in GROUPS if any(t["valid"] for t in g["tests"])]
    made, missed = 0, []
    for name, group in satisfiable:
        checker = jsonschema_rs.validator_for(group["schema"], validate_formats=True)
        try:
            examples = valid_examples(group["schema"], limit=4)
        except Ungeneratable as error:
            missed.append(f"{name}: {error}")
            continue
        wrong = [e for e in examples if not checker.is_valid(e)]
        assert not wrong, f"{name}: {wrong[0]!r} is not valid"
        made += 1
    print(f"valid instances for {made} of {len(satisfiable)} satisfiable schemas", missed)
    assert made / len(satisfiable) >= VALID_SHARE, missed


def test_near_misses_for_80_percent_each_one_invalid() -> None:
    breakable = [(name, g) for name, g in GROUPS if _admits_an_invalid_instance(g)]
    made = 0
    for name, group in breakable:
        checker = jsonschema_rs.validator_for(group["schema"], validate_formats=False)
        misses = invalid_examples(group["schema"])
        valid = [(d, v) for d, v in misses if checker.is_valid(v)]
        assert not valid, f"{name}: the near miss {valid[0][0]!r} ({valid[0][1]!r}) is valid"
        made += bool(misses)
    print(f"near misses for {made} of {len(breakable)} schemas that admit an invalid instance")
    assert made / len(breakable) >= NEAR_MISS_SHARE


@pytest.mark.parametrize("kind", ["object", "array", "string", "number", "integer", "boolean"])
def test_near_misses_around_every_type(kind: str) -> None:
    """Near misses are made for schemas of every type, not only objects."""
    typed = [
        g
        for _, g in GROUPS
        if g["schema"] is not True
        and isinstance(g["schema"], dict)
        and g["schema"].get("type") == kind
        and _admits_an_invalid_instance(g)
    ]
    assert typed, kind
    assert any(invalid_examples(g["schema"]) for g in typed)
