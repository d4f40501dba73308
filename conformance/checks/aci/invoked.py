"""Invoked-agent checks (ACI 2.1, 5.2, 5.3, 6): the suite plays the master and judges what each
ACI invoked agent returns for the golden subtasks (invoked_session.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...bindings.aci import aci_agents
from ...bindings.aci import role_of
from ...bindings.observed import NotObserved
from ...report.model import Exchange
from ...targeting import Target
from ...targeting import is_loopback
from ...targeting import on_the_open_internet
from ...targeting import rest_config
from ...validation import validate_message
from ..preconditions import certifies
from ..preconditions import document_read
from ..preconditions import on_the_wire
from ..preconditions import watching
from ..registry import Decided
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import skipped
from ..registry import waived
from .invoked_session import InvokedSession
from .invoked_session import Sent
from .invoked_session import invoked_session

STATE_MEMBERS = ("ItemstateUpdates", "ItemStateUpdates")  # E-ACI-5.2-ITEMSTATE-SPELLING
#: The AgentContexts sent with the context at hand, whose answers the rules on what an agent returns
#: judge (in a run that watches: every one that passed by)
_VALID = ("inline", "dependent", "by-reference", "observed")


async def _session(target: Target, *, watched: bool = False) -> InvokedSession:
    """The session; `Decided` when there is nothing to judge. In a run that watches, only a
    check that judges AgentContexts as they pass by (`watched`) gets one: the others judge what
    an agent does with the suite's own AgentContexts."""
    certifies(target, "invoked", "invoked agents")
    judges = "what an invoked agent does with the suite's own AgentContexts"
    if watching(target, watched=watched, judges=judges):
        return await invoked_session(target)
    if target.options.binding != "a2a":  # an A2A agent may stand without a WoA document
        document_read(target)
    found = await invoked_session(target)
    if found.unmet:
        raise Decided(found.unmet.verdict())
    return found


def _evidence(sent: list[Sent]) -> tuple[Exchange, ...]:
    return tuple(s.reply.exchange for s in sent if s.reply.exchange)[:3]


def _judge(sent: list[Sent], problem: Callable[[Sent], str | None], success: str) -> Verdict:
    broken = [s for s in sent if s.reply.status is None]
    if broken:
        return errored(f"{broken[0].label()}: {broken[0].reply.problem}", *_evidence(broken))
    wrong = [(s, p) for s in sent if (p := problem(s))]
    if wrong:
        listed = "; ".join(f"{s.label()}: {p}" for s, p in wrong[:4])
        return failed(
            f"{len(wrong)} of {len(sent)} replies: {listed}", *_evidence([s for s, _ in wrong])
        )
    return passed(f"{success} ({len(sent)} replies)", *_evidence(sent))


def _answered(found: InvokedSession, *kinds: str) -> list[Sent]:
    """The replies to valid AgentContexts with the context at hand (inline, dependent, by
    reference, or `kinds`) that carry an answer: an agent may decline a subtask (a hotel agent
    sent the prescription's), and no sentence of 5.2 or 5.3 forbids it, so a declined one (not
    2xx) is judged by none of the rules on what an agent returns (docs/check-review.md)."""
    return [s for s in found.of(*(kinds or _VALID)) if s.reply.ok or s.reply.status is None]


def _none_returned(found: InvokedSession, *kinds: str) -> Verdict | None:
    """A skip when the agents declined every valid AgentContext of `kinds`: nothing came back to
    judge."""
    sent = found.of(*(kinds or _VALID))
    if sent and not _answered(found, *kinds):
        return skipped(
            Skip.NOT_OBSERVED,
            f"every AgentContext sent was declined (the first: {sent[0].label()}, answered"
            f" {sent[0].reply.status}): nothing came back to judge",
            *_evidence(sent[:1]),
        )
    return None


def _violations(requirement: str) -> Callable[[Sent], str | None]:
    def problem(sent: Sent) -> str | None:
        found = [v for v in sent.violations if v.requirement == requirement]
        return "; ".join(f"{v.path}: {v.message}" for v in found[:2]) or None

    return problem


@check("ACI-2.1-RETURNS-OWN-AGENTCONTEXT")
async def aci_2_1_returns_its_own_agent_context(target: Target) -> Verdict:
    """2.1: the reply holds exactly one AgentContext, the agent's own (same AgentID and SubTaskID),
    no TaskContext, and nothing sent to another agent (its canary)."""
    found = await _session(target)
    canaries = {s.agent: s.canary for s in found.sent}

    def problem(sent: Sent) -> str | None:
        body = sent.reply.body
        if not isinstance(body, dict):
            return (
                f"answered {sent.reply.status} with {type(body).__name__}, not an object holding"
                " the AgentContext"
            )
        if set(body) != {"AgentContext"}:
            return f"the reply holds {sorted(body)}, not exactly one AgentContext"
        returned = sent.returned or {}
        for member in ("AgentID", "SubTaskID"):
            if returned.get(member) != sent.context[member]:
                return f"{member} is {returned.get(member)!r}, not {sent.context[member]!r}"
        text = str(body)
        leaked = [
            agent for agent, canary in canaries.items() if agent != sent.agent and canary in text
        ]
        return f"the reply carries what was sent to {leaked}" if leaked else None

    return _none_returned(found) or _judge(
        _answered(found), problem, "each reply is the agent's own AgentContext and nothing else"
    )


def _carrying(found: InvokedSession, answered: list[Sent]) -> list[Sent] | Verdict:
    """The answers that carry an AgentContext, the only ones a rule on its members can judge; when
    none does, a skip naming the rule that judges an answer without one (never a pass over
    nothing)."""
    carrying = [s for s in answered if s.returned is not None or s.reply.status is None]
    if carrying or not answered:
        return carrying
    return skipped(
        Skip.DEPENDS_ON,
        f"no answer carried an AgentContext ({len(answered)} answers, the first:"
        f" {answered[0].label()}): ACI-2.1-RETURNS-OWN-AGENTCONTEXT judges that",
        *_evidence(answered[:1]),
    )


async def _schema_rule(target: Target, requirement: str, success: str) -> Verdict:
    """A rule the AgentContext schema and rules judge, on every reply to a valid context that
    carries one (in a run that watches, on every AgentContext an answer carried)."""
    found = await _session(target, watched=True)
    if found.observed and not found.sent:
        raise NotObserved("no AgentContext returned by an agent passed by")
    declined = _none_returned(found)
    if declined is not None:
        return declined
    carrying = _carrying(found, _answered(found))
    if isinstance(carrying, Verdict):
        return carrying
    return _judge(carrying, _violations(requirement), success)


def _as_delivered(message: dict[str, Any]) -> dict[str, Any]:
    """A master's delivery judged as Section 5.3 describes it: "only task-relevant information,
    including todoItems and the associated context reference, is delivered"; the states and the key
    information are what the invoked agent returns, so a delivery without them is judged as if it
    carried them empty (a delivery that has them is judged as it is)."""
    context = message.get("AgentContext")
    if not isinstance(context, dict):
        return message
    filled = dict(context)
    if "ItemstateUpdates" not in filled and "ItemStateUpdates" not in filled:
        filled["ItemstateUpdates"] = []
    filled.setdefault("KeyInformation", [])
    return {**message, "AgentContext": filled}


async def _either_role(target: Target, requirement: str, success: str) -> Verdict:
    """A rule binding both roles: judged on what invoked agents return and on what masters send
    (the AgentContexts the suite's spies received), as the run certifies either."""
    from .master import master_sent

    found: InvokedSession | Verdict
    try:
        found = await _session(target, watched=True)
    except Decided as decided:
        found = decided.verdict
    sent = await master_sent(target)
    if isinstance(found, Verdict):
        if not sent:
            return found
    elif found.observed and not found.sent and not sent:
        raise NotObserved("no AgentContext passed by")
    judged: list[Sent] = []
    if not isinstance(found, Verdict):
        carrying = _carrying(found, _answered(found))
        if isinstance(carrying, Verdict) and not sent:
            return carrying
        judged = carrying if isinstance(carrying, list) else []
        if not judged and not sent:  # nothing answered, nothing sent by a master: nothing judged
            return _none_returned(found) or skipped(
                Skip.NOT_OBSERVED, "no AgentContext came back and no master sent one"
            )
    broken = [s for s in judged if s.reply.status is None]
    if broken:
        return errored(f"{broken[0].label()}: {broken[0].reply.problem}", *_evidence(broken))
    problems = [f"{s.label()}: {p}" for s in judged if (p := _violations(requirement)(s))]
    for label, message in sent:
        problems += [
            f"{label}: {v.path}: {v.message}"
            for v in validate_message("aci/agent-context", _as_delivered(message))
            if v.requirement == requirement
        ][:1]
    count = f"{len(judged)} returned, {len(sent)} sent by the master"
    if problems:
        return failed(
            f"{len(problems)} AgentContexts ({count}): " + "; ".join(problems[:4]),
            *_evidence(judged),
        )
    return passed(f"{success} ({count})", *_evidence(judged))


@check("ACI-5.2-AGENTCONTEXT-MEMBERS")
async def aci_5_2_agent_context_has_its_members(target: Target) -> Verdict:
    """5.2: every AgentContext, returned by an invoked agent or sent by a master, has Figure 4's
    members."""
    return await _either_role(
        target, "ACI-5.2-AGENTCONTEXT-MEMBERS", "every AgentContext has Figure 4's members"
    )


@check("ACI-5.2-AGENTCONTEXT-MEMBER-TYPES")
async def aci_5_2_agent_context_members_are_strings(target: Target) -> Verdict:
    """The suite's reading of Figure 4 (inferred, E-ACI-5.2-MEMBER-TYPES): the identification
    members, the context and the items' ids and texts are strings, as the figure's placeholders."""
    return await _either_role(
        target, "ACI-5.2-AGENTCONTEXT-MEMBER-TYPES", "every AgentContext's members are strings"
    )


@check("ACI-5.2-TODO-ITEMS")
async def aci_5_2_todo_items_are_well_formed(target: Target) -> Verdict:
    """5.2: todoItems is an array of {itemId, description}, in what invoked agents return and
    masters send."""
    return await _either_role(
        target, "ACI-5.2-TODO-ITEMS", "todoItems keep their {itemId, description} form"
    )


@check("ACI-5.2-ITEM-STATE-BINARY")
async def aci_5_2_item_states_are_binary(target: Target) -> Verdict:
    """5.2: every item state is 0 (not completed) or 1 (completed)."""
    return await _either_role(target, "ACI-5.2-ITEM-STATE-BINARY", "every state is 0 or 1")


@check("ACI-5.2-ITEM-STATE-PER-ITEM")
async def aci_5_2_one_state_per_item(target: Target) -> Verdict:
    """5.2: ItemstateUpdates "records the completion state of each item": every todo item has a
    state."""
    return await _schema_rule(target, "ACI-5.2-ITEM-STATE-PER-ITEM", "every todo item has a state")


@check("ACI-5.2-ITEM-STATE-ONE-EACH")
async def aci_5_2_one_state_for_each_item(target: Target) -> Verdict:
    """The suite's reading of 5.2 (inferred): exactly one state per todo item, none for an
    unknown itemId."""
    return await _schema_rule(
        target, "ACI-5.2-ITEM-STATE-ONE-EACH", "one state per todo item, no unknown item"
    )


@check("ACI-5.2-KEY-INFORMATION-PER-ITEM")
async def aci_5_2_key_information_for_every_item(target: Target) -> Verdict:
    """5.2: KeyInformation holds "output abstracts generated by the agent for each item"."""
    return await _schema_rule(
        target, "ACI-5.2-KEY-INFORMATION-PER-ITEM", "every todo item has its outputabstract"
    )


@check("ACI-5.2-LAST-UPDATED-TIMESTAMP")
async def aci_5_2_last_updated_is_a_timestamp(target: Target) -> Verdict:
    """5.2: LastUpdated, when present, "records the timestamp": a string (its form is
    ACI-5.2-LAST-UPDATED-RFC3339's)."""
    return await _schema_rule(
        target, "ACI-5.2-LAST-UPDATED-TIMESTAMP", "LastUpdated, where given, is a string"
    )


@check("ACI-5.2-LAST-UPDATED-RFC3339")
async def aci_5_2_last_updated_is_rfc_3339(target: Target) -> Verdict:
    """The suite's reading (inferred, E-ACI-5.2-LASTUPDATED-FORMAT): LastUpdated, when present,
    is an RFC 3339 date-time."""
    return await _schema_rule(
        target, "ACI-5.2-LAST-UPDATED-RFC3339", "LastUpdated, where given, is RFC 3339"
    )


@check("ACI-5.2-DEPENDENCIES-PRESERVED")
async def aci_5_2_dependencies_are_preserved(target: Target) -> Verdict:
    """5.2: the Dependencies the master set come back unchanged."""
    found = await _session(target)

    def problem(sent: Sent) -> str | None:
        if sent.returned is None:
            return f"answered {sent.reply.status} without an AgentContext"
        got = sent.returned.get("Dependencies")
        return (
            None
            if got == sent.context["Dependencies"]
            else f"Dependencies came back as {got!r}, sent {sent.context['Dependencies']!r}"
        )

    return _none_returned(found) or _judge(
        _answered(found), problem, "Dependencies come back as sent"
    )


@check("ACI-5.2-TODO-ITEMS-PRESERVED")
async def aci_5_2_todo_items_are_preserved(target: Target) -> Verdict:
    """5.2: "The todoItems array enumerates actionable steps assigned to each agent": the steps
    assigned come back, the same itemIds in the same order (errata E-ACI-5.2-TODO-ITEMS-EMPTY)."""
    found = await _session(target)

    def ids(items: Any) -> list[Any] | None:
        if not isinstance(items, list):
            return None
        return [i.get("itemId") if isinstance(i, dict) else i for i in items]

    def problem(sent: Sent) -> str | None:
        if sent.returned is None:
            return f"answered {sent.reply.status} without an AgentContext"
        got, assigned = ids(sent.returned.get("todoItems")), ids(sent.context["todoItems"])
        return (
            None
            if got == assigned
            else f"todoItems came back as the items {got!r}, assigned {assigned!r}"
        )

    return _none_returned(found) or _judge(
        _answered(found), problem, "todoItems come back as assigned"
    )


@check("ACI-5.3-RETURNS-STATE-AND-KEY-INFORMATION")
async def aci_5_3_returns_updated_state_and_key_information(target: Target) -> Verdict:
    """5.3: "the Server Agent returns an updated AgentContext containing ItemStateUpdates and
    KeyInformation": both arrays, and not both exactly as they were sent (then nothing was
    updated), on every answered message."""
    found = await _session(target)

    def problem(sent: Sent) -> str | None:
        returned = sent.returned
        if returned is None:
            return f"answered {sent.reply.status} without an AgentContext"
        states = next((returned[m] for m in STATE_MEMBERS if m in returned), None)
        if states is None or "KeyInformation" not in returned:
            return "the AgentContext lacks ItemstateUpdates or KeyInformation"
        before = next((sent.context[m] for m in STATE_MEMBERS if m in sent.context), None)
        if states == before and returned["KeyInformation"] == sent.context.get("KeyInformation"):
            return (
                "ItemstateUpdates and KeyInformation came back exactly as sent: nothing was"
                " executed"
            )
        return None

    return _none_returned(found) or _judge(
        _answered(found), problem, "each reply updates ItemstateUpdates and KeyInformation"
    )


def _completed(sent: Sent) -> list[str]:
    returned = sent.returned or {}
    states: list[Any] = next(
        (returned[m] for m in STATE_MEMBERS if isinstance(returned.get(m), list)), []
    )
    return [str(s.get("itemId")) for s in states if isinstance(s, dict) and s.get("state") == 1]


def _reference_verdict(found: InvokedSession, kind: str, story: str) -> Verdict:
    assert found.store is not None
    resolved = found.of("by-reference")
    unresolved = [
        s.agent
        for s in resolved
        if not any(f.status == 200 for f in found.store.fetched(s.reference))
    ]
    if unresolved:
        return skipped(
            Skip.DEPENDS_ON,
            f"{unresolved} did not fetch a valid ContextURI, so refusing a bad one shows nothing"
            " (see ACI-5.2-CONTEXT-URI-RESOLVED)",
        )

    def problem(sent: Sent) -> str | None:
        if sent.reply.rejected:
            return None
        done = _completed(sent)
        return f"marked {done} completed from {story}" if done else None

    return _judge(found.of(kind), problem, f"no agent completed an item from {story}")


@check("ACI-5.2-CONTEXT-URI-RESOLVED")
async def aci_5_2_context_uri_is_resolved(target: Target) -> Verdict:
    """5.2: an agent handed a ContextURI fetches it (from the suite's store)."""
    found = await _session(target)
    assert found.store is not None
    store = found.store

    def problem(sent: Sent) -> str | None:
        fetched = store.fetched(sent.reference)
        return (
            None
            if any(f.status == 200 for f in fetched)
            else "never fetched the ContextURI it was given"
        )

    handed = found.of("by-reference")
    # an agent that refused the reference outright (a 4xx, say because the suite's store is plain
    # HTTP on loopback) made a choice about the reference, not a failure to resolve it
    refused = [
        s
        for s in handed
        if s.reply.status is not None
        and 400 <= s.reply.status < 500
        and not store.fetched(s.reference)
    ]
    if handed and len(refused) == len(handed):
        return skipped(
            Skip.INCONCLUSIVE,
            f"every agent refused the by-reference message ({refused[0].label()}:"
            f" {refused[0].reply.status}) without fetching: whether it would resolve a reference it"
            " accepts was not seen",
            *_evidence(refused[:1]),
        )
    return _judge(
        [s for s in handed if s not in refused],
        problem,
        "every agent fetched the ContextURI it was handed",
    )


@check("ACI-5.2-NO-COMPLETION-WITHOUT-CONTEXT")
async def aci_5_2_no_completion_without_the_context(target: Target) -> Verdict:
    """The suite's reading of 5.2 (inferred): an agent whose ContextURI cannot be resolved (a
    tampered reference the store refuses) does not go on as if it had the context: it completes
    no item."""
    found = await _session(target)
    return _reference_verdict(found, "tampered", "a tampered ContextURI")


@check("ACI-6-EXPIRED-REFERENCE-NOT-USED")
async def aci_6_expired_references_are_refused(target: Target) -> Verdict:
    """6: a ContextURI whose expiry has passed is not used, even from a store careless enough to
    serve it."""
    found = await _session(target)
    return _reference_verdict(found, "expired", "an expired ContextURI")


@check("ACI-6-AGENTCONTEXT-CONFIDENTIALITY")
async def aci_6_agent_contexts_travel_over_tls(target: Target) -> Verdict:
    """6: AgentContext messages travel over "secure underlying transport mechanisms, such as
    TLS-protected channels": the endpoint of every invoked agent certified is https, or plain
    HTTP only inside a private network, where a mesh or VPN the suite cannot see may secure it (a
    skip). Read from the document, so a plain-HTTP host fails here rather than going untested.
    What a master sends goes to the suite's spies, a channel the suite chose
    (E-ACI-6-SPIES-CHANNEL): not judged."""
    roles = {r for r in ("invoked",) if r in target.options.roles}
    if not roles:
        if "master" in target.options.roles:
            return not_applicable(
                "a master's AgentContexts go to the suite's spies over a channel the suite chose "
                "(E-ACI-6-SPIES-CHANNEL); only invoked agents' endpoints are judged"
            )
        return not_applicable("this run certifies no ACI agent")
    masters = False
    if target.options.binding == "a2a" and not isinstance(target.document, dict):
        endpoints = {"a2a-agent": target.options.target}
    else:
        agents = [a for a in aci_agents(target.document) if role_of(a) in roles]
        if not agents:
            return not_applicable("the target offers no ACI agent in the roles certified")
        rest = rest_config(target.document)
        base = rest.get("base") if isinstance(rest, dict) else None
        endpoints = {
            a["id"]: (
                str(a.get("x-a2a", ""))
                if target.options.binding == "a2a" and role_of(a) == "invoked"
                else str(base or "")
            )
            for a in agents
        }
        masters = any(role_of(a) == "master" for a in agents)
    on_the_wire(target)
    unknown = sorted(
        agent for agent, url in endpoints.items() if not url.startswith(("https://", "http://"))
    )
    if unknown:
        return skipped(Skip.UNREACHABLE, f"no endpoint URL for {unknown}")
    plain = sorted({url for url in endpoints.values() if url.startswith("http://")})
    evidence = (
        (target.discovery.response.exchange,) if target.discovery.response is not None else ()
    )
    # what a master sends goes to the suite's spies, which the suite serves without TLS
    if not plain and masters:
        return waived(
            f"AgentContexts reach the {len(endpoints)} agents certified over HTTPS; those a master"
            " sends went to the suite's spies over plain HTTP on loopback, a channel the suite"
            " weakened itself: not judged",
            *evidence,
        )
    if not plain:
        return passed(f"AgentContexts go to {len(endpoints)} agents over HTTPS", *evidence)
    if all(target.waives_plain_http(url) for url in plain):
        return waived(
            f"plain HTTP on loopback ({plain[0]}), waived by --allow-http-loopback", *evidence
        )
    # loopback is judged as every HTTPS rule judges it: waived with --allow-http-loopback
    judged = [
        url
        for url in plain
        if (on_the_open_internet(url) or is_loopback(url)) and not target.waives_plain_http(url)
    ]
    if not judged:
        # inside a private network a service mesh or a VPN may secure the hop ("such as
        # TLS-protected channels"): what carries it the suite cannot see
        return skipped(
            Skip.INCONCLUSIVE,
            f"plain HTTP on a private network ({plain[0]}): a mesh or a VPN may secure it, which"
            " the suite cannot see",
            *evidence,
        )
    return failed(f"AgentContexts would travel over plain HTTP to {judged}", *evidence)
