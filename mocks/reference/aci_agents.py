"""The reference ACI invoked agents (draft-chang-agent-context-interaction-02): six deterministic
agents for the draft's two scenarios, as plain logic; `aci_host.py` serves them over WoA REST and
A2A.

Each agent takes {"AgentContext": {...}} addressed to it and returns its own updated AgentContext:
one state (0 or 1) per todo item, an outputabstract for every todo item, Dependencies as
given, LastUpdated now (ACI 5.2, 5.3). Context comes inline (Context) or by reference (ContextURI):
a reference is fetched only if it is an https (or allowed loopback) URL on an allowed origin whose
`exp` has not passed; when it cannot be fetched, no item is marked completed (ACI 6).

Collaborative agents need their predecessor's result in the context: the prescription agent needs
a diagnosis, the medicine agent a prescription; without it their items stay at 0.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Awaitable
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs
from urllib.parse import urlsplit

from conformance.oracle.clock import format_time

__all__ = ["AGENTS", "CAPABILITY", "AciError", "InvokedAgent", "SubtaskExecutor"]

CAPABILITY = "https://datatracker.ietf.org/doc/draft-chang-agent-context-interaction/"

#: Fetches a ContextURI: the text, or raises AciError. Injected, so that the host decides the HTTP
#: client.
Fetch = Callable[[str], Awaitable[str]]


class AciError(Exception):
    def __init__(self, status: int, title: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.title, self.detail = status, title, detail


@dataclass(frozen=True)
class InvokedAgent:
    id: str
    name: str
    scenario: str
    #: a word the context must hold for the work to be possible (a collaborative input)
    needs: str = ""

    def outcome(self, item: dict[str, Any], context: str) -> str:
        """What doing the item produced (deterministic: a digest of the item and context names
        the result)."""
        ref = (
            hashlib.sha256(f"{self.id}|{item['itemId']}|{item['description']}|{context}".encode())
            .hexdigest()[:6]
            .upper()
        )
        results = {
            "hotel-booking": f"Booked Jade Garden Hotel, 3 nights, ref HB-{ref}",
            "flight-booking": f"Booked 2 economy seats on CA1501 and CA1502, ref FB-{ref}",
            "weather-checking": f"Forecast: sunny, 18-27 C, light wind (report W-{ref})",
            "diagnosis": f"Diagnosis: acute pharyngitis (assessment DX-{ref})",
            "prescription": f"Prescription: ibuprofen 400 mg, 12 tablets (Rx-{ref})",
            "buy-medicine": f"Ordered the prescribed medicine for delivery today, order MO-{ref}",
        }
        return f"{item['description']}: {results[self.id]}"


AGENTS = {
    a.id: a
    for a in (
        InvokedAgent("hotel-booking", "Hotel Booking Agent", "tour-plan"),
        InvokedAgent("flight-booking", "Flight Booking Agent", "tour-plan"),
        InvokedAgent("weather-checking", "Weather Checking Agent", "tour-plan"),
        InvokedAgent("diagnosis", "Diagnosis Agent", "see-a-doctor"),
        InvokedAgent("prescription", "Prescription Agent", "see-a-doctor", needs="diagnosis"),
        InvokedAgent(
            "buy-medicine", "Medicine Purchase Agent", "see-a-doctor", needs="prescription"
        ),
    )
}

REQUIRED = ("AgentID", "SubTaskID", "todoItems")


def _reference(context: dict[str, Any]) -> str | None:
    for member in ("ContextURI", "Context/ContextURI"):
        value = context.get(member)
        if isinstance(value, str) and value.startswith(("https://", "http://")):
            return value
    return None


def expired(uri: str, now: float) -> bool:
    """Whether a reference's `exp` (seconds since the epoch) has passed; a reference without one
    has no TTL."""
    values = parse_qs(urlsplit(uri).query).get("exp", [])
    try:
        return bool(values) and float(values[0]) <= now
    except ValueError:
        return True


class SubtaskExecutor:
    """How the reference invoked agents execute a subtask (ACI 5.2, 5.3, 6); `minimal`: without the
    optional LastUpdated (mocks/minimal.py). A fault is a subclass that overrides one of the methods
    below `execute` calls (mocks/faults/aci.py), each named after what the reference does there."""

    def __init__(self, *, minimal: bool = False) -> None:
        self.minimal = minimal

    # -- what a fault overrides: each the reference's behaviour, by the draft --

    def usable(self, uri: str) -> bool:
        """A reference is used only before its expiry (ACI 6)."""
        return not expired(uri, time.time())

    async def resolves(self, uri: str, fetch: Fetch, inline: str) -> tuple[str, str]:
        """The context a ContextURI holds, or why it is unavailable (ACI 5.2)."""
        if not self.usable(uri):
            return inline, "the ContextURI reference has expired; it was not fetched"
        try:
            return await fetch(uri), ""
        except AciError as error:
            return inline, self.unresolved(error)

    def unresolved(self, error: AciError) -> str:
        """Why the work cannot be done without a context that could not be fetched (ACI 5.2)."""
        return f"the ContextURI could not be resolved: {error.detail}"

    def answers(self, updated: dict[str, Any], sent: dict[str, Any]) -> dict[str, Any]:
        """The AgentContext the agent returns: the one it was sent, updated (ACI 5.2, 5.3)."""
        return updated

    # -- the operation --

    async def execute(self, agent: InvokedAgent, message: Any, fetch: Fetch) -> dict[str, Any]:
        """One invocation: the agent's updated AgentContext, wrapped as {"AgentContext": ...}."""
        context = message.get("AgentContext") if isinstance(message, dict) else None
        if not isinstance(context, dict):
            raise AciError(
                400, "Invalid message", 'the input must be {"AgentContext": {...}} (ACI 5.2)'
            )
        missing = [m for m in REQUIRED if m not in context]
        if missing:
            raise AciError(
                422, "Invalid AgentContext", f"the AgentContext lacks {', '.join(missing)}"
            )
        if context["AgentID"] != agent.id:
            raise AciError(
                422,
                "Not this agent's context",
                f"the AgentContext is addressed to {context['AgentID']!r}, not {agent.id!r}"
                " (ACI 4.2)",
            )
        items = context["todoItems"]
        if not isinstance(items, list) or not all(
            isinstance(i, dict) and isinstance(i.get("itemId"), str) for i in items
        ):
            raise AciError(
                422, "Invalid todoItems", "todoItems must be an array of {itemId, description}"
            )
        text: str = context["Context"] if isinstance(context.get("Context"), str) else ""
        unavailable = ""
        if (uri := _reference(context)) is not None:
            text, unavailable = await self.resolves(uri, fetch, text)
        possible = not unavailable and (not agent.needs or agent.needs in text.lower())
        reason = unavailable or f"waiting for the {agent.needs} this item depends on"
        updated = {
            "AgentID": agent.id,
            "AgentName": context.get("AgentName", agent.name),
            "SubTaskID": context["SubTaskID"],
            "SubTaskName": context.get("SubTaskName", ""),
            "Dependencies": context.get("Dependencies", []),
            **{
                k: context[k]
                for k in ("Context", "ContextURI", "Context/ContextURI")
                if k in context
            },
            "todoItems": items,
            "ItemstateUpdates": [{"itemId": i["itemId"], "state": int(possible)} for i in items],
            "KeyInformation": [
                {
                    "itemId": item["itemId"],
                    "outputabstract": (
                        agent.outcome(item, text) if possible else f"not done: {reason}"
                    ),
                }
                for item in items
            ],
            "LastUpdated": format_time(time.time()),
            "Optional": ["LastUpdated"],
        }
        if self.minimal:
            del updated["LastUpdated"], updated["Optional"]
        return {"AgentContext": self.answers(updated, context)}
