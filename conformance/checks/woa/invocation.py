"""Invocation checks (WoA sections 4.3.1, 5.1, 5.2): the suite POSTs envelopes to every agent and
operation reachable over the rest transport, once per run, and each check judges the answers that
concern its requirement.

The probes, per agent and operation, and the answer each asks for:
    valid       inputs made from the inputs schema, boundary values included
                -> 2xx, outputs schema
    invalid     inputs that break one constraint each            -> 4xx problem details
    mismatch    an envelope naming another agent than the URL's  -> 400 problem details
    malformed   a body that is not JSON                          -> an error as problem+json
    implied     no operation, for an agent with "default"        -> served as default

The suite invokes only URLs on an origin the user allowed, and never over plain HTTP unless
--allow-http-loopback lets it on loopback.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from ...bindings import ExchangeFailed
from ...bindings import HttpResponse
from ...bindings import Unreachable
from ...bindings.jsonparse import NotJson
from ...bindings.jsonparse import parse_json
from ...bindings.observed import NotObserved
from ...instances import Ungeneratable
from ...instances import invalid_examples
from ...instances import valid_examples
from ...report.model import Exchange
from ...target import Target
from ...target import rest_config
from ...validation import validate_message
from ...validation.rules import agent_of
from ...validation.rules import selected_schema
from ...validation.target_schemas import Unjudgeable
from ...validation.target_schemas import target_validator
from ..preconditions import no_document
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import skipped

__all__ = ["JUDGED_BY", "JUDGED_ON", "PLAN_KEY", "Plan", "Probe", "plan"]

PROBLEM_JSON = "application/problem+json"
PLAN_KEY = "woa-invocation-plan"
CONCURRENCY = 8
#: The order an agent's probes are sent in: its valid invocations first, so that the first answer at
#: an agent's URL is a success (the mutation engine plans its mutants on the first answer at each
#: URL).
_SENDING = ("valid", "invalid", "mismatch", "implied", "malformed", "agentless")


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
    unreachable: list[str] = field(default_factory=list)  # reasons an agent was not invoked
    ungenerated: list[str] = field(default_factory=list)  # reasons no valid input was made
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
        plan.unreachable.append(f"agent {agent_id!r}: {reason}")
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
            plan.ungenerated.append(f"agent {agent_id!r} operation {operation!r}: {error}")
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
            plan.unreachable.append("an agent without a usable id")
            continue
        # examples are made only for the agents the cap lets through
        if len(tiers[0]) + len(tiers[1]) >= cap:
            plan.unreachable.append(
                f"agent {agent_id!r}: not invoked, the run's {cap} probes were spent (--max-probes)"
            )
            plan.why.setdefault(
                agent_id,
                f"not invoked: the run's {cap} probes were spent before it (raise --max-probes)",
            )
            continue
        if loop.time() > building_until:
            plan.unreachable.append(
                f"agent {agent_id!r}: not invoked, the run's time for building inputs was spent"
            )
            plan.why.setdefault(
                agent_id,
                "not invoked: the run's time for building inputs from schemas was spent before it",
            )
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


def _json_body(response: HttpResponse) -> tuple[Any, str | None]:
    try:
        return parse_json(response.body), None
    except NotJson as error:
        return None, str(error)


def _is_json_media_type(media_type: str) -> bool:
    return media_type == "application/json" or media_type.endswith("+json")


def _problem_defect(response: HttpResponse) -> str | None:
    if response.media_type != PROBLEM_JSON:
        return f"answered as {response.media_type or 'no media type'}, not {PROBLEM_JSON}"
    body, error = _json_body(response)
    if error:
        return f"the problem body is {error}"
    violations = validate_message("common/problem-details", body)
    return "; ".join(map(str, violations)) or None


class _Aside:
    """What a judge says of an answer that is not its rule's to judge (an error status for a rule
    on successes): counted neither right nor wrong."""

    def __init__(self, why: str) -> None:
        self.why = why


#: What is wrong with one answer, None when it is right, or `_Aside` when the rule does not judge
#: it.
Judge = Callable[[Probe], "str | _Aside | None"]


async def _verdict(
    target: Target,
    kinds: tuple[str, ...],
    judge: Judge,
    success: str,
    *,
    absent: Verdict | None = None,
) -> Verdict:
    """Judge every probe of `kinds`: fail listing the wrong answers, pass when every one is right.
    With no such probe: not-applicable when no agent is on rest, else `absent`, else a skip with
    the reasons. A 401 or 403 answer is left out (the suite sent no credentials)."""
    if not isinstance(target.document, dict):
        return no_document(target.discovery.problem)
    run = await plan(target)
    probes = [p for p in run.probes if p.kind in kinds]
    refused = [p for p in probes if p.response is not None and p.response.status in (401, 403)]
    if refused and len(refused) == len(probes):
        return skipped(
            Skip.NEEDS_INPUT,
            f"the host answered {_status(refused[0])} to every invocation: it requires"
            " authorization (WoA 6 lets it), and the suite sent none; give credentials with"
            " --header"
            " (E-WOA-6-UNAUTHORIZED-ANSWER)",
            *[p.exchange for p in refused[:1] if p.exchange],
        )
    probes = [p for p in probes if p not in refused]
    if not probes:
        if run.rest_agents == 0:
            return not_applicable("no agent is offered over the rest transport")
        if target.observed is not None:
            raise NotObserved(
                f"no invocation of the kind this rule judges ({', '.join(kinds)}) passed by"
            )
        reasons = _grouped(run.unreachable + run.ungenerated)
        return absent or skipped(
            Skip.UNREACHABLE, "nothing to invoke" + (f": {'; '.join(reasons)}" if reasons else "")
        )
    broken = [p for p in probes if p.failure]
    if broken:
        return errored(
            f"{len(broken)} of {len(probes)} exchanges broke: {broken[0].label()}:"
            f" {broken[0].failure}",
            *[p.exchange for p in broken[:3] if p.exchange],
        )
    try:
        said = [(p, judge(p)) for p in probes]
    except Unjudgeable as error:
        return errored(
            f"cannot be judged: {error}", *[p.exchange for p in probes[:1] if p.exchange]
        )
    aside = [(p, why) for p, why in said if isinstance(why, _Aside)]
    if len(aside) == len(probes):
        # nothing judged is no pass: every answer was another rule's
        return skipped(
            Skip.NOT_OBSERVED,
            f"none of the {len(probes)} answers was one this rule judges: {aside[0][1].why}",
            *[p.exchange for p in probes[:1] if p.exchange],
        )
    probes = [p for p, why in said if not isinstance(why, _Aside)]
    wrong = [(p, problem) for p, problem in said if isinstance(problem, str)]
    if wrong:
        listed = "; ".join(f"{p.label()}: {problem}" for p, problem in wrong[:5])
        more = f" (and {len(wrong) - 5} more)" if len(wrong) > 5 else ""
        return failed(
            f"{len(wrong)} of {len(probes)} answers: {listed}{more}{run.left_out_note()}",
            *[p.exchange for p, _ in wrong[:3] if p.exchange],
        )
    return passed(
        f"{success} ({len(probes)} invocations{run.left_out_note()})",
        *[p.exchange for p in probes[:1] if p.exchange],
    )


_AGENT_REASON = re.compile(
    r"^agent ('(?:[^'\\]|\\.)*'(?: operation (?:'(?:[^'\\]|\\.)*'|None))?): (.*)$", re.S
)


def _grouped(reasons: list[str], named: int = 3) -> list[str]:
    """Each reason once, with the first `named` agents it stands for and how many more: 80,000
    agents not invoked for one reason are one line, not 80,000."""
    agents: dict[str, list[str]] = {}
    for reason in reasons:
        matched = _AGENT_REASON.match(reason)
        why, who = (matched.group(2), matched.group(1)) if matched else (reason, "")
        agents.setdefault(why, []).append(who)
    said = []
    for why, who in agents.items():
        listed = [w for w in who if w]
        if len(listed) <= 1:
            said.append(f"agent {listed[0]}: {why}" if listed else why)
            continue
        more = f" and {len(listed) - named:,} more" if len(listed) > named else ""
        said.append(f"agents {', '.join(listed[:named])}{more}: {why}")
    return said


def _status(probe: Probe) -> int | None:
    return probe.response.status if probe.response is not None else None


def _no_placeholder(target: Target) -> Verdict | None:
    rest = rest_config(target.document)
    if isinstance(rest, dict) and "{agent_id}" not in str(rest.get("invoke_path", "")):
        return not_applicable(
            "the invoke_path has no {agent_id} placeholder, so the host cannot infer the agent from"
            " the URL"
        )
    return None


def _status_2xx(probe: Probe) -> str | None:
    assert probe.response is not None
    return None if 200 <= probe.response.status < 300 else f"answered {probe.response.status}"


def _succeeded_elsewhere(probe: Probe, document: dict[str, Any]) -> bool:
    """Whether an answer is a success under another status than 2xx: neither 2xx nor an error
    status (4xx, 5xx: the host says it failed, whatever the body), with a JSON body, not problem
    details, that conforms to the outputs schema."""
    response = probe.response
    assert response is not None
    if (
        200 <= response.status < 300
        or response.status >= 400
        or response.media_type == PROBLEM_JSON
    ):
        return False
    if 300 <= response.status < 400 and "location" in response.headers:
        return False  # a redirect, not a success (the suite follows none)
    body, error = _json_body(response)
    agent = agent_of(document, probe.agent)
    outputs = selected_schema(agent, probe.operation, "outputs") if agent else None
    if error or not isinstance(outputs, dict):
        return False
    try:
        takes_anything = not any(True for _ in target_validator(outputs).iter_errors({}))
    except Unjudgeable:
        return False
    if takes_anything:
        # outputs that take any object: a 300's list of choices conforms too, and says nothing
        return False
    return not validate_message(
        "woa/success-response",
        body,
        document=document,
        agent=probe.agent,
        operation=probe.operation,
    )


def _carries_output(probe: Probe, document: dict[str, Any]) -> bool:
    """Whether the answer's body is JSON that conforms to the outputs schema."""
    assert probe.response is not None
    body, error = _json_body(probe.response)
    operation = "default" if probe.kind == "implied" else probe.operation
    return not error and not validate_message(
        "woa/success-response", body, document=document, agent=probe.agent, operation=operation
    )


@check("WOA-5.2-SUCCESS-2XX")
async def woa_5_2_success_2xx(target: Target) -> Verdict:
    """WoA 5.2: "On success, the host MUST return a 2xx status code": an answer that carries the
    agent's output (it conforms to the outputs schema and is not problem details) comes with 2xx,
    not with a status that is neither success nor error (1xx, 3xx); a 4xx or 5xx is the host's
    own error. Whether a schema-valid input must succeed at all the draft does not say
    (WOA-5.2-VALID-INPUT-ACCEPTED)."""
    document = target.document

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if _succeeded_elsewhere(probe, document):
            return (
                f"answered {probe.response.status} with a body that conforms to the outputs schema"
                " (a success)"
            )
        if 200 <= probe.response.status < 300 and _carries_output(probe, document):
            return None
        return _Aside(
            "no answer carried the agent's output, so no success could be seen (an answer"
            " that does not conform to the outputs schema is WOA-5.2-SUCCESS-CONFORMS-OUTPUTS's;"
            " a refusal WOA-5.2-VALID-INPUT-ACCEPTED's)"
        )

    return await _verdict(
        target, JUDGED_ON["WOA-5.2-SUCCESS-2XX"], judge, "every success was answered 2xx"
    )


@check("WOA-5.2-VALID-INPUT-ACCEPTED")
async def woa_5_2_valid_input_accepted(target: Target) -> Verdict:
    """The suite's reading of WoA 5.2 (inferred, E-WOA-5.2-SUCCESS-ON-VALID-INPUT): an input that
    the selected inputs schema accepts, addressed to a listed agent, is served with 2xx."""
    document = target.document

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if 200 <= probe.response.status < 300 or _succeeded_elsewhere(probe, document):
            return None  # a success under another status is WOA-5.2-SUCCESS-2XX's
        if probe.response.status in (409, 429, 503):
            # temporarily unable, as the erratum's proposal lets a host say, or a conflict with
            # the state of what the input asks (a trip booked already, a class sold out)
            return _Aside(
                f"the host answered {probe.response.status}: the state of the resource or the"
                " server, not the input"
            )
        return f"refused a schema-valid input with {probe.response.status}"

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-VALID-INPUT-ACCEPTED"],
        judge,
        "every schema-valid invocation was served 2xx",
    )


@check("WOA-5.2-SUCCESS-CONFORMS-OUTPUTS")
async def woa_5_2_success_conforms_outputs(target: Target) -> Verdict:
    document = target.document

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if not 200 <= probe.response.status < 300:
            return _Aside("no invocation was answered 2xx (WOA-5.2-VALID-INPUT-ACCEPTED)")
        body, error = _json_body(probe.response)
        if error:
            return f"the body is {error}"
        agent = agent_of(document, probe.agent)
        # WoA 5.1: no operation is the default one
        operation = "default" if probe.kind == "implied" else probe.operation
        if agent is None or not isinstance(selected_schema(agent, operation, "outputs"), dict):
            # no outputs schema to judge by (WOA-4.1-AGENT-OUTPUTS-REQUIRED)
            return _Aside("no outputs schema to judge by (WOA-4.1-AGENT-OUTPUTS-REQUIRED)")
        violations = validate_message(
            "woa/success-response", body, document=document, agent=probe.agent, operation=operation
        )
        return "; ".join(f"{v.path}: {v.message}" for v in violations) or None

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-SUCCESS-CONFORMS-OUTPUTS"],
        judge,
        "every 2xx body validates against the outputs schema",
    )


@check("WOA-4.3.1-HOST-RESPONDS-JSON")
async def woa_4_3_1_host_responds_json(target: Target) -> Verdict:
    """WoA 4.3.1: the host responds with a JSON body: every answer to an invocation but a redirect
    (8.2 lets invocations be redirected; it carries no content) and a 401 or 403 to the suite,
    which sent no credentials (E-WOA-6-UNAUTHORIZED-ANSWER)."""

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if 300 <= probe.response.status < 400 and "location" in probe.response.headers:
            return _Aside(f"answered {probe.response.status}, a redirect (WoA 8.2)")
        if not _is_json_media_type(probe.response.media_type):
            return (
                f"answered {probe.response.status} as"
                f" {probe.response.media_type or 'no media type'}, not JSON"
            )
        _, error = _json_body(probe.response)
        return f"answered {probe.response.status} with a body that is {error}" if error else None

    return await _verdict(
        target,
        JUDGED_ON["WOA-4.3.1-HOST-RESPONDS-JSON"],
        judge,
        "every answer to an invocation was JSON",
    )


@check("WOA-5.2-AGENT-MISMATCH-400")
async def woa_5_2_agent_mismatch_400(target: Target) -> Verdict:
    """WoA 5.2: "If the host derives an agent identifier from the URL and the envelope contains an
    agent field with a different value, the host MUST reject the request with HTTP status 400".
    Serving the mismatched envelope (2xx) shows the agent was taken from the URL and the request not
    rejected; 400 keeps the rule; another refusal does not show where the host took the agent from
    (WOA-5.2-PLACEHOLDER-MISMATCH-400 asks for the 400 wherever invoke_path holds the placeholder).
    """

    def judge(probe: Probe) -> str | None:
        assert probe.response is not None
        if 200 <= probe.response.status < 300:
            return (
                f"served the envelope naming another agent with {probe.response.status} instead of"
                " rejecting it with 400"
            )
        return None

    verdict = await _verdict(
        target,
        JUDGED_ON["WOA-5.2-AGENT-MISMATCH-400"],
        judge,
        "every mismatched envelope was rejected with 400",
        absent=_no_placeholder(target),
    )
    if verdict.status.value == "pass":
        run = await plan(target)
        others = sorted(
            {
                p.response.status
                for p in run.of("mismatch")
                if p.response is not None and p.response.status != 400
            }
        )
        if others and not any(
            p.response is not None and p.response.status == 400 for p in run.of("mismatch")
        ):
            return skipped(
                Skip.INCONCLUSIVE,
                f"every mismatched envelope was refused with {', '.join(map(str, others))}, not"
                " 400: whether the host took the agent from the URL cannot be told"
                " (WOA-5.2-PLACEHOLDER-MISMATCH-400 judges the status)",
                *verdict.evidence,
            )
    return verdict


@check("WOA-5.2-PLACEHOLDER-MISMATCH-400")
async def woa_5_2_placeholder_mismatch_400(target: Target) -> Verdict:
    """The suite's reading of WoA 5.2 (inferred, E-WOA-5.2-MISMATCH-DERIVED): where invoke_path
    holds {agent_id}, a host refuses an envelope naming another agent with 400, not another
    status."""

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        status = probe.response.status
        if 200 <= status < 300:
            return _Aside("every mismatch was served (WOA-5.2-AGENT-MISMATCH-400 fails that)")
        if status == 400:
            return None
        return f"refused with {status}, not 400"

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-PLACEHOLDER-MISMATCH-400"],
        judge,
        "every mismatched envelope was refused with 400",
        absent=_no_placeholder(target),
    )


@check("WOA-5.2-AGENT-MISMATCH-PROBLEM")
async def woa_5_2_agent_mismatch_problem(target: Target) -> Verdict:
    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if probe.response.status != 400:
            return _Aside("no mismatch was refused with 400 (WOA-5.2-AGENT-MISMATCH-400)")
        return _problem_defect(probe.response)

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-AGENT-MISMATCH-PROBLEM"],
        judge,
        "every mismatch was explained with problem details",
        absent=_no_placeholder(target),
    )


@check("WOA-5.2-ERROR-PROBLEM-DETAILS")
async def woa_5_2_error_problem_details(target: Target) -> Verdict:
    """WoA 5.2: "On error, the host SHOULD return a 4xx or 5xx status code and a response body
    using the problem details format": every error answer (4xx, 5xx) to an invalid input is
    problem details. Whether an invalid input is an error at all is
    WOA-5.2-INVALID-INPUT-REJECTED's."""

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if probe.response.status < 400:
            return _Aside("no invalid input was answered with an error (4xx, 5xx)")
        return _problem_defect(probe.response)

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-ERROR-PROBLEM-DETAILS"],
        judge,
        "every error answer was problem details",
    )


@check("WOA-5.2-INVALID-INPUT-REJECTED")
async def woa_5_2_invalid_input_rejected(target: Target) -> Verdict:
    """The suite's reading of WoA 5.2 (inferred, E-WOA-5.2-INPUT-VALIDATION): an input that does not
    conform to the selected inputs schema is refused with a 4xx."""

    def judge(probe: Probe) -> str | None:
        assert probe.response is not None
        return (
            None
            if 400 <= probe.response.status < 500
            else f"answered {probe.response.status}, not 4xx"
        )

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-INVALID-INPUT-REJECTED"],
        judge,
        "every input that breaks the inputs schema was refused with a 4xx",
    )


@check("WOA-4.3.1-ERRORS-PROBLEM-JSON")
async def woa_4_3_1_errors_problem_json(target: Target) -> Verdict:
    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if probe.response.status < 400:
            # a body that is not JSON served is no error of this rule
            return _Aside("no malformed body was answered with an error (4xx, 5xx)")
        media_type = probe.response.media_type
        return (
            None
            if media_type == PROBLEM_JSON
            else (
                f"the {probe.response.status} error is {media_type or 'untyped'}, not"
                f" {PROBLEM_JSON}"
            )
        )

    return await _verdict(
        target,
        JUDGED_ON["WOA-4.3.1-ERRORS-PROBLEM-JSON"],
        judge,
        f"errors were answered as {PROBLEM_JSON}",
    )


@check("WOA-5.1-DEFAULT-OPERATION")
async def woa_5_1_default_operation(target: Target) -> Verdict:
    return await _verdict(
        target,
        JUDGED_ON["WOA-5.1-DEFAULT-OPERATION"],
        _status_2xx,
        "an envelope without operation was served as the default operation",
        absent=not_applicable("no agent defines an operation named default"),
    )
