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
from . import KINDS
from . import Erratum

__all__ = ["review_markdown"]

_KIND_TITLES = {
    "slip": "editorial slip",
    "gap": "gap",
    "ambiguity": "ambiguity",
    "duplicate": "duplicate text",
    "interpretation": "reading",
    "figure-repair": "broken figure",
}


_PLURALS = {
    "slip": "editorial slips",
    "gap": "gaps",
    "ambiguity": "ambiguities",
    "duplicate": "duplicate texts",
    "interpretation": "readings",
    "figure-repair": "broken figures",
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


def _comment(errata: list[Erratum], number: int) -> list[str]:
    """One comment on one passage: the entries that quote it, its corrected text(s), and each
    entry's notes."""
    first = errata[0]
    kinds = ", ".join(dict.fromkeys(_KIND_TITLES[e.kind] for e in errata))
    lines = [f"### {number}. {', '.join(e.id for e in errata)} ({kinds})", ""]
    lines += [f"**Original text** (Section {first.section}):", "", _blockquote(first.text), ""]
    proposals = list(dict.fromkeys(e.proposal for e in errata if e.proposal))
    for proposal in proposals:
        lines += ["**Corrected text:**", "", _blockquote(proposal), ""]
    for erratum in errata:
        named = f" ({erratum.id})" if len(errata) > 1 else ""
        lines += [
            f"**Notes{named}:** {erratum.issue}",
            "",
            f"*Until the draft says so, the suite reads it this way:* {erratum.interpretation}",
            "",
        ]
        for name, reading in erratum.readings.items():
            lines.append(f"- `{name}`: {reading}")
        if erratum.readings:
            lines.append("")
        if erratum.requirements:
            lines += [
                "*Requirements that rest on it:* "
                + ", ".join(f"`{r}`" for r in erratum.requirements),
                "",
            ]
    return lines


def _draft_review(draft: str, entries: list[Erratum]) -> list[str]:
    counts: Counter[str] = Counter(e.kind for e in entries)
    summary = ", ".join(
        f"{counts[k]} {_KIND_TITLES[k] if counts[k] == 1 else _PLURALS[k]}"
        for k in KINDS
        if counts[k]
    )
    lines = [
        f"# Review of {DRAFTS[draft]}",
        "",
        (
            f"{len(entries)} entries on"
            f" {len({(e.section, ' '.join(e.text.split())) for e in entries})} passages: {summary}."
            " Each comment gives the original text, the text proposed to replace it, and notes;"
            " the suite applies the reading in the notes until the draft changes."
        ),
        "",
    ]
    titles = _titles(draft)
    passages: dict[tuple[str, str], list[Erratum]] = {}
    for erratum in sorted(entries, key=lambda e: _section_key(e.section)):
        passages.setdefault((erratum.section, " ".join(erratum.text.split())), []).append(erratum)
    section = None
    for number, errata in enumerate(passages.values(), 1):
        if errata[0].section != section:
            section = errata[0].section
            lines += [f"## Section {section}. {titles.get(section, '')}".rstrip(". "), ""]
        lines += _comment(errata, number)
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
