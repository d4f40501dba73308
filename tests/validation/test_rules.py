"""The rules a schema cannot say, read with the drafts' own words."""

from __future__ import annotations

from typing import Any


def test_the_drafts_own_status_words_are_read_first() -> None:
    """ACI 5.2's words: a goal "unfinished" (or "not completed") under an overall "completed"
    breaks ACI-5.1-OVERALL-STATUS-DERIVED; it had passed, "unfinished" reading neither way."""
    from conformance.validation import validate_message
    from conformance.validation.rules import unread_words

    def task(overall: str, *goals: str) -> dict[str, object]:
        return {
            "TaskContext": {
                "OverallStatus": overall,
                "GoalStatus": [{"Goal": f"g{n}", "Status": s} for n, s in enumerate(goals)],
            }
        }

    for pending in ("unfinished", "not completed", "Unfinished"):
        broken = validate_message("aci/task-context", task("completed", "completed", pending))
        assert "ACI-5.1-OVERALL-STATUS-DERIVED" in {v.requirement for v in broken}, pending
    assert unread_words(task("completed", "completed", "unfinished")) == []
    assert unread_words(task("halfway", "completed", "almost")) == ["almost", "halfway"]


def test_a_long_array_of_messages_is_judged_item_by_item_with_the_same_violations() -> None:
    """A document of many agents, some at fault, is judged item by item (jsonschema-rs finds the
    agents at fault, Python walks only those): the same violations, paths and requirements as
    the whole walk."""
    from conformance.schemas import validator
    from conformance.validation import _schema_errors
    from conformance.validation import validate_message

    agent: dict[str, Any] = {
        "id": "a",
        "name": "A",
        "description": "d",
        "inputs": {"type": "object"},
        "outputs": {"type": "object"},
        "transports": ["rest"],
    }
    agents: list[Any] = [{**agent, "id": f"a{n}"} for n in range(200)]
    del agents[5]["name"]
    agents[70]["version"] = 7
    agents[199] = "not an object"
    document = {
        "woa_version": "2",
        "agents": agents,
        "transports": {"rest": {"base": "https://x.example", "invoke_path": "/a/{agent_id}"}},
    }
    walked = sorted(
        (tuple(e.absolute_path), e.message) for e in validator("woa/document").iter_errors(document)
    )
    errors, more = _schema_errors("woa/document", document)
    assert not more
    assert sorted((tuple(e.absolute_path), e.message) for e in errors) == walked
    paths = {v.path for v in validate_message("woa/document", document)}
    assert {"/agents/5", "/agents/70/version", "/agents/199", "/woa_version"} <= paths


def test_a_schema_is_judged_once_per_validation_and_by_its_content_when_flat() -> None:
    """Schemas of scalar keywords alone are worked out once by content: `True` and `1` compare
    equal in Python, and {"minLength": true} is not the valid {"minLength": 1}; two schema
    objects with the same content get the same answer, each at its own path."""
    from conformance.validation import validate_message

    def agent(n: int, inputs: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": f"a{n}",
            "name": "A",
            "description": "d",
            "inputs": inputs,
            "outputs": {"type": "object"},
            "transports": ["rest"],
        }

    document = {
        "woa_version": "2",
        "agents": [
            agent(0, {"minLength": 1}),
            agent(1, {"minLength": True}),
            agent(2, {"minLength": 1}),
            agent(3, {"minLength": True}),
            agent(4, {"type": "string"}),
        ],
        "transports": {"rest": {"base": "https://x.example", "invoke_path": "/a/{agent_id}"}},
    }
    found = {(v.requirement, v.path) for v in validate_message("woa/document", document)}
    assert {p for r, p in found if r == "WOA-4.2-SCHEMAS-VALID-2020-12"} == {
        "/agents/1/inputs",
        "/agents/3/inputs",
    }
    assert {p for r, p in found if r == "WOA-4.2-MINIMAL-SCHEMA-PROFILE"} == {"/agents/4/inputs"}
