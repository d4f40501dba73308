"""The message schemas are valid 2020-12, name real requirements, and never fetch."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conformance.requirements import catalogue
from conformance.schemas import schema
from conformance.schemas import schema_names
from conformance.schemas import schemas_by_requirement
from conformance.validation import UNMAPPED
from conformance.validation import validate_message
from conformance.validation.target_schemas import Unjudgeable
from conformance.validation.target_schemas import target_validator

MESSAGES = {
    "common/problem-details",
    "woa/document",
    "woa/agent",
    "woa/operation",
    "woa/transport-rest",
    "woa/transport-mcp",
    "woa/envelope",
    "woa/success-response",
    "sdsi/schema-template",
    "sdsi/key-definition",
    "sdsi/payload-message",
    "sdsi/execution-result",
    "sdsi/schema-update-suggestion",
    "sdsi/schema-patch",
    "sdsi/negotiation-request",
    "aci/task-context",
    "aci/agent-context",
}


def test_every_message_of_the_drafts_has_a_schema() -> None:
    assert set(schema_names()) == MESSAGES


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_schema_is_valid_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    assert schema(name)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_tagged_requirement_is_catalogued() -> None:
    assert [r for r in schemas_by_requirement() if r not in catalogue()] == []


def _deep(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"a": [value]}
    return value


def test_a_message_nested_beyond_reason_is_a_violation_not_a_crash() -> None:
    violations = validate_message(
        "woa/document", {"woa_version": "1", "agents": [], "transports": {}, "x": _deep(5000)}
    )
    assert [v.requirement for v in violations] in ([], [UNMAPPED])


def test_a_target_schema_with_a_remote_reference_is_unjudgeable_and_never_fetched() -> None:
    validator = target_validator({"$ref": "https://169.254.169.254/latest/meta-data/schema.json"})
    with pytest.raises(Unjudgeable, match="does not fetch"):
        list(validator.iter_errors({}))


def test_a_target_schema_may_use_the_meta_schema() -> None:
    validator = target_validator({"$ref": "https://json-schema.org/draft/2020-12/schema"})
    assert list(validator.iter_errors({"type": "object"})) == []
