"""Test-clock drives for SDSI 6.2 (the DSP and the key lifecycle), compared step by step with the
reference oracle.

The binding (recorded in ARCHITECTURE.md and the errata): an SDSI server agent that runs in a test
mode declares it in its WoA agent entry,

    "x-sdsi-test-mode": {
        "clock_header": "SDSI-Test-Clock",
        "session_header": "SDSI-Test-Session",
        "dsp": {"<scenario>": {<the oracle configuration it runs>}, ...}
    }

and then honours both headers on every invocation: the session names a fresh, isolated DSP world
(the suite uses a new one per drive), the clock is the request's simulated time (RFC 3339), at
which the server also evaluates every lifecycle deadline that has fallen due. Client identity is
the envelope's client_id. Without the member, every check here is a skip that says so.

A drive is a list of steps: payloads sent to `execute` at simulated times and checkpoints where
`get_schema_updates` is polled. Each drive is first planned on the oracle, with the configuration
the server declares and its template as base schema, which says when the trigger fires, when the
trial ends, and what the server must serve at each checkpoint. Fragments are identical strings
(one intent) or unrelated ones, on which every encoder agrees (E-SDSI-6.2.1-CLUSTER-LEADER).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from ...bindings.sdsi import Reply
from ...bindings.sdsi import SdsiBinding
from ...oracle import OracleConfig
from ...oracle.clock import format_time
from ...oracle.clock import parse_time
from ...oracle.config import DAY
from ...oracle.evolution import STOP_WORDS
from ...targeting import Target
from .session import TEST_MODE
from .session import Session
from .session import payload_for

__all__ = ["MEMBER", "Drive", "Served", "content_words", "drives", "forms_of", "mapping_sources"]

MEMBER = TEST_MODE
#: A mapping example in a semantic_description, as the drafts' figures write them: 'source' ->
#: target.
_MAPPING = re.compile(r"""['"‘“]([^'"’”]{1,200})['"’”]\s*(?:->|→|=>)""")
#: a source written without quotes: from the clause's start (after ":", ";", ",", "." or "(")
_UNQUOTED_MAPPING = re.compile(
    r"""(?:^|[:;,.(]\s)\s*([^'"‘“’”:;,.()\->→=]{1,200}?)\s*(?:->|→|=>)"""
)


#: Characters of a description searched for mapping examples (a target's string may be megabytes).
_DESCRIPTION_SCAN = 16 * 1024


def mapping_sources(description: str) -> list[str]:
    """The source side of every mapping example a semantic_description holds (SDSI 4.1, 6.2.2),
    in its first 16 KiB, quoted or not (the draft sets no syntax for one)."""
    scanned = description[:_DESCRIPTION_SCAN]
    return _MAPPING.findall(scanned) + _UNQUOTED_MAPPING.findall(scanned)


def content_words(text: str) -> set[str]:
    """The words of `text` that carry meaning: lower case, stop words and single letters aside."""
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 1 and w not in STOP_WORDS}


T0 = parse_time("2026-05-01T00:00:00Z")
MAX_REQUESTS = 2000  # per drive; a declared configuration that needs more is not driven
INTENTS = [
    "window seat please",
    "quiet cabin please",
    "extra legroom please",
    "airport pickup please",
    "vegetarian meal please",
    "wheelchair assistance please",
    "infant bassinet please",
    "lounge access please",
    "priority boarding please",
    "extra baggage please",
    "pet in the cabin please",
    "late night arrival please",
    "sea view please",
    "high floor please",
    "baby cot please",
    "early check in please",
    "gym access please",
    "parking space please",
    "electric car charging please",
    "late checkout please",
    "city map please",
]


@dataclass(frozen=True)
class Served:
    """One key of the patches the target served: its name, state and description."""

    name: str
    state: str  # experimental, deprecated or stable (no flag)
    description: str
    key_type: Any
    modified: bool = False


@dataclass
class Checkpoint:
    name: str
    at: float
    client: str
    expected: list[str]  # the oracle's states of new keys, sorted
    reply: Reply | None = None
    served: list[Served] = field(default_factory=list)

    @property
    def states(self) -> list[str]:
        return sorted(s.state for s in self.served if not s.modified)


@dataclass
class Drive:
    name: str
    scenario: str
    problem: str = ""  # why the drive could not be made or run
    broken: bool = False  # the problem is the target's (an exchange broke), not the plan's
    checkpoints: dict[str, Checkpoint] = field(default_factory=dict)
    sent: list[tuple[float, str, dict[str, Any], Reply | None]] = field(default_factory=list)
    fragments: set[str] = field(default_factory=set)
    notes: dict[str, Any] = field(default_factory=dict)

    def at(self, name: str) -> Checkpoint | None:
        return self.checkpoints.get(name)


def served_keys(reply: Reply) -> list[Served]:
    body = reply.body if reply.ok and isinstance(reply.body, dict) else {}
    patches: list[Any] = body["patches"] if isinstance(body.get("patches"), list) else []
    out = []
    for patch in patches:
        if not isinstance(patch, dict):
            continue
        for member, modified in (("new_keys", False), ("modified_keys", True)):
            keys = patch.get(member)
            for key in keys if isinstance(keys, list) else []:
                if isinstance(key, dict) and isinstance(key.get("key_name"), str):
                    state = (
                        "withdrawn"
                        if key.get("withdrawn") is True
                        else (
                            "experimental"
                            if key.get("experimental") is True
                            else "deprecated"
                            if key.get("deprecated") is True
                            else "stable"
                        )
                    )
                    description = (
                        key["semantic_description"]
                        if isinstance(key.get("semantic_description"), str)
                        else ""
                    )
                    out.append(
                        Served(key["key_name"], state, description, key.get("key_type"), modified)
                    )
    return out


class Plan:
    """Steps planned on the oracle; `run` replays them against the target."""

    def __init__(
        self, name: str, scenario: str, config: OracleConfig, template: dict[str, Any]
    ) -> None:
        from ...oracle.engine import Oracle  # with numpy: only a run that drives SDSI 6.2 needs it

        self.drive = Drive(name, scenario)
        self.template = template
        self.oracle = Oracle(config)
        self.steps: list[tuple[str, float, str, Any]] = []

    def send(
        self,
        at: float,
        client: str,
        fragments: list[str],
        uses: Callable[[Drive], dict[str, Any]] | None = None,
        oracle_keys: dict[str, Any] | None = None,
    ) -> None:
        from ...oracle.engine import Payload

        self.oracle.observe(
            [Payload(at, client, self.drive.scenario, tuple(fragments), oracle_keys or {})]
        )
        self.drive.fragments.update(fragments)
        self.steps.append(("send", at, client, (fragments, uses)))

    def states(self, client: str) -> list[str]:
        """The states of the new keys the oracle serves `client` now."""
        return sorted(
            _oracle_state(k)
            for p in self.oracle.active_patches(self.drive.scenario, client)
            for k in p.get("new_keys", [])
        )

    def checkpoint(self, name: str, at: float, client: str) -> None:
        self.oracle.tick(at)
        self.drive.checkpoints[name] = Checkpoint(name, at, client, self.states(client))
        self.steps.append(("checkpoint", at, client, name))

    def triggered(self) -> bool:
        return bool(self.oracle.outcome.triggers)

    async def run(self, binding: SdsiBinding, session: str) -> Drive:
        """Replay the steps against `binding` as the test session `session`."""
        drive = self.drive
        if drive.problem:
            return drive
        schema_id = self.template["schema_id"]
        for kind, at, client, detail in self.steps:
            bound = binding.with_headers(
                {"SDSI-Test-Session": session, "SDSI-Test-Clock": format_time(at)}
            )
            if kind == "send":
                fragments, uses = detail
                payload = payload_for(
                    self.template,
                    full=False,
                    other=fragments if len(fragments) != 1 else fragments[0],
                )
                if not fragments:
                    payload.pop("other", None)
                if uses is not None:
                    payload.update(uses(drive))
                reply = await bound.execute(schema_id, payload, client)
                drive.sent.append((at, client, payload, reply))
                if reply.status is None:
                    drive.problem, drive.broken = (
                        f"execute at {format_time(at)} broke: {reply.problem}",
                        True,
                    )
                    return drive
            else:
                checkpoint = drive.checkpoints[detail]
                checkpoint.reply = await bound.updates(schema_id, client)
                if not checkpoint.reply.ok:
                    drive.problem = (
                        f"get_schema_updates at {format_time(at)} answered"
                        f" {checkpoint.reply.status}: {checkpoint.reply.problem or ''}"
                    )
                    drive.broken = True
                    return drive
                checkpoint.served = served_keys(checkpoint.reply)
        return drive


def _oracle_state(key: dict[str, Any]) -> str:
    return (
        "experimental"
        if key.get("experimental")
        else "deprecated"
        if key.get("deprecated")
        else "stable"
    )


def _clients(config: OracleConfig) -> list[str]:
    return [f"conformance-client-{i}" for i in range(max(config.min_distinct_clients, 1) + 1)]


def _burst(
    plan: Plan,
    start: float,
    text: str,
    clients: list[str],
    step: float = 10.0,
    before: tuple[str, str] | None = None,
    copies: int = 1,
) -> float | None:
    """Send `text` (`copies` times a request) from the clients in turn until the oracle fires; the
    time of the firing request, or None if it does not fire within MAX_REQUESTS. With `before`
    (name, client), a checkpoint is put just before the firing request."""
    fired = len(plan.oracle.outcome.triggers)
    for i in range(MAX_REQUESTS):
        at = start + i * step
        expected = plan.states(before[1]) if before else []
        plan.send(at, clients[i % len(clients)], [text] * copies)
        if len(plan.oracle.outcome.triggers) > fired:
            if before:
                plan.steps.insert(len(plan.steps) - 1, ("checkpoint", at - 1, before[1], before[0]))
                plan.drive.checkpoints[before[0]] = Checkpoint(
                    before[0], at - 1, before[1], expected
                )
            return at
    plan.drive.problem = (
        f"the declared configuration needs more than {MAX_REQUESTS} requests to fire"
    )
    return None


def _fire(plan: Plan, start: float, text: str, clients: list[str], owner: str) -> float | None:
    """A burst with checkpoints just before and just after the firing request."""
    at = _burst(plan, start, text, clients, before=("before", owner))
    if at is not None:
        plan.checkpoint("after", at + 1, owner)
    return at


def _key_name(drive: Drive) -> str | None:
    after = drive.at("after")
    names = [s.name for s in after.served if not s.modified] if after else []
    return names[0] if names else None


#: Payloads sent through the lifecycle drive's trial, none carrying the new key.
TRIAL_PAYLOADS = 10


def plan_lifecycle(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """A burst that fires, then time: through the trial, payloads that do not carry the new key
    (its usage is 0 of TRIAL_PAYLOADS, under any deprecation threshold: the evaluation has data to
    decide on, not a ratio without a denominator, E-SDSI-6.2.3-NEITHER-RULE), then grace, and a
    payload in the compatibility window."""
    plan = Plan("lifecycle", scenario, config, template)
    clients = _clients(config)
    fired = _fire(plan, T0, INTENTS[0], clients, clients[0])
    if fired is None:
        return plan
    trial_end = fired + config.trial_days * DAY
    grace_end = trial_end + config.grace_days * DAY
    for k in range(TRIAL_PAYLOADS):
        at = fired + (k + 1) * (trial_end - 120 - fired) / (TRIAL_PAYLOADS + 1)
        plan.send(at, clients[k % len(clients)], [])
    plan.checkpoint("trial-ending", trial_end - 60, clients[0])
    plan.checkpoint("trial-ended", trial_end + 60, clients[0])
    plan.checkpoint("grace-middle", trial_end + config.grace_days * DAY / 2, clients[0])
    plan.checkpoint("grace-ended", grace_end + 60, clients[0])
    name = (
        plan.oracle.outcome.patches[-1]["new_keys"][0]["key_name"]
        if plan.oracle.outcome.patches[-1].get("new_keys")
        else None
    )
    use_at = grace_end + min(DAY, config.compatibility_window_days * DAY / 2)
    plan.send(
        use_at,
        clients[0],
        [],
        # a value of the type the key was served with: a server may check it, withdrawn or not
        uses=lambda d: {n: _value_for(d)} if (n := _key_name(d)) else {},
        oracle_keys={name: "window seat"} if name else None,
    )
    plan.drive.notes.update(fired=fired, trial_end=trial_end, grace_end=grace_end, use_at=use_at)
    return plan


def plan_used(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """A burst that fires, then about 40 payloads through the trial, of which 3 in 10 carry the
    new key, well typed."""
    plan = Plan("used", scenario, config, template)
    plan.drive.notes["alignment_judge"] = config.alignment_judge
    clients = _clients(config)
    fired = _fire(plan, T0, INTENTS[0], clients, clients[0])
    if fired is None:
        return plan
    name = (
        plan.oracle.outcome.patches[-1]["new_keys"][0]["key_name"]
        if plan.oracle.outcome.patches[-1].get("new_keys")
        else None
    )
    trial_end = fired + config.trial_days * DAY
    gap = max(60.0, (trial_end - fired) / 40)  # about 40 payloads through the trial
    for h in range(1, math.floor((trial_end - fired) / gap) - 1):
        carries = h % 10 < 3
        plan.send(
            fired + h * gap,
            clients[h % len(clients)],
            [],
            uses=(lambda d: {n: _value_for(d)} if (n := _key_name(d)) else {}) if carries else None,
            oracle_keys={name: "window seat"} if carries and name else None,
        )
    plan.checkpoint("trial-ending", trial_end - 60, clients[0])
    plan.checkpoint("trial-ended", trial_end + 60, clients[0])
    plan.drive.notes.update(fired=fired, trial_end=trial_end)
    return plan


def _value_for(drive: Drive) -> Any:
    after = drive.at("after")
    key_type = (
        next((s.key_type for s in after.served if not s.modified), "string") if after else "string"
    )
    return {
        "integer": 1,
        "number": 1,
        "boolean": True,
        "array": ["window seat"],
        "object": {"wish": "window seat"},
    }.get(key_type, "window seat")


def plan_single_client(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """One client, fewer requests than the occurrences gate, each carrying enough copies of one wish
    for the heat to exceed the threshold."""
    plan = Plan("single-client", scenario, config, template)
    requests = max(config.min_occurrences - 1, 1)
    copies = math.ceil((config.heat_threshold / config.heat_increment + 2) / requests)
    if copies > 200:
        plan.drive.problem = "the declared configuration needs more than 200 fragments a request"
        return plan
    for i in range(requests):
        plan.send(T0 + i * 10, "conformance-client-0", [INTENTS[1]] * copies)
    plan.checkpoint("end", T0 + requests * 10 + 1, "conformance-client-0")
    plan.drive.notes.update(requests=requests, copies=copies)
    return plan


def plan_trickle(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """Many clients, one request at a time, so slowly that decay keeps the heat at 70% of the
    threshold although the undecayed sum would pass it twice."""
    plan = Plan("trickle", scenario, config, template)
    ratio = (
        config.heat_increment / (0.7 * config.heat_threshold) if config.heat_threshold > 0 else 1.0
    )
    if ratio >= 1:
        plan.drive.problem = "one fragment alone reaches the declared threshold"
        return plan
    # steady-state heat = increment / (1 - 2^(-gap/half_life))
    gap = -config.half_life * math.log2(1 - ratio)
    count = math.ceil(2 * config.heat_threshold / config.heat_increment) + 1
    if count > MAX_REQUESTS:
        plan.drive.problem = f"the declared configuration needs more than {MAX_REQUESTS} requests"
        return plan
    clients = [f"conformance-client-{i}" for i in range(max(config.min_distinct_clients, 10))]
    for i in range(count):
        plan.send(T0 + i * gap, clients[i % len(clients)], [INTENTS[2]])
    plan.checkpoint("end", T0 + count * gap, clients[0])
    plan.drive.notes.update(gap_hours=round(gap / 3600, 3), count=count)
    return plan


def forms_of(text: str) -> list[str]:
    """`text` as people type it: in other cases, with other punctuation. Any encoding into a
    semantic vector makes these one wish; only the raw strings tell them apart."""
    return [
        text,
        text.capitalize(),
        text + "!",
        text.upper(),
        text.capitalize().replace(" please", ", please."),
    ]


def plan_forms(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """A burst of one wish written five ways, in turn, until the oracle fires (as it does for the
    same wish written one way); checkpoints before and after that request."""
    plan = Plan("forms", scenario, config, template)
    clients, forms = _clients(config), forms_of(INTENTS[5])
    fired = len(plan.oracle.outcome.triggers)
    for i in range(MAX_REQUESTS):
        at = T0 + i * 10.0
        plan.send(at, clients[i % len(clients)], [forms[i % len(forms)]])
        if len(plan.oracle.outcome.triggers) > fired:
            plan.checkpoint("after", at + 1, clients[0])
            plan.drive.notes.update(requests=i + 1)
            return plan
    plan.drive.problem = (
        f"the declared configuration needs more than {MAX_REQUESTS} requests to fire"
    )
    return plan


def plan_decay(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """Shape-free decay: a burst that stops one request short of firing, a wait of several declared
    half-lives (inside the occurrence window, so the count gates still hold), then that one request.
    Without decay the heat passes the threshold; with any decay that halves it in the declared
    half-life, it does not (the oracle, planned on the declaration, does not fire)."""
    plan = Plan("decay", scenario, config, template)
    clients = _clients(config)
    scratch = Plan("scratch", scenario, config, template)
    if _burst(scratch, T0, INTENTS[2], clients) is None:
        plan.drive.problem = scratch.drive.problem
        return plan
    firing = sum(1 for step in scratch.steps if step[0] == "send")
    wait = min(4 * config.half_life, 0.8 * config.occurrence_window_days * DAY)
    for i in range(firing - 1):
        plan.send(T0 + i * 10.0, clients[i % len(clients)], [INTENTS[2]])
    plan.checkpoint("quiet", T0 + (firing - 1) * 10.0, clients[0])  # nothing may have fired yet
    last = T0 + (firing - 1) * 10.0 + wait
    plan.send(last, clients[(firing - 1) % len(clients)], [INTENTS[2]])
    plan.checkpoint("end", last + 1, clients[0])
    if plan.drive.checkpoints["end"].expected:
        plan.drive.problem = (
            "the declared half-life is too long to see decay inside the occurrence window"
        )
    plan.drive.notes.update(requests=firing, wait_hours=round(wait / 3600, 1))
    return plan


def plan_two_intents(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """Two unrelated wishes, alternating: each stays below the threshold, together they would
    pass it."""
    plan = Plan("two-intents", scenario, config, template)
    each = math.floor(0.8 * config.heat_threshold / config.heat_increment)
    if (
        each < 1
        or 2 * each * config.heat_increment <= config.heat_threshold
        or 2 * each > MAX_REQUESTS
    ):
        plan.drive.problem = (
            "the declared configuration leaves no room between one intent's heat and two"
        )
        return plan
    clients = _clients(config)
    for i in range(2 * each):
        plan.send(T0 + i, clients[i % len(clients)], [INTENTS[i % 2 + 3]])
    plan.checkpoint("end", T0 + 2 * each + 1, clients[0])
    plan.drive.notes.update(similarity_threshold=config.similarity_threshold)
    return plan


def plan_queue(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """cap + 1 unrelated wishes fire one after the other; the last must wait until a key leaves the
    experimental state (none is used, so each is deprecated when its trial ends). Each request
    carries the wish a few times, so that a burst takes about two rounds of the clients."""
    plan = Plan("queue", scenario, config, template)
    cap = config.max_experimental_keys
    if cap + 1 > len(INTENTS):
        plan.drive.problem = (
            f"the declared cap of {cap} experimental keys is more than the suite drives"
            f" ({len(INTENTS) - 1})"
        )
        return plan
    clients, start = _clients(config), T0
    copies = max(
        1, math.ceil((config.heat_threshold / config.heat_increment + 1) / (2 * len(clients)))
    )
    fired_at: list[float] = []
    for n in range(cap + 1):
        fired = _burst(plan, start, INTENTS[n], clients, copies=copies)
        if fired is None:
            return plan
        fired_at.append(fired)
        start = fired + 3600
    plan.checkpoint("saturated", start, clients[0])
    drained = fired_at[0] + config.trial_days * DAY + 60
    # a neutral payload: a server may take up its queue only when a request comes
    plan.send(drained - 30, clients[0], [])
    plan.checkpoint("drained", drained, clients[0])
    # a server may release its queue at its next batch: a day later, once more
    plan.send(drained + DAY - 30, clients[0], [])
    plan.checkpoint("drained-later", drained + DAY, clients[0])
    return plan


def plan_collision(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """Fragments that are an optional base key's name in words ("cabin class")."""
    plan = Plan("collision", scenario, config, template)
    keys = [
        k
        for k in template.get("keys", [])
        if isinstance(k, dict)
        and isinstance(k.get("key_name"), str)
        and k["key_name"] != "other"
        and "_" in k["key_name"]
    ]
    if not keys:
        plan.drive.problem = "the template has no key whose name has two words to send as a wish"
        return plan
    name = keys[0]["key_name"]
    plan.drive.notes["base_key"] = name
    clients = _clients(config)
    _fire(plan, T0, name.replace("_", " ") + " please", clients, clients[0])
    return plan


def plan_personal(scenario: str, config: OracleConfig, template: dict[str, Any]) -> Plan:
    """One client's own recurring wish in a per-client pool (a few copies a request, so that the
    heat and the occurrences gate are reached together); then another client asks for the
    patches."""
    plan = Plan("personal", scenario, config, template)
    owner = "conformance-traveller"
    copies = max(
        1,
        math.ceil(
            (config.heat_threshold / config.heat_increment + 1) / max(config.min_occurrences, 1)
        ),
    )
    fired = _burst(plan, T0, INTENTS[4], [owner], before=("before", owner), copies=copies)
    if fired is not None:
        plan.checkpoint("after", fired + 1, owner)
    if fired is not None:
        plan.checkpoint("stranger", fired + 2, "conformance-stranger")
    return plan


PLANS = {
    "lifecycle": plan_lifecycle,
    "used": plan_used,
    "single-client": plan_single_client,
    "trickle": plan_trickle,
    "decay": plan_decay,
    "forms": plan_forms,
    "two-intents": plan_two_intents,
    "queue": plan_queue,
    "collision": plan_collision,
}


@dataclass
class Drives:
    problem: str = ""  # why nothing could be driven (no test mode, ...)
    by_name: dict[str, Drive] = field(default_factory=dict)


def _declared(session: Session, target: Target) -> tuple[dict[str, Any] | None, str]:
    agent = getattr(session.binding, "agent", None)
    member = agent.get(MEMBER) if isinstance(agent, dict) else None
    if member is None:
        return (
            None,
            (
                f"the SDSI agent declares no test clock ({MEMBER} in its WoA entry), so SDSI 6.2's"
                " behaviour over time cannot be driven"
            ),
        )
    if (
        not isinstance(member, dict)
        or member.get("clock_header") != "SDSI-Test-Clock"
        or member.get("session_header") != "SDSI-Test-Session"
        or not isinstance(member.get("dsp"), dict)
    ):
        return (
            None,
            (
                f"{MEMBER} is not {{clock_header: SDSI-Test-Clock, session_header:"
                " SDSI-Test-Session, dsp: {...}}"
            ),
        )
    return member, ""


async def drives(target: Target, session: Session) -> Drives:
    """Every drive, made once per run, one after the other (in parallel they only contend for the
    interpreter with a mock served in the same process: 1.5 times slower)."""

    async def make() -> Drives:
        member, problem = _declared(session, target)
        if member is None or session.binding is None:
            return Drives(problem)
        templates = session.valid_templates()
        plans: list[Plan] = []
        configs: dict[str, OracleConfig] = {}
        for scenario, declared in member["dsp"].items():
            if scenario not in templates or not isinstance(declared, dict):
                continue
            try:
                configs[scenario] = OracleConfig.from_json(
                    {**declared, "base_schemas": {scenario: templates[scenario]}}
                )
            except (TypeError, ValueError) as error:
                return Drives(f"{MEMBER}.dsp.{scenario} is not an oracle configuration: {error}")
        shared = next((s for s, c in configs.items() if c.cohort == "scenario"), None)
        personal = next((s for s, c in configs.items() if c.cohort == "client"), None)
        if shared is not None:
            plans += [
                make_plan(shared, configs[shared], templates[shared])
                for make_plan in PLANS.values()
            ]
        if personal is not None:
            plans.append(plan_personal(personal, configs[personal], templates[personal]))
        if not plans:
            return Drives(f"{MEMBER}.dsp names no scenario the server has a template for")
        binding = session.binding
        # one request after another, each within the run's timeout: a server that takes a while
        # to answer each (a model behind it) is not cut off by a deadline sized for a few
        target.allow("sdsi-drives", sum(len(p.steps) for p in plans))
        done = [
            await plan.run(binding, f"agent-conformance-{target.values.uuid('sdsi-drives')}")
            for plan in plans
        ]
        return Drives("", {d.name: d for d in done})

    return await target.memo("sdsi-drives", make)
