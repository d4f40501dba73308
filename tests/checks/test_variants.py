"""Conformant variants of the reference agents and client (mocks/variants.py): each does what the
drafts allow and the reference does not, and the suite certifies it as the reference, failing
nothing but the SHOULD readings it names (which are MUST only under --strict)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from collections.abc import Iterator

import pytest

from conformance.engine.runner import run
from conformance.report import Collect
from conformance.report import Status
from conformance.targeting import run_options
from mocks.reference.aci_master import Master
from mocks.reference.sdsi_client import SdsiClient
from mocks.variants import CLIENT_VARIANTS
from mocks.variants import VARIANTS
from mocks.woa_client_daemon import client_daemon
from tests.checks.mutants import certify_changed


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_conformant_variant_is_certified(name: str) -> None:
    variant = VARIANTS[name]
    suite, role = (
        ("aci", "master")
        if issubclass(variant.agent, Master)
        else ("sdsi", "client")
        if issubclass(variant.agent, SdsiClient)
        else ("sdsi", "server")
    )
    certified = certify_changed(variant, suite, (role,), test_mode=variant.test_mode)
    results = {r.requirement: r for r in certified}
    wrong = {
        (r.requirement, r.level, r.message[:200])
        for r in certified
        if r.status in (Status.FAIL, Status.ERROR)
        and not (r.requirement in variant.expected and r.level != "MUST")
    }
    assert wrong == set()
    # what it bears on was judged (or, for a reading it may fail, failed at SHOULD), or is a skip
    # that says why (a 409 refuses no payload)
    for requirement in variant.bears_on:
        assert results[requirement].status in (Status.PASS, Status.FAIL, Status.SKIP), requirement


@pytest.fixture(scope="module")
def client_command() -> Iterator[Callable[..., str]]:
    with client_daemon() as command:
        yield command


@pytest.mark.parametrize("name", sorted(CLIENT_VARIANTS))
def test_a_conformant_client_variant_is_certified(
    name: str, client_command: Callable[..., str]
) -> None:
    """The WoA client's requests as the text allows them otherwise: each certified with no failure
    and no error (a GET of /robots.txt failed four client rules as an invocation)."""
    command = client_command(variant=name)
    collect = Collect()
    options = run_options(
        target=command, suites=("woa",), roles=("client", "any"), timeout=10, client_command=command
    )
    asyncio.run(run(options, [collect]))
    wrong = {
        (r.requirement, r.message[:200])
        for r in collect.results
        if r.status in (Status.FAIL, Status.ERROR)
    }
    assert wrong == set()
    judged = {r.requirement for r in collect.results if r.status is Status.PASS}
    assert "WOA-4.3.1-CLIENT-SENDS-JSON" in judged and "WOA-5.1-ENVELOPE-INPUT-REQUIRED" in judged
