"""Every SDSI server check is proven by a mutant: the reference server agent passes, each named
fault fails on its own requirement and no other. The table of faults caught is printed."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from conformance.checks import CHECKS
from conformance.report import Result, Status
from conformance.requirements import catalogue
from conformance.runner import RunOptions, run
from mocks.faults import FAULTS
from mocks.serve import serve_host
from tests.checks.test_woa_faults import Collect

SDSI_FAULTS = sorted(name for name in FAULTS if name.startswith("sdsi-"))
CAUGHT: dict[str, str] = {}


def certify(fault: str | None) -> list[Result]:
    collect = Collect()
    with serve_host(fault) as host:
        asyncio.run(run(RunOptions(target=host.url, suites=("sdsi",), cacert=host.cacert, timeout=5), [collect]))
    return collect.results


@pytest.fixture(scope="module", autouse=True)
def table() -> Iterator[None]:
    yield
    if CAUGHT:
        width = max(map(len, CAUGHT))
        print(f"\n{'fault'.ljust(width)}  verdict on its requirement")
        for name, verdict in sorted(CAUGHT.items()):
            print(f"{name.ljust(width)}  {verdict}")
        print(f"{sum(v == 'caught' for v in CAUGHT.values())} of {len(SDSI_FAULTS)} SDSI faults caught")


def test_the_reference_server_agent_has_no_must_or_should_failure() -> None:
    results = certify(None)
    assert [(r.requirement, r.message) for r in results if r.status in (Status.FAIL, Status.ERROR)] == []


@pytest.mark.parametrize("name", SDSI_FAULTS)
def test_the_fault_is_caught_on_its_requirement_alone(name: str) -> None:
    results = certify(name)
    failed = {r.requirement for r in results if r.status is Status.FAIL}
    CAUGHT[name] = "caught" if FAULTS[name].requirement in failed else "MISSED"
    assert failed == {FAULTS[name].requirement}


def test_every_sdsi_check_has_a_fault() -> None:
    checked = {c.requirement for c in CHECKS.values() if c.requirement.startswith("SDSI-")}
    assert checked == {FAULTS[name].requirement for name in SDSI_FAULTS}


def test_every_black_box_sdsi_server_must_has_a_check() -> None:
    checked = {c.requirement for c in CHECKS.values()}
    uncovered = [r.id for r in catalogue().for_draft("sdsi")
                 if r.testability == "black-box" and r.role in ("server", "any") and r.level == "MUST" and r.id not in checked]
    assert uncovered == []
