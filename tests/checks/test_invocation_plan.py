"""The invocation plan says why agents went uninvoked once per reason, however many they are."""

from __future__ import annotations

import httpx

from conformance.engine.runner import run
from conformance.report import Collect
from conformance.targeting import run_options
from mocks.hostile import hosts

TARGET = "https://host.test"


async def test_agents_past_the_probe_cap_are_one_reason_with_a_count() -> None:
    body = hosts.many_agents(TARGET, 500)
    collect = Collect()
    transport = httpx.ASGITransport(app=hosts.host(lambda base: body)(TARGET))
    await run(
        run_options(target=TARGET, suites=("woa",), transport=transport, max_probes=4), [collect]
    )
    said = {r.requirement: r.message for r in collect.results}
    assert said["WOA-5.2-INVALID-INPUT-REJECTED"] == (
        "nothing to invoke: agents 'a1', 'a2', 'a3' and 496 more: not invoked, the run's 4 probes"
        " were spent (--max-probes)"
    )
