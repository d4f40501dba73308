"""jsonschema-rs is trusted only to say "valid": the differential shows it never calls valid what
jsonschema calls invalid (and agrees the other way too), on every golden vector and on fuzzed
variants."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from conformance.schemas import fast_validator
from conformance.schemas import validator
from conformance.validation import _valid_fast
from conformance.validation import validate_message
from conformance.vectors import message_vector_files
from tests.mocks.test_never_500 import _places

CASES = [
    (vector["schema"], case["data"])
    for path in message_vector_files()
    for vector in [json.loads(path.read_text())]
    for case in vector["cases"]
]
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "",
            "1",
            "2026-11-23T10:00:00Z",
            "not a date",
            "https://a.example/x",
            "snake_case",
            "CamelCase",
            "rest",
            "mcp",
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def agree(name: str, data: Any) -> None:
    assert bool(fast_validator(name).is_valid(data)) == validator(name).is_valid(data), (name, data)


def test_every_golden_vector_is_judged_alike() -> None:
    assert len(CASES) > 50
    for name, data in CASES:
        agree(name, data)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzzed_variants_of_the_vectors_are_judged_alike(data: st.DataObject) -> None:
    name, golden = data.draw(st.sampled_from(CASES))
    mutant = copy.deepcopy(golden)
    path = data.draw(st.sampled_from(_places(mutant)))
    replacement, action = data.draw(JSON), data.draw(st.sampled_from(["replace", "delete", "add"]))
    if not path:
        mutant = replacement
    else:
        parent = mutant
        for step in path[:-1]:
            parent = parent[step]
        if action == "delete":
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[data.draw(st.text(max_size=8))] = replacement
        else:
            parent[path[-1]] = replacement
    agree(name, mutant)


def test_a_message_too_deep_for_native_recursion_is_left_to_jsonschema() -> None:
    deep: Any = "x"
    for _ in range(100_000):
        deep = [deep]
    # jsonschema-rs would overflow the stack here
    assert not _valid_fast("woa/envelope", {"agent": "a", "input": deep})
    # and an invalid message still gets its violations
    assert validate_message("woa/document", {"woa_version": 1})
