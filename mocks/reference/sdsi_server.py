"""The reference SDSI server agent: the flight_booking and photo_retouch templates (SDSI Figures 2
and 10), payload execution with a deterministic fake inventory and editor, suggestions like
Figure 9, and active patches for the polling operation (SDSI 6.2.2).

It is plain logic, independent of HTTP: `woa_host.py` exposes it as a WoA agent with three
operations (get_schema_template, execute, get_schema_updates). Its own payload validation is
written here, apart from the suite's, so that the suite never checks itself.
"""

from __future__ import annotations

import copy
import hashlib
import html
import logging
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from .sdsi_evolution import Evolution
from .sdsi_evolution import test_mode_member

__all__ = [
    "CAPABILITY",
    "TEMPLATES",
    "Moment",
    "SdsiError",
    "SdsiServer",
    "payload_schema",
    "woa_agent",
]

log = logging.getLogger(__name__)

CAPABILITY = "https://datatracker.ietf.org/doc/draft-zhou-structured-data-schema-interaction/"

FLIGHT: dict[str, Any] = {
    "schema_id": "flight_booking_v1",
    "scenario": "flight_booking",
    "keys": [
        {
            "key_name": "origin",
            "key_type": "string",
            "required": True,
            "default_value": None,
            "semantic_description": (
                "Departure city or airport code. Acceptable values: IATA airport codes (e.g., PEK,"
                " SHA, JFK) or city names in English or local language. Example mapping: 'from"
                " Beijing' -> 'PEK'."
            ),
        },
        {
            "key_name": "destination",
            "key_type": "string",
            "required": True,
            "default_value": None,
            "semantic_description": (
                "Arrival city or airport code. Acceptable values: IATA airport codes or city names."
                " Example mapping: 'to Shanghai' -> 'SHA'."
            ),
        },
        {
            "key_name": "departure_date",
            "key_type": "string",
            "required": True,
            "default_value": None,
            "semantic_description": (
                "Date of departure in ISO 8601 format (YYYY-MM-DD). Example mapping: 'next Monday'"
                " -> '2026-05-04'."
            ),
        },
        {
            "key_name": "cabin_class",
            "key_type": "string",
            "required": False,
            "default_value": "economy",
            "semantic_description": (
                "Cabin class preference. Acceptable values: economy, premium_economy, business,"
                " first. Example mapping: 'business class' -> 'business'."
            ),
        },
        {
            "key_name": "passenger_count",
            "key_type": "integer",
            "required": False,
            "default_value": 1,
            "semantic_description": (
                "Number of passengers. Range: 1-9. Example mapping: 'two people' -> 2."
            ),
        },
        {
            "key_name": "other",
            "key_type": "string",
            "required": False,
            "default_value": None,
            "semantic_description": (
                "Escape valve for unstructured semantic fragments that cannot be mapped to existing"
                " keys. Example mapping: 'window seat please' -> 'window seat'."
            ),
        },
    ],
}
PHOTO: dict[str, Any] = {
    "schema_id": "photo_retouch_v2",
    "scenario": "photo_retouch",
    "keys": [
        {
            "key_name": "skin_smoothing",
            "key_type": "integer",
            "required": False,
            "default_value": 0,
            "semantic_description": (
                "Skin smoothing intensity. Range: 0-10, where 0 means off. Example: 'light skin"
                " smoothing' -> 3."
            ),
        },
        {
            "key_name": "teeth_whitening",
            "key_type": "boolean",
            "required": False,
            "default_value": False,
            "semantic_description": (
                "Whether teeth whitening is enabled. Example: 'make the teeth whiter' -> true."
            ),
        },
        {
            "key_name": "background_blur",
            "key_type": "boolean",
            "required": False,
            "default_value": False,
            "semantic_description": (
                "Whether background blur is enabled. Example: 'blur the background' -> true."
            ),
        },
        {
            "key_name": "filter_style",
            "key_type": "string",
            "required": False,
            "default_value": "none",
            "semantic_description": (
                "Filter style. Acceptable values: none, vintage, cinematic, warm, cool. Example:"
                " 'vintage style' -> 'vintage'."
            ),
        },
        {
            "key_name": "eye_enlargement",
            "key_type": "boolean",
            "required": False,
            "default_value": False,
            "semantic_description": (
                "Whether eye enlargement is enabled. Note: this key is a boolean switch; use other"
                " for fine-grained adjustment requests."
            ),
        },
        {
            "key_name": "other",
            "key_type": "string",
            "required": False,
            "semantic_description": (
                "Photo-editing requirements that cannot be mapped to existing keys. Example: 'make"
                " the eyes a little bigger' -> 'increase eye size proportionally'."
            ),
        },
    ],
}
TEMPLATES = {t["scenario"]: t for t in (FLIGHT, PHOTO)}


def _minimal(template: dict[str, Any]) -> dict[str, Any]:
    """A template as the minimal conformer serves it (mocks/minimal.py): no default_value (OPTIONAL
    in SDSI 4.1), one key name not in snake_case (a SHOULD), and "other" left out of the photo
    template (SDSI 4.3 reserves the name; E-SDSI-4.3-OTHER-RESERVED)."""
    template = copy.deepcopy(template)
    for key in template["keys"]:
        key.pop("default_value", None)
        if key["key_name"] == "filter_style":
            key["key_name"] = "filterStyle"
    if template["scenario"] == "photo_retouch":
        template["keys"] = [k for k in template["keys"] if k["key_name"] != "other"]
    return template


MINIMAL_TEMPLATES = {s: _minimal(t) for s, t in TEMPLATES.items()}
#: Descriptions in Chinese, for preferred_language (SDSI 4.2).
CHINESE = {
    "origin": "出发城市或机场代码。示例：'从北京' -> 'PEK'。",
    "destination": "到达城市或机场代码。示例：'到上海' -> 'SHA'。",
}

SEAT_PATCH: dict[str, Any] = {
    "patch_id": "flight_booking_v1-p1",
    "parent_schema_id": "flight_booking_v1",
    "timestamp": "2026-05-01T08:00:00Z",
    "expiration": "2026-05-31T08:00:00Z",
    "new_keys": [
        {
            "key_name": "seat_preference",
            "key_type": "string",
            "required": False,
            "default_value": "none",
            "experimental": True,
            "semantic_description": (
                "Seat preference. Acceptable values: window, aisle, none. Example mapping (from"
                " 'other'): 'window seat' -> 'window'."
            ),
        }
    ],
}
#: A patch that touches a security-relevant key: served only to an authenticated client (SDSI 7).
PAYMENT_PATCH: dict[str, Any] = {
    "patch_id": "flight_booking_v1-p2",
    "parent_schema_id": "flight_booking_v1",
    "timestamp": "2026-05-02T08:00:00Z",
    "expiration": "2026-06-01T08:00:00Z",
    "new_keys": [
        {
            "key_name": "payment_method",
            "key_type": "string",
            "required": False,
            "experimental": True,
            "semantic_description": (
                "Payment method on file. Acceptable values: card, wallet. Example mapping (from"
                " 'other'): 'pay with my card' -> 'card'."
            ),
        }
    ],
}
_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "integer": int,
    "boolean": bool,
    "number": (int, float),
    "array": list,
    "object": dict,
}


class SdsiError(Exception):
    """A request the server rejects; `status` and `title` go into the problem details."""

    def __init__(self, status: int, title: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.title, self.detail = status, title, detail


def _matches(value: Any, key_type: str) -> bool:
    if key_type == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()
        )
    if key_type == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    expected = _TYPES.get(key_type)
    return expected is not None and isinstance(value, expected)


@dataclass(frozen=True)
class Moment:
    """When a request happens and in which DSP world: the real time (now None) and world (session
    None), or a test session's simulated time."""

    now: float | None = None
    session: str | None = None


REAL = Moment()


@dataclass
class SdsiServer:
    """One server agent's state. `fault` names the requirement (mocks/faults.py) the server breaks;
    `minimal`: a server without Section 6 (no pool, no patches, no suggestions; mocks/minimal.py).
    """

    fault: str = ""
    minimal: bool = False
    executed: int = field(default=0)

    def __post_init__(self) -> None:
        self.templates = {
            s: _faulted_template(self.fault, t)
            for s, t in (MINIMAL_TEMPLATES if self.minimal else TEMPLATES).items()
        }
        self.seat_patch = _faulted_patch(self.fault, SEAT_PATCH)
        self.evolution = Evolution(copy.deepcopy(TEMPLATES), self.fault)

    def template(self, scenario: str, preferred_language: str | None = None) -> Any:
        if scenario not in self.templates:
            raise SdsiError(404, "Unknown scenario", f"no template for scenario {scenario!r}")
        if preferred_language is not None and not isinstance(preferred_language, str):
            raise SdsiError(
                400,
                "Invalid preferred_language",
                "preferred_language must be a language tag (a string)",
            )
        if preferred_language and self.fault == "SDSI-4.1-PREFERRED-LANGUAGE-TOLERATED":
            raise SdsiError(400, "Unsupported language", f"no template in {preferred_language}")
        template = copy.deepcopy(self.templates[scenario])
        if preferred_language and preferred_language.lower().startswith("zh") and not self.minimal:
            for key in template["keys"]:
                if isinstance(key, dict) and key.get("key_name") in CHINESE:
                    key["semantic_description"] = CHINESE[key["key_name"]]
        return _served_template(self.fault, template)

    def _template_of(self, schema_id: Any) -> dict[str, Any]:
        template = next((t for t in self.templates.values() if t["schema_id"] == schema_id), None)
        if template is None:
            raise SdsiError(404, "Unknown schema", f"no schema {schema_id!r}")
        return template

    def _validate(
        self, template: dict[str, Any], payload: dict[str, Any], client_id: str, moment: Moment
    ) -> None:
        evolved = [
            k
            for p in self.evolution.patches(
                template["scenario"], client_id, moment.now, moment.session
            )
            for k in p.get("new_keys", [])
        ]
        static = patch_keys(template) if moment.session is None else []
        keys = {
            k["key_name"]: k
            for k in template["keys"] + static + evolved
            if isinstance(k, dict) and "key_name" in k
        }
        required = {
            name for name, key in keys.items() if key.get("required") is True and name != "other"
        }
        missing = sorted(required - set(payload))
        if missing:
            raise SdsiError(422, "Missing key", f"the REQUIRED key {missing[0]!r} is missing")
        if self.fault == "SDSI-4.1-ABSENT-OPTIONAL-KEY-HANDLED" and set(payload) == required:
            raise SdsiError(422, "Missing key", "every key must be given")
        for name, value in payload.items():
            if name == "other":  # SDSI 4.3 governs "other", whatever the template declares
                if not (
                    isinstance(value, str)
                    or (isinstance(value, list) and all(isinstance(v, str) for v in value))
                ):
                    raise SdsiError(
                        422, "Invalid other", '"other" must be a string or an array of strings'
                    )
                if self.fault == "SDSI-4.3-OTHER-ACCEPTED" and len(str(value)) > 1000:
                    raise SdsiError(413, "Too long", '"other" is limited to 1,000 characters')
            elif name in keys:
                key_type = keys[name].get("key_type")
                if (
                    key_type in _TYPES
                    and not _matches(value, key_type)
                    and self.fault != "SDSI-3.1-SERVER-VALIDATES-PAYLOAD"
                ):
                    raise SdsiError(422, "Wrong value type", f"{name!r} must be of type {key_type}")
            elif (
                self.evolution.key_state(
                    template["scenario"], client_id, name, moment.now, moment.session
                )
                == "withdrawn"
            ):
                log.warning(
                    "payload of %s carries %r, a withdrawn key in its backward-compatibility window"
                    " (SDSI 6.2.3)",
                    client_id,
                    name,
                )
            else:
                raise SdsiError(
                    422, "Unknown key", f"{name!r} is not a key of {template['schema_id']}"
                )

    def execute(
        self, schema_id: Any, payload: Any, client_id: str = "anonymous", moment: Moment = REAL
    ) -> Any:
        template = self._template_of(schema_id)
        if not isinstance(payload, dict):
            raise SdsiError(400, "Invalid payload", "the payload must be a JSON object")
        self._validate(template, payload, client_id, moment)
        self.executed += 1
        evolved = (
            []
            if self.minimal
            else self.evolution.observe(
                template["scenario"], client_id, payload, moment.now, moment.session
            )
        )
        digest = (
            hashlib.sha256(repr(sorted(payload.items(), key=str)).encode()).hexdigest()[:6].upper()
        )
        if template["scenario"] == "flight_booking":
            result: dict[str, Any] = {
                "booking_id": f"BK-{digest}",
                "status": "confirmed",
                "flight_number": "CA1234",
                "departure_time": f"{payload.get('departure_date')}T09:00:00+08:00",
                "arrival_time": f"{payload.get('departure_date')}T11:20:00+08:00",
                "seat": "12A",
                "total_amount": f"CNY {2450 * int(payload.get('passenger_count', 1) or 1):,}.00",
            }
        else:
            result = {
                "edit_id": f"ED-{digest}",
                "status": "done",
                "applied": sorted(
                    k for k, v in payload.items() if k != "other" and v not in (False, 0, "none")
                ),
            }
        other = payload.get("other")
        if other:
            texts = other if isinstance(other, list) else [other]
            if self.fault == "SDSI-7-OTHER-SANITIZED" and any("DROP TABLE" in t for t in texts):
                raise RuntimeError("the fault: an SQL injection in other reaches the database")
            escape = (
                (lambda text: text) if self.fault == "SDSI-7-OTHER-NOT-REFLECTED" else html.escape
            )
            result["noted"] = [
                escape(t[:200]) for t in texts
            ]  # what the server read, escaped (SDSI 7)
            if evolved:
                result["schema_update_suggestion"] = evolved[0]
            elif (
                not self.minimal
                and moment.session is None
                and template["scenario"] == "flight_booking"
                and any("seat" in t.lower() for t in texts)
            ):
                result["schema_update_suggestion"] = (
                    {"new_keys": {"seat_preference": "string"}}
                    if self.fault == "SDSI-3.2-SUGGESTION-WELL-FORMED"
                    else copy.deepcopy(self.seat_patch)
                )
        if (
            self.minimal
        ):  # SDSI 3.2: the result SHOULD be structured; the minimal conformer's is a line of text
            return f"{result['status']}: {result.get('booking_id', result.get('edit_id'))}"
        if self.fault == "SDSI-3.2-RESULT-STRUCTURED" and len(payload) > len(template["keys"]) // 2:
            return f"{result['status']}: {result.get('booking_id', result.get('edit_id'))}"
        return result

    def updates(
        self,
        schema_id: Any,
        authenticated: bool,
        client_id: str = "anonymous",
        moment: Moment = REAL,
    ) -> dict[str, Any]:
        """The active patches: the two seeded ones (in the real world) and those the DSP evolved."""
        if self.minimal:
            raise SdsiError(
                404,
                "No schema updates",
                "this server does not implement SDSI 6.2 (schema updates are OPTIONAL)",
            )
        template = self._template_of(schema_id)
        patches = []
        if moment.session is None and template["scenario"] == "flight_booking":
            patches.append(copy.deepcopy(self.seat_patch))
            if authenticated or self.fault == "SDSI-7-UPDATES-AUTHENTICATED":
                patches.append(copy.deepcopy(PAYMENT_PATCH))
        patches += self.evolution.patches(
            template["scenario"], client_id, moment.now, moment.session
        )
        return {"patches": patches}


def _key(template: dict[str, Any], name: str) -> dict[str, Any]:
    return next(k for k in template["keys"] if k.get("key_name") == name)


#: Faults that change a template, for serving and executing alike (the server keeps to what it
#: serves).
_TEMPLATE_FAULTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "SDSI-4.1-KEY-DEFINITION-OBJECT": lambda t: t["keys"].append("seat"),
    "SDSI-4.1-KEY-NAME-REQUIRED": (
        lambda t: t["keys"].append(
            {"key_type": "string", "required": False, "semantic_description": "Meal preference."}
        )
    ),
    "SDSI-4.1-KEY-NAME-SNAKE-CASE": lambda t: _key(t, "cabin_class").update(key_name="cabinClass"),
    "SDSI-4.1-KEY-NAME-UNIQUE": (
        lambda t: t["keys"].append(copy.deepcopy(_key(t, "passenger_count")))
    ),
    "SDSI-4.1-KEY-TYPE-REQUIRED": lambda t: _key(t, "cabin_class").pop("key_type"),
    "SDSI-4.1-KEY-TYPE-JSON-SCHEMA-TYPE": lambda t: _key(t, "cabin_class").update(key_type="enum"),
    "SDSI-4.1-SEMANTIC-DESCRIPTION-REQUIRED": (
        lambda t: _key(t, "destination").pop("semantic_description")
    ),
    "SDSI-4.1-SEMANTIC-DESCRIPTION-NON-EMPTY": (
        lambda t: _key(t, "destination").update(semantic_description="")
    ),
    "SDSI-4.1-REQUIRED-FLAG-REQUIRED": lambda t: _key(t, "cabin_class").pop("required"),
    "SDSI-4.1-DEFAULT-VALUE-MATCHES-TYPE": (
        lambda t: _key(t, "passenger_count").update(default_value="one")
    ),
    "SDSI-4.1-DEFAULT-VALUE-ONLY-OPTIONAL-KEYS": (
        lambda t: _key(t, "origin").update(default_value="PEK")
    ),
    "SDSI-4.3-OTHER-DEFINED": lambda t: t["keys"].remove(_key(t, "other")),
    "SDSI-4.3-OTHER-OPTIONAL": lambda t: _key(t, "other").update(required=True),
    "SDSI-4.3-OTHER-KEY-TYPE": lambda t: _key(t, "other").update(key_type="integer"),
}
#: Faults that change only the template as served (the server executes by its true template).
_SERVED_FAULTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "SDSI-4.1-TEMPLATE-OBJECT": lambda t: t["keys"],
    "SDSI-4.1-SCHEMA-ID-REQUIRED": lambda t: {k: v for k, v in t.items() if k != "schema_id"},
    "SDSI-4.1-SCENARIO-REQUIRED": lambda t: {k: v for k, v in t.items() if k != "scenario"},
    "SDSI-4.1-KEYS-REQUIRED": lambda t: {**t, "keys": {k["key_name"]: k for k in t["keys"]}},
}
#: Faults that change the seat_preference patch, polled and inline.
_PATCH_FAULTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "SDSI-6.2.2-PATCH-ID": lambda p: p.pop("patch_id"),
    "SDSI-6.2.2-PATCH-PARENT-SCHEMA-ID": lambda p: p.update(parent_schema_id="flight_booking_v0"),
    "SDSI-6.2.2-PATCH-TIMESTAMP": lambda p: p.update(timestamp="yesterday"),
    "SDSI-6.2.2-PATCH-EXPIRATION": lambda p: p.pop("expiration"),
    "SDSI-6.2.2-PATCH-EXPIRATION-FORMAT": lambda p: p.update(expiration="2026-04-01T00:00:00Z"),
    "SDSI-6.2.2-PATCH-TIMESTAMP-RFC3339": lambda p: p.update(timestamp="2026-05-01T08:00:00"),
    "SDSI-6.2.2-PATCH-KEYS": lambda p: p.pop("new_keys"),
    "SDSI-6.2.3-EXPERIMENTAL-FLAG": lambda p: p["new_keys"][0].update(experimental=False),
    "SDSI-6.2.3-DEPRECATED-GRACE-FLAG": lambda p: p["new_keys"][0].update(deprecated="yes"),
    "SDSI-6.2.2-NO-KEY-COLLISION": lambda p: p["new_keys"][0].update(key_name="cabin_class"),
    "SDSI-4.3-OTHER-RESERVED": (
        lambda p: p["new_keys"][0].update(key_name="other", key_type="string")
    ),
    "SDSI-6.2.2-NO-DUPLICATE-KEY": lambda p: p["new_keys"].append(copy.deepcopy(p["new_keys"][0])),
    "SDSI-6.2.2-BASE-KEY-NOT-REMOVED": lambda p: p.update(removed_keys=["passenger_count"]),
    "SDSI-6.2.2-BASE-KEY-TYPE-UNCHANGED": lambda p: p.update(
        modified_keys=[{**_key(FLIGHT, "passenger_count"), "key_type": "string"}]
    ),
    "SDSI-6.2.2-PATCH-ADDITIVE-ONLY": lambda p: p.update(
        modified_keys=[{**_key(FLIGHT, "origin"), "required": False}]
    ),
    "SDSI-6.2.3-CONVERGENCE-CAP": lambda p: p.update(
        new_keys=[{**p["new_keys"][0], "key_name": f"wish_{n}"} for n in range(11)]
    ),
}
#: Every requirement a fault of this server breaks (mocks/faults.py describes each).
SDSI_FAULTS = (*_TEMPLATE_FAULTS, *_SERVED_FAULTS, *_PATCH_FAULTS)


def _faulted_template(fault: str, template: dict[str, Any]) -> dict[str, Any]:
    template = copy.deepcopy(template)
    if fault in _TEMPLATE_FAULTS and template["scenario"] == "flight_booking":
        _TEMPLATE_FAULTS[fault](template)
    return template


def _served_template(fault: str, template: dict[str, Any]) -> Any:
    if fault in _SERVED_FAULTS and template.get("scenario") == "flight_booking":
        return _SERVED_FAULTS[fault](template)
    return template


def _faulted_patch(fault: str, patch: dict[str, Any]) -> dict[str, Any]:
    patch = copy.deepcopy(patch)
    if fault in _PATCH_FAULTS:
        _PATCH_FAULTS[fault](patch)
    return patch


def patch_keys(template: dict[str, Any]) -> list[dict[str, Any]]:
    """The keys the active patches add to `template` (a client may send them)."""
    patches = [SEAT_PATCH, PAYMENT_PATCH] if template.get("scenario") == "flight_booking" else []
    return [key for patch in patches for key in patch["new_keys"]]


def payload_schema(template: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of a payload for `template` (for the WoA description of the execute
    operation)."""
    properties: dict[str, Any] = {}
    for key in template["keys"] + patch_keys(template):
        if key["key_name"] == "other":
            properties["other"] = {
                "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]
            }
        else:
            properties[key["key_name"]] = {
                "type": key["key_type"],
                "description": key["semantic_description"],
            }
    return {
        "type": "object",
        "properties": properties,
        "required": [k["key_name"] for k in template["keys"] if k["required"]],
        "additionalProperties": False,
    }


def woa_agent(
    agent_id: str = "travel-and-photo",
    base: str | None = None,
    test_mode: bool = False,
    *,
    minimal: bool = False,
) -> dict[str, Any]:
    """The agent as it stands in the host's WoA document: the SDSI capability, three operations,
    with `base` the jwks_uri of the keys that sign its templates and updates, and in `test_mode`
    the declaration of its test clock (x-sdsi-test-mode); `minimal`: without the polling operation.
    """
    templates = MINIMAL_TEMPLATES if minimal else TEMPLATES
    schema_ids = [t["schema_id"] for t in templates.values()]
    template_schema = {
        "type": "object",
        "required": ["schema_id", "scenario", "keys"],
        "properties": {
            "schema_id": {"type": "string"},
            "scenario": {"type": "string"},
            "keys": {"type": "array", "items": {"type": "object"}},
        },
    }
    execute_inputs = {
        "type": "object",
        "required": ["schema_id", "payload"],
        "additionalProperties": False,
        "properties": {
            "schema_id": {"type": "string", "enum": schema_ids},
            "payload": {"type": "object"},
        },
        "allOf": [
            {
                "if": {"properties": {"schema_id": {"const": t["schema_id"]}}},
                "then": {"properties": {"payload": payload_schema(t)}},
            }
            for t in templates.values()
        ],
    }
    if not minimal:
        execute_inputs["examples"] = [
            {
                "schema_id": "flight_booking_v1",
                "payload": {"origin": "PEK", "destination": "SHA", "departure_date": "2026-05-04"},
            },
            {"schema_id": "photo_retouch_v2", "payload": {"filter_style": "vintage"}},
        ]
    operations = [
        {
            "name": "get_schema_template",
            "description": "The schema template of a scenario (SDSI 4.1).",
            "inputs": {
                "type": "object",
                "required": ["scenario"],
                "additionalProperties": False,
                "properties": {
                    "scenario": {"type": "string", "enum": list(templates)},
                    "preferred_language": {"type": "string", "maxLength": 35},
                },
            },
            "outputs": template_schema,
        },
        {
            "name": "execute",
            "description": "Execute a structured payload (SDSI 3.2 steps 4 and 5).",
            "inputs": execute_inputs,
            "outputs": {"type": "string"} if minimal else {"type": "object"},
        },
    ]
    updates = {
        "name": "get_schema_updates",
        "description": "The active schema patches (SDSI 6.2.2, polling).",
        "inputs": {
            "type": "object",
            "required": ["schema_id"],
            "additionalProperties": False,
            "properties": {"schema_id": {"type": "string", "enum": schema_ids}},
        },
        "outputs": {
            "type": "object",
            "required": ["patches"],
            "properties": {"patches": {"type": "array", "items": {"type": "object"}}},
        },
    }
    return {
        "id": agent_id,
        "name": "Travel and photo service agent",
        "description": "Books flights and retouches photos from structured payloads (SDSI).",
        "version": "1.0.0",
        "capabilities": [CAPABILITY],
        "inputs": {
            "type": "object",
            "required": ["scenario"],
            "properties": {"scenario": {"type": "string"}},
        },
        "outputs": template_schema,
        "transports": ["rest"],
        **({"jwks_uri": base + "/sdsi/jwks.json"} if base else {}),
        **({"x-sdsi-test-mode": test_mode_member()} if test_mode else {}),
        "operations": [*operations, *([] if minimal else [updates])],
    }
