"""The reference SDSI client agent: maps an utterance to a structured payload without an LLM.

A rule-based mapper driven by the template's semantic descriptions: each key's "Acceptable
values" and "Example mapping" phrases, its key_type and range, and a small gazetteer of cities for
IATA codes. Fragments it cannot map with confidence go to "other" (SDSI 6.1), using the "other"
key's own example mapping where one matches. "next Monday" is resolved against a reference date
(by default 2026-04-27, so that the draft's "next Monday" is 2026-05-04). The `Mapper` protocol
lets a user plug an LLM in instead.

It reproduces SDSI Figures 4 and 5 from the utterances of sections 5.1 and 5.2.
"""

from __future__ import annotations

import re
from datetime import date
from datetime import timedelta
from typing import TYPE_CHECKING
from typing import Any
from typing import Protocol

if TYPE_CHECKING:
    from .woa_client import WoaClient

__all__ = ["Mapper", "RuleMapper", "SdsiClient", "scenario_for"]

CITIES = {
    "beijing": "PEK",
    "shanghai": "SHA",
    "new york": "JFK",
    "guangzhou": "CAN",
    "shenzhen": "SZX",
    "london": "LHR",
    "paris": "CDG",
    "tokyo": "HND",
}
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
#: Phrases for boolean switches and intensities, by key name (the template says what the key means;
#: these are the words users say for it).
SWITCHES = {
    "teeth_whitening": ("whiten teeth", "teeth whiter", "whiter teeth"),
    "background_blur": ("background blurry", "blur the background", "blurry background"),
}
INTENSITIES = {"skin_smoothing": (("light", 3), ("smooth the skin", 7), ("skin smoothing", 7))}
SCENARIO_WORDS = {
    "flight_booking": ("flight", "fly", "plane"),
    "photo_retouch": ("photo", "retouch", "picture"),
}


class Mapper(Protocol):
    def map(self, utterance: str, template: dict[str, Any]) -> dict[str, Any]: ...


def scenario_for(utterance: str, offered: list[str]) -> str | None:
    """The scenario an utterance asks for, among those a server offers (SDSI 3.2 step 2)."""
    text = utterance.lower()
    return next(
        (
            s
            for s in offered
            if any(w in text for w in SCENARIO_WORDS.get(s, (s.replace("_", " "),)))
        ),
        None,
    )


def _acceptable(description: str) -> list[str]:
    found = re.search(r"Acceptable values:\s*([^.]+)\.", description)
    return [v.strip() for v in found.group(1).split(",")] if found else []


class RuleMapper:
    def __init__(self, today: date = date(2026, 4, 27)) -> None:
        self.today = today

    def _date(self, text: str) -> str | None:
        found = re.search(r"next (" + "|".join(WEEKDAYS) + ")", text)
        if found:
            days = (WEEKDAYS.index(found.group(1)) - self.today.weekday()) % 7 or 7
            return (self.today + timedelta(days=days)).isoformat()
        iso = re.search(r"\d{4}-\d{2}-\d{2}", text)
        return iso.group(0) if iso else None

    def map(self, utterance: str, template: dict[str, Any]) -> dict[str, Any]:
        text = utterance.lower()
        keys = {
            k["key_name"]: k
            for k in template.get("keys", [])
            if isinstance(k, dict) and isinstance(k.get("key_name"), str)
        }
        payload: dict[str, Any] = {}
        used: list[str] = []
        for name, key in keys.items():
            description = str(key.get("semantic_description", ""))
            value = self._value(name, key, description, text, used)
            if value is not None:
                payload[name] = value
            elif (
                key.get("key_type") == "integer"
                and key.get("default_value") is not None
                and "count" in name
            ):
                # an implicit count takes the default (Figure 4)
                payload[name] = key["default_value"]
            elif (
                key.get("key_type") == "boolean"
                and key.get("default_value") is False
                and name != "other"
            ):
                payload[name] = False
        other = self._other(text, keys.get("other"), used)
        if other:
            payload["other"] = other
        return payload

    def _value(
        self, name: str, key: dict[str, Any], description: str, text: str, used: list[str]
    ) -> Any:
        if name == "other":
            return None
        if name in ("origin", "destination"):
            marker = "from" if name == "origin" else "to"
            for city, code in CITIES.items():
                if re.search(rf"\b{marker} {city}\b", text):
                    used.append(city)
                    return code
            return None
        if "date" in name:
            return self._date(text)
        for phrase, level in INTENSITIES.get(name, ()):
            if phrase in text and (phrase != "light" or "smooth" in text):
                used.append(phrase)
                return level
        for phrase in SWITCHES.get(name, ()):
            if phrase in text:
                used.append(phrase)
                return True
        for value in _acceptable(description):
            if value != "none" and re.search(rf"\b{re.escape(value.replace('_', ' '))}\b", text):
                used.append(value)
                return value
        if key.get("key_type") == "integer" and "count" in name:
            found = re.search(r"\b(" + "|".join(NUMBERS) + r") (people|passengers|persons)\b", text)
            return NUMBERS[found.group(1)] if found else None
        return None

    def _other(
        self, text: str, other: dict[str, Any] | None, used: list[str]
    ) -> str | list[str] | None:
        """What no key took: the other key's example mapping if it matches, else the unmapped
        phrase (SDSI 6.1)."""
        fragments = []
        if "window seat" in text:
            fragments.append("window seat")
        if "bigger" in text and "eye" in text:
            example = re.search(
                r"'[^']*bigger[^']*'\s*->\s*'([^']*)'",
                str((other or {}).get("semantic_description", "")),
            )
            fragments.append(example.group(1) if example else "make the eyes bigger")
        return fragments[0] if len(fragments) == 1 else fragments or None


CLIENT_AGENT_ID = "assistant"


def woa_agent() -> dict[str, Any]:
    """The client agent as it stands in the host's WoA document."""
    return {
        "id": CLIENT_AGENT_ID,
        "name": "Personal assistant",
        "description": "Turns a request in plain words into an SDSI payload for a server agent.",
        "version": "1.0.0",
        "capabilities": [
            "https://datatracker.ietf.org/doc/draft-zhou-structured-data-schema-interaction/#client"
        ],
        "inputs": {
            "type": "object",
            "required": ["utterance", "server"],
            "additionalProperties": False,
            "properties": {
                "utterance": {"type": "string", "maxLength": 2000},
                "server": {
                    "type": "string",
                    "format": "uri",
                    "maxLength": 2000,
                    "description": "The URL of the server's WoA document.",
                },
            },
        },
        "outputs": {
            "type": "object",
            "required": ["status"],
            "properties": {
                "status": {"enum": ["done", "no-suitable-server", "failed"]},
                "message": {"type": "string"},
            },
        },
        "transports": ["rest"],
        "operations": [
            {
                "name": "handle_user_request",
                "description": "Map the user's request to a payload and send it (SDSI 3.2).",
            }
        ],
    }


class SdsiClient:
    """The reference SDSI client agent (SDSI 3.2 steps 2 to 5). A fault is a subclass that overrides
    one of the methods below `handle_user_request` calls (mocks/faults/sdsi.py), each named after
    what the reference does there."""

    def __init__(self, mapper: Mapper | None = None) -> None:
        self.mapper = mapper or RuleMapper()

    # -- what a fault overrides: each the reference's behaviour, by the draft --

    def no_server(self, origin: str) -> dict[str, Any]:
        """What the user hears when no server agent serves the request: just that (SDSI 3.2)."""
        return {
            "status": "no-suitable-server",
            "message": f"no agent at {origin} serves this request",
        }

    async def negotiate(
        self, client: WoaClient, origin: str, agent: str, scenario: str
    ) -> dict[str, Any]:
        """The template, asked of the server before any payload is sent (SDSI 3.2 step 2)."""
        template: dict[str, Any] = await client.invoke(
            origin, agent, {"scenario": scenario}, "get_schema_template"
        )
        return template

    def fills(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The payload as mapped: every REQUIRED key, typed as the template says, what fits no key
        in "other" and only there (SDSI 3.1, 3.2, 4.3, 6.1)."""
        return payload

    async def sends(
        self, client: WoaClient, origin: str, agent: str, schema_id: Any, payload: dict[str, Any]
    ) -> Any:
        """A payload sent in its message, schema_id and payload (SDSI 3.2 step 4, Figure 4),
        checked against the operation's inputs first; the server's result."""
        message = {"schema_id": schema_id, "payload": payload}
        return await client.invoke(origin, agent, message, "execute")

    # -- the operation --

    async def handle_user_request(self, utterance: str, server: str) -> dict[str, Any]:
        """SDSI 3.2 steps 2 to 5 for one utterance, against the server whose WoA document is at
        `server`."""
        from conformance.bindings.reply import operation_names

        from .sdsi_server import CAPABILITY
        from .woa_client import ClientPolicy
        from .woa_client import InvalidMessage
        from .woa_client import Refused
        from .woa_client import WoaClient

        origin = server.removesuffix("/.well-known/woa.json").rstrip("/")
        client = WoaClient(
            policy=ClientPolicy(
                allowed_hosts=frozenset({"127.0.0.1", "localhost"}),
                allowlist_only=True,
                allow_plain_http=True,
                timeout=10,
            )
        )
        try:
            document = await client.document(origin)
            agent = next(
                (
                    a
                    for a in document.get("agents", [])
                    # capabilities are OPTIONAL (WoA 4.1): a server is also an agent offering
                    # get_schema_template
                    if isinstance(a, dict)
                    and (
                        CAPABILITY in (a.get("capabilities") or [])
                        or "get_schema_template" in operation_names(a)
                    )
                ),
                None,
            )
            operations = {
                o.get("name"): o for o in (agent or {}).get("operations", []) if isinstance(o, dict)
            }
            offered = (
                operations.get("get_schema_template", {})
                .get("inputs", {})
                .get("properties", {})
                .get("scenario", {})
                .get("enum", [])
            )
            scenario = scenario_for(utterance, offered) if agent else None
            if scenario is None or agent is None:
                return self.no_server(origin)
            template = await self.negotiate(client, origin, agent["id"], scenario)
            payload = self.fills(self.mapper.map(utterance, template))
            result = await self.sends(client, origin, agent["id"], template["schema_id"], payload)
        except (Refused, InvalidMessage, ValueError, OSError) as error:
            return {"status": "failed", "message": str(error)[:500]}
        return {
            "status": "done",
            "scenario": scenario,
            "schema_id": template["schema_id"],
            "payload": payload,
            "result": result,
        }
