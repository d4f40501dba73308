"""Every check read against its sentence (docs/check-review.json, rendered to
docs/check-review.md by tools/render_check_review.py): one entry per registered check, under the
requirement it judges."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from conformance.checks import CHECKS
from conformance.errata import register
from conformance.requirements import catalogue
from conformance.requirements.drafts import DRAFT_FILES
from conformance.requirements.drafts import draft_sections
from conformance.requirements.drafts import normalize

ROOT = Path(__file__).parents[2]
REVIEW = json.loads((ROOT / "docs" / "check-review.json").read_text(encoding="utf-8"))


def test_every_check_is_reviewed_once_under_its_requirement_and_level() -> None:
    assert sorted(e["check"] for e in REVIEW) == sorted(CHECKS)
    for entry in REVIEW:
        assert CHECKS[entry["check"]].requirement == entry["requirement"]
        assert entry["level"] == catalogue()[entry["requirement"]].level, entry["check"]
        assert entry["verdict"] in ("exact", "over", "under")
        assert entry["status"] == (
            "" if entry["verdict"] == "exact" else entry["status"]
        ) and entry["status"] in ("", "open", "fixed")
        assert entry["verdict"] == "exact" or entry["fix"], entry["check"]


def test_every_must_check_has_a_second_reading_and_every_fix_its_proof() -> None:
    """Issue 38: each MUST check read again by a reader who neither wrote it nor saw the first
    reading. A reading that says over or under is fixed (naming the fault or test that proves the
    fix, each of which exists), disputed (with the first reader's answer) or open (the issue stays
    open with it)."""
    from mocks.faults.catalogue import FAULTS

    for entry in REVIEW:
        second = entry.get("second_reading")
        if entry["level"] == "MUST":
            assert second, entry["check"]
        if not second:
            continue
        assert second["verdict"] in ("exact", "over", "under"), entry["check"]
        assert second["status"] == ("" if second["verdict"] == "exact" else second["status"])
        assert second["status"] in ("", "open", "fixed", "disputed"), entry["check"]
        if second["status"] == "disputed":
            assert second["resolution"], entry["check"]
        if second["verdict"] != "exact":
            assert second["counter_example"], entry["check"]
        if second["status"] == "fixed":
            assert second["proof"], entry["check"]
            for proof in second["proof"]:
                path, _, test = proof.partition("::")
                if path.startswith("tests/"):
                    source = (ROOT / path).read_text(encoding="utf-8")
                    assert not test or f"def {test}(" in source, proof
                else:
                    assert proof in FAULTS, proof


def test_the_markdown_table_is_rendered_from_the_review() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "render_check_review.py"), "--check"],
        capture_output=True,
    )
    assert done.returncode == 0, "run: python tools/render_check_review.py"


_ID = re.compile(
    r"(?<![A-Z-])(E-)?((?:SDSI|WOA|ACI)-[0-9][0-9.]*-[A-Z0-9-]*[A-Z0-9])(?![A-Z0-9-])(?! \(not"
    r" made)"
)


def test_every_id_the_review_names_exists_unless_it_says_not_made() -> None:
    requirements = {r.id for r in catalogue()}
    errata = {e.id for e in register()}
    unknown = [
        (entry["check"], "".join(found))
        for entry in REVIEW
        for text in _texts(entry)
        for found in _ID.findall(text)
        if (f"E-{found[1]}" not in errata if found[0] else found[1] not in requirements)
    ]
    assert unknown == []


def test_every_quote_of_the_review_stands_in_the_drafts() -> None:
    """A passage of 25 characters or more in double quotes is the drafts' text (white space
    folded; an ellipsis may join two pieces), as the catalogue's quotes are."""
    drafts = " ".join(s.text for d in DRAFT_FILES for s in draft_sections(d))
    misquoted = []
    for entry in REVIEW:
        second = entry.get("second_reading") or {}
        texts = (entry["sentence_requires"], entry["why"], second.get("sentence_requires", ""))
        for text in texts:
            for quote in re.findall(r'"(\S[^"]{24,})"', text):
                pieces = [
                    p.strip()
                    for p in re.split(r"\.\.\.|…", normalize(quote).rstrip(".,;:"))
                    if p.strip()
                ]
                if not all(p in drafts for p in pieces):
                    misquoted.append((entry["check"], quote))
    assert misquoted == []


def _texts(entry: dict[str, str]) -> list[str]:
    return [entry["sentence_requires"], entry["check_asserts"], entry["why"], entry["fix"]]
