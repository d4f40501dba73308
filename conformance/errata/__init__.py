"""The errata register: every slip, gap and ambiguity of the drafts, and how the suite reads it.

Entries are data (`register.json` beside this module). Each quotes the draft (the original text),
says what is wrong or unclear, proposes the text that would fix it (the corrected text, which
replaces the quote), states the suite's interpretation until the draft changes and the requirements
it touches, and, where a user might fairly read the draft another way, names the alternative
readings. `review.py` renders the register as a review the authors can apply, in the form of RFC
errata."""

from __future__ import annotations

import json
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from importlib import resources
from typing import Literal

__all__ = ["KINDS", "Erratum", "register"]

Kind = Literal["slip", "gap", "ambiguity", "duplicate", "interpretation", "figure-repair"]
KINDS: tuple[str, ...] = (
    "slip",
    "gap",
    "ambiguity",
    "duplicate",
    "interpretation",
    "figure-repair",
)


@dataclass(frozen=True)
class Erratum:
    id: str
    draft: str
    section: str
    kind: Kind
    text: str
    issue: str
    interpretation: str
    proposal: str = ""
    requirements: tuple[str, ...] = ()
    readings: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {**self.__dict__, "requirements": list(self.requirements)}


@cache
def register() -> tuple[Erratum, ...]:
    """Every entry of the register, in its order."""
    raw = json.loads((resources.files(__package__) / "register.json").read_text(encoding="utf-8"))
    entries = tuple(Erratum(**{**e, "requirements": tuple(e.get("requirements", ()))}) for e in raw)
    ids = [e.id for e in entries]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise ValueError(f"duplicate errata IDs: {sorted(duplicates)}")
    return entries
