"""Every SDSI and ACI check is proven by a named fault, and every black-box MUST of those drafts
has a check (WoA's host and client say the same in their own, finer, tests)."""

from __future__ import annotations

import pytest

from conformance.checks import CHECKS
from conformance.cli.mutate import PROVEN_BY_TESTS
from conformance.requirements import catalogue
from mocks.faults.catalogue import FAULTS

DRAFTS = ["sdsi", "aci"]


@pytest.mark.parametrize("draft", DRAFTS)
def test_every_check_has_a_fault(draft: str) -> None:
    prefix = f"{draft.upper()}-"
    checked = {c.requirement for c in CHECKS.values() if c.requirement.startswith(prefix)}
    faulted = {f.requirement for name, f in FAULTS.items() if name.startswith(f"{draft}-")}
    # a rule that fails only off loopback is proven by the test that fails it
    assert checked == faulted | {r for r in PROVEN_BY_TESTS if r.startswith(prefix)}


@pytest.mark.parametrize("draft", DRAFTS)
def test_every_black_box_must_has_a_check(draft: str) -> None:
    checked = {c.requirement for c in CHECKS.values()}
    uncovered = [
        r.id
        for r in catalogue().for_draft(draft)
        if r.testability == "black-box" and r.level == "MUST" and r.id not in checked
    ]
    assert uncovered == []
