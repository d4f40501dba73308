"""Property tests of the suite's SDSI validators: arbitrary conforming templates pass, near-misses
fail on exactly the rule they break, and the payload verdict agrees with plain JSON Schema
validation against a schema derived from the template."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from conformance.validation import validate_message

TYPES = ["string", "integer", "number", "boolean", "array", "object"]
VALUES = {
    "string": st.text(max_size=20),
    "integer": st.integers(-1000, 1000),
    "number": st.floats(allow_nan=False, allow_infinity=False, width=32),
    "boolean": st.booleans(),
    "array": st.lists(st.integers(), max_size=3),
    "object": st.dictionaries(st.sampled_from("abc"), st.integers(), max_size=2),
}
names = st.from_regex(r"\A[a-z][a-z0-9]{0,6}(_[a-z0-9]{1,5}){0,2}\Z").filter(lambda n: n != "other")


@st.composite
def templates(draw: st.DrawFn) -> dict[str, Any]:
    key_names = draw(st.lists(names, min_size=1, max_size=6, unique=True))
    keys = []
    for name in key_names:
        key_type = draw(st.sampled_from(TYPES))
        required = draw(st.booleans())
        key: dict[str, Any] = {
            "key_name": name,
            "key_type": key_type,
            "required": required,
            "semantic_description": draw(st.text(min_size=1, max_size=40).filter(str.strip)),
        }
        if not required and draw(st.booleans()):
            key["default_value"] = draw(VALUES[key_type])
        keys.append(key)
    other = {
        "key_name": "other",
        "key_type": draw(st.sampled_from(["string", "array"])),
        "required": False,
        "semantic_description": "Anything the other keys cannot hold.",
    }
    keys.insert(draw(st.integers(0, len(keys))), other)
    return {"schema_id": draw(names) + "_v1", "scenario": draw(names), "keys": keys}


def payload_schema(template: dict[str, Any]) -> dict[str, Any]:
    """The template as a plain JSON Schema for its payloads, written independently of the suite's
    rules."""
    properties: dict[str, Any] = {k["key_name"]: {"type": k["key_type"]} for k in template["keys"]}
    properties["other"] = {
        "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]
    }
    required = [k["key_name"] for k in template["keys"] if k["required"]]
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


@settings(max_examples=200, deadline=None)
@given(templates())
def test_conforming_templates_pass(template: dict[str, Any]) -> None:
    assert validate_message("sdsi/schema-template", template) == []


MUTATIONS = {
    "SDSI-4.1-KEY-NAME-SNAKE-CASE": (
        lambda t, i: t["keys"][i].update(
            key_name="Bad" + t["keys"][i]["key_name"].title().replace("_", "")
        )
    ),
    "SDSI-4.1-KEY-NAME-UNIQUE": lambda t, i: t["keys"].append(dict(t["keys"][i])),
    "SDSI-4.1-KEY-TYPE-JSON-SCHEMA-TYPE": lambda t, i: t["keys"][i].update(key_type="float"),
    "SDSI-4.1-SEMANTIC-DESCRIPTION-NON-EMPTY": (
        lambda t, i: t["keys"][i].update(semantic_description="  ")
    ),
    "SDSI-4.1-REQUIRED-FLAG-REQUIRED": lambda t, i: t["keys"][i].pop("required"),
    "SDSI-4.3-OTHER-OPTIONAL": (
        lambda t, i: next(k for k in t["keys"] if k["key_name"] == "other").update(required=True)
    ),
    "SDSI-4.3-OTHER-DEFINED": lambda t, i: t.update(
        keys=[k for k in t["keys"] if k["key_name"] != "other"]
    ),
}


@settings(max_examples=300, deadline=None)
@given(templates(), st.sampled_from(sorted(MUTATIONS)), st.data())
def test_a_near_miss_breaks_exactly_its_rule(
    template: dict[str, Any], rule: str, data: st.DataObject
) -> None:
    index = data.draw(
        st.sampled_from([i for i, k in enumerate(template["keys"]) if k["key_name"] != "other"])
    )
    MUTATIONS[rule](template, index)
    assert {v.requirement for v in validate_message("sdsi/schema-template", template)} == {rule}


@st.composite
def payloads(draw: st.DrawFn, template: dict[str, Any]) -> dict[str, Any]:
    payload: dict[str, Any] = {}
    for key in template["keys"]:
        if draw(st.booleans()):
            kind = (
                key["key_type"]
                if key["key_name"] != "other"
                else draw(st.sampled_from(["string", "array", "integer"]))
            )
            if key["key_name"] == "other" and kind == "array":
                payload["other"] = draw(st.lists(st.text(max_size=10), max_size=3))
            else:
                payload[key["key_name"]] = draw(VALUES[draw(st.sampled_from([kind, *TYPES]))])
    if draw(st.booleans()):
        payload[draw(names) + "_extra"] = 1
    return payload


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_payload_verdict_agrees_with_plain_json_schema(data: st.DataObject) -> None:
    template = data.draw(templates())
    payload = data.draw(payloads(template))
    suite_accepts = (
        validate_message(
            "sdsi/payload-message",
            {"schema_id": template["schema_id"], "payload": payload},
            template=template,
        )
        == []
    )
    schema_accepts = Draft202012Validator(payload_schema(template)).is_valid(payload)
    assert suite_accepts == schema_accepts
