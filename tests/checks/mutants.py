"""What the fault tests share: certify the reference host with a fault, and print the table of
faults caught."""

from __future__ import annotations

import asyncio
from typing import Any

from conformance.engine.runner import run
from conformance.report import Collect
from conformance.report import Result
from conformance.report import Status
from conformance.target import run_options
from mocks.serve import serve_host

__all__ = ["Collect", "certify", "print_table"]


def certify(
    fault: str | None,
    suite: str,
    roles: tuple[str, ...] = ("host", "server", "master", "invoked", "any"),
    binding: str = "woa-rest",
    strict: bool = False,
    path: str = "",
    **more: Any,
) -> list[Result]:
    """Run one suite against the reference host with `fault` (None: healthy), at `path` below its
    origin, with `more` run options; every result."""
    collect = Collect()
    with serve_host(fault) as host:
        options = run_options(
            target=host.url + path,
            suites=(suite,),
            cacert=host.cacert,
            timeout=5,
            roles=roles,
            binding=binding,
            strict=strict,
            **more,
        )
        asyncio.run(run(options, [collect]))
    return collect.results


def print_table(caught: dict[str, str], total: int, what: str) -> None:
    if caught:
        width = max(map(len, caught))
        print(f"\n{'fault'.ljust(width)}  verdict on its requirement")
        for name, verdict in sorted(caught.items()):
            print(f"{name.ljust(width)}  {verdict}")
        print(f"{sum(v == 'caught' for v in caught.values())} of {total} {what} faults caught")


def caught_alone(results: list[Result], requirement: str) -> tuple[str, bool]:
    """Whether a fault of `requirement` is caught on it alone: a failure of it and of nothing else,
    or, for a MAY (which never fails), the warning in its pass and no failure at all."""
    from conformance.requirements import catalogue

    failed = {r.requirement for r in results if r.status is Status.FAIL}
    if catalogue()[requirement].level == "MAY":
        warned = any(
            r.requirement == requirement
            and r.status is Status.PASS
            and r.message.startswith("warning")
            for r in results
        )
        return ("caught (warning)" if warned else "MISSED"), warned and not failed
    return ("caught" if requirement in failed else "MISSED"), failed == {requirement}
