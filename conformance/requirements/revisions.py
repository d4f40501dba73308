"""Revisions of the drafts: each one's text and its catalogue, and what changed between two.

The suite ships the revision of each draft its checks read (`<draft>.json` beside this file, the
text in `drafts/`). Any other revision is data alone, a folder named after it:

    revisions/draft-gaikwad-woa-01/
        catalogue.json              its requirements, as <draft>.json (catalogue.schema.json)
        draft-gaikwad-woa-01.txt    its text (.txt, or the xml2rfc v3 .xml)

in this package (the suite then lists it, and the newest revision is the default), or anywhere,
given to `run --revision PATH` (a draft's working copy, say). A
requirement keeps its ID across revisions while its sentence survives; `requirements --diff A B`
lists the requirements added, removed and changed (level, section, sentence, role) between two.
A revision whose text is not at hand is not listed: none is invented.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

__all__ = ["Diff", "Revision", "RevisionUnknown", "diff", "latest", "revision", "revisions"]

#: Each draft's name without its revision number.
BASES = {
    "sdsi": "draft-zhou-structured-data-schema-interaction",
    "woa": "draft-gaikwad-woa",
    "aci": "draft-chang-agent-context-interaction",
}
#: The revision whose catalogue and text stand beside this file, per draft.
SHIPPED = {"sdsi": "00", "woa": "00", "aci": "02"}
_NAME = re.compile(r"^(draft-[a-z0-9-]+)-(\d{2})$")
#: What a requirement may change between revisions and keep its ID.
COMPARED = ("level", "section", "quote", "role", "keyword", "basis")


class RevisionUnknown(ValueError):
    """A revision the suite neither ships nor finds at the path given."""


@dataclass(frozen=True)
class Revision:
    draft: str
    name: str
    catalogue_file: Traversable
    text_file: Traversable

    @property
    def number(self) -> int:
        return int(self.name.rsplit("-", 1)[1])

    def entries(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = json.loads(self.catalogue_file.read_text(encoding="utf-8"))
        return found


def _draft_of(name: str) -> str:
    matched = _NAME.match(name)
    draft = next((d for d, base in BASES.items() if matched and matched.group(1) == base), None)
    if draft is None:
        raise RevisionUnknown(
            f"{name} is not a revision of {', '.join(BASES.values())} (such as {BASES['woa']}-00)"
        )
    return draft


def _in_folder(folder: Traversable) -> Revision:
    name = folder.name
    draft = _draft_of(name)
    texts = [folder / f"{name}{suffix}" for suffix in (".txt", ".xml")]
    text = next((t for t in texts if t.is_file()), None)
    catalogue = folder / "catalogue.json"
    if text is None or not catalogue.is_file():
        raise RevisionUnknown(
            f"{name}: a revision's folder holds catalogue.json and {name}.txt (or .xml)"
        )
    return Revision(draft, name, catalogue, text)


@cache
def revisions(folder: Traversable | None = None) -> dict[str, tuple[Revision, ...]]:
    """Every revision the suite ships (or a copy of its requirements' `folder` holds), per draft,
    oldest first."""
    here = folder if folder is not None else resources.files(__package__)
    found = [
        Revision(
            draft,
            f"{BASES[draft]}-{number}",
            here / f"{draft}.json",
            next(
                here / "drafts" / f"{BASES[draft]}-{number}{suffix}"
                for suffix in (".txt", ".xml")
                if (here / "drafts" / f"{BASES[draft]}-{number}{suffix}").is_file()
            ),
        )
        for draft, number in SHIPPED.items()
    ]
    folder = here / "revisions"
    if folder.is_dir():
        found += [_in_folder(f) for f in folder.iterdir() if f.is_dir()]
    return {
        draft: tuple(sorted((r for r in found if r.draft == draft), key=lambda r: r.number))
        for draft in BASES
    }


def latest(draft: str) -> Revision:
    """The newest revision of `draft` the suite ships: the one a run certifies by default."""
    return revisions()[draft][-1]


def revision(given: str) -> Revision:
    """The revision `given` names: a shipped revision's name, or a folder holding one."""
    path = Path(given)
    if path.is_dir():
        return _in_folder(path)
    draft = _draft_of(given)
    known = {r.name: r for r in revisions()[draft]}
    if given not in known:
        raise RevisionUnknown(
            f"{given} is not a revision the suite has (it has {', '.join(known)}); give the"
            " folder of its text and catalogue instead"
        )
    return known[given]


@dataclass(frozen=True)
class Diff:
    before: str
    after: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    #: (requirement, the fields that changed)
    changed: tuple[tuple[str, tuple[str, ...]], ...]

    def lines(self) -> Iterable[str]:
        yield f"{self.before} -> {self.after}"
        yield from (f"+ {i}" for i in self.added)
        yield from (f"- {i}" for i in self.removed)
        yield from (f"~ {i} ({', '.join(fields)})" for i, fields in self.changed)
        yield (f"{len(self.added)} added, {len(self.removed)} removed, {len(self.changed)} changed")


def diff(before: Revision, after: Revision) -> Diff:
    """What changed between two revisions of one draft, requirement by requirement."""
    if before.draft != after.draft:
        raise RevisionUnknown(f"{before.name} and {after.name} are not revisions of one draft")
    old = {e["id"]: e for e in before.entries()}
    new = {e["id"]: e for e in after.entries()}
    changed = tuple(
        (i, fields)
        for i in new
        if i in old and (fields := tuple(f for f in COMPARED if old[i].get(f) != new[i].get(f)))
    )
    return Diff(
        before.name,
        after.name,
        tuple(i for i in new if i not in old),
        tuple(i for i in old if i not in new),
        changed,
    )
