"""The one outcome of a run, as every surface tells it.

The gate (conformance/engine/gate.py) decides it once from the summary; the terminal, every report
writer, the badges, the CI annotations and the pytest plugin render this value and derive nothing
of their own, so that no surface can tell another story than the exit code:

    code       the exit code of the contract (0, 1, 2, 4)
    kind       what decided it (KINDS below)
    reason     one sentence saying why
    headline   the verdict in a few words: "SHOULD-compliant", "non-compliant",
               "incomplete: interrupted", "not certified", "MUST-compliant, 1 of 2 agents"
    drafts     each draft's own verdict, as its badge shows it: its compliance level, or what kept
               the draft from earning one ("incomplete: interrupted", "stale baseline",
               "not certified: 0 of 2 agents exercised")

A draft's level stands on its badge only when the draft was judged whole: a draft that a signal or
the budget cut short says so, whatever its judged part earned (unless a MUST failed: a failure
seen is a failure).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from types import MappingProxyType
from typing import Any

__all__ = ["KINDS", "Outcome", "colour_of", "told"]

#: What can decide a run's outcome, with the exit code each gives (the contract's precedence is
#: gate.py's).
KINDS: Mapping[str, int] = MappingProxyType(
    {
        "passed": 0,
        "must-failed": 1,
        "stale-baseline": 1,
        "not-certified": 2,
        "no-agent-exercised": 2,
        "nothing-tested": 2,
        "interrupted": 4,
        "out-of-budget": 4,
        "must-errored": 4,
        "partial-agents": 4,
    }
)

#: The colour of each verdict a badge or a card can show; what is not a level is grey.
_COLOURS = {
    "SHOULD-compliant": "#44cc11",
    "MUST-compliant": "#97ca00",
    "non-compliant": "#e05d44",
    "stale baseline": "#e05d44",
    "inconclusive": "#fe7d37",
    "untested": "#9f9f9f",
}
_GREY = "#9f9f9f"


def colour_of(verdict: str) -> str:
    """The colour of a draft's verdict ("MUST-compliant, 1 of 2 agents" is coloured as its
    level)."""
    return _COLOURS.get(verdict.split(",")[0], _GREY)


@dataclass(frozen=True)
class Outcome:
    code: int
    kind: str
    reason: str
    headline: str
    drafts: Mapping[str, str] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.code == 0

    @property
    def icon(self) -> str:
        """The mark a Markdown heading carries: a tick only for a run that exits 0."""
        return {0: "✅", 1: "❌", 4: "⚠️"}.get(self.code, "⚪")

    def as_dict(self) -> dict[str, Any]:
        return {
            "exit_code": self.code,
            "kind": self.kind,
            "reason": self.reason,
            "headline": self.headline,
            "drafts": dict(self.drafts),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            int(data["exit_code"]),
            str(data.get("kind", "")),
            str(data.get("reason", "")),
            str(data.get("headline", "")),
            dict(data.get("drafts", {})),
        )


def told(summary: Any) -> Outcome:
    """The outcome a summary carries (every finished run's summary is gated before any writer
    sees it)."""
    outcome: Outcome | None = summary.outcome
    if outcome is None:
        raise ValueError("a summary reached a writer before the gate decided its outcome")
    return outcome
