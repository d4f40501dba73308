"""Verdicts as strong as the drafts' words: a rule read out of prose never decides MUST compliance
without --strict, a MAY never fails, and a requirement's basis follows its quote."""

from __future__ import annotations

import re

from conformance.engine.gate import ExitCode
from conformance.engine.gate import decide
from conformance.report import Result
from conformance.report import Status
from conformance.report import summarize
from conformance.requirements import catalogue
from tests.checks.mutants import certify

BCP14 = re.compile(
    r"\b(MUST NOT|MUST|REQUIRED|SHALL NOT|SHALL|SHOULD NOT|SHOULD|NOT"
    r" RECOMMENDED|RECOMMENDED|MAY|OPTIONAL)\b"
)


def test_the_basis_is_keyword_exactly_when_the_quote_holds_a_bcp14_keyword() -> None:
    for requirement in catalogue():
        assert requirement.basis in ("keyword", "figure", "reference", "inferred"), requirement.id
        if requirement.basis == "reference":  # the normative reference that binds it is named
            assert re.search(r"RFC \d+", requirement.testability_note or ""), requirement.id
        holds = BCP14.search(requirement.quote) is not None
        assert (requirement.basis == "keyword") == (requirement.keyword is not None), requirement.id
        if requirement.basis == "keyword":
            assert (
                holds
                and requirement.keyword is not None
                and requirement.keyword in requirement.quote
            ), requirement.id


def test_no_inferred_requirement_decides_a_must_without_strict() -> None:
    inferred = [r for r in catalogue() if r.basis == "inferred"]
    assert inferred and all(r.level != "MUST" for r in inferred)
    assert all(r.level_in(strict=True) == (r.strict_level or r.level) for r in inferred)


def test_an_invoked_agent_that_never_fetches_its_context_uri_passes_without_strict() -> None:
    """The independent ACI -01 implementation's case: the sentence describes ContextURI, it binds
    no one."""
    lenient = certify("aci-5.2-context-uri-resolved", "aci", ("invoked", "any"))
    verdict = next(r for r in lenient if r.requirement == "ACI-5.2-CONTEXT-URI-RESOLVED")
    assert (
        verdict.status is Status.FAIL and verdict.level == "SHOULD" and verdict.basis == "inferred"
    )
    assert decide(summarize(lenient)).code == ExitCode.PASSED
    strict = certify("aci-5.2-context-uri-resolved", "aci", ("invoked", "any"), strict=True)
    assert (
        next(r for r in strict if r.requirement == "ACI-5.2-CONTEXT-URI-RESOLVED").level == "MUST"
    )
    assert decide(summarize(strict)).code == ExitCode.MUST_FAILED


def test_a_may_never_fails() -> None:
    """LastUpdated as ISO 8601 without an offset: the draft gives no format
    (E-ACI-5.2-LASTUPDATED-FORMAT)."""
    requirement = catalogue()["ACI-5.2-LAST-UPDATED-TIMESTAMP"]
    assert requirement.level == "MAY"
    result = Result.of(requirement, Status.FAIL, "LastUpdated '2026-05-04T09:00:00' has no offset")
    assert result.status is Status.PASS and result.message.startswith("warning (a MAY never fails)")
    assert summarize([result]).count("MAY", Status.FAIL) == 0


def test_a_masters_channel_to_the_suites_plain_http_spies_is_not_judged_never_passed() -> None:
    results = certify(None, "aci", ("master", "any"))
    verdict = next(r for r in results if r.requirement == "ACI-6-AGENTCONTEXT-CONFIDENTIALITY")
    assert verdict.status is Status.NOT_APPLICABLE and "suite's spies" in verdict.message
