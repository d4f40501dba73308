"""The exit-code contract: what a finished (or cut short) run tells a CI job that reads only the
code.

    0  PASSED         at least one MUST-level requirement was tested, none failed or errored, and
                      the run judged every requirement it selected
    1  MUST_FAILED    at least one MUST-level requirement failed, or the baseline lists a
                      requirement
                      that now passes (the target's level stays what its behaviour earns)
    2  NOT_CERTIFIED  a usage error, or nothing could be certified: the target unreachable, its
                      document never obtained, or no MUST-level requirement tested
    3  SUITE_DEFECT   a defect of the suite itself (never caused by a target or the user's paths)
    4  INCONCLUSIVE   no MUST failed, but a MUST check errored, or the run was interrupted or ran
                      out of its budget, or (--require-every-agent) an advertised agent was not
                          exercised

The order of the tests below is the contract's precedence: nothing certifiable outranks a failure,
a failure outranks an unfinished run. The README's table is this one.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace
from enum import IntEnum

from ..report.compliance import Summary
from ..report.model import Status

__all__ = ["ExitCode", "GateOutcome", "decide", "gated"]

_TESTED = (Status.PASS, Status.WAIVED)


class ExitCode(IntEnum):
    PASSED = 0
    MUST_FAILED = 1
    NOT_CERTIFIED = 2
    SUITE_DEFECT = 3
    INCONCLUSIVE = 4


@dataclass(frozen=True)
class GateOutcome:
    code: ExitCode
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"exit_code": int(self.code), "reason": self.reason}


def decide(summary: Summary) -> GateOutcome:
    """The exit code `summary` earns, and one line saying why."""
    if summary.blocker:
        return GateOutcome(ExitCode.NOT_CERTIFIED, f"nothing could be certified: {summary.blocker}")
    if summary.must_failed:
        return GateOutcome(
            ExitCode.MUST_FAILED, f"{summary.must_failed} MUST-level requirement(s) failed"
        )
    if summary.stale_baseline:
        return GateOutcome(
            ExitCode.MUST_FAILED,
            f"the baseline lists {len(summary.stale_baseline)} requirement(s) that now pass "
            f"({', '.join(summary.stale_baseline[:5])}): remove them so that the list only shrinks",
        )
    if not summary.complete:
        what = "was interrupted" if summary.completion == "interrupted" else "ran out of its budget"
        return GateOutcome(
            ExitCode.INCONCLUSIVE, f"the run {what} before every requirement was judged"
        )
    if summary.must_errored:
        return GateOutcome(
            ExitCode.INCONCLUSIVE,
            f"{summary.must_errored} MUST-level check(s) could not reach a verdict",
        )
    if summary.every_agent_required and summary.unexercised:
        return GateOutcome(
            ExitCode.INCONCLUSIVE,
            f"{len(summary.unexercised)} of {len(summary.coverage)} advertised agents "
            "were not exercised (--require-every-agent)",
        )
    if not summary.count("MUST", *_TESTED):
        return GateOutcome(ExitCode.NOT_CERTIFIED, "nothing was tested at MUST level")
    return GateOutcome(
        ExitCode.PASSED,
        f"{summary.count('MUST', *_TESTED)} MUST-level requirement(s) tested, none failed",
    )


def gated(summary: Summary) -> Summary:
    """`summary` carrying the gate's outcome, for the reports to write."""
    return replace(summary, gate=decide(summary).as_dict())
