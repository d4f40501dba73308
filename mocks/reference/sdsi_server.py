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
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import ClassVar

from .sdsi_evolution import Evolution
from .sdsi_evolution import test_mode_member

__all__ = [
    "CAPABILITY",
    "FLIGHT",
    "SEAT_PATCH",
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
    """One server agent's state. `minimal`: a server without Section 6 (no pool, no patches, no
    suggestions; mocks/minimal.py). A fault is a subclass that overrides one of the methods below
    the requests call (mocks/faults/sdsi.py), each named after what the reference does there.
    """

    minimal: bool = False
    executed: int = field(default=0)
    #: the server's schema self-evolution (SDSI 6.2); a fault may give it a broken one
    evolution_class: ClassVar[type[Evolution]] = Evolution

    def __post_init__(self) -> None:
        self.templates = {
            s: self.defines(copy.deepcopy(t))
            for s, t in (MINIMAL_TEMPLATES if self.minimal else TEMPLATES).items()
        }
        self.evolution = self.evolution_class(copy.deepcopy(TEMPLATES), seeded=SEEDED)

    # -- what a fault overrides: each the reference's behaviour, by the draft --

    def defines(self, template: dict[str, Any]) -> dict[str, Any]:
        """A template as the server defines it, when it starts (SDSI 4.1, 4.3)."""
        return template

    def serves(self, template: dict[str, Any]) -> Any:
        """A template as the server sends it, once asked for (SDSI 3.2, 4.1)."""
        return template

    def seat_patch(self) -> dict[str, Any]:
        """The seeded seat_preference patch, polled and suggested inline (SDSI 6.2.2)."""
        return copy.deepcopy(SEAT_PATCH)

    def inline_suggestion(self) -> dict[str, Any]:
        """The update suggestion an execution result carries (SDSI 3.2, Figure 9)."""
        return self.seat_patch()

    def tolerates_language(self, tag: str) -> bool:
        """A preferred_language the server has no template in is tolerated (SDSI 4.1)."""
        return True

    def takes_required_keys_alone(self) -> bool:
        """A payload without its OPTIONAL keys is executed (SDSI 4.1)."""
        return True

    def other_limit(self) -> int | None:
        """How long an "other" may be: any length (SDSI 4.3)."""
        return None

    def validates_payloads(self) -> bool:
        """A payload is checked against its template before it runs (SDSI 3.1)."""
        return True

    def stores(self, texts: list[str]) -> None:
        """What "other" holds reaches storage as data, never as code (SDSI 7)."""

    def reflects(self, text: str) -> str:
        """What "other" held, echoed escaped (SDSI 7)."""
        return html.escape(text)

    def structures_result(self, payload: dict[str, Any], template: dict[str, Any]) -> bool:
        """An execution result is a JSON object (SDSI 3.2); the minimal conformer's is a line."""
        return not self.minimal

    def grants_updates(self, authenticated: bool) -> bool:
        """A patch for a sensitive key goes only to an authenticated client (SDSI 7)."""
        return authenticated

    # -- the operations --

    def template(self, scenario: str, preferred_language: str | None = None) -> Any:
        if scenario not in self.templates:
            raise SdsiError(404, "Unknown scenario", f"no template for scenario {scenario!r}")
        if preferred_language is not None and not isinstance(preferred_language, str):
            raise SdsiError(
                400,
                "Invalid preferred_language",
                "preferred_language must be a language tag (a string)",
            )
        if preferred_language and not self.tolerates_language(preferred_language):
            raise SdsiError(400, "Unsupported language", f"no template in {preferred_language}")
        template = copy.deepcopy(self.templates[scenario])
        if preferred_language and preferred_language.lower().startswith("zh") and not self.minimal:
            for key in template["keys"]:
                if isinstance(key, dict) and key.get("key_name") in CHINESE:
                    key["semantic_description"] = CHINESE[key["key_name"]]
        return self.serves(template) if template.get("scenario") == "flight_booking" else template

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
        if set(payload) == required and not self.takes_required_keys_alone():
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
                if (limit := self.other_limit()) is not None and len(str(value)) > limit:
                    raise SdsiError(413, "Too long", f'"other" is limited to {limit:,} characters')
            elif name in keys:
                key_type = keys[name].get("key_type")
                if (
                    key_type in _TYPES
                    and not _matches(value, key_type)
                    and self.validates_payloads()
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
            self.stores(texts)
            result["noted"] = [self.reflects(t[:200]) for t in texts]  # what the server read
            if evolved:
                result["schema_update_suggestion"] = evolved[0]
            elif (
                not self.minimal
                and template["scenario"] == "flight_booking"
                and any("seat" in t.lower() for t in texts)
            ):
                # the seeded suggestion is configuration, not state: in a test session too
                result["schema_update_suggestion"] = self.inline_suggestion()
        if not self.structures_result(payload, template):
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
            patches.append(self.seat_patch())
            if self.grants_updates(authenticated):
                patches.append(copy.deepcopy(PAYMENT_PATCH))
        patches += self.evolution.patches(
            template["scenario"], client_id, moment.now, moment.session
        )
        return {"patches": patches}


#: Per scenario, the experimental keys the seeded patches serve in the real world: they count
#: under the scenario's cap (SDSI 6.2.3).
SEEDED = {
    "flight_booking": sum(
        bool(k.get("experimental")) for p in (SEAT_PATCH, PAYMENT_PATCH) for k in p["new_keys"]
    )
}


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
            "outputs": _template_schema(),
        },
        {
            "name": "execute",
            "description": "Execute a structured payload (SDSI 3.2 steps 4 and 5).",
            "inputs": _execute_inputs(templates, minimal),
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
        "outputs": _template_schema(),
        "transports": ["rest"],
        **({"jwks_uri": base + "/sdsi/jwks.json"} if base else {}),
        **({"x-sdsi-test-mode": test_mode_member()} if test_mode else {}),
        "operations": [*operations, *([] if minimal else [updates])],
    }


def _template_schema() -> dict[str, Any]:
    """A template's outputs schema, made anew for each document (a fault may change one)."""
    return {
        "type": "object",
        "required": ["schema_id", "scenario", "keys"],
        "properties": {
            "schema_id": {"type": "string"},
            "scenario": {"type": "string"},
            "keys": {"type": "array", "items": {"type": "object"}},
        },
    }


def _execute_inputs(templates: dict[str, Any], minimal: bool) -> dict[str, Any]:
    """execute's inputs: a schema id and its payload, each template's payload schema by its id."""
    schema_ids = [t["schema_id"] for t in templates.values()]
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
    return execute_inputs
