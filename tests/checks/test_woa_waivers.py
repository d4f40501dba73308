"""Plain HTTP is a MUST failure; on loopback, --allow-http-loopback reports it as waived, never as pass."""

from __future__ import annotations

import asyncio

import pytest

from conformance.report import Status
from conformance.runner import RunOptions, run
from mocks.serve import serve_host
from tests.checks.mutants import Collect

HTTPS_RULES = {"WOA-8.1-HOST-USES-HTTPS", "WOA-4.3.1-REST-BASE-HTTPS", "WOA-8.1-NO-PLAIN-HTTP"}  # the rest base and the mcp server


@pytest.mark.parametrize(("allow", "expected"), [(False, Status.FAIL), (True, Status.WAIVED)])
def test_plain_http_on_loopback(allow: bool, expected: Status) -> None:
    collect = Collect()
    with serve_host(tls=False) as host:
        summary = asyncio.run(run(RunOptions(target=host.url, suites=("woa",), allow_http_loopback=allow), [collect]))
    verdicts = {r.requirement: r.status for r in collect.results}
    assert {verdicts[r] for r in HTTPS_RULES} == {expected}
    assert {r.requirement for r in collect.results if r.status is Status.FAIL} == (set() if allow else HTTPS_RULES)
    assert summary.waived == (len(HTTPS_RULES) if allow else 0)
    invoked = next(r for r in collect.results if r.requirement == "WOA-5.2-SUCCESS-2XX")
    if allow:
        assert invoked.status is Status.PASS
    else:  # the suite does not send invocations over plain HTTP unless waived
        assert invoked.status is Status.SKIP and "plain HTTP" in invoked.message
