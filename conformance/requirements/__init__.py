"""The requirement catalogue: one entry per normative requirement of the three drafts.

The entries are data (`sdsi.json`, `woa.json`, `aci.json` beside this file, described by
`catalogue.schema.json`); this module loads them into `Requirement` records, rejects duplicate
IDs, and answers look-ups by ID. Every verdict the suite gives names one of these IDs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from importlib import resources
from typing import Any
from typing import Literal

from .revisions import BASES
from .revisions import Revision
from .revisions import latest

__all__ = [
    "DRAFTS",
    "LEVELS",
    "Catalogue",
    "Quote",
    "Requirement",
    "catalogue",
    "catalogue_digest",
    "catalogue_of",
]

Draft = Literal["sdsi", "woa", "aci"]
Level = Literal["MUST", "SHOULD", "MAY"]
Testability = Literal["black-box", "needs-test-hook", "not-remotely-testable"]

#: Each draft's latest revision the suite has (requirements/revisions.py): what a run certifies
#: unless told `--revision`.
DRAFTS: dict[str, str] = {draft: latest(draft).name for draft in BASES}
#: Requirement levels, strongest first. MUST NOT, REQUIRED and SHALL are MUST; RECOMMENDED and
#: SHOULD NOT are SHOULD; OPTIONAL is MAY. The exact words stand in `Requirement.keyword`.
LEVELS: tuple[Level, ...] = ("MUST", "SHOULD", "MAY")


@dataclass(frozen=True)
class Quote:
    section: str
    text: str


@dataclass(frozen=True)
class Requirement:
    """One rule of one draft, with the sentence that states it."""

    id: str
    draft: Draft
    section: str
    level: Level
    keyword: str | None
    role: str
    quote: str
    testability: Testability
    testability_note: str = ""
    #: keyword: a BCP 14 keyword in the quote; figure: a message format a figure or a member list
    #: defines; inferred: a behaviour read out of prose with no keyword (never MUST unless --strict)
    basis: Literal["keyword", "figure", "reference", "inferred"] = "keyword"
    condition: str | None = None
    also: tuple[Quote, ...] = field(default_factory=tuple)
    #: for an inferred rule, the level of the suite's stronger reading, judged so only with --strict
    strict_level: Level | None = None
    #: the revision of the draft whose text this entry quotes
    revision: str = ""

    def level_in(self, strict: bool) -> Level:
        """The level this run judges the requirement at: its own, or its strict reading with
        --strict."""
        return self.strict_level if strict and self.strict_level else self.level

    @property
    def draft_name(self) -> str:
        return self.revision or DRAFTS[self.draft]

    @property
    def url(self) -> str:
        """Where a reader finds the section (the datatracker's rendering of the draft)."""
        return f"https://datatracker.ietf.org/doc/html/{self.draft_name}#section-{self.section}"

    @property
    def quotes(self) -> tuple[Quote, ...]:
        return (Quote(self.section, self.quote), *self.also)

    def as_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "draft": self.draft,
            "section": self.section,
            "level": self.level,
            "keyword": self.keyword,
            "basis": self.basis,
            "strict_level": self.strict_level,
            "role": self.role,
            "quote": self.quote,
            "also": [{"section": q.section, "quote": q.text} for q in self.also],
            "condition": self.condition,
            "testability": self.testability,
            "testability_note": self.testability_note,
            "url": self.url,
        }


class Catalogue:
    """All requirements, in draft and file order, looked up by ID."""

    def __init__(self, requirements: list[Requirement]) -> None:
        self._by_id: dict[str, Requirement] = {}
        for requirement in requirements:
            if requirement.id in self._by_id:
                raise ValueError(f"duplicate requirement ID {requirement.id}")
            self._by_id[requirement.id] = requirement

    def __iter__(self) -> Iterator[Requirement]:
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def __contains__(self, requirement_id: object) -> bool:
        return requirement_id in self._by_id

    def __getitem__(self, requirement_id: str) -> Requirement:
        try:
            return self._by_id[requirement_id]
        except KeyError:
            raise KeyError(f"no requirement {requirement_id!r} in the catalogue") from None

    def for_draft(self, draft: str) -> list[Requirement]:
        return [r for r in self if r.draft == draft]


def _entry(draft: str, raw: dict[str, object], revision: str) -> Requirement:
    data = dict(raw)
    also = tuple(Quote(a["section"], a["quote"]) for a in data.pop("also", []))  # type: ignore[attr-defined]
    return Requirement(draft=draft, also=also, revision=revision, **data)  # type: ignore[arg-type]


def raw_entries(draft: str) -> list[dict[str, object]]:
    """The catalogue file of `draft` as written, for the tests that check it against its schema."""
    text = (resources.files(__package__) / f"{draft}.json").read_text(encoding="utf-8")
    entries: list[dict[str, object]] = json.loads(text)
    return entries


@cache
def catalogue() -> Catalogue:
    """The whole catalogue, each draft at its latest revision (loaded once)."""
    return catalogue_of(())


@cache
def catalogue_of(chosen: tuple[Revision, ...]) -> Catalogue:
    """The catalogue of the `chosen` revisions, and of the latest for every other draft."""
    picked = {r.draft: r for r in chosen}
    return Catalogue(
        [
            _entry(draft, entry, picked.get(draft, latest(draft)).name)
            for draft in BASES
            for entry in picked.get(draft, latest(draft)).entries()
        ]
    )


@cache
def catalogue_digest(revisions: tuple[Revision, ...] = ()) -> str:
    """SHA-256 of the requirement catalogue as the suite reads it (which rules, at which level,
    quoting what), each draft at its latest revision or at those given, over its canonical JSON
    (RFC 8785): recordings and attestations name the catalogue they were judged by."""
    import rfc8785

    entries: list[Any] = [r.as_dict() for r in catalogue_of(revisions)]
    return hashlib.sha256(rfc8785.dumps(entries)).hexdigest()
