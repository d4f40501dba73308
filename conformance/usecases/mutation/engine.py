"""Mutation runs: record the reference agents' answers once, plan mutants from them, and certify the
reference agents again with each mutant in front of them (in process, through httpx's ASGI
transport: no socket, no TLS), judging only the suite and roles that read the mutated answers.

    record()      one certification per configuration, through a recording middleware: the
                  baseline verdicts and the answers to plan from
    plan(...)     one mutant per (site, operator, member) that changes the recorded answer
    judge(...)    certify again with the mutant in front; killed when a requirement newly fails
                  (or newly errors at MUST level, or at any level when nothing is left
                  certifiable: the gate then stops it too), equivalent when the reviewed list
                  says the draft permits the mutated answer, survived otherwise
    sampled(...)  a seeded sample of a plan, every operator (or variation) and configuration in it
    plan_variations(...), vary(...)
                  the same for conformant variations (variations.py): one per (site,
                  variation); passed when no requirement newly fails or errors, else an
                  over-assertion of each that did
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

import httpx

from ...engine.runner import run
from ...report import Collect
from ...report import ResultRecorded
from ...report import Status
from ...report.outcome import told
from ...requirements import catalogue
from ...targeting import run_options
from ..references import references
from .middleware import Mutating
from .middleware import Recorded
from .middleware import Site
from .operators import MEMBER_OPERATORS
from .operators import WHOLE_OPERATORS
from .operators import Answer
from .operators import members
from .variations import VARIATIONS

__all__ = [
    "CONFIGS",
    "Mutant",
    "Outcome",
    "UncleanBaseline",
    "Varied",
    "equivalents",
    "judge",
    "plan",
    "plan_client_variants",
    "plan_variants",
    "plan_variations",
    "record",
    "sampled",
    "vary",
    "vary_agent",
    "vary_client",
]

TARGET = "https://host.test"
#: The certification that reads the answers at a site: suites and roles. Every answer is a WoA
#: invocation's too, so the WoA suite always runs beside the draft that owns the message.
CONFIGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "document": (("woa", "sdsi", "aci"), ("host", "server", "master", "invoked", "any")),
    "woa": (("woa",), ("host", "any")),
    "sdsi": (("woa", "sdsi"), ("host", "server", "any")),
    "sdsi-client": (("woa", "sdsi"), ("host", "client", "any")),
    "aci-invoked": (("woa", "aci"), ("host", "invoked", "any")),
    "aci-master": (("woa", "aci"), ("host", "master", "any")),
}
#: The request timeout of every certification here (the baselines, the mutants, the variations): an
#: answer is judged, not raced, however busy the machine (at 1 s, a master's whole task on two
#: loaded cores timed out now and then, and a document mutant was "killed" by ACI rules)
TIMEOUT = 5.0
#: ... but for the mutants that answer late on purpose (delay-past-deadline: 3 s)
DEADLINE_MUTANT_TIMEOUT = 1.0
_BROKEN = (Status.FAIL, Status.ERROR)
_AGENT_PATH = re.compile(r"^/agents/([^/]+)/invoke$")


def config_of(site: Site) -> str | None:
    """Which certification judges the answers at `site` (None: none that runs in process)."""
    ids = references().agent_ids
    if site.path == "/.well-known/woa.json":
        return "document"
    agent = _AGENT_PATH.match(site.path)
    name = agent.group(1) if agent else ""
    if name == ids.sdsi_server or site.path.startswith("/sdsi/"):
        return "sdsi"
    if name == ids.sdsi_client:
        # the SDSI client's answer to the suite's driver is no draft's message: what it sends the
        # spy is
        return None
    if name == ids.master:
        return "aci-master"
    if name in ids.invoked:
        return "aci-invoked"
    # the summarizer; MCP and A2A need a network, and context URLs change every run
    return "woa" if name else None


@dataclass(frozen=True)
class Mutant:
    operator: str
    site: Site
    member: tuple[Any, ...] = ()

    @property
    def id(self) -> str:
        where = "/".join(str(m) for m in self.member)
        return f"{self.operator} {self.site.method} {self.site.path}" + (
            f" #{where}" if where else ""
        )

    @property
    def config(self) -> str:
        return config_of(self.site) or "woa"

    @property
    def draft(self) -> str:
        """The draft whose message the mutated answer is (the document is WoA's)."""
        return {"document": "woa", "woa": "woa", "sdsi": "sdsi"}.get(self.config, "aci")


@dataclass
class Outcome:
    mutant: Mutant
    verdict: str  # killed, equivalent, survived, not-applied
    requirements: list[str] = field(default_factory=list)  # what newly failed (or errored at MUST)
    reason: str = ""


Verdicts = dict[str, tuple[Status, str]]  # requirement -> (status, level)


@dataclass
class Varied:
    """What certifying one conformant variation gave: of an answer (`site` the request it
    changes) or of a reference agent (no site)."""

    name: str  # "reorder-members POST /agents/x/invoke", or "variant boolean-keys"
    site: str
    draft: str
    verdict: str  # passed, over, not-applied
    requirements: list[str] = field(default_factory=list)  # what newly failed or errored
    #: the requirements judged (passed or failed) on evidence from the varied site, or, for a
    #: variant of an agent, those it bears on
    judged: list[str] = field(default_factory=list)


async def _certify(
    config: str,
    middleware: Mutating,
    touched: dict[str, set[Site]] | None = None,
    variant: str | None = None,
    timeout: float = TIMEOUT,
) -> tuple[Verdicts, str]:
    """The verdicts of the reference (or its conformant `variant`) behind `middleware`, and what
    decided the run's outcome; `touched` gathers the sites each judged requirement's evidence
    comes from."""
    app = references().create_app(TARGET, variant)
    middleware.app = app
    suites, roles = CONFIGS[config]
    verdicts: Verdicts = {}

    class Collect:
        def handle(self, event: object) -> None:
            if isinstance(event, ResultRecorded):
                result = event.result
                verdicts[result.requirement] = (result.status, result.level)
                if touched is not None and result.status in (Status.PASS, Status.FAIL):
                    touched.setdefault(result.requirement, set()).update(
                        Site(e.method, urlsplit(e.url).path) for e in result.evidence
                    )

    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(app.router.lifespan_context(app))
        # one check after another: the mutants are planned from the answers in the order they came,
        # and a stale answer is the one before at its site, so lanes at once would plan and judge
        # different mutants
        options = run_options(
            TARGET,
            suites=suites,
            roles=roles,
            timeout=timeout,
            budget=60,
            parallel=1,
            seed=0,
            transport=httpx.ASGITransport(app=middleware),
        )
        summary = await run(options, [Collect()])
    decided = told(summary).kind
    if decided == "interrupted":
        # the run finished itself as interrupted (its task's cancellation taken back, as a single
        # run's reports need): the signal was for the whole mutation, which stops here
        raise asyncio.CancelledError(decided)
    return verdicts, decided


class UncleanBaseline(Exception):
    """The reference agents fail or error a requirement in a configuration: no mutant could ever
    be caught by it there."""

    def __init__(self, broken: dict[str, list[str]]) -> None:
        self.broken = broken
        super().__init__(
            "the reference agents' baseline fails or errors "
            + "; ".join(f"{', '.join(r)} (certified as {c})" for c, r in broken.items())
        )


async def record() -> tuple[dict[str, Verdicts], list[Recorded]]:
    """The baseline verdicts of each configuration, and every answer the runs received; raises
    UncleanBaseline when a requirement fails or errors in one."""
    baselines, answers = {}, []
    for config in CONFIGS:
        recorder = Mutating(app=None)  # type: ignore[arg-type]
        baselines[config], _ = await _certify(config, recorder)
        # each site from the run that judges it
        answers += [a for a in recorder.recorded if config_of(a.site) == config]
    broken = {
        config: sorted(r for r, (status, _) in verdicts.items() if status in _BROKEN)
        for config, verdicts in baselines.items()
    }
    if any(broken.values()):
        raise UncleanBaseline({c: r for c, r in broken.items() if r})
    return baselines, answers


def _member_paths(site: Site, body: Any) -> Iterator[tuple[Any, ...]]:
    # the document: its top and its first agents
    if site.path == "/.well-known/woa.json" and isinstance(body, dict):
        yield from ((k,) for k in body)
        agents = body.get("agents")
        for index, agent in enumerate(agents[:2] if isinstance(agents, list) else []):
            yield ("agents", index)
            yield from members(agent, ("agents", index), depth=2)
        yield from members(body.get("transports"), ("transports",), depth=2)
    else:
        yield from members(body, depth=4)


def plan(answers: list[Recorded], per_site: int = 30) -> list[Mutant]:
    """One mutant per (site, operator, member) that changes the first recorded answer at that
    site."""
    firsts: dict[Site, Recorded] = {}
    distinct: dict[Site, set[bytes]] = {}
    for answer in answers:
        firsts.setdefault(answer.site, answer)
        distinct.setdefault(answer.site, set()).add(answer.body)
    planned: list[Mutant] = []
    for site, first in firsts.items():
        if config_of(site) is None:
            continue
        here: list[Mutant] = []
        for name, operator in WHOLE_OPERATORS.items():
            trial = Answer(
                first.status,
                [(b"content-type", first.media_type.encode())],
                first.body,
                previous=first.body + b" ",
            )
            if name == "replay-stale" and len(distinct[site]) < 2:
                continue
            if operator(trial, ()):
                here.append(Mutant(name, site))
        try:
            body = json.loads(first.body)
        except ValueError:
            body = None
        by_operator: dict[str, list[Mutant]] = {name: [] for name in MEMBER_OPERATORS}
        for path in dict.fromkeys(_member_paths(site, body)) if body is not None else ():
            for name, operator in MEMBER_OPERATORS.items():
                if operator(Answer(first.status, [], first.body), path):
                    by_operator[name].append(Mutant(name, site, path))
        planned += here + _round_robin(by_operator, per_site - len(here))
    return planned


def sampled(planned: list[Mutant], size: int | None, seed: int) -> list[Mutant]:
    """`size` of the `planned` mutants (or variations), drawn by `seed`: first one of each operator
    (or variation) and then one of each configuration not yet among them, each at random, then at
    random up to `size` (so a sample smaller than the operators still holds each); in planned
    order. All of them when `size` is None or not less than the plan."""
    if size is None or size >= len(planned):
        return planned
    shuffled = list(planned)
    random.Random(seed).shuffle(shuffled)
    chosen: dict[Mutant, None] = {}
    for kind in ("operator", "config"):
        covered = {getattr(m, kind) for m in chosen}
        for mutant in shuffled:
            if getattr(mutant, kind) not in covered:
                chosen[mutant] = None
                covered.add(getattr(mutant, kind))
    for mutant in shuffled:
        if len(chosen) >= size:
            break
        chosen.setdefault(mutant)
    return [m for m in planned if m in chosen]


def _round_robin(by_operator: dict[str, list[Mutant]], room: int) -> list[Mutant]:
    """Up to `room` mutants, taking each operator's in turn (spread over its members), so that every
    operator that applies at a site is tried there."""
    queues = [
        mutants[:: max(1, len(mutants) // max(1, room))]
        for mutants in by_operator.values()
        if mutants
    ]
    chosen: list[Mutant] = []
    while len(chosen) < room and any(queues):
        for queue in queues:
            if queue and len(chosen) < room:
                chosen.append(queue.pop(0))
    return chosen


@dataclass(frozen=True)
class Equivalent:
    operator: str
    site: str  # a regular expression on "METHOD PATH"
    member: str  # a regular expression on the member path, joined with "/"
    reason: str
    sentence: str

    def covers(self, mutant: Mutant) -> bool:
        where = "/".join(str(m) for m in mutant.member)
        return (
            self.operator in ("*", mutant.operator)
            and re.fullmatch(self.site, f"{mutant.site.method} {mutant.site.path}") is not None
            and re.fullmatch(self.member, where) is not None
        )


def equivalents() -> list[Equivalent]:
    """The reviewed list of mutants the drafts permit, each with the sentence that permits it."""
    text = (resources.files(__package__) / "equivalents.json").read_text(encoding="utf-8")
    return [Equivalent(**entry) for entry in json.loads(text)]


async def judge(mutant: Mutant, baseline: Verdicts, reviewed: list[Equivalent]) -> Outcome:
    middleware = Mutating(
        app=None,  # type: ignore[arg-type]
        site=mutant.site,
        operator=mutant.operator,
        member=mutant.member,
    )
    late = mutant.operator == "delay-past-deadline"
    verdicts, decided = await _certify(
        mutant.config, middleware, timeout=DEADLINE_MUTANT_TIMEOUT if late else TIMEOUT
    )
    if not middleware.applied:
        return Outcome(mutant, "not-applied", reason="no answer at the site in this run")
    # a mutant that leaves nothing certifiable (the document never obtained) is stopped by the
    # gate (exit 2): the rules that could not judge it are its killers
    blocked = decided == "not-certified"
    newly = sorted(
        r
        for r, (status, level) in verdicts.items()
        if (status is Status.FAIL or (status is Status.ERROR and (level == "MUST" or blocked)))
        and baseline.get(r, (None,))[0] != status
    )
    if newly:
        return Outcome(mutant, "killed", newly)
    permitted = next((e for e in reviewed if e.covers(mutant)), None)
    if permitted:
        return Outcome(mutant, "equivalent", reason=f"{permitted.reason} ({permitted.sentence})")
    return Outcome(mutant, "survived")


def plan_variations(answers: list[Recorded]) -> list[Mutant]:
    """One variation per (site, variation) that changes the first recorded answer at the site."""
    firsts: dict[Site, Recorded] = {}
    for answer in answers:
        firsts.setdefault(answer.site, answer)
    return [
        Mutant(name, site)
        for site, first in firsts.items()
        if config_of(site) is not None
        for name, variation in VARIATIONS.items()
        if variation.apply(
            Answer(first.status, [(b"content-type", first.media_type.encode())], first.body)
        )
    ]


async def vary(variation: Mutant, baseline: Verdicts) -> Varied:
    """Certify again with a conformant variation in front: passed when nothing newly fails or
    errors, at any level."""
    middleware = Mutating(
        app=None,  # type: ignore[arg-type]
        site=variation.site,
        operator=variation.operator,
    )
    touched: dict[str, set[Site]] = {}
    verdicts, _ = await _certify(variation.config, middleware, touched)
    if not middleware.applied:
        return Varied(variation.id, _where(variation), variation.draft, "not-applied")
    newly = sorted(
        r
        for r, (status, _) in verdicts.items()
        if status in _BROKEN and baseline.get(r, (None,))[0] != status
    )
    judged = sorted(r for r, sites in touched.items() if variation.site in sites)
    verdict = "over" if newly else "passed"
    return Varied(variation.id, _where(variation), variation.draft, verdict, newly, judged)


def _where(mutant: Mutant) -> str:
    return f"{mutant.site.method} {mutant.site.path}"


def _variant_config(name: str) -> str:
    """The certification that judges a variant: that of the draft and role it bears on."""
    bears_on = references().variants[name].bears_on
    requirement = catalogue()[bears_on[0]]
    if requirement.draft == "sdsi":
        return "sdsi-client" if requirement.role == "client" else "sdsi"
    return "aci-master" if requirement.role == "master" else "aci-invoked"


def plan_variants(suites: set[str]) -> list[str]:
    """The reference agents' conformant variants (mocks/variants.py) of the drafts in `suites`,
    by name."""
    variants = references().variants
    return sorted(n for n, v in variants.items() if catalogue()[v.bears_on[0]].draft in suites)


async def vary_agent(name: str, baselines: dict[str, Verdicts]) -> Varied:
    """Certify a conformant variant of a reference agent: passed when nothing newly fails or
    errors but the SHOULD readings it names (MUST only under --strict)."""
    variant = references().variants[name]
    config = _variant_config(name)
    verdicts, _ = await _certify(
        config,
        Mutating(app=None),  # type: ignore[arg-type]
        variant=name,
    )
    baseline = baselines[config]
    newly = sorted(
        r
        for r, (status, level) in verdicts.items()
        if status in _BROKEN
        and baseline.get(r, (None,))[0] != status
        and not (r in variant.expected and level != "MUST")
    )
    judged = sorted(
        r for r in variant.bears_on if verdicts.get(r, (None,))[0] in (Status.PASS, Status.FAIL)
    )
    draft = catalogue()[variant.bears_on[0]].draft
    verdict = "over" if newly else "passed"
    return Varied(f"variant {name}", "", draft, verdict, newly, judged)


def plan_client_variants() -> list[str]:
    """The reference WoA client's conformant variants (mocks/variants.py), by name."""
    return sorted(references().client_variants)


async def vary_client(name: str, command: str) -> Varied:
    """Certify a conformant variant of the reference WoA client through `command`, its
    --client-command (references().client_command(variant=name), or the same through the client's
    daemon): passed when no requirement fails or errors (the reference client fails none)."""
    collect = Collect()
    options = run_options(
        command, suites=("woa",), roles=("client", "any"), timeout=10, client_command=command
    )
    await run(options, [collect])
    newly = sorted({r.requirement for r in collect.results if r.status in _BROKEN})
    judged = sorted(
        {r.requirement for r in collect.results if r.status in (Status.PASS, Status.FAIL)}
    )
    verdict = "over" if newly else "passed"
    return Varied(f"client variant {name}", "", "woa", verdict, newly, judged)
