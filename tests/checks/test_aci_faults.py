"""Every ACI check is proven by a mutant: the reference agents pass (invoked agents over WoA REST
and A2A), each named fault fails on its own requirement and no other, over each binding it
concerns. The table of faults caught is printed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance.checks.registry import checks_for
from conformance.report import Status
from mocks.faults.catalogue import FAULTS
from tests.checks.mutants import caught_alone
from tests.checks.mutants import certify
from tests.checks.mutants import print_table

ACI_FAULTS = sorted(name for name in FAULTS if name.startswith("aci-"))
INVOKED = ("invoked", "any")
MASTER = ("master", "any")


def roles_of(name: str) -> tuple[str, ...]:
    """The role whose checks judge a fault's requirement (the module of its check: master or
    invoked)."""
    modules = {c.function.__module__ for c in checks_for(FAULTS[name].requirement)}
    return MASTER if modules == {"conformance.checks.aci.master"} else INVOKED


CAUGHT: dict[str, str] = {}


@pytest.fixture(scope="module", autouse=True)
def table() -> Iterator[None]:
    yield
    print_table(CAUGHT, len(ACI_FAULTS), "ACI")


@pytest.mark.parametrize(
    "roles, binding", [(INVOKED, "woa-rest"), (INVOKED, "a2a"), (MASTER, "woa-rest")]
)
def test_the_reference_agents_have_no_failure(roles: tuple[str, ...], binding: str) -> None:
    results = certify(None, "aci", roles, binding)
    assert [
        (r.requirement, r.message) for r in results if r.status in (Status.FAIL, Status.ERROR)
    ] == []
    assert sum(r.status is Status.PASS for r in results) >= 13


@pytest.mark.parametrize("name", ACI_FAULTS)
def test_the_fault_is_caught_on_its_requirement_alone(name: str) -> None:
    """A MAY never fails: its fault is caught as the warning in its pass, and nothing fails."""
    results = certify(name, "aci", roles_of(name))
    CAUGHT[name], alone = caught_alone(results, FAULTS[name].requirement)
    assert alone, [(r.requirement, r.message) for r in results if r.status is Status.FAIL]


@pytest.mark.parametrize(
    "name", ["aci-5.2-no-completion-without-context", "aci-5.2-item-state-binary"]
)
def test_a_fault_is_caught_over_a2a_too(name: str) -> None:
    results = certify(name, "aci", INVOKED, "a2a")
    assert {r.requirement for r in results if r.status is Status.FAIL} == {FAULTS[name].requirement}


def test_a_bare_a2a_agent_without_a_woa_document_is_certified() -> None:
    results = certify(None, "aci", INVOKED, "a2a", path="/a2a/diagnosis")
    statuses = {r.requirement: r.status for r in results}
    assert Status.FAIL not in statuses.values() and Status.ERROR not in statuses.values()
    assert (
        statuses["ACI-2.1-RETURNS-OWN-AGENTCONTEXT"] is Status.PASS
        and statuses["ACI-5.2-NO-COMPLETION-WITHOUT-CONTEXT"] is Status.PASS
    )
