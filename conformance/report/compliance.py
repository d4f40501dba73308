"""The compliance level a set of results earns, overall and per draft, and the counts behind it.

Levels, from worst to best (the README explains them to users):

    non-compliant     at least one MUST-level requirement failed
    inconclusive      no MUST failed, but at least one MUST check ended in error
    untested          no MUST-level requirement was tested at all
    MUST-compliant    every tested MUST passed (or was waived); some SHOULD failed or errored
    SHOULD-compliant  every tested MUST and SHOULD passed (or was waived)

Skipped requirements are never counted as passed: `untested_must` says how many MUSTs no check
judged, and a level is always "of what was tested". Waived results are counted apart. A summary
also says whether the run finished (`completion`) and, when nothing could be certified at all,
why (`blocker`, e.g. the WoA document could not be obtained); conformance/engine/gate.py turns
all of that into the exit code."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from typing import Any

from .model import Result
from .model import Skip
from .model import Status
from .outcome import Outcome

__all__ = ["COMPLETIONS", "LEVEL_ORDER", "Summary", "level_of", "level_told", "summarize"]

LEVEL_ORDER = ("non-compliant", "inconclusive", "untested", "MUST-compliant", "SHOULD-compliant")
#: How a run ended: every selected requirement judged, stopped by a signal, or stopped by its
#: --budget.
COMPLETIONS = ("complete", "interrupted", "out-of-budget")
Counts = dict[str, dict[str, int]]  # requirement level -> status -> count


def level_of(counts: Counts) -> str:
    """The compliance level that counts by requirement level and status earn."""
    must, should = counts.get("MUST", {}), counts.get("SHOULD", {})
    if must.get(Status.FAIL, 0):
        return "non-compliant"
    if must.get(Status.ERROR, 0):
        return "inconclusive"
    if not (must.get(Status.PASS, 0) or must.get(Status.WAIVED, 0)):
        return "untested"
    if should.get(Status.FAIL, 0) or should.get(Status.ERROR, 0):
        return "MUST-compliant"
    if should.get(Status.SKIP, 0) and not (
        should.get(Status.PASS, 0) or should.get(Status.WAIVED, 0)
    ):
        return (  # SHOULDs bind the target but none was judged (a MUST-only selection, say)
            "MUST-compliant"
        )
    return "SHOULD-compliant"


def level_told(verdict: str, judged: str) -> str:
    """The level a verdict of the gate stands for, so that no surface tells a level its exit code
    contradicts: the verdict's own level ("MUST-compliant (MUST selected), 1 of 2 agents" is
    MUST-compliant); inconclusive for a run or draft it calls incomplete (exit 4's word);
    untested for one it could not certify; `judged`, what the judged results earned, for a stale
    baseline, which fails the gate and not the level."""
    if verdict == "stale baseline":
        return judged
    head = verdict.split(",")[0].split(";")[0].split(" (")[0]
    if head.startswith("incomplete"):
        return "inconclusive"
    if head.startswith("not certified"):
        return "untested"
    return head if head in LEVEL_ORDER else judged


def _count(counts: Counts, level: str, statuses: Iterable[Status]) -> int:
    return sum(counts.get(level, {}).get(s.value, 0) for s in statuses)


#: What a report of one run says of its own reach.
ONE_RUN = (
    "one run: it bounds nothing for a nondeterministic target (an agent driven by a language"
    " model); run --repeat N to bound each requirement's violation rate"
)


@dataclass(frozen=True)
class Summary:
    level: str
    counts: Counts = field(default_factory=dict)
    total: int = 0
    finished: str = ""
    duration_ms: float = 0.0
    drafts: dict[str, Counts] = field(default_factory=dict)  # draft -> its own counts
    completion: str = "complete"
    #: why nothing could be certified (the document was never obtained); None when something could
    #: be
    blocker: str | None = None
    #: what the target's WoA document claims, and what the run verified of it
    #: (conformance/engine/claims.py)
    claims: tuple[dict[str, str], ...] = ()
    #: every agent the WoA document advertises: exercised or not, the requirements judged on it, why
    #: not (claims.py)
    coverage: tuple[dict[str, Any], ...] = ()
    #: --require-every-agent: an agent not exercised makes the run inconclusive
    every_agent_required: bool = False
    #: baseline entries whose requirement now passes: the team's bookkeeping, which fails the gate,
    #: not the level
    stale_baseline: tuple[str, ...] = ()
    #: how many runs the results stand for (run --repeat); one run bounds nothing for a
    #: nondeterministic target
    runs: int = 1
    #: the run's one outcome (exit code, why, the verdict every surface shows), as the gate
    #: (conformance/engine/gate.py, above) decided it
    outcome: Outcome | None = None
    #: what the run's selection judged, when not everything ("MUST selected"): the level holds for
    #: that alone
    selection: str = ""
    #: per draft, the requirements a signal or the budget left unjudged
    not_reached: dict[str, int] = field(default_factory=dict)
    #: per draft, the MUST-level failures that are stale baseline entries, not the target's
    stale_must: dict[str, int] = field(default_factory=dict)

    @cached_property
    def unexercised(self) -> list[dict[str, Any]]:
        """The advertised agents the run did not exercise (asked by every surface: once)."""
        return [a for a in self.coverage if not a.get("exercised")]

    @property
    def earned(self) -> str:
        """The level, and how many of the advertised agents it rests on when not all:
        "MUST-compliant, 1 of 2 agents" (what the outcome's headline says of a run that passed)."""
        missing = len(self.unexercised)
        level = f"{self.level} ({self.selection})" if self.selection else self.level
        return (
            f"{level}, {len(self.coverage) - missing} of {len(self.coverage)} agents"
            if missing
            else level
        )

    def count(self, level: str, *statuses: Status) -> int:
        return _count(self.counts, level, statuses)

    @property
    def levels(self) -> dict[str, str]:
        """Each draft's own compliance level: an SDSI failure does not make the WoA suite
        non-compliant."""
        return {draft: level_of(counts) for draft, counts in self.drafts.items()}

    @property
    def told_level(self) -> str:
        """The level as every surface tells it: the gate's verdict's (`level_told`)."""
        return self.level if self.outcome is None else level_told(self.outcome.headline, self.level)

    @property
    def told_levels(self) -> dict[str, str]:
        """Each draft's level as its badge tells it: its verdict's (`level_told`)."""
        judged = self.levels
        if self.outcome is None:
            return judged
        return {d: level_told(self.outcome.drafts.get(d, j), j) for d, j in judged.items()}

    @property
    def complete(self) -> bool:
        return self.completion == "complete"

    @property
    def must_failed(self) -> int:
        return self.count("MUST", Status.FAIL)

    @property
    def must_errored(self) -> int:
        return self.count("MUST", Status.ERROR)

    @property
    def untested_must(self) -> int:
        return self.count("MUST", Status.SKIP)

    @property
    def waived(self) -> int:
        return sum(c.get(Status.WAIVED.value, 0) for c in self.counts.values())

    def by_status(self) -> dict[str, int]:
        totals: Counter[str] = Counter()
        for statuses in self.counts.values():
            totals.update(statuses)
        return {s.value: totals.get(s.value, 0) for s in Status}

    def as_dict(self) -> dict[str, Any]:
        return {
            "level": self.told_level,
            "levels": self.told_levels,
            # what the judged results earned, which the gate's verdict may take back (a run cut
            # short, a host not certified)
            "judged_level": self.level,
            "judged_levels": self.levels,
            "completion": self.completion,
            "blocker": self.blocker,
            **({"gate": self.outcome.as_dict()} if self.outcome is not None else {}),
            "counts": self.counts,
            "drafts": self.drafts,
            "by_status": self.by_status(),
            "total": self.total,
            "untested_must": self.untested_must,
            "waived": self.waived,
            "finished": self.finished,
            "duration_ms": self.duration_ms,
            "claims": list(self.claims),
            "headline": self.outcome.headline if self.outcome is not None else self.earned,
            "agents": {
                "advertised": len(self.coverage),
                "exercised": len(self.coverage) - len(self.unexercised),
                "every_agent_required": self.every_agent_required,
            },
            "stale_baseline": list(self.stale_baseline),
            "not_reached": self.not_reached,
            "stale_must": self.stale_must,
            "runs": self.runs,
            **({"selection": self.selection} if self.selection else {}),
            **({"note": ONE_RUN} if self.runs == 1 else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Summary:
        return cls(
            data.get("judged_level", data["level"]),
            data["counts"],
            data["total"],
            data.get("finished", ""),
            data.get("duration_ms", 0.0),
            data.get("drafts", {}),
            data.get("completion", "complete"),
            data.get("blocker"),
            tuple(data.get("claims", ())),
            stale_baseline=tuple(data.get("stale_baseline", ())),
            runs=data.get("runs", 1),
            outcome=Outcome.from_dict(data["gate"]) if data.get("gate") else None,
            selection=data.get("selection", ""),
            not_reached=data.get("not_reached", {}),
            stale_must=data.get("stale_must", {}),
        )


def summarize(
    results: Iterable[Result],
    *,
    finished: str = "",
    duration_ms: float = 0.0,
    completion: str = "complete",
    blocker: str | None = None,
    claims: tuple[dict[str, str], ...] = (),
    coverage: tuple[dict[str, Any], ...] = (),
    every_agent_required: bool = False,
    stale_baseline: tuple[str, ...] = (),
    runs: int = 1,
    selection: str = "",
) -> Summary:
    """Count `results` by requirement level and status, overall and per draft, with the levels
    they earn."""
    counts: dict[str, Counter[str]] = {"MUST": Counter(), "SHOULD": Counter(), "MAY": Counter()}
    drafts: dict[str, dict[str, Counter[str]]] = {}
    not_reached: Counter[str] = Counter()
    stale_must: Counter[str] = Counter()
    total = 0
    for result in results:
        if result.requirement in stale_baseline and result.level == "MUST":
            stale_must[result.draft] += 1
        if result.status is Status.SKIP and result.skip is Skip.NOT_REACHED:
            not_reached[result.draft] += 1
        counts.setdefault(result.level, Counter())[result.status.value] += 1
        drafts.setdefault(result.draft, {}).setdefault(result.level, Counter())[
            result.status.value
        ] += 1
        total += 1
    plain = {k: dict(v) for k, v in counts.items()}
    per_draft = {d: {k: dict(v) for k, v in c.items()} for d, c in drafts.items()}
    return Summary(
        level_of(plain),
        plain,
        total,
        finished,
        duration_ms,
        per_draft,
        completion,
        blocker,
        claims,
        coverage,
        every_agent_required,
        stale_baseline,
        runs,
        selection=selection,
        not_reached=dict(not_reached),
        stale_must=dict(stale_must),
    )
