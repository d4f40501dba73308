"""badge-<draft>.svg: one badge per draft with the draft's verdict, for a README.

Flat, shields.io-like: the draft's name on the left, on the right the verdict the run's outcome
gives the draft (its level when judged whole; "incomplete: interrupted", "stale baseline", "not
certified" otherwise: conformance/report/outcome.py), coloured by it (green only for a level),
drawn by pybadges2 with the widths of the text in its font (Verdana, DejaVu Sans), so that a long
verdict ("MUST-compliant, 1 of 2 agents") fits; every string is escaped.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar
from xml.sax.saxutils import escape

from ..compliance import Summary
from ..events import Event
from ..events import RunFinished
from ..events import RunStarted
from ..outcome import colour_of
from ..outcome import told
from ._collect import write_whole

__all__ = ["BadgeWriter", "badge_svg"]

_LABELS = {"woa": "WoA", "sdsi": "SDSI", "aci": "ACI"}


def badge_svg(label: str, value: str, colour: str) -> str:
    """A flat badge reading `label | value`, titled and labelled for screen readers."""
    import pybadges2  # its font widths take a tenth of a second to load: only when a badge is drawn

    drawn: str = pybadges2.badge(
        left_text=label, right_text=value, right_color=colour, whole_title=f"{label}: {value}"
    )
    named = f'<svg role="img" aria-label="{escape(f"{label}: {value}", {chr(34): "&quot;"})}" '
    return drawn.replace("<svg ", named, 1).rstrip("\n") + "\n"


class BadgeWriter:
    """Writes badge-<draft>.svg for each draft of the run when it finishes."""

    filename: ClassVar[str] = "badge-*.svg"

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.suites: tuple[str, ...] = ()
        self.drafts: dict[str, str] = {}

    def handle(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self.suites = event.header.suites
            self.drafts = event.header.as_dict()["drafts"]
        elif isinstance(event, RunFinished):
            self.write(event.summary)

    def write(self, summary: Summary) -> None:
        drafts = told(summary).drafts
        for draft in self.suites:
            verdict = drafts.get(draft, "untested")
            revision = self.drafts.get(draft, "").rsplit("-", 1)[-1]
            label = f"agent-conformance {_LABELS.get(draft, draft)}" + (
                f"-{revision}" if revision.isdigit() else ""
            )
            write_whole(
                self.directory / f"badge-{draft}.svg", badge_svg(label, verdict, colour_of(verdict))
            )
