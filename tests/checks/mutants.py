"""What the fault and variant tests share: certify the reference host with a fault or as a test
changes it, and print the table of faults caught."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from typing import TypeVar

from conformance.engine.runner import run
from conformance.report import Collect
from conformance.report import Result
from conformance.report import Status
from conformance.targeting import run_options
from mocks.reference import woa_host
from mocks.serve import serve
from mocks.serve import serve_host

T = TypeVar("T")

__all__ = ["Changed", "Collect", "certify", "certify_changed", "print_table"]


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


@dataclass(frozen=True)
class Changed:
    """What a test changes of the reference host (mocks/reference/woa_host.py's `Changes`): the
    class an agent runs as, and an edit of the document it serves."""

    agent: type | None = None
    document: Callable[[dict[str, Any]], None] | None = None
    mcp_tool: Callable[..., Any] | None = None

    def apply(self, document: dict[str, Any]) -> Any:
        if self.document is not None:
            self.document(document)
        return document

    def agent_for(self, reference: type[T]) -> type[T]:
        agent = self.agent
        return agent if agent is not None and issubclass(agent, reference) else reference


def certify_changed(
    changes: Any, suite: str, roles: tuple[str, ...], *, test_mode: bool = True, **more: Any
) -> list[Result]:
    """Run one suite against the reference host as `changes` make it (a `Changed`, a conformant
    variant of mocks/variants.py), with `more` run options; every result."""
    collect = Collect()
    with serve(lambda base: woa_host.create_app(base, test_mode, changes=changes)) as host:
        options = run_options(
            target=host.url, suites=(suite,), roles=roles, cacert=host.cacert, timeout=5, **more
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
