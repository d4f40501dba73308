"""A second revision of WoA for the tests, made from -00 in a folder of theirs (no second revision's
text is at hand; the suite lists none): named -99 so that nobody takes it for a real one, one
requirement removed (WOA-4-VERSION-1, whose sentence it drops), one changed (a SHOULD made a MUST),
one added (with no check yet)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from conformance.requirements import DRAFTS

__all__ = ["ADDED", "CHANGED", "FAKE", "REMOVED", "made_revision"]

FAKE = "draft-gaikwad-woa-99"
REMOVED, CHANGED, ADDED = "WOA-4-VERSION-1", "WOA-7-CACHING-HEADERS", "WOA-4-REVISION-NOTE"


def made_revision(parent: Path) -> Path:
    """The revision's folder, made in `parent`: its text (WoA -00's, less the woa_version
    sentence) and its catalogue."""
    here = resources.files("conformance.requirements")
    made = parent / FAKE
    made.mkdir()
    text = (here / "drafts" / f"{DRAFTS['woa']}.txt").read_text(encoding="utf-8")
    (made / f"{FAKE}.txt").write_text(
        text.replace('For this specification the value MUST be the string "1".', "")
    )
    entries: list[dict[str, Any]] = json.loads((here / "woa.json").read_text(encoding="utf-8"))
    kept = [e for e in entries if e["id"] != REMOVED]
    changed = next(e for e in kept if e["id"] == CHANGED)
    assert changed["level"] == "SHOULD"
    changed["level"] = "MUST"
    kept.append({**kept[0], "id": ADDED, "quote": "A sentence only this revision has."})
    (made / "catalogue.json").write_text(json.dumps(kept))
    return made
