"""The exchanges the invoked-agent checks share (the suite plays the master), made once per run.

For each ACI invoked agent the suite sends five AgentContexts built from the golden subtasks
(vectors/aci/section-3-subtasks.json), addressed to the agent:

- `inline`: its subtask with the context inline, carrying a canary string unique to the agent;
- `dependent`: a subtask with Dependencies (ACI 5.2);
- `by-reference`: the context offloaded to the suite's context store, passed as ContextURI;
- `tampered`: the same with the reference's signature changed (the store refuses it, 403);
- `expired`: a reference whose time has passed, held by a store that serves it anyway.

Agents are reached over WoA REST (execute_subtask) or, with --binding a2a, over A2A: the agents
whose WoA entry names an agent card base (x-a2a), or the target itself when it has no WoA document.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from typing import Any
from urllib.parse import urlsplit

from ...bindings.aci import A2aInvoked
from ...bindings.aci import AciInvoked
from ...bindings.aci import RestInvoked
from ...bindings.aci import aci_agents
from ...bindings.aci import role_of
from ...bindings.observed import carried
from ...bindings.reply import Reply
from ...harness.context_store import ContextStore
from ...harness.context_store import tampered
from ...harness.hosting import hosted
from ...targeting import Target
from ...validation import Violation
from ...validation import validate_message
from ...vectors import vectors_root
from ..registry import Unmet
from ..registry import covers

__all__ = ["KINDS", "InvokedSession", "Sent", "invoked_session", "subtasks"]

KINDS = ("inline", "dependent", "by-reference", "tampered", "expired")


def subtasks() -> dict[str, dict[str, Any]]:
    """The golden subtasks, by AgentID."""
    cases = json.loads(
        (vectors_root() / "aci" / "section-3-subtasks.json").read_text(encoding="utf-8")
    )["cases"]
    return {c["data"]["AgentContext"]["AgentID"]: c["data"] for c in cases}


@dataclass
class Sent:
    agent: str
    kind: str
    message: dict[str, Any]
    reply: Reply
    reference: str = ""  # the ContextURI sent, if any
    canary: str = ""

    @property
    def context(self) -> dict[str, Any]:
        return self.message["AgentContext"]  # type: ignore[no-any-return]

    @property
    def returned(self) -> dict[str, Any] | None:
        body = self.reply.body
        inner = body.get("AgentContext") if isinstance(body, dict) else None
        return inner if isinstance(inner, dict) else None

    def label(self) -> str:
        return f"{self.agent} ({self.kind}, {self.context.get('SubTaskID')})"

    @cached_property
    def violations(self) -> list[Violation]:
        """Every rule the reply breaks as an AgentContext (judged once: each requirement's check
        reads its own): a reply, to the AgentContext it answers."""
        return validate_message("aci/agent-context", self.reply.body, sent=self.context)


#: Where a run keeps its invoked session (Target.memo).
SESSION_KEY = "aci-invoked-session"


@dataclass
class InvokedSession:
    unmet: Unmet | None = None  # why nothing was sent
    sent: list[Sent] = field(default_factory=list)
    store: ContextStore | None = None
    #: the AgentContexts answers carried in a run that watches (kind "observed")
    observed: bool = False

    def of(self, *kinds: str) -> list[Sent]:
        return [s for s in self.sent if s.kind in kinds]


def _addressed(template: dict[str, Any], agent: dict[str, Any]) -> dict[str, Any]:
    message = copy.deepcopy(template)
    context = message["AgentContext"]
    context["AgentID"] = agent["id"]
    context["AgentName"] = (
        agent.get("name", agent["id"]) if isinstance(agent.get("name"), str) else agent["id"]
    )
    return message


def _message_ids(target: Target) -> Callable[[], str]:
    return lambda: target.values.uuid("a2a-messages")


def _bindings(target: Target) -> tuple[list[tuple[dict[str, Any], AciInvoked]], Unmet]:
    if target.options.binding == "a2a" and not isinstance(target.document, dict):
        # A bare A2A agent: its AgentID is taken from the last segment of its URL (E-ACI-BINDINGS).
        base = target.options.target.rstrip("/")
        agent_id = urlsplit(base).path.rsplit("/", 1)[-1] or "a2a-agent"
        return [
            (
                {"id": agent_id, "name": agent_id},
                A2aInvoked(target.client, agent_id, base, target.may_call, _message_ids(target)),
            )
        ], Unmet("")
    agents = [a for a in aci_agents(target.document) if role_of(a) == "invoked"]
    if not agents:
        return [], Unmet(
            "the target offers no ACI invoked agent (an execute_subtask operation)", absent=True
        )
    found: list[tuple[dict[str, Any], AciInvoked]] = []
    reasons = []
    for agent in agents:
        if target.options.binding == "a2a":
            card = agent.get("x-a2a")
            if not isinstance(card, str) or not target.may_call(card):
                reasons.append(f"{agent['id']}: no x-a2a agent card base the address policy allows")
                continue
            found.append(
                (
                    agent,
                    A2aInvoked(
                        target.client,
                        agent["id"],
                        card.rstrip("/"),
                        target.may_call,
                        _message_ids(target),
                    ),
                )
            )
        else:
            url, reason = target.invoke_url(agent["id"])
            if url is None:
                reasons.append(f"{agent['id']}: {reason}")
                continue
            found.append((agent, RestInvoked(target.client, agent["id"], url)))
    return found, Unmet("; ".join(reasons))


async def _gather(target: Target) -> InvokedSession:
    target.sends("AgentContexts of the suite's, and its context store")
    found, unmet = _bindings(target)
    if not found:
        return InvokedSession(unmet)
    golden = subtasks()
    session = InvokedSession(store=ContextStore(target.values))
    store = session.store
    assert store is not None
    async with hosted(
        "context-store",
        lambda _: store.app(),
        recorder=target.recorder,
        replay=target.replay,
        threaded=target.options.in_process,
    ) as base:
        store.base = base
        for agent, binding in found:
            own = golden.get(agent["id"], golden["hotel-booking"])
            dependent = next(v for v in golden.values() if v["AgentContext"]["Dependencies"])
            canary = f"canary-{target.values.hex(6, 'aci-invoked')}"
            messages = {"inline": _addressed(own, agent), "dependent": _addressed(dependent, agent)}
            messages["inline"]["AgentContext"]["Context"] += f" Reference note {canary}."
            for kind, ttl, lenient in (
                ("by-reference", 600.0, False),
                ("tampered", 600.0, False),
                ("expired", -60.0, True),
            ):
                message = _addressed(own, agent)
                text = message["AgentContext"].pop("Context")
                uri = store.put(f"{text} Reference note {canary}.", ttl=ttl, lenient=lenient)
                message["AgentContext"]["ContextURI"] = tampered(uri) if kind == "tampered" else uri
                messages[kind] = message
            for kind in KINDS:
                message = messages[kind]
                reply = await binding.execute(message)
                session.sent.append(
                    Sent(
                        agent["id"],
                        kind,
                        message,
                        reply,
                        message["AgentContext"].get("ContextURI", ""),
                        canary,
                    )
                )
    return session


def _observed(target: Target) -> InvokedSession:
    """In a run that watches: every AgentContext an answer carried (wherever in it), as returned
    by the agent it names for what its request carried (an empty AgentContext when the request
    carried none)."""
    assert target.observed is not None
    session = InvokedSession(observed=True)
    for observed in target.observed.calls():
        asked: dict[str, Any] = next(
            iter(carried(observed.request_json(), "AgentContext")), {"AgentContext": {}}
        )
        for returned in carried(observed.response_json(), "AgentContext"):
            context = returned["AgentContext"] if isinstance(returned["AgentContext"], dict) else {}
            reply = observed.reply(returned)
            session.sent.append(
                Sent(str(context.get("AgentID", "an agent")), "observed", asked, reply)
            )
    return session


@covers("invoked")
def invoked_coverage(target: Target) -> list[dict[str, Any]]:
    """The ACI invoked agents the run sent AgentContexts to: exercised when one answered with an
    AgentContext (an answer without one, or a refusal of every context, exercised nothing of the
    rules on what an agent returns)."""
    found = target.finished(SESSION_KEY)
    if not isinstance(found, InvokedSession) or found.observed:
        return []
    agents: dict[str, list[Sent]] = {}
    for one in found.sent:
        agents.setdefault(one.agent, []).append(one)
    coverage = []
    for agent, sent in agents.items():
        returned = [s for s in sent if s.returned is not None]
        entry: dict[str, Any] = {
            "id": agent,
            "draft": "aci",
            "exercised": bool(returned),
            "requirements": [],
        }
        if not returned:
            answered = [s for s in sent if s.reply.ok]
            entry["why"] = (
                f"none of its {len(answered)} answers to an AgentContext carried one"
                if answered
                else f"it answered none of the {len(sent)} AgentContexts sent"
                f" ({sent[0].reply.problem or sent[0].reply.status})"
            )
        coverage.append(entry)
    return coverage


async def invoked_session(target: Target) -> InvokedSession:
    if target.observed is not None:
        return await target.memo(SESSION_KEY, lambda: asyncio.sleep(0, _observed(target)))
    return await target.memo(SESSION_KEY, lambda: _gather(target))
