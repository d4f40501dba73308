"""What the site shows: the implementations (one report each), and per draft and revision its
requirements with each implementation's status."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from ...requirements import Requirement

__all__ = ["DraftView", "Implementation", "Row"]

PASSING, FAILING = {"pass"}, {"fail", "error"}


@dataclass(frozen=True)
class Implementation:
    """One report: one implementation's certification."""

    #: its name in the interop manifest, else its target
    label: str
    target: str
    slug: str
    verdict: str
    tool_version: str
    started: str
    drafts: dict[str, str]
    statuses: dict[str, str]
    report_html: Path | None

    def status(self, requirement: str) -> str:
        return self.statuses.get(requirement, "untested")


@dataclass(frozen=True)
class Row:
    requirement: Requirement
    statuses: tuple[str, ...]

    @property
    def passing(self) -> int:
        return sum(s in PASSING for s in self.statuses)

    @property
    def failing(self) -> int:
        return sum(s in FAILING for s in self.statuses)

    @property
    def untested(self) -> int:
        return len(self.statuses) - self.passing - self.failing


@dataclass(frozen=True)
class DraftView:
    """One draft at one revision: the implementations whose reports name that revision."""

    draft: str
    revision: str
    implementations: tuple[Implementation, ...]
    rows: tuple[Row, ...]
    cells: tuple[dict[str, Any], ...] = field(default=())

    @property
    def thin(self) -> list[Row]:
        """Requirements fewer than two implementations pass (MUST first)."""
        return [r for r in self.rows if r.passing < 2]

    @property
    def unimplemented(self) -> list[Row]:
        """Requirements some implementation was judged on and none passes."""
        return [r for r in self.rows if r.passing == 0 and r.failing > 0]

    @property
    def unjudged(self) -> list[Row]:
        """Requirements no report judged (no check reaches them, or none of the implementations
        exercised them)."""
        return [r for r in self.rows if r.passing == 0 and r.failing == 0]
