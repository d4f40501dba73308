"""The WoA invocation session (sections 4.3.1, 5.1, 5.2): the suite POSTs envelopes to every agent
and operation reachable over the rest transport, once per run (`plan`, memoized on the Target),
or reads the invocations it watched go by; the checks (invocation.py) and the coverage map judge
the answers.

The probes, per agent and operation, and the answer each asks for:

    valid       inputs made from the inputs schema, boundaries included  -> 2xx, outputs schema
    invalid     inputs that break one constraint each                    -> 4xx problem details
    mismatch    an envelope naming another agent than the URL's          -> 400 problem details
    malformed   a body that is not JSON                                  -> problem+json
    implied     no operation, for an agent with "default"                -> served as default

The suite invokes only URLs on an origin the user allowed, and never over plain HTTP unless
--allow-http-loopback lets it on loopback.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from ...bindings import ExchangeFailed
from ...bindings import HttpResponse
from ...bindings import Unreachable
from ...instances import Ungeneratable
from ...instances import invalid_examples
from ...instances import valid_examples
from ...report.model import Exchange
from ...targeting import Target
from ...targeting import rest_config
from ...validation.rules import selected_schema
from ..registry import Invocations
from ..registry import reads_invocations
from .mcp import MCP_ANSWERED

__all__ = ["JUDGED_BY", "JUDGED_ON", "PLAN_KEY", "Plan", "Probe", "plan"]

PLAN_KEY = "woa-invocation-plan"
CONCURRENCY = 8
#: The order an agent's probes are sent in: its valid invocations first, so that the first answer at
#: an agent's URL is a success (the mutation engine plans its mutants on the first answer at each
#: URL).
_SENDING = ("valid", "invalid", "mismatch", "implied", "malformed", "agentless")


_BUILDING_SPENT = "not invoked, the run's time for building inputs was spent"
_BUILDING_SPENT_WHY = (
    "not invoked: the run's time for building inputs from schemas was spent before it"
)

#: The kinds of probe each requirement judges: one table for the checks below and for the coverage
#: map, which names the requirements judged on each agent from the probes it answered.
JUDGED_ON = {
    "WOA-5.2-SUCCESS-2XX": ("valid",),
    "WOA-5.2-VALID-INPUT-ACCEPTED": ("valid",),
    # an envelope without agent (only ever observed) is the URL's agent's, if the host serves it
    "WOA-5.2-SUCCESS-CONFORMS-OUTPUTS": ("valid", "invalid", "implied", "agentless"),
    "WOA-4.3.1-HOST-RESPONDS-JSON": _SENDING,
    "WOA-5.2-AGENT-MISMATCH-400": ("mismatch",),
    "WOA-5.2-PLACEHOLDER-MISMATCH-400": ("mismatch",),
    "WOA-5.2-AGENT-MISMATCH-PROBLEM": ("mismatch",),
    "WOA-5.2-ERROR-PROBLEM-DETAILS": ("invalid",),
    "WOA-5.2-INVALID-INPUT-REJECTED": ("invalid",),
    "WOA-4.3.1-ERRORS-PROBLEM-JSON": ("malformed",),
    "WOA-5.1-DEFAULT-OPERATION": ("implied",),
}
#: The same table read the other way: the requirements each kind of probe serves.
JUDGED_BY = {kind: tuple(r for r, kinds in JUDGED_ON.items() if kind in kinds) for kind in _SENDING}


@dataclass
class Probe:
    kind: str
    agent: str
    operation: str | None
    description: str
    url: str
    envelope: Any = None
    content: bytes | None = None
    response: HttpResponse | None = None
    failure: ExchangeFailed | None = None

    @property
    def exchange(self) -> Exchange | None:
        return (
            self.response.exchange
            if self.response
            else self.failure.exchange
            if self.failure
            else None
        )

    def label(self) -> str:
        operation = f" operation {self.operation!r}" if self.operation else ""
        return f"agent {self.agent!r}{operation}, {self.description}"


@dataclass
class Plan:
    """Every probe sent, and why agents or operations could not be probed."""

    probes: list[Probe] = field(default_factory=list)
    #: why agents were not invoked, each reason with the agents it stands for (as shown: "'a1'")
    unreachable: dict[str, list[str]] = field(default_factory=dict)
    #: why no valid input was made, each with the agents and operations it stands for
    ungenerated: dict[str, list[str]] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)  # agent id -> why it got no valid invocation
    rest_agents: int = 0
    #: in a run that watches: the invocations that passed by but are no probe, by why
    left_out: Counter[str] = field(default_factory=Counter)

    def left_out_note(self) -> str:
        """What the verdicts leave out of the traffic, for their messages ("" when nothing)."""
        if not self.left_out:
            return ""
        listed = ", ".join(f"{n} {why}" for why, n in self.left_out.most_common())
        return f"; {self.left_out.total()} invocations that passed by are left out: {listed}"

    def of(self, kind: str) -> list[Probe]:
        return [p for p in self.probes if p.kind == kind]


def _operations(agent: dict[str, Any]) -> list[str | None]:
    operations = agent.get("operations")
    if not isinstance(operations, list):
        return [None]
    names = [o.get("name") for o in operations if isinstance(o, dict)]
    return [n if isinstance(n, str) else None for n in names] or [None]


def _envelope(agent_id: str, operation: str | None, value: Any) -> dict[str, Any]:
    envelope: dict[str, Any] = {"agent": agent_id}
    if operation is not None:
        envelope["operation"] = operation
    envelope["input"] = value
    return envelope


def _agent_probes(
    target: Target, document: dict[str, Any], agent: dict[str, Any], plan: Plan
) -> list[list[Probe]]:
    """The probes of one agent in three tiers: those that need no valid input (a mismatch, a body
    that is not JSON), then one valid invocation per operation, then the rest (more valid inputs,
    near-misses). The tiers decide what a cap keeps; the probes kept are sent in the agent's own
    order (`_SENDING`)."""
    agent_id = agent["id"]
    url, reason = target.invoke_url(agent_id)
    if url is None:
        plan.unreachable.setdefault(str(reason), []).append(repr(agent_id))
        plan.why.setdefault(agent_id, reason or "")
        return []
    cheap: list[Probe] = []
    first: list[Probe] = []
    rest: list[Probe] = []
    placeholder = "{agent_id}" in rest_config(document)["invoke_path"]
    for operation in _operations(agent):
        schema = selected_schema(agent, operation, "inputs")
        # the envelope's input is an object (WoA 5.1): an instance of another type is no valid
        # invocation
        try:
            examples = [e for e in valid_examples(schema, limit=8) if isinstance(e, dict)]
            if not examples:
                raise Ungeneratable(
                    "the inputs schema admits no object, and the envelope's input is one (WoA 5.1)"
                )
        except Ungeneratable as error:
            plan.ungenerated.setdefault(str(error), []).append(
                f"{agent_id!r} operation {operation!r}"
            )
            plan.why.setdefault(
                agent_id,
                "no valid input could be"
                f" built{f' for operation {operation!r}' if operation else ''}: {error}",
            )
            examples = []
        # no valid input is needed: the mismatch is the host's to see before the input
        if placeholder:
            cheap.append(
                Probe(
                    "mismatch",
                    agent_id,
                    operation,
                    "envelope naming another agent",
                    url,
                    _envelope(
                        agent_id + "-not-this-agent", operation, examples[0] if examples else {}
                    ),
                )
            )
        if not examples:
            continue
        first.append(
            Probe(
                "valid",
                agent_id,
                operation,
                f"input {examples[0]!r}"[:200],
                url,
                _envelope(agent_id, operation, examples[0]),
            )
        )
        if operation == "default":
            first.append(
                Probe(
                    "implied",
                    agent_id,
                    None,
                    "envelope without operation",
                    url,
                    _envelope(agent_id, None, examples[0]),
                )
            )
        for example in examples[1:]:
            rest.append(
                Probe(
                    "valid",
                    agent_id,
                    operation,
                    f"input {example!r}"[:200],
                    url,
                    _envelope(agent_id, operation, example),
                )
            )
        for description, value in invalid_examples(schema, limit=8):
            rest.append(
                Probe(
                    "invalid",
                    agent_id,
                    operation,
                    f"input {description}",
                    url,
                    _envelope(agent_id, operation, value),
                )
            )
    cheap.append(
        Probe("malformed", agent_id, None, "a body that is not JSON", url, content=b'{"agent": ')
    )
    return [cheap, first, rest]


async def _send(target: Target, probe: Probe, gate: asyncio.Semaphore) -> None:
    async with gate:
        try:
            if probe.content is not None:
                probe.response = await target.client.request(
                    "POST",
                    probe.url,
                    content=probe.content,
                    headers={"content-type": "application/json", "accept": "application/json"},
                )
            else:
                probe.response = await target.client.request(
                    "POST", probe.url, json=probe.envelope, headers={"accept": "application/json"}
                )
        except ExchangeFailed as error:
            probe.failure = error
        except Unreachable as error:
            probe.failure = ExchangeFailed(
                str(error), Exchange("POST", probe.url, error=str(error))
            )


async def _run_plan(target: Target) -> Plan:
    """Spend the run's probes breadth first: every agent's input-independent probes and one valid
    invocation before any agent gets a second, so a cap cuts depth, never whole agents, until it
    must."""
    plan = Plan()
    document = target.document
    if not isinstance(document, dict) or not isinstance(document.get("agents"), list):
        return plan
    cap = target.options.max_probes
    tiers: list[list[Probe]] = [[], [], []]
    # one text for every agent past the cap: a document may list 80,000
    spent = f"not invoked, the run's {cap} probes were spent (--max-probes)"
    spent_why = f"not invoked: the run's {cap} probes were spent before it (raise --max-probes)"
    loop = asyncio.get_running_loop()
    # inputs are built on the loop: a quarter of the plan's time
    building_until = loop.time() + target.options.shared_deadline / 4
    for agent in document["agents"]:
        if not (
            isinstance(agent, dict)
            and isinstance(agent.get("transports"), list)
            and "rest" in agent["transports"]
        ):
            continue
        plan.rest_agents += 1
        agent_id = agent.get("id")
        if not isinstance(agent_id, str) or not agent_id:
            plan.unreachable.setdefault("an agent without a usable id", []).append("")
            continue
        # examples are made only for the agents the cap lets through
        if len(tiers[0]) + len(tiers[1]) >= cap:
            plan.unreachable.setdefault(spent, []).append(repr(agent_id))
            plan.why.setdefault(agent_id, spent_why)
            continue
        if loop.time() > building_until:
            plan.unreachable.setdefault(_BUILDING_SPENT, []).append(repr(agent_id))
            plan.why.setdefault(agent_id, _BUILDING_SPENT_WHY)
            continue
        for tier, probes in zip(tiers, _agent_probes(target, document, agent, plan), strict=False):
            tier.extend(probes)
        await asyncio.sleep(0)  # a deadline, a signal or another lane gets its turn between agents
    kept = [*tiers[0], *tiers[1], *tiers[2]][:cap]
    position = {agent_id: n for n, agent_id in enumerate(dict.fromkeys(p.agent for p in kept))}
    # stable: examples keep their order
    plan.probes = sorted(kept, key=lambda p: (position[p.agent], _SENDING.index(p.kind)))
    gate = asyncio.Semaphore(CONCURRENCY)
    await asyncio.gather(*(_send(target, p, gate) for p in plan.probes))
    return plan


def _observed_plan(target: Target) -> Plan:
    """In a run that watches: the invocations that passed by, each as the probe it amounts to."""
    from .observed import failure_of
    from .observed import invocations

    plan = Plan()
    document = target.document
    if (
        not isinstance(document, dict)
        or not isinstance(document.get("agents"), list)
        or target.observed is None
    ):
        return plan
    rest = [
        a
        for a in document["agents"]
        if isinstance(a, dict)
        and isinstance(a.get("transports"), list)
        and "rest" in a["transports"]
    ]
    plan.rest_agents = len(rest)
    found, plan.left_out = invocations(target, target.observed)
    for kind, agent, operation, url, envelope, observed in found:
        probe = Probe(
            kind,
            agent,
            operation,
            f"as observed ({observed.method} {observed.path})"[:200],
            url,
            envelope,
            observed.request_body if envelope is None else None,
        )
        if observed.status is None:
            probe.failure = failure_of(observed)
        else:
            probe.response = observed.response()
        plan.probes.append(probe)
    exercised = {p.agent for p in plan.probes if p.kind in ("valid", "implied")}
    for entry in rest:
        if isinstance(entry.get("id"), str) and entry["id"] not in exercised:
            plan.why.setdefault(entry["id"], "no schema-valid invocation of it passed by")
    return plan


async def plan(target: Target) -> Plan:
    """The run's invocation probes, sent once however many checks ask (in a run that watches,
    those that passed by)."""
    if target.observed is not None:
        return await target.memo(PLAN_KEY, lambda: asyncio.sleep(0, _observed_plan(target)))
    return await target.memo(PLAN_KEY, lambda: _run_plan(target))


@reads_invocations("woa")
def invocations(target: Target) -> Invocations:
    """The plan the run sent or watched (None: none was made), and the mcp tools answered."""
    return Invocations(target.finished(PLAN_KEY), JUDGED_BY, target.cache.get(MCP_ANSWERED, {}))
