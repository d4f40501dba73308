"""The registry of checks: one async function per requirement, named after its draft and section,
then the rule it tests.

    @check("ACI-6-STORAGE-TTL")
    async def aci_6_context_references_expire(target: Target) -> Verdict: ...

A check returns a `Verdict` (pass, fail, skip, not-applicable, waived, with a message and the
exchanges that decided it); a skip names its kind (`Skip`), so that no one reads its text to know
why. A step several checks share (a session, a drive) raises `Decided` with the verdict when there
is nothing left to judge (a skip, not-applicable, an error): the check's verdict is that one.
Registering a check for an ID the catalogue lacks, a second check with the same name, or a name
without its requirement's draft and section in front fails at import: a check always traces to a
requirement.
"""

from __future__ import annotations

from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import Any

from ..report.model import Exchange
from ..report.model import Skip
from ..report.model import Status
from ..requirements import catalogue

if TYPE_CHECKING:
    from ..targeting import Target

__all__ = [
    "CHECKS",
    "COVERAGE",
    "Check",
    "Decided",
    "Invocations",
    "Need",
    "Skip",
    "Unmet",
    "Verdict",
    "agent_coverage",
    "check",
    "checks_for",
    "checks_of_table",
    "covers",
    "driven_by",
    "errored",
    "failed",
    "invocations_of",
    "not_applicable",
    "passed",
    "reads_invocations",
    "skipped",
    "waived",
]


@dataclass(frozen=True)
class Verdict:
    status: Status
    message: str
    evidence: tuple[Exchange, ...] = ()
    skip: Skip | None = None  # why nothing was judged, when the status is skip


class Decided(Exception):
    """Raised by a step several checks share when its outcome is already the check's verdict."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.message)
        self.verdict = verdict


def passed(message: str, *evidence: Exchange) -> Verdict:
    return Verdict(Status.PASS, message, evidence)


def failed(message: str, *evidence: Exchange) -> Verdict:
    return Verdict(Status.FAIL, message, evidence)


def errored(reason: str, *evidence: Exchange) -> Verdict:
    return Verdict(Status.ERROR, reason, evidence)


def skipped(why: Skip, reason: str, *evidence: Exchange) -> Verdict:
    """Nothing judged, for a reason of kind `why` (the particulars in `reason`)."""
    return Verdict(Status.SKIP, reason, evidence, why)


def not_applicable(reason: str) -> Verdict:
    return Verdict(Status.NOT_APPLICABLE, reason)


@dataclass(frozen=True)
class Unmet:
    """Why the checks of a session have nothing to judge, decided where the session is made: the
    target offers nothing the rules bind (`absent`: not applicable), or its agent cannot be
    called (a skip)."""

    reason: str
    absent: bool = False

    def verdict(self) -> Verdict:
        return (
            not_applicable(self.reason) if self.absent else skipped(Skip.UNREACHABLE, self.reason)
        )


def waived(reason: str, *evidence: Exchange) -> Verdict:
    return Verdict(Status.WAIVED, reason, evidence)


CheckFunction = Callable[["Target"], Awaitable[Verdict]]
#: What a check needs before it can judge (preconditions.py: the WoA document read, ...): raises
#: `Decided` with the check's verdict when the need is not met.
Need = Callable[["Target"], None]


@dataclass(frozen=True)
class Check:
    name: str
    requirement: str
    function: CheckFunction
    #: how the suite makes the target act: None (it calls the target) or "client-command"
    driver: str | None = None
    #: what it needs before it can judge, asked in turn before the check runs
    needs: tuple[Need, ...] = ()

    async def judged(self, target: Target) -> Verdict:
        """The check's verdict: its needs asked first (`Decided` when one is unmet)."""
        for need in self.needs:
            need(target)
        return await self.function(target)


CHECKS: dict[str, Check] = {}
#: Per role, how a draft tells which of the target's agents in that role the run exercised (as
#: the WoA host's coverage map does for its advertised agents): entries {id, exercised,
#: requirements, why}.
COVERAGE: dict[str, Callable[[Any], list[dict[str, Any]]]] = {}


def covers(role: str) -> Callable[[Callable[[Any], list[dict[str, Any]]]], Any]:
    """Register the function that says which agents of `role` a run exercised."""

    def register(function: Callable[[Any], list[dict[str, Any]]]) -> Any:
        COVERAGE[role] = function
        return function

    return register


def agent_coverage(target: Any, roles: Iterable[str]) -> list[dict[str, Any]]:
    """Every agent of the certified `roles` the drafts can tell exercised or not."""
    return [entry for role in roles if role in COVERAGE for entry in COVERAGE[role](target)]


@dataclass(frozen=True)
class Invocations:
    """What a WoA host's run invoked, for the engine's claims and coverage map: the plan of
    probes it sent or watched (None: it made none), the requirements each kind of probe serves,
    and per agent offered over mcp whether a tool call of it was answered with a result."""

    plan: Any
    judged_by: Mapping[str, tuple[str, ...]]
    mcp_answered: Mapping[str, bool]


#: How a draft reads what a run invoked of a WoA host (checks/woa registers it): the engine
#: names no check module.
INVOCATIONS: dict[str, Callable[[Any], Invocations]] = {}


def reads_invocations(draft: str) -> Callable[[Callable[[Any], Invocations]], Any]:
    """Register the function that reads what a run invoked of a WoA host."""

    def register(function: Callable[[Any], Invocations]) -> Any:
        INVOCATIONS[draft] = function
        return function

    return register


def invocations_of(target: Any) -> Invocations:
    """What the run invoked of a WoA host (nothing, when the WoA checks are not loaded)."""
    read = INVOCATIONS.get("woa")
    return read(target) if read is not None else Invocations(None, {}, {})


_OF: dict[str, list[str]] = {}  # the names of each requirement's checks


def check(
    requirement: str, *, driver: str | None = None, needs: Iterable[Need] = ()
) -> Callable[[CheckFunction], CheckFunction]:
    """Register the decorated function as the check of `requirement`; `driver` names what a check
    of a client needs to make the client act ("client-command": the run's --client-command);
    `needs`, what it needs before it can judge (preconditions.py), asked before it runs.

    What a session needs (the run certifies the role, it watches traffic, the document was
    read where the binding has one) is said once where the session starts, for every check that
    shares it: a rule binding two roles judges one role's session beside the other's verdict. A
    check of the connection itself asks `preconditions.on_the_wire` once it knows the rule
    applies, so that an in-process run still says what does not."""

    def register(function: CheckFunction) -> CheckFunction:
        if requirement not in catalogue():
            raise ValueError(
                f"check {function.__name__} names {requirement!r}, which is not in the catalogue"
            )
        if function.__name__ in CHECKS:
            raise ValueError(f"two checks are named {function.__name__}")
        prefix = name_prefix(requirement)
        if not function.__name__.startswith(prefix):
            raise ValueError(
                f"check {function.__name__} of {requirement} must be named {prefix}<the rule>"
            )
        CHECKS[function.__name__] = Check(
            function.__name__, requirement, function, driver, tuple(needs)
        )
        _OF.setdefault(requirement, []).append(function.__name__)
        return function

    return register


#: How a rule table's checks judge: the target, and which requirement of the table to judge.
TableJudge = Callable[["Target", str], Awaitable[Verdict]]


def checks_of_table(
    requirements: Iterable[str], judge: TableJudge, *, needs: Iterable[Need] = ()
) -> None:
    """Register a check for each requirement of a rule table (the document's rules, the
    templates', the patches', the payloads'), each judging with `judge(target, requirement)`
    once its `needs` are met, and named after its requirement: woa_4_1_agent_id_unique for
    WOA-4.1-AGENT-ID-UNIQUE."""
    needs = tuple(needs)
    for requirement in requirements:
        check(requirement, needs=needs)(_table_check(requirement, judge))


def _table_check(requirement: str, judge: TableJudge) -> CheckFunction:
    async def judged(target: Target) -> Verdict:
        return await judge(target, requirement)

    judged.__name__ = judged.__qualname__ = requirement.lower().replace("-", "_").replace(".", "_")
    return judged


def name_prefix(requirement: str) -> str:
    """How the name of a check of `requirement` begins: its draft and section ("sdsi_6_2_1_" for
    SDSI-6.2.1-...)."""
    found = catalogue()[requirement]
    return f"{found.draft}_{found.section.replace('.', '_')}_"


def checks_for(requirement: str, driver: str | None = None) -> list[Check]:
    """The checks of `requirement` that a run with this driver (None: the suite calls the target)
    can make."""
    return [CHECKS[n] for n in _OF.get(requirement, ()) if CHECKS[n].driver == driver]


def driven_by(requirement: str) -> set[str]:
    """The drivers some check of `requirement` needs."""
    drivers = (CHECKS[n].driver for n in _OF.get(requirement, ()))
    return {driver for driver in drivers if driver is not None}
