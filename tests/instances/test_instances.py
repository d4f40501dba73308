"""Instances for the schemas real agents publish: the corpus (tests/instances/corpus, made by
tools/build_schema_corpus.py from pydantic, FastAPI, the mcp SDK, OpenAI function calling, zod and
hand-written 2020-12 composition), each checked by jsonschema with format checking."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema import validators

from conformance.instances import Ungeneratable
from conformance.instances import invalid_examples
from conformance.instances import listed_values
from conformance.instances import valid_examples
from conformance.instances.patterns import pattern_strings
from conformance.instances.worked_out import forget

CORPUS = sorted((Path(__file__).parent / "corpus").glob("*.json"))
ENTRIES = [entry for path in CORPUS for entry in json.loads(path.read_text())]
#: The share of the corpus that must get a valid instance; the rest are listed below with why.
TARGET = 0.99
#: Schemas of the corpus the builder gives up on, and why (none today).
KNOWN_MISSES: dict[str, str] = {}


def _validator(schema: dict[str, Any]) -> Any:
    dialect = validators.validator_for(schema, default=Draft202012Validator)
    return dialect(schema, format_checker=dialect.FORMAT_CHECKER)


def test_the_corpus_is_large_and_from_every_source() -> None:
    sources = {entry["source"] for entry in ENTRIES}
    assert len(ENTRIES) >= 200
    assert {"pydantic", "fastapi", "mcp", "openai", "zod", "composition"} <= sources


def test_at_least_99_percent_of_the_corpus_gets_valid_instances_the_same_every_time() -> None:
    made: dict[str, int] = {}
    missed: dict[str, str] = {}
    for entry in ENTRIES:
        name, schema = f"{entry['source']}/{entry['name']}", entry["schema"]
        try:
            examples = valid_examples(schema, limit=4)
        except Ungeneratable as error:
            missed[name] = str(error)
            continue
        checker = _validator(schema)
        wrong = [e for e in examples if not checker.is_valid(e)]
        assert not wrong, (
            f"{name}: {wrong[0]!r} is not valid: {next(checker.iter_errors(wrong[0])).message}"
        )
        forget()  # built again, not handed what was kept
        assert valid_examples(schema, limit=4) == examples, f"{name}: not deterministic"
        made[entry["source"]] = made.get(entry["source"], 0) + 1
    print(
        {
            source: f"{made.get(source, 0)}/{sum(e['source'] == source for e in ENTRIES)}"
            for source in sorted({e["source"] for e in ENTRIES})
        }
    )
    assert missed.keys() <= KNOWN_MISSES.keys(), missed
    assert sum(made.values()) / len(ENTRIES) >= TARGET


@pytest.mark.parametrize("source", ["pydantic", "fastapi", "zod"])
def test_near_misses_break_the_schema_they_were_made_from(source: str) -> None:
    for entry in (e for e in ENTRIES if e["source"] == source):
        checker = _validator(entry["schema"])
        for description, value in invalid_examples(entry["schema"]):
            assert not checker.is_valid(value), f"{entry['name']}: {description} is valid"


@pytest.mark.parametrize(
    "pattern",
    [
        r"^[a-z]{3,8}-\d{2}$",
        r"^\+?[1-9]\d{1,14}$",
        r"^[A-Z]{3}$",
        r"^(?:en|fr|de)(-[A-Z]{2})?$",
        r"[^@\s]+@[^@\s]+\.[a-z]{2,}",
        r"^\d{4}-\d{2}-\d{2}$",
        r"^sk-[A-Za-z0-9_-]{20,}$",
    ],
)
def test_strings_walked_from_a_pattern_match_it(pattern: str) -> None:
    import re

    made = list(pattern_strings(pattern))
    assert made and all(re.search(pattern, s) for s in made)


def test_a_pattern_the_walk_cannot_make_gives_nothing_rather_than_a_wrong_string() -> None:
    # a lookahead: no string, not a wrong one
    assert list(pattern_strings(r"^(?=.*\d)(?=.*[a-z]).{8,}$")) == []
    assert list(pattern_strings(r"(a)\1")) == []


@pytest.mark.parametrize(
    "spelling",
    [
        {"type": "string", "enum": ["flight_booking", "photo_retouch"]},
        {"$ref": "#/$defs/Scenario"},
        {"oneOf": [{"const": "flight_booking"}, {"const": "photo_retouch"}]},
        {
            "anyOf": [
                {"const": "flight_booking", "type": "string"},
                {"const": "photo_retouch", "type": "string"},
            ]
        },
        {"allOf": [{"$ref": "#/$defs/Scenario"}], "description": "pydantic v1 style"},
    ],
)
def test_listed_values_read_every_spelling_of_an_enumeration(spelling: dict[str, Any]) -> None:
    schema = {
        "type": "object",
        "properties": {"scenario": spelling},
        "$defs": {
            "Scenario": {
                "type": "string",
                "enum": ["flight_booking", "photo_retouch"],
                "title": "Scenario",
            }
        },
    }
    assert listed_values(schema, "scenario") == ["flight_booking", "photo_retouch"]
    assert listed_values(
        {"type": "object", "properties": {"scenario": {"const": "flight_booking"}}}, "scenario"
    ) == ["flight_booking"]
    assert (
        listed_values(
            {"type": "object", "properties": {"scenario": {"type": "string"}}}, "scenario"
        )
        is None
    )


def test_the_builder_stays_bounded_on_schemas_built_to_explode() -> None:
    recursive = {
        "$ref": "#/$defs/a",
        "$defs": {
            "a": {"anyOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}]},
            "b": {"allOf": [{"$ref": "#/$defs/a"}]},
        },
    }
    with pytest.raises(Ungeneratable):
        valid_examples(recursive)
    fan = {
        "type": "object",
        "properties": {f"p{i}": {"anyOf": [{"type": "string"}] * 50} for i in range(200)},
        "required": [f"p{i}" for i in range(200)],
    }
    assert valid_examples(fan, limit=1)


def test_nested_repeats_make_no_string_beyond_the_cap() -> None:
    assert all(len(s) <= 4_096 for s in pattern_strings(r"^((a{64}){64}){64}$"))
    assert list(pattern_strings(r"^((a{64}){64}){64}$")) == []


def test_a_build_stops_when_its_seconds_are_spent() -> None:
    import time

    from conformance.instances.examples import _Budget
    from conformance.instances.examples import _Stop

    spent = _Budget(until=time.monotonic() - 1)
    with pytest.raises(_Stop):
        for _ in range(32):  # the clock is read every sixteenth candidate
            spent.spend()


#: An object with a bound, a length, an enumeration, an unknown member refused and an array of a
#: discriminated union (as pydantic emits `list[Annotated[Circle | Rectangle, ...]]`).
_SHAPES: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["count", "title", "unit", "shapes"],
    "properties": {
        "count": {"type": "integer", "minimum": 0},
        "title": {"type": "string", "minLength": 2},
        "unit": {"enum": ["cm", "in"]},
        "shapes": {
            "type": "array",
            "items": {
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["kind"],
                        "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}},
                    },
                    {
                        "type": "object",
                        "required": ["kind", "width"],
                        "properties": {"kind": {"const": "rectangle"}, "width": {"type": "number"}},
                    },
                ]
            },
        },
    },
}


def test_a_few_valid_examples_vary_every_property_and_reach_each_branch_of_a_union() -> None:
    minimal, full, *varied = valid_examples(_SHAPES, limit=8)
    assert {
        name for example in varied for name in _SHAPES["properties"] if example[name] != full[name]
    } == set(_SHAPES["properties"])
    kinds = {item["kind"] for example in (minimal, full, *varied) for item in example["shapes"]}
    assert kinds == {"circle", "rectangle"}


def test_a_few_near_misses_break_every_kind_of_constraint() -> None:
    broken = [description for description, _ in invalid_examples(_SHAPES, limit=7)]
    for kind in (
        "without the required",
        "of the wrong type",
        "below its minimum",
        "shorter than its minLength",
        "outside its enum",
        "with a property the schema does not allow",
        "not an object",
    ):
        assert any(kind in description for description in broken), (kind, broken)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^(?=.*[A-Z])(?=.*\\d).{8,}$"},
        {
            "type": "object",
            "properties": {
                "password": {
                    "type": "string",
                    "pattern": "^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d]{8,}$",
                }
            },
            "required": ["password"],
        },
        {"type": "string", "pattern": "^(\\w)\\1$"},
    ],
    ids=["lookaheads", "a password field", "a backreference"],
)
def test_what_the_walk_cannot_make_schemathesis_generator_makes_the_same_every_time(
    schema: dict[str, Any],
) -> None:
    """Lookaheads and backreferences (a password rule, as pydantic users write it) are beyond the
    walk: schemathesis's generator, derandomized and judged by the same validator, makes them."""
    (made,) = valid_examples(schema, limit=1)
    assert _validator(schema).is_valid(made)
    assert valid_examples(schema, limit=1) == [made]
