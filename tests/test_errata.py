"""The errata register quotes the drafts, names real requirements, and records every figure
repair."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conformance.errata import register
from conformance.requirements import catalogue
from conformance.requirements.drafts import _draft_source
from conformance.requirements.drafts import normalize
from conformance.vectors import message_vector_files


def _draft_text(draft: str, directory: Path | None) -> str:
    furniture = re.compile(r"(?m)^(Gaikwad Expires|Internet-Draft WoA).*$")
    return normalize(furniture.sub("", _draft_source(draft, directory)))


def test_every_entry_quotes_its_draft(drafts_dir: Path | None) -> None:
    missing = [
        e.id for e in register() if normalize(e.text) not in _draft_text(e.draft, drafts_dir)
    ]
    assert missing == []


def test_every_entry_names_catalogued_requirements() -> None:
    unknown = [(e.id, r) for e in register() for r in e.requirements if r not in catalogue()]
    assert unknown == []


def test_the_slips_named_by_the_developers_guide_are_recorded() -> None:
    ids = {e.id for e in register()}
    assert {
        "E-ACI-5.1-FIGURE-JSON",
        "E-ACI-5.2-FIGURE-JSON",
        "E-ACI-5.2-ITEMSTATE-SPELLING",
        "E-SDSI-3.2-STEP-NUMBERING",
    } <= ids


def test_every_figure_repair_is_applied_by_a_vector_and_every_repair_is_registered() -> None:
    repairs = {e.id for e in register() if e.kind == "figure-repair"}
    applied = {
        r
        for path in message_vector_files()
        for r in json.loads(path.read_text()).get("repairs", [])
    }
    assert applied == repairs


def test_every_entry_proposes_text_to_the_authors() -> None:
    assert [e.id for e in register() if not e.proposal.strip()] == []


def test_the_review_comments_once_per_passage_with_its_corrected_text() -> None:
    from conformance.errata.review import review_markdown

    woa = [e for e in register() if e.draft == "woa"]
    review = review_markdown(woa)
    passages = {(e.section, " ".join(e.text.split())) for e in woa}
    assert review.count("**Original text**") == len(passages)
    assert review.count("**Corrected text:**") >= len(passages)
    assert review.startswith("# Review of draft-gaikwad-woa-00\n")
    assert "**Notes (E-BASIS-WOA-1-WELL-KNOWN-LOCATION):**" in review
