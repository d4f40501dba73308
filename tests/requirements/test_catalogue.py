"""The catalogue is well-formed, complete against the drafts, and its audit can fail."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conformance.requirements import DRAFTS
from conformance.requirements import Catalogue
from conformance.requirements import catalogue
from conformance.requirements import raw_entries
from conformance.requirements.audit import audit
from conformance.requirements.drafts import DRAFT_FILES
from conformance.requirements.drafts import draft_sections
from conformance.requirements.drafts import keyword_occurrences


@pytest.mark.parametrize("draft", DRAFTS)
def test_catalogue_file_matches_its_schema(draft: str) -> None:
    schema = json.loads(
        resources.files("conformance.requirements").joinpath("catalogue.schema.json").read_text()
    )
    errors = [
        f"{list(e.absolute_path)}: {e.message}"
        for e in Draft202012Validator(schema).iter_errors(raw_entries(draft))
    ]
    assert errors == []


def test_every_id_names_its_draft_and_section() -> None:
    for requirement in catalogue():
        prefix = f"{requirement.draft.upper()}-{requirement.section}-"
        assert requirement.id.startswith(prefix), requirement.id


def test_duplicate_ids_are_rejected() -> None:
    first = next(iter(catalogue()))
    with pytest.raises(ValueError, match="duplicate requirement ID"):
        Catalogue([first, first])


def test_every_normative_keyword_is_catalogued_and_every_quote_is_in_the_draft(
    drafts_dir: Path | None,
) -> None:
    """The completeness test: re-reads the drafts (../shared/drafts when present)."""
    findings = audit(drafts_dir)
    assert not findings, "\n".join(map(str, findings))


def test_shipped_drafts_are_the_shared_drafts(drafts_dir: Path | None) -> None:
    if drafts_dir is None:
        pytest.skip("no ../shared/drafts beside this checkout")
    shipped = resources.files("conformance.requirements") / "drafts"
    for name in DRAFT_FILES.values():
        assert shipped.joinpath(name).read_bytes() == (drafts_dir / name).read_bytes(), name


def test_the_audit_finds_a_missing_entry_and_a_misquote() -> None:
    kept = [r for r in catalogue() if r.id != "WOA-7-CLIENT-HONORS-CACHING"]
    misquoted = [
        (
            dataclasses.replace(r, quote=r.quote + " (not in the draft)")
            if r.id == "SDSI-4.3-OTHER-OPTIONAL"
            else r
        )
        for r in kept
    ]
    problems = [str(f) for f in audit(entries=Catalogue(misquoted))]
    assert any(
        "SDSI-4.3-OTHER-OPTIONAL quotes text that is not in the section" in p for p in problems
    )
    assert any(p.startswith("woa 7: SHOULD has no catalogue entry") for p in problems)


def test_boilerplate_is_excluded_by_rule() -> None:
    for draft in DRAFT_FILES:
        text = " ".join(s.text for s in draft_sections(draft) if s.normative)
        assert 'The key words "MUST"' not in text
        assert "Status of This Memo" not in text


def test_keyword_counts_are_those_of_the_drafts() -> None:
    """About 130 keyword sentences by the issue's rough count; every occurrence is counted here."""
    counts = {
        d: sum(len(keyword_occurrences(s.text)) for s in draft_sections(d) if s.normative)
        for d in DRAFT_FILES
    }
    assert counts == {"sdsi": 69, "woa": 74, "aci": 11}


def test_aci_structural_rules_are_marked_as_such() -> None:
    structural = [r for r in catalogue().for_draft("aci") if r.basis in ("figure", "inferred")]
    assert {
        "ACI-2.1-ONLY-TARGET-AGENTCONTEXT-DELIVERED",
        "ACI-5.2-ITEM-STATE-BINARY",
        "ACI-5.2-TWO-PHASE-UNFINISHED",
        "ACI-5.2-TWO-PHASE-VERIFIED",
    } <= {r.id for r in structural}
    assert all(r.keyword is None for r in structural)


def test_no_requirement_is_must_unless_its_sentence_or_a_figure_says_so() -> None:
    """A MUST rests on MUST, MUST NOT, REQUIRED, SHALL or SHALL NOT in its quote, on a figure (or
    ACI's structure) that fixes the format it checks, or on a normative reference the quote invokes
    (RFC 8259 for JSON text); a rule read out of prose is inferred, never MUST."""
    strong = {"MUST", "MUST NOT", "REQUIRED", "SHALL", "SHALL NOT"}
    wrong = [
        r.id
        for r in catalogue()
        if r.level == "MUST"
        and not (r.basis == "keyword" and r.keyword in strong)
        and r.basis not in ("figure", "structure", "reference")
    ]
    assert wrong == []
    assert all(
        r.keyword.split()[0] in r.quote
        for r in catalogue()
        if r.level == "MUST" and r.basis == "keyword" and r.keyword
    )
