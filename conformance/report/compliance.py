"""The compliance level a set of results earns, and the counts behind it.

Levels, from worst to best (the README explains them to users):

    non-compliant     at least one MUST-level requirement failed
    inconclusive      no MUST failed, but at least one MUST check ended in error
    untested          no MUST-level requirement was tested at all
    MUST-compliant    every tested MUST passed (or was waived); some SHOULD failed or errored
    SHOULD-compliant  every tested MUST and SHOULD passed (or was waived)

Skipped requirements are never counted as passed: `untested_must` says how many MUSTs no check
judged, and a level is always "of what was tested". Waived results are counted apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .model import Result, Status

__all__ = ["LEVEL_ORDER", "Summary", "summarize"]

LEVEL_ORDER = ("non-compliant", "inconclusive", "untested", "MUST-compliant", "SHOULD-compliant")


@dataclass(frozen=True)
class Summary:
    level: str
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # requirement level -> status -> count
    total: int = 0
    finished: str = ""
    duration_ms: float = 0.0

    def count(self, level: str, *statuses: Status) -> int:
        return sum(self.counts.get(level, {}).get(s.value, 0) for s in statuses)

    @property
    def must_failed(self) -> int:
        return self.count("MUST", Status.FAIL)

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
        return {"level": self.level, "counts": self.counts, "by_status": self.by_status(), "total": self.total,
                "untested_must": self.untested_must, "waived": self.waived, "finished": self.finished,
                "duration_ms": self.duration_ms}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Summary:
        return cls(data["level"], data["counts"], data["total"], data.get("finished", ""), data.get("duration_ms", 0.0))


def summarize(results: Iterable[Result], *, finished: str = "", duration_ms: float = 0.0) -> Summary:
    """Count `results` by requirement level and status, and give the compliance level they earn."""
    counts: dict[str, Counter[str]] = {"MUST": Counter(), "SHOULD": Counter(), "MAY": Counter()}
    total = 0
    for result in results:
        counts.setdefault(result.level, Counter())[result.status.value] += 1
        total += 1
    must, should = counts["MUST"], counts["SHOULD"]
    if must[Status.FAIL]:
        level = "non-compliant"
    elif must[Status.ERROR]:
        level = "inconclusive"
    elif not (must[Status.PASS] or must[Status.WAIVED]):
        level = "untested"
    elif should[Status.FAIL] or should[Status.ERROR]:
        level = "MUST-compliant"
    else:
        level = "SHOULD-compliant"
    return Summary(level, {k: dict(v) for k, v in counts.items()}, total, finished, duration_ms)
