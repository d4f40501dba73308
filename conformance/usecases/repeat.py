"""Repeated runs: a nondeterministic agent (one driven by a language model) certified N times, each
run with a fresh seed, and every requirement reported with how often it was broken and how much that
bounds: the observed violation rate and its upper confidence bound (exact one-sided Clopper-Pearson
at 95%). A requirement that both passed and failed is `flaky`. Any MUST violation in any run fails
the gate, as a single run's would; a clean repeated run says what it bounds ("0 of 20, violation
rate <= 13.9% at 95%"), and pass^k for every k up to the runs judged (all of k runs pass). With
`max_violation_rate`, the runs go on (up to `runs`) until every judged MUST's bound is at most
that rate, or a violation is seen.

    summary = await repeated(options, runs=20, handlers=writers)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from ..engine.gate import gated
from ..engine.runner import RunInterrupted
from ..engine.runner import run
from ..report import Collect
from ..report import Handler
from ..report import Result
from ..report import ResultRecorded
from ..report import RunFinished
from ..report import RunStarted
from ..report import Status
from ..report import Summary
from ..report import broadcast
from ..report import summarize
from ..report.model import RunHeader
from ..report.model import utc_now
from ..targeting import RunOptions
from ..targeting import fresh_seed

__all__ = ["CONFIDENCE", "METHOD", "Tally", "pass_k", "repeated", "upper_bound"]

CONFIDENCE = 0.95
METHOD = "Clopper-Pearson, one-sided"


def _binomial_cdf(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p)."""
    return float(sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1)))


def upper_bound(failures: int, runs: int, confidence: float = CONFIDENCE) -> float:
    """The exact one-sided upper confidence bound on a violation rate after `failures` in `runs`:
    the p at which seeing at most `failures` has probability 1 - confidence (Clopper-Pearson)."""
    if runs <= 0:
        return 1.0
    if failures >= runs:
        return 1.0
    alpha = 1 - confidence
    if failures == 0:
        return 1 - float(alpha ** (1 / runs))
    low, high = failures / runs, 1.0
    for _ in range(100):  # bisection: the CDF falls as p rises
        middle = (low + high) / 2
        low, high = (
            (middle, high) if _binomial_cdf(failures, runs, middle) > alpha else (low, middle)
        )
    return high


def pass_k(passes: int, runs: int) -> list[float]:
    """pass^k for k = 1 .. `runs`: the chance that k runs drawn from these all pass, an unbiased
    estimate of p^k (C(passes, k) / C(runs, k)), what a user who calls an agent k times cares
    about; pass^1 is the pass rate."""
    return [math.comb(passes, k) / math.comb(runs, k) for k in range(1, runs + 1)]


@dataclass
class Tally:
    """One requirement over the runs: each run's result, kept in order."""

    results: list[Result] = field(default_factory=list)

    def count(self, status: Status) -> int:
        return sum(r.status is status for r in self.results)

    @property
    def judged(self) -> int:
        return sum(r.status.judged for r in self.results)

    @property
    def failures(self) -> int:
        return self.count(Status.FAIL)

    @property
    def flaky(self) -> bool:
        return self.count(Status.PASS) > 0 and self.failures > 0

    def repeat(self) -> dict[str, object]:
        judged = self.judged
        return {
            "runs": len(self.results),
            "passes": self.count(Status.PASS),
            "failures": self.failures,
            "errors": self.count(Status.ERROR),
            "rate": round(self.failures / judged, 4) if judged else None,
            "upper_bound": round(upper_bound(self.failures, judged), 4) if judged else None,
            # of the judged runs: pass_k[k - 1] is pass^k
            "pass_k": [round(v, 4) for v in pass_k(self.count(Status.PASS), judged)],
            "confidence": CONFIDENCE,
            "method": METHOD,
            "flaky": self.flaky,
        }

    def result(self) -> Result:
        """One result standing for every run: the worst status seen, a message saying what the
        runs bound."""
        first = self.results[0]
        chosen = next(
            (
                r
                for status in (Status.FAIL, Status.ERROR, Status.WAIVED, Status.PASS)
                for r in self.results
                if r.status is status
            ),
            first,
        )
        repeat = self.repeat()
        if repeat["rate"] is None:
            return dataclasses.replace(chosen, repeat=repeat)
        said = (
            f"{'flaky: ' if self.flaky else ''}{self.failures} of {self.judged} runs broke it,"
            f" violation rate <= {repeat['upper_bound']:.1%} at {CONFIDENCE:.0%} ({METHOD})"
        )
        return dataclasses.replace(
            chosen,
            message=f"{said}; {chosen.message}" if chosen.status is not Status.PASS else said,
            repeat=repeat,
            duration_ms=round(sum(r.duration_ms for r in self.results), 1),
        )


def _coverage(summaries: list[Summary]) -> tuple[dict[str, Any], ...]:
    """Every advertised agent over the runs: exercised when any run exercised it (a run cut short
    calls fewer), with the requirements judged on it in any run."""
    merged: dict[str, dict[str, Any]] = {}
    for summary in summaries:
        for agent in summary.coverage:
            seen = merged.setdefault(agent["id"], dict(agent))
            if agent.get("exercised") and not seen.get("exercised"):
                seen.update(exercised=True)
                seen.pop("why", None)
            seen["requirements"] = sorted({*seen["requirements"], *agent["requirements"]})
    return tuple(merged.values())


def _settled(tallies: dict[str, Tally], rate: float) -> str | None:
    """Which stop condition holds, if one does: a MUST violation was seen (nothing more to learn),
    or every judged MUST's bound is at most `rate`."""
    musts = {i: t for i, t in tallies.items() if t.results[0].level == "MUST" and t.judged}
    broken = sorted(i for i, t in musts.items() if t.failures)
    if broken:
        return f"a MUST violation was seen ({', '.join(broken[:3])})"
    if all(upper_bound(t.failures, t.judged) <= rate for t in musts.values()):
        return f"every judged MUST's bound reached {rate:g}"
    return None


async def repeated(
    options: RunOptions,
    runs: int,
    handlers: Sequence[Handler] = (),
    *,
    max_violation_rate: float | None = None,
    progress: Callable[[int, int, Summary], None] | None = None,
) -> Summary:
    """Certify `options.target` up to `runs` times, each with a fresh seed (the first with
    `options.seed`), and hand `handlers` one result per requirement that stands for them all."""
    started = utc_now()
    tallies: dict[str, Tally] = {}
    seeds: list[int] = []
    summaries: list[Summary] = []
    header: RunHeader | None = None
    cut_short, stopped = False, None
    for n in range(runs):
        seed = options.seed if n == 0 else fresh_seed()
        collect = Collect()
        try:
            summary = await run(dataclasses.replace(options, seed=seed), [collect])
        except RunInterrupted:
            if not summaries:
                raise
            cut_short = True  # between two runs: the runs made are the report
            break
        seeds.append(seed)
        summaries.append(summary)
        header = header or collect.header
        for result in collect.results:
            tallies.setdefault(result.requirement, Tally()).results.append(result)
        if progress is not None:
            progress(n + 1, runs, summary)
        if not summary.complete or summary.blocker:
            break  # a run cut short or blocked: the runs after it would not be comparable
        stopped = None if max_violation_rate is None else _settled(tallies, max_violation_rate)
        if stopped is not None:
            break
    assert header is not None
    if len(summaries) == runs:
        stopped = None
    header = dataclasses.replace(
        header,
        started=started,
        options={
            **header.options,
            "seed": seeds[0],
            "repeat": {
                "runs": len(summaries),
                "asked": runs,
                "seeds": seeds,
                "max_violation_rate": max_violation_rate,
                "stopped": stopped,
                "confidence": CONFIDENCE,
                "method": METHOD,
            },
        },
    )
    broadcast(RunStarted(header), handlers)
    results = [tally.result() for tally in tallies.values()]
    for result in results:
        broadcast(ResultRecorded(result), handlers)
    last = summaries[-1]
    summary = gated(
        summarize(
            results,
            finished=utc_now(),
            duration_ms=round(sum(s.duration_ms for s in summaries), 1),
            completion="interrupted" if cut_short else last.completion,
            blocker=last.blocker,
            claims=last.claims,
            coverage=_coverage(summaries),
            every_agent_required=last.every_agent_required,
            stale_baseline=last.stale_baseline,
            runs=len(summaries),
            selection=last.selection,
        )
    )
    broadcast(RunFinished(summary), handlers)
    return summary
