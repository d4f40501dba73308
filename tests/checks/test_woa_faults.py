"""Every WoA check is proven by a mutant: the reference host passes, and each named fault fails
on its own requirement and on no other. The table of faults caught is printed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance.checks import CHECKS
from conformance.report import Result
from conformance.report import Status
from conformance.requirements import catalogue
from mocks.faults.catalogue import FAULTS
from tests.checks.mutants import caught_alone
from tests.checks.mutants import certify as certify_suite
from tests.checks.mutants import print_table

WOA_FAULTS = sorted(name for name in FAULTS if name.startswith("woa-"))
CAUGHT: dict[str, str] = {}


def certify(fault: str | None) -> list[Result]:
    return certify_suite(fault, "woa")


@pytest.fixture(scope="module", autouse=True)
def table() -> Iterator[None]:
    yield
    print_table(CAUGHT, len(WOA_FAULTS), "WoA")


def test_the_reference_host_has_no_must_or_should_failure() -> None:
    results = certify(None)
    assert [r for r in results if r.status in (Status.FAIL, Status.ERROR)] == []
    assert {r.status for r in results if r.check} <= {
        Status.PASS,
        Status.NOT_APPLICABLE,
        Status.SKIP,
    }


@pytest.mark.parametrize("name", WOA_FAULTS)
def test_the_fault_is_caught_on_its_requirement_alone(name: str) -> None:
    results = certify(name)
    CAUGHT[name], alone = caught_alone(results, FAULTS[name].requirement)
    assert alone, [(r.requirement, r.message) for r in results if r.status is Status.FAIL]


def test_every_woa_check_has_a_fault_and_every_fault_a_check() -> None:
    checked = {
        c.requirement
        for c in CHECKS.values()
        if c.requirement.startswith("WOA-") and c.driver is None
    }
    faulted = {FAULTS[name].requirement for name in WOA_FAULTS}
    assert faulted <= checked
    # WOA-8.1-NO-PLAIN-HTTP: what breaks it breaks two wider MUSTs too
    # (tests/checks/test_woa_waivers.py proves it)
    assert checked - faulted == {"WOA-8.1-NO-PLAIN-HTTP"}, "a check that no fault proves"


def test_every_black_box_woa_host_requirement_has_a_check() -> None:
    checked = {c.requirement for c in CHECKS.values()}
    uncovered = [
        r.id
        for r in catalogue().for_draft("woa")
        if r.testability == "black-box"
        and r.role in ("host", "any")
        and r.level != "MAY"
        and r.id not in checked
    ]
    assert uncovered == []
