"""The expected-failures baseline: a team gates on "nothing new" while it works through known
failures.

    {"format": "agent-conformance-baseline/1",
     "expected_failures": {
         "WOA-7-CACHING-HEADERS": "the CDN strips ETag; fix tracked in OPS-12",
         ...}}

`run --baseline FILE` applies it to every result as it is made:

- a failure of a listed requirement is `waived`, its message saying the baseline absorbed it and
  why;
- a failure of a requirement not listed stays a failure (the gate fails);
- a listed requirement that now passes is a `fail`, its message saying the entry is stale and what
  the check found; the stale entries fail the gate (exit 1, the outcome "stale baseline" on every
  surface), so that the list only shrinks. A MAY's entry is left a pass: a MAY never fails.

A listed requirement the run did not test (skip, not-applicable, error) is left as it is.
`agent-conformance baseline REPORT.json` writes a baseline of a report's failures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..report import Result
from ..report import Status
from ..requirements import catalogue

__all__ = ["FORMAT", "Baseline", "BaselineUnusable", "from_report"]

FORMAT = "agent-conformance-baseline/1"
#: What a stale entry's message says it is, for a reader who meets it as a failure.
STALE = "the list only shrinks"


class BaselineUnusable(ValueError):
    """A baseline file that cannot be read, or names requirements the catalogue lacks (a usage
    error)."""


@dataclass(frozen=True)
class Baseline:
    path: str
    expected: dict[str, str]  # requirement ID -> why its failure is expected

    @classmethod
    def load(cls, path: Path) -> Baseline:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise BaselineUnusable(f"--baseline {path} cannot be read as JSON: {error}") from None
        expected = data.get("expected_failures") if isinstance(data, dict) else None
        if (
            not isinstance(data, dict)
            or data.get("format") != FORMAT
            or not isinstance(expected, dict)
        ):
            raise BaselineUnusable(
                f"--baseline {path} is not a baseline ({FORMAT}: an object of expected_failures)"
            )
        unknown = sorted(i for i in expected if i not in catalogue())
        if unknown:
            raise BaselineUnusable(
                f"--baseline {path} names requirements the catalogue lacks: {', '.join(unknown)}"
            )
        return cls(str(path), {str(k): str(v) for k, v in expected.items()})

    def apply(self, result: Result) -> Result:
        """`result` as the baseline reads it."""
        reason = self.expected.get(result.requirement)
        if reason is None:
            return result
        if result.status is Status.FAIL:
            return replace(
                result,
                status=Status.WAIVED,
                message=f"expected failure, absorbed by the baseline ({reason}): {result.message}",
            )
        if result.status is Status.PASS and result.level != "MAY":
            return replace(
                result,
                status=Status.FAIL,
                message=(
                    f"stale baseline entry: the requirement now passes; remove it from"
                    f" {self.path} ({STALE}): {result.message}"
                ),
            )
        return result

    def stale(self, results: list[Result]) -> tuple[str, ...]:
        """The entries whose requirement now passes (as `apply` read them)."""
        return tuple(
            r.requirement
            for r in results
            if r.requirement in self.expected
            and r.status is Status.FAIL
            and r.message.startswith("stale baseline entry")
        )

    def recorded(self) -> dict[str, Any]:
        return {"path": self.path, "expected_failures": dict(self.expected)}

    @classmethod
    def from_recorded(cls, recorded: dict[str, Any]) -> Baseline:
        """The baseline `recorded()` wrote."""
        return cls(str(recorded["path"]), dict(recorded["expected_failures"]))


def from_report(report: dict[str, Any]) -> dict[str, Any]:
    """A baseline holding every failing requirement of `report` (a report.json), each to be given
    its reason."""
    failing = sorted(
        {r["requirement"] for r in report.get("results", []) if r.get("status") == "fail"}
    )
    target = report.get("header", {}).get("target", "the target")
    return {
        "format": FORMAT,
        "expected_failures": {
            i: f"failing in the report of {target}; say why it is expected" for i in failing
        },
    }
