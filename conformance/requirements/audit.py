"""Audit the catalogue against the drafts: every quote is in its section, every keyword is quoted.

A quote must appear, white space folded, in the normative text of the section it names. Every
BCP 14 keyword in normative text must fall inside at least one quote of that section. The
project's completeness test runs this audit on the drafts in ../shared/drafts when they are
there, and on the copies shipped with the package otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import Catalogue
from . import catalogue
from .drafts import DRAFT_FILES
from .drafts import Section
from .drafts import draft_sections
from .drafts import keyword_occurrences
from .drafts import normalize

__all__ = ["Finding", "audit"]


@dataclass(frozen=True)
class Finding:
    draft: str
    section: str
    problem: str

    def __str__(self) -> str:
        return f"{self.draft} {self.section}: {self.problem}"


def _context(text: str, start: int, end: int, width: int = 90) -> str:
    return "…" + text[max(0, start - width) : end + width] + "…"


def audit(directory: Path | None = None, entries: Catalogue | None = None) -> list[Finding]:
    """What is wrong between the catalogue and the drafts; an empty list when nothing is."""
    entries = entries if entries is not None else catalogue()
    findings: list[Finding] = []
    for draft in DRAFT_FILES:
        sections = {s.number: s for s in draft_sections(draft, directory)}
        covered: dict[str, list[tuple[int, int]]] = {n: [] for n in sections}
        for requirement in entries.for_draft(draft):
            for quote in requirement.quotes:
                section = sections.get(quote.section)
                if section is None or not section.normative:
                    findings.append(
                        Finding(
                            draft,
                            quote.section,
                            f"{requirement.id}: no normative section {quote.section}",
                        )
                    )
                    continue
                spans = _spans(section, normalize(quote.text))
                if not spans:
                    findings.append(
                        Finding(
                            draft,
                            quote.section,
                            f"{requirement.id} quotes text that is not in the section:"
                            f" {quote.text!r}",
                        )
                    )
                covered[quote.section].extend(spans)
        for number, section in sections.items():
            if not section.normative:
                continue
            for match in keyword_occurrences(section.text):
                if not any(
                    start <= match.start() and match.end() <= end for start, end in covered[number]
                ):
                    findings.append(
                        Finding(
                            draft,
                            number,
                            f"{match.group()} has no catalogue entry:"
                            f" {_context(section.text, match.start(), match.end())}",
                        )
                    )
    return findings


def _spans(section: Section, quote: str) -> list[tuple[int, int]]:
    spans, start = [], section.text.find(quote)
    while quote and start >= 0:
        spans.append((start, start + len(quote)))
        start = section.text.find(quote, start + 1)
    return spans
