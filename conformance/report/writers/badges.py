"""badge-<draft>.svg: one badge per draft with the level the run earned, for a README.

Flat, shields.io-like: the draft's name on the left, its level on the right, coloured by level.
Text widths are estimated (Verdana 11 px, about 7 px a character); every string is XML-escaped.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar
from xml.sax.saxutils import escape

from ..compliance import Summary
from ..events import Event
from ..events import RunFinished
from ..events import RunStarted

__all__ = ["BadgeWriter", "badge_svg"]

COLOURS = {
    "SHOULD-compliant": "#44cc11",
    "MUST-compliant": "#97ca00",
    "non-compliant": "#e05d44",
    "inconclusive": "#fe7d37",
    "untested": "#9f9f9f",
}
_LABELS = {"woa": "WoA", "sdsi": "SDSI", "aci": "ACI"}


def _width(text: str) -> int:
    return 10 + 7 * len(text)


def badge_svg(label: str, value: str, colour: str) -> str:
    """A flat badge reading `label | value`."""
    left, right = _width(label), _width(value)
    total = left + right
    label, value = escape(label), escape(value)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img"'
        f' aria-label="{label}: {value}"><title>{label}: {value}</title><linearGradient id="s"'
        ' x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1"'
        f' stop-opacity=".1"/></linearGradient><clipPath id="r"><rect width="{total}" height="20"'
        f' rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)"><rect width="{left}" height="20"'
        f' fill="#555"/><rect x="{left}" width="{right}" height="20" fill="{colour}"/><rect'
        f' width="{total}" height="20" fill="url(#s)"/></g><g fill="#fff" text-anchor="middle"'
        f' font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="{left / 2}"'
        f' y="14">{label}</text><text x="{left + right / 2}" y="14">{value}</text></g></svg>\n'
    )


class BadgeWriter:
    """Writes badge-<draft>.svg for each draft of the run when it finishes."""

    filename: ClassVar[str] = "badge-*.svg"

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.suites: tuple[str, ...] = ()

    def handle(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self.suites = event.header.suites
        elif isinstance(event, RunFinished):
            self.write(event.summary)

    def write(self, summary: Summary) -> None:
        for draft in self.suites:
            level = summary.levels.get(draft, "untested")
            if (
                draft == "woa" and summary.unexercised
            ):  # a level that rests on some of the agents says so
                level += (
                    f", {len(summary.coverage) - len(summary.unexercised)} of"
                    f" {len(summary.coverage)} agents"
                )
            label = f"agent-conformance {_LABELS.get(draft, draft)}"
            (self.directory / f"badge-{draft}.svg").write_text(
                badge_svg(
                    label, level, COLOURS.get(summary.levels.get(draft, "untested"), "#9f9f9f")
                ),
                encoding="utf-8",
            )
