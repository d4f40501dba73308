"""The reference ACI invoked agents (draft-chang-agent-context-interaction-02): six deterministic
agents for the draft's two scenarios, as plain logic; `aci_host.py` serves them over WoA REST and
A2A.

Each agent takes {"AgentContext": {...}} addressed to it and returns its own updated AgentContext:
one state (0 or 1) per todo item, an outputabstract for every completed item, Dependencies as
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

__all__ = ["AGENTS", "CAPABILITY", "AciError", "InvokedAgent", "execute_subtask"]

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
    needs: str = (
        ""  # a word the context must hold for the work to be possible (a collaborative input)
    )

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


async def execute_subtask(
    agent: InvokedAgent, message: Any, fetch: Fetch, fault: str = "", *, minimal: bool = False
) -> dict[str, Any]:
    """One invocation: the agent's updated AgentContext, wrapped as {"AgentContext": ...};
    `minimal`: without the optional LastUpdated (mocks/minimal.py)."""
    context = message.get("AgentContext") if isinstance(message, dict) else None
    if not isinstance(context, dict):
        raise AciError(
            400, "Invalid message", 'the input must be {"AgentContext": {...}} (ACI 5.2)'
        )
    missing = [m for m in REQUIRED if m not in context]
    if missing:
        raise AciError(422, "Invalid AgentContext", f"the AgentContext lacks {', '.join(missing)}")
    if context["AgentID"] != agent.id:
        raise AciError(
            422,
            "Not this agent's context",
            f"the AgentContext is addressed to {context['AgentID']!r}, not {agent.id!r} (ACI 4.2)",
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
    uri = _reference(context)
    if uri is not None and fault != "ACI-5.2-CONTEXT-URI-RESOLVED":
        if expired(uri, time.time()) and fault != "ACI-6-EXPIRED-REFERENCE-NOT-USED":
            unavailable = "the ContextURI reference has expired; it was not fetched"
        else:
            try:
                text = await fetch(uri)
            except AciError as error:
                # the fault: carry on as if the context were there
                unavailable = (
                    ""
                    if fault == "ACI-5.2-NO-COMPLETION-WITHOUT-CONTEXT"
                    else f"the ContextURI could not be resolved: {error.detail}"
                )
    if fault == "ACI-5.2-CONTEXT-URI-RESOLVED" and uri is not None:
        unavailable, text = (
            "",
            "",
        )  # the fault: the reference is never fetched; the agent works without it
    possible = not unavailable and (not agent.needs or agent.needs in text.lower())
    states, abstracts = [], []
    for n, item in enumerate(items):
        done = possible
        state = 2 if fault == "ACI-5.2-ITEM-STATE-BINARY" and done else int(done)
        states.append({"itemId": item["itemId"], "state": state})
        if done and not (fault == "ACI-5.2-KEY-INFORMATION-PER-ITEM" and n == len(items) - 1):
            abstracts.append(
                {"itemId": item["itemId"], "outputabstract": agent.outcome(item, text)}
            )
        elif not done:
            reason = unavailable or f"waiting for the {agent.needs} this item depends on"
            abstracts.append({"itemId": item["itemId"], "outputabstract": f"not done: {reason}"})
    if fault == "ACI-5.2-ITEM-STATE-PER-ITEM":
        states = states[1:]
    if fault == "ACI-5.2-ITEM-STATE-ONE-EACH":
        states = [states[0], *states]
    updated = {
        "AgentID": agent.id,
        "AgentName": context.get("AgentName", agent.name),
        "SubTaskID": context["SubTaskID"],
        "SubTaskName": context.get("SubTaskName", ""),
        "Dependencies": (
            [] if fault == "ACI-5.2-DEPENDENCIES-PRESERVED" else context.get("Dependencies", [])
        ),
        **{k: context[k] for k in ("Context", "ContextURI", "Context/ContextURI") if k in context},
        "todoItems": items,
        "ItemstateUpdates": states,
        "KeyInformation": abstracts,
        "LastUpdated": (
            {
                "ACI-5.2-LAST-UPDATED-RFC3339": "last tuesday",
                "ACI-5.2-LAST-UPDATED-TIMESTAMP": time.time(),
            }.get(fault, format_time(time.time()))
        ),
        "Optional": ["LastUpdated"],
    }
    if minimal:
        del updated["LastUpdated"], updated["Optional"]
    if (
        fault == "ACI-5.3-RETURNS-STATE-AND-KEY-INFORMATION"
    ):  # the context comes back as it was sent
        updated.update(
            ItemstateUpdates=context.get("ItemstateUpdates", context.get("ItemStateUpdates", [])),
            KeyInformation=context.get("KeyInformation", []),
        )
    if fault == "ACI-5.2-AGENTCONTEXT-MEMBERS":
        del updated["AgentName"]
    if fault == "ACI-5.2-TODO-ITEMS":
        updated["todoItems"] = [{"itemId": i["itemId"]} for i in items]
    if fault == "ACI-2.1-RETURNS-OWN-AGENTCONTEXT":
        updated["SubTaskID"] = f"{context['SubTaskID']}-copy"
    return {"AgentContext": updated}
