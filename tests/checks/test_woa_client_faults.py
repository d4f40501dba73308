"""Every WoA client check is proven by a fault of the reference client: the healthy client passes
with no MUST or SHOULD failure, and each named fault fails on its own requirement and on no other.

The suite drives the client as a user's client is driven: through --client-command, a process
per invocation, against the spy host and the recording proxy. That process forwards to one
long-lived reference client (mocks/woa_client_daemon.py), which does the work as the command
would, with each invocation's arguments and environment: the command's own start (about a quarter
of a second of imports) is paid once, not 17 times a certification
(tests/cli/test_client_command.py runs the command itself). The runs share one event loop, a few
at a time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from collections.abc import Iterator

import pytest

from conformance.checks import CHECKS
from conformance.engine.runner import run
from conformance.report import Result
from conformance.report import Status
from conformance.requirements import catalogue
from conformance.targeting import run_options
from mocks.faults.woa_client import CLIENT_FAULTS
from mocks.woa_client_daemon import client_daemon
from tests.checks.mutants import Collect
from tests.checks.mutants import caught_alone
from tests.checks.mutants import print_table

#: The module's one fixture certifies every fault: whichever test asks first waits for it.
pytestmark = pytest.mark.timeout(300)

NAMES = sorted(CLIENT_FAULTS)
CAUGHT: dict[str, str] = {}


async def _certify_all(
    names: list[str | None], command_of: Callable[[str | None], str]
) -> dict[str | None, list[Result]]:
    gate = asyncio.Semaphore(3)

    async def certify(name: str | None) -> tuple[str | None, list[Result]]:
        collect = Collect()
        command = command_of(name)
        async with gate:
            await run(
                run_options(
                    target=command,
                    suites=("woa",),
                    roles=("client", "any"),
                    timeout=10,
                    client_command=command,
                ),
                [collect],
            )
        return name, collect.results

    return dict(await asyncio.gather(*(certify(n) for n in names)))


@pytest.fixture(scope="module")
def results() -> Iterator[dict[str | None, list[Result]]]:
    with client_daemon() as command:
        yield asyncio.run(_certify_all([None, *NAMES], command))
    print_table(CAUGHT, len(NAMES), "WoA client")


def test_the_reference_client_has_no_must_or_should_failure(
    results: dict[str | None, list[Result]],
) -> None:
    healthy = results[None]
    assert [
        (r.requirement, r.message) for r in healthy if r.status in (Status.FAIL, Status.ERROR)
    ] == []
    judged = {r.requirement for r in healthy if r.status is Status.PASS}
    assert judged == {c.requirement for c in CHECKS.values() if c.driver == "client-command"}


@pytest.mark.parametrize("name", NAMES)
def test_the_client_fault_is_caught_on_its_requirement_alone(
    results: dict[str | None, list[Result]], name: str
) -> None:
    CAUGHT[name], alone = caught_alone(results[name], CLIENT_FAULTS[name].requirement)
    assert alone, [
        (r.requirement, r.message) for r in results[name] if r.status in (Status.FAIL, Status.ERROR)
    ]


def test_every_client_check_has_a_fault_and_every_client_requirement_is_judged_or_says_why() -> (
    None
):
    driven = {c.requirement for c in CHECKS.values() if c.driver == "client-command"}
    assert {f.requirement for f in CLIENT_FAULTS.values()} == driven
    untestable = {
        r.id for r in catalogue().for_draft("woa") if r.role == "client" and r.id not in driven
    }
    assert all(catalogue()[r].testability == "not-remotely-testable" for r in untestable), (
        untestable
    )
