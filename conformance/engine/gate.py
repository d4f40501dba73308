"""The exit-code contract: what a finished (or cut short) run tells a CI job that reads only the
code, decided once as the run's `Outcome` (conformance/report/outcome.py) that every surface
renders.

    code  kind                what decided it
    ────  ──────────────────  ──────────────────────────────────────────────────────────────────
    0     passed              at least one MUST-level requirement was tested, none failed or
                              errored, the run judged every requirement it selected, and at least
                              one advertised agent of a WoA host was exercised
    1     must-failed         at least one MUST-level requirement failed
    1     stale-baseline      the baseline lists a requirement that now passes (its result is a
                              `fail`: remove the entry, so that the list only shrinks)
    2     not-certified       the target's WoA document was never obtained (a usage error is 2
                              as well, said before any run starts)
    2     nothing-tested      no MUST-level requirement was tested
    2     no-agent-exercised  a WoA host none of whose advertised agents was exercised: a document
                              that parses is not a certified host
    3                         a defect of the suite itself (never caused by a target or the
                              user's paths; no outcome is decided)
    4     interrupted         no MUST failed, but a signal cut the run short
    4     out-of-budget       no MUST failed, but the run's --budget ran out
    4     must-errored        no MUST failed, but a MUST check could not reach a verdict
    4     partial-agents      (--require-every-agent) an advertised agent was not exercised

The order of the tests below is the contract's precedence: nothing certifiable outranks a failure,
a failure outranks an unfinished run. The README's table is this one.
"""

from __future__ import annotations

from dataclasses import replace
from enum import IntEnum

from ..report.compliance import Summary
from ..report.model import Status
from ..report.outcome import KINDS
from ..report.outcome import Outcome
from ..requirements import catalogue

__all__ = ["ExitCode", "decide", "gated"]

_TESTED = (Status.PASS, Status.WAIVED)
#: The coverage of an agent the run had no invocation requirement to exercise with (a selection
#: that left them out): such an agent does not make a host uncertified.
_PLANLESS = "the run judged no invocation requirement"


class ExitCode(IntEnum):
    PASSED = 0
    MUST_FAILED = 1
    NOT_CERTIFIED = 2
    SUITE_DEFECT = 3
    INCONCLUSIVE = 4


def _exercised(summary: Summary) -> int:
    return len(summary.coverage) - len(summary.unexercised)


def _no_agent_exercised(summary: Summary) -> bool:
    """A WoA host advertises agents and the run meant to call them, but called none."""
    return (
        bool(summary.coverage)
        and not _exercised(summary)
        and not all(str(a.get("why", "")).startswith(_PLANLESS) for a in summary.coverage)
    )


def _kind(summary: Summary) -> tuple[str, str]:
    """What decides the run's exit, and why, in the contract's order."""
    if summary.blocker:
        return "not-certified", f"nothing could be certified: {summary.blocker}"
    failed = summary.must_failed - sum(summary.stale_must.values())
    if failed:
        return "must-failed", f"{failed} MUST-level requirement(s) failed"
    if summary.stale_baseline:
        return "stale-baseline", (
            f"the baseline lists {len(summary.stale_baseline)} requirement(s) that now pass "
            f"({', '.join(summary.stale_baseline[:5])}): remove them so that the list only shrinks"
        )
    if not summary.complete:
        what = "was interrupted" if summary.completion == "interrupted" else "ran out of its budget"
        left = sum(summary.not_reached.values())
        return summary.completion, (
            f"the run {what} before every requirement was judged ({left} not judged)"
            if left
            else f"the run {what}: what it judged is part of what it meant to"
        )
    if summary.must_errored:
        return "must-errored", (
            f"{summary.must_errored} MUST-level check(s) could not reach a verdict"
        )
    if summary.every_agent_required and summary.unexercised:
        return "partial-agents", (
            f"{len(summary.unexercised)} of {len(summary.coverage)} advertised agents "
            "were not exercised (--require-every-agent)"
        )
    if _no_agent_exercised(summary):
        return "no-agent-exercised", (
            f"none of the target's {len(summary.coverage)} agents was exercised, so nothing they"
            f" answer was judged: {_why_none(summary)}"
        )
    if not summary.count("MUST", *_TESTED):
        return "nothing-tested", "nothing was tested at MUST level"
    return (
        "passed",
        f"{summary.count('MUST', *_TESTED)} MUST-level requirement(s) tested, none failed",
    )


def _why_none(summary: Summary) -> str:
    """The first agent's reason for not being exercised, and how the user lets the run call it."""
    whys = [str(a.get("why", "")) for a in summary.coverage]
    hints = []
    if any("http" in w.lower() and "loopback" in w.lower() for w in whys):
        hints.append("--allow-http-loopback lets the run call agents over plain HTTP on loopback")
    if any("origin" in w for w in whys) and not any("--allow-origin" in w for w in whys):
        hints.append("--allow-origin ORIGIN lets it call an origin the document names")
    return whys[0] + (f" ({'; '.join(hints)})" if hints else "")


def _failed(summary: Summary, draft: str) -> int:
    return summary.drafts.get(draft, {}).get("MUST", {}).get(Status.FAIL.value, 0)


def _agents(summary: Summary) -> str:
    return f"{_exercised(summary)} of {len(summary.coverage)} agents"


def _headline(summary: Summary, kind: str) -> str:
    """The verdict in a few words, as every surface shows it; a verdict that rests on some of the
    advertised agents says how many."""
    incomplete = f"incomplete: {summary.completion}"
    headline = {
        "passed": summary.earned,
        "must-failed": "non-compliant" + ("" if summary.complete else f"; {incomplete}"),
        "stale-baseline": "stale baseline",
        "not-certified": "not certified",
        "no-agent-exercised": f"not certified: {_agents(summary)} exercised",
        "nothing-tested": "untested",
        "interrupted": incomplete,
        "out-of-budget": incomplete,
        "must-errored": "inconclusive",
        "partial-agents": f"incomplete: {_agents(summary)} exercised",
    }[kind]
    return _with_agents(summary, headline)


def _with_agents(summary: Summary, verdict: str) -> str:
    if not summary.unexercised or "agents" in verdict or verdict == "not certified":
        return verdict
    return f"{verdict}, {_agents(summary)}"


def _drafts(summary: Summary, kind: str) -> dict[str, str]:
    """Each draft's own verdict: its level when the draft was judged whole, else what kept it from
    one."""
    stale = {catalogue()[i].draft for i in summary.stale_baseline if i in catalogue()}
    told = {}
    covered = {str(a.get("draft", "woa")) for a in summary.coverage}
    for draft, level in summary.levels.items():
        agents = draft in covered and bool(summary.unexercised)
        if kind == "not-certified":
            verdict = "not certified"
        elif _failed(summary, draft) > summary.stale_must.get(draft, 0):
            verdict = "non-compliant"
        elif draft in stale:
            verdict = "stale baseline"
        elif not summary.complete and (summary.not_reached.get(draft) or not summary.not_reached):
            verdict = f"incomplete: {summary.completion}"
        elif agents and kind == "no-agent-exercised":
            verdict = f"not certified: {_agents(summary)} exercised"
        elif agents and kind == "partial-agents":
            verdict = f"incomplete: {_agents(summary)} exercised"
        else:
            verdict = level
        told[draft] = _with_agents(summary, verdict) if draft in covered else verdict
    return told


def decide(summary: Summary) -> Outcome:
    """The outcome `summary` earns: the exit code, why in one line, and the verdict every surface
    shows."""
    kind, reason = _kind(summary)
    return Outcome(KINDS[kind], kind, reason, _headline(summary, kind), _drafts(summary, kind))


def gated(summary: Summary) -> Summary:
    """`summary` carrying the gate's outcome, for every surface to render."""
    return replace(summary, outcome=decide(summary))
