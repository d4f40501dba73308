"""Conformant variants of the reference agents (mocks/variants.py): each does what the drafts allow
and the reference does not, and the suite certifies it as the reference, failing nothing but the
SHOULD readings it names (which are MUST only under --strict)."""

from __future__ import annotations

import asyncio

import pytest

from conformance.engine.runner import run
from conformance.report import Collect
from conformance.report import Status
from conformance.target import run_options
from mocks.reference import woa_host
from mocks.serve import serve
from mocks.variants import VARIANTS


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_conformant_variant_is_certified(name: str) -> None:
    variant = VARIANTS[name]
    collect = Collect()
    with serve(lambda base: woa_host.create_app(base, variant.test_mode, changes=variant)) as host:
        options = run_options(
            target=host.url, suites=("sdsi",), roles=("server",), cacert=host.cacert, timeout=5
        )
        asyncio.run(run(options, [collect]))
    results = {r.requirement: r for r in collect.results}
    wrong = {
        (r.requirement, r.level, r.message[:200])
        for r in collect.results
        if r.status in (Status.FAIL, Status.ERROR)
        and not (r.requirement in variant.expected and r.level != "MUST")
    }
    assert wrong == set()
    # what it bears on was judged (or, for a reading it may fail, failed at SHOULD), or is a skip
    # that says why (a 409 refuses no payload)
    for requirement in variant.bears_on:
        assert results[requirement].status in (Status.PASS, Status.FAIL, Status.SKIP), requirement
