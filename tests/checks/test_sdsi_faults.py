"""Every SDSI server check is proven by a mutant: the reference server agent passes, each named
fault fails on its own requirement and no other. The table of faults caught is printed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conformance.report import Result
from conformance.report import Status
from mocks.faults.catalogue import FAULTS
from mocks.reference.sdsi_client import SdsiClient
from tests.checks.mutants import caught_alone
from tests.checks.mutants import certify as certify_suite
from tests.checks.mutants import print_table

SDSI_FAULTS = sorted(name for name in FAULTS if name.startswith("sdsi-"))
CAUGHT: dict[str, str] = {}


def certify(fault: str | None, roles: tuple[str, ...] = ("server", "any")) -> list[Result]:
    return certify_suite(fault, "sdsi", roles)


def roles_of(name: str) -> tuple[str, ...]:
    client = FAULTS[name].agent_for(SdsiClient) is not SdsiClient
    return ("client", "any") if client else ("server", "any")


@pytest.fixture(scope="module", autouse=True)
def table() -> Iterator[None]:
    yield
    print_table(CAUGHT, len(SDSI_FAULTS), "SDSI")


@pytest.mark.parametrize("roles", [("server", "any"), ("client", "any")])
def test_the_reference_server_and_client_agents_have_no_must_or_should_failure(
    roles: tuple[str, ...],
) -> None:
    results = certify(None, roles)
    assert [
        (r.requirement, r.message) for r in results if r.status in (Status.FAIL, Status.ERROR)
    ] == []


@pytest.mark.parametrize("name", SDSI_FAULTS)
def test_the_fault_is_caught_on_its_requirement_alone(name: str) -> None:
    results = certify(name, roles_of(name))
    CAUGHT[name], alone = caught_alone(results, FAULTS[name].requirement)
    assert alone, [(r.requirement, r.message) for r in results if r.status is Status.FAIL]


def test_the_reference_client_reproduces_figures_4_and_5() -> None:
    from conformance.vectors.figures import sdsi_figure
    from mocks.reference.sdsi_client import RuleMapper
    from mocks.reference.sdsi_server import TEMPLATES

    mapper = RuleMapper()
    flight = mapper.map(
        "Book me a flight from Beijing to Shanghai next Monday, business class, and I prefer a"
        " window seat.",
        TEMPLATES["flight_booking"],
    )
    photo = mapper.map(
        "Please retouch this photo: smooth the skin, whiten teeth, make the background blurry, and"
        " add a vintage filter. Also, I want my eyes to look bigger.",
        sdsi_figure(10),
    )
    assert flight == sdsi_figure(4)["payload"] and photo == sdsi_figure(5)["payload"]
