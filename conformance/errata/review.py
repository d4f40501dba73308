"""The errata register as a review the drafts' authors can apply.

Each draft gets one document; its entries are ordered by section, and each is written the way
the RFC Editor writes errata: the original text, the corrected text that replaces it, and notes
(the problem, the suite's reading until the draft changes, and the requirements that rest on it).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ..requirements import DRAFTS
from ..requirements.drafts import draft_sections
from . import KINDS, Erratum

__all__ = ["review_markdown"]

_KIND_TITLES = {
    "slip": "editorial slip",
    "gap": "gap",
    "ambiguity": "ambiguity",
    "duplicate": "duplicate text",
    "interpretation": "reading",
    "figure-repair": "broken figure",
}


def _section_key(section: str) -> tuple[int, tuple[int, ...]]:
    """Numbered sections first, in numeric order, then appendices (A, A.1, B...)."""
    head, *rest = section.split(".")
    numbers = tuple(int(part) for part in rest if part.isdigit())
    if head.isdigit():
        return (0, (int(head), *numbers))
    return (1, (ord(head[:1] or "Z"), *numbers))


def _blockquote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.strip().splitlines())


def _titles(draft: str) -> dict[str, str]:
    return {s.number: s.title for s in draft_sections(draft)}


def _entry(erratum: Erratum, number: int) -> list[str]:
    lines = [f"### {number}. {erratum.id} ({_KIND_TITLES[erratum.kind]})", ""]
    lines += [f"**Original text** (Section {erratum.section}):", "", _blockquote(erratum.text), ""]
    if erratum.proposal:
        lines += ["**Corrected text:**", "", _blockquote(erratum.proposal), ""]
    notes = f"**Notes:** {erratum.issue}"
    lines += [notes, "", f"*Until the draft says so, the suite reads it this way:* {erratum.interpretation}", ""]
    for name, reading in erratum.readings.items():
        lines.append(f"- `{name}`: {reading}")
    if erratum.readings:
        lines.append("")
    if erratum.requirements:
        lines += ["*Requirements that rest on it:* " + ", ".join(f"`{r}`" for r in erratum.requirements), ""]
    return lines


def _draft_review(draft: str, entries: list[Erratum]) -> list[str]:
    counts: Counter[str] = Counter(e.kind for e in entries)
    summary = ", ".join(f"{counts[k]} {_KIND_TITLES[k]}{'s' if counts[k] != 1 else ''}" for k in KINDS if counts[k])
    lines = [
        f"# Review of {DRAFTS[draft]}",
        "",
        f"{len(entries)} comments: {summary}. Each gives the original text, the text proposed to "
        "replace it, and notes; the suite applies the reading in the notes until the draft changes.",
        "",
    ]
    titles = _titles(draft)
    section = None
    for number, erratum in enumerate(sorted(entries, key=lambda e: _section_key(e.section)), 1):
        if erratum.section != section:
            section = erratum.section
            lines += [f"## Section {section}. {titles.get(section, '')}".rstrip(". "), ""]
        lines += _entry(erratum, number)
    return lines


def review_markdown(entries: Iterable[Erratum]) -> str:
    """A Markdown review per draft of `entries`, drafts in the catalogue's order."""
    entries = list(entries)
    documents = [
        "\n".join(_draft_review(draft, [e for e in entries if e.draft == draft]))
        for draft in DRAFTS
        if any(e.draft == draft for e in entries)
    ]
    return re.sub(r"\n{3,}", "\n\n", "\n\n".join(documents)).rstrip() + "\n"
