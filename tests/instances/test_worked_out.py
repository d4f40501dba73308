"""Examples worked out once per schema text: the same as a build from scratch, handed anew to each
run, kept for the schema's exact text and the number asked, bounded."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from conformance.instances import Ungeneratable
from conformance.instances import invalid_examples
from conformance.instances import valid_examples
from conformance.instances import worked_out as kept_builds
from conformance.instances.worked_out import forget
from conformance.instances.worked_out import kept
from conformance.instances.worked_out import worked_out
from tests.instances.test_instances import ENTRIES


@pytest.fixture(autouse=True)
def _nothing_kept() -> Iterator[None]:
    forget()
    yield
    forget()


def _built(schema: Any) -> tuple[Any, Any]:
    """What a build from scratch gives: valid instances (or the refusal) and near misses."""
    forget()
    try:
        valid: Any = valid_examples(schema, limit=4)
    except Ungeneratable as error:
        valid = str(error)
    invalid = invalid_examples(schema, limit=8)
    forget()
    return valid, invalid


def test_what_is_kept_is_what_a_build_from_scratch_gives() -> None:
    for entry in ENTRIES[::5]:
        schema = entry["schema"]
        fresh = _built(schema)
        for _ in range(2):  # built and kept, then handed what was kept
            try:
                valid: Any = valid_examples(schema, limit=4)
            except Ungeneratable as error:
                valid = str(error)
            assert (valid, invalid_examples(schema, limit=8)) == fresh, entry["name"]
    assert kept() > 0


def test_each_run_is_handed_its_own_objects() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "array"}}, "required": ["a"]}
    first = valid_examples(schema)
    pristine = copy.deepcopy(first)
    first[0]["a"].append("changed by a run")
    first.clear()
    assert valid_examples(schema) == pristine
    fresh = _built(schema)[1]
    for _, value in invalid_examples(schema):
        if isinstance(value, dict | list):
            value.clear()
    assert invalid_examples(schema) == fresh


def test_member_order_and_the_number_asked_are_part_of_what_is_kept() -> None:
    ab = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}
    ba = {"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "integer"}}}
    fresh_ab, fresh_ba = _built(ab)[0][:2], _built(ba)[0][:2]
    assert valid_examples(ab, limit=2) == fresh_ab and kept() == 1
    assert valid_examples(ba, limit=2) == fresh_ba and kept() == 2
    assert len(valid_examples(ab, limit=1)) == 1 and kept() == 3


def test_a_refusal_is_kept_with_its_reason() -> None:
    beyond = {"type": "string", "minLength": 100_000_000}
    with pytest.raises(Ungeneratable) as first:
        valid_examples(beyond)
    assert kept() == 1
    with pytest.raises(Ungeneratable) as again:
        valid_examples(beyond)
    assert str(again.value) == str(first.value) and "cap" in str(first.value)


def test_what_is_kept_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept_builds, "KEPT", 4)
    for n in range(10):
        valid_examples({"const": n})
    assert kept() == 4


def test_a_schema_or_a_build_too_long_is_not_kept() -> None:
    long_text = {"const": "x" * (kept_builds.LONGEST + 1)}
    assert valid_examples(long_text) == [long_text["const"]] and kept() == 0
    long_build = {"type": "string", "minLength": kept_builds.LONGEST + 1}
    assert len(valid_examples(long_build)[0]) > kept_builds.LONGEST and kept() == 0


def test_a_build_the_clock_may_have_cut_and_what_json_cannot_carry_are_not_kept() -> None:
    calls = []

    def build() -> list[Any]:
        calls.append(1)
        return [1]

    for _ in range(2):  # no time at all: every build took half of it
        worked_out("k", {}, 1, build, seconds=0.0, refused=Ungeneratable)
    for _ in range(2):
        worked_out("t", {}, 1, lambda: [(1, 2)], seconds=60.0, refused=Ungeneratable)
    assert len(calls) == 2 and kept() == 0
