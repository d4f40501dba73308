"""One check style (issue 22): one naming scheme, enforced at registration; a skip always names its
kind, from the checks and from the runner alike; no check decides by reading a reason's text."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from conformance.checks import CHECKS
from conformance.checks import Verdict
from conformance.checks import check
from conformance.checks.registry import name_prefix
from conformance.engine.runner import run
from conformance.report import Skip
from conformance.report import Status
from conformance.targeting import run_options
from mocks.reference.woa_host import create_app
from tests.checks.mutants import Collect

CHECKS_DIR = Path(__file__).parents[2] / "conformance" / "checks"


def test_every_check_is_named_after_its_draft_and_section_then_its_rule() -> None:
    assert all(
        name.startswith(name_prefix(c.requirement)) and len(name) > len(name_prefix(c.requirement))
        for name, c in CHECKS.items()
    )


def test_a_check_named_otherwise_is_refused_at_registration() -> None:
    async def stored_context_expires(target: object) -> Verdict:
        raise AssertionError

    with pytest.raises(ValueError, match="must be named aci_6_"):
        check("ACI-6-STORAGE-TTL")(stored_context_expires)


def test_every_skip_of_a_whole_certification_names_its_kind() -> None:
    """The in-process reference host, every draft: skips from the checks (a precondition the
    target does not meet) and from the runner (no check, not remotely testable, the connection
    in-process)."""
    from conformance.harness.inprocess import in_process
    from conformance.harness.inprocess import lifespan

    collect = Collect()
    app = create_app("https://agents.example")
    options = run_options(
        target="https://agents.example",
        suites=("woa", "sdsi", "aci"),
        transport=in_process(app),
        roles=("host", "server", "master", "invoked", "any"),
    )

    async def certified() -> None:
        # the app's clients (its master's, to the suite's spies) closed with it
        async with lifespan(app):
            await run(options, [collect])

    asyncio.run(certified())
    skips = [r for r in collect.results if r.status is Status.SKIP]
    assert skips and all(isinstance(r.skip, Skip) for r in skips), [
        r.requirement for r in skips if r.skip is None
    ]
    assert {Skip.NOT_REMOTELY_TESTABLE, Skip.IN_PROCESS} <= {r.skip for r in skips}
    assert all(r.skip is None for r in collect.results if r.status is not Status.SKIP)
    round_trip = [type(r).from_dict(r.as_dict()) for r in skips]
    assert [r.skip for r in round_trip] == [r.skip for r in skips]


def test_no_check_reads_a_verdicts_text_to_decide() -> None:
    """A verdict's message is for people: no check module compares or searches the `.message` or
    `.reason` of anything (a regular expression: `ast` in a worker whose recursion limit a test
    moved is unreliable on Python 3.11)."""
    reading = re.compile(
        r"\.(message|reason)\s*(==|!=|\bin\b|\.(startswith|endswith|find|count)\()|\bin\s+[\w.]+\.(message|reason)\b"
    )
    readers = [
        f"{path.name}:{n}"
        for path in CHECKS_DIR.rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if reading.search(line)
    ]
    assert readers == []
