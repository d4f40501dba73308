"""Read the three drafts into numbered sections of normative text.

The requirement catalogue quotes these sections, and the completeness test checks that every
BCP 14 keyword of normative text is covered by a quote. What is not normative is excluded by
rule (front matter, the BCP 14 paragraph, references, non-normative appendices), never by list.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

__all__ = [
    "DRAFT_FILES",
    "KEYWORD_RE",
    "Section",
    "draft_sections",
    "keyword_occurrences",
    "normalize",
]

DRAFT_FILES = {
    "sdsi": "draft-zhou-structured-data-schema-interaction-00.txt",
    "woa": "draft-gaikwad-woa-00.txt",
    "aci": "draft-chang-agent-context-interaction-02.xml",
}

#: BCP 14 keywords, longest first so that "MUST NOT" wins over "MUST".
KEYWORD_RE = re.compile(
    r"\b(MUST NOT|MUST|REQUIRED|SHALL NOT|SHALL|SHOULD NOT|SHOULD|NOT"
    r" RECOMMENDED|RECOMMENDED|MAY|OPTIONAL)\b"
)
_BCP14_PARAGRAPH = re.compile(r'The key words "MUST".*?as shown here\.', re.S)
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Section:
    """One numbered section: its number as rendered, its title and its whitespace-folded text."""

    number: str
    title: str
    text: str
    normative: bool


def normalize(text: str) -> str:
    """Fold every run of white space to one space, as quotes in the catalogue are written."""
    return _SPACE.sub(" ", text).strip()


def keyword_occurrences(text: str) -> list[re.Match[str]]:
    """Every BCP 14 keyword in `text` (all capitals only, as BCP 14 says)."""
    return list(KEYWORD_RE.finditer(text))


def _draft_source(draft: str, directory: Path | None) -> str:
    if directory is not None:
        return (directory / DRAFT_FILES[draft]).read_text(encoding="utf-8")
    return (resources.files(__package__) / "drafts" / DRAFT_FILES[draft]).read_text(
        encoding="utf-8"
    )


@cache
def draft_sections(draft: str, directory: Path | None = None) -> tuple[Section, ...]:
    """The sections of `draft` ("sdsi", "woa" or "aci") from `directory`, or the copy shipped
    here."""
    source = _draft_source(draft, directory)
    sections = _xml_sections(source) if draft == "aci" else _text_sections(source, draft)
    return tuple(
        Section(s.number, s.title, normalize(_BCP14_PARAGRAPH.sub(" ", s.text)), s.normative)
        for s in sections
    )


# -- plain-text drafts (SDSI as rendered text, WoA as the RFC-style text) ----------------------

_HEADING = re.compile(r"^ ?((?:\d+|[A-Z])(?:\.\d+)*)\.\s+([A-Z][^.]{0,70})$")
_APPENDIX = re.compile(r"^ ?Appendix ([A-Z])[.:]\s+(.+)$")
_PAGE_FURNITURE = re.compile(
    r"^(Gaikwad Expires|Internet-Draft WoA|Internet-Draft Structured Data|Zhou & Peng Expires)"
)
_BACK_MATTER = re.compile(r"^ ?(Authors?'s? Address(es)?)$")


def _is_non_normative(title: str, body: str) -> bool:
    return "non-normative" in (title + " " + body[:300]).lower()


def _is_excluded(title: str) -> bool:
    return "references" in title.lower() or title.lower().startswith("table of contents")


def _text_sections(source: str, draft: str) -> list[Section]:
    lines = [ln for ln in source.splitlines() if not _PAGE_FURNITURE.match(ln)]
    sections: list[list[str]] = []  # [number, title, *body lines]
    started = False
    appendix: str | None = None
    for line in lines:
        if _BACK_MATTER.match(line):
            break
        heading = _HEADING.match(line)
        if heading and ". . ." not in line and (started or heading.group(1) == "1"):
            number, title = heading.group(1), heading.group(2).strip()
            if appendix and number.startswith(appendix + "."):
                pass  # SDSI's "A.1." sub-sections of an appendix
            elif number.isalpha():
                continue
            else:
                appendix = None if number[0].isdigit() else appendix
            started = True
            sections.append([number, title])
            continue
        app = _APPENDIX.match(line)
        if app and started:
            appendix = app.group(1)
            sections.append([appendix, app.group(2).strip()])
            continue
        if started:
            sections[-1].append(line)
    result = []
    inherited_non_normative: set[str] = set()
    for number, title, *body in sections:
        text = "\n".join(body)
        root = number.split(".")[0]
        non_normative = _is_non_normative(title, text) or root in inherited_non_normative
        if non_normative and "." not in number:
            inherited_non_normative.add(root)
        result.append(Section(number, title, text, not (non_normative or _is_excluded(title))))
    return result


# -- the ACI draft, from its xml2rfc v3 source ----------------------------------------------------


def _xml_sections(source: str) -> list[Section]:
    root = ET.fromstring(source.encode("utf-8"))
    middle = root.find("middle")
    assert middle is not None, "the ACI source has no <middle>"
    found: list[Section] = []

    def walk(element: ET.Element, prefix: str) -> None:
        for index, child in enumerate(element.findall("section"), start=1):
            number = f"{prefix}{index}"
            name = child.find("name")
            title = normalize("".join(name.itertext())) if name is not None else ""
            text = " ".join("".join(t.itertext()) for t in child.findall("t"))
            normative = title not in {"Acknowledgments", "IANA Considerations"}
            found.append(Section(number, title, text, normative))
            walk(child, number + ".")

    walk(middle, "")
    return found
