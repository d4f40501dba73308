"""`agent-conformance fuzz`: fetch a host's WoA document, fuzz its rest agents with schemathesis,
and report each failure as a result with its requirement and a curl command that reproduces it.

Results flow through the same events and writers as `run`. The fuzzer sends requests only to the
rest base, and only when the address policy allows it (the target's origin, or --allow-origin).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from ... import __version__
from ...bindings import HttpClient, Unreachable, WoaRestBinding
from ...engine.gate import gated
from ...report import (
    Handler,
    Result,
    ResultRecorded,
    RunFinished,
    RunHeader,
    RunStarted,
    Skip,
    Status,
    Summary,
    broadcast,
    summarize,
)
from ...report.model import utc_now
from ...requirements import catalogue
from ...target import RunOptions, may_call
from .engine import CHECK_REQUIREMENTS, FuzzOutcome, fuzz
from .openapi import openapi_from_woa

__all__ = ["FuzzUnavailable", "fuzz_target"]


class FuzzUnavailable(Exception):
    """The target cannot be fuzzed at all (unreachable, no document, no rest agent allowed)."""


def _result(requirement: str, status: Status, message: str, duration_ms: float = 0.0, *, strict: bool = False,
            skip: Skip | None = None) -> Result:
    if requirement in catalogue():
        return Result.of(catalogue()[requirement], status, message, check="fuzz", duration_ms=duration_ms, strict=strict, skip=skip)
    return Result(requirement, "woa", "5.2", "SHOULD", status, f"{message} (robustness: no draft sentence covers it)",
                  check="fuzz", duration_ms=duration_ms, skip=skip)


def _results(outcome: FuzzOutcome, left_out: list[str], duration_ms: float, strict: bool) -> list[Result]:
    results = []
    for requirement in dict.fromkeys(CHECK_REQUIREMENTS.values()):
        found = [f for f in outcome.failures if f.requirement == requirement]
        for failure in found:
            results.append(_result(requirement, Status.FAIL, f"{failure.operation}: {failure.title} ({failure.check}, "
                                   f"status {failure.status}): {failure.message.strip()[:300]} | reproduce: {failure.curl}",
                                   duration_ms, strict=strict))
        if not found:
            results.append(_result(requirement, Status.PASS, f"{outcome.cases} fuzzed requests, no failure", duration_ms, strict=strict))
    results += [_result("ROBUSTNESS", Status.ERROR, error) for error in outcome.errors[:5]]
    results += [_result("ROBUSTNESS", Status.SKIP, f"not fuzzed: {reason}", skip=Skip.UNREACHABLE) for reason in left_out]
    return results


async def fuzz_target(options: RunOptions, *, max_examples: int = 100, seed: int = 0, handlers: Sequence[Handler] = ()) -> Summary:
    started, clock = utc_now(), time.perf_counter()
    async with HttpClient(timeout=options.timeout, max_body=options.max_body, cacert=options.cacert) as client:
        try:
            discovery = await WoaRestBinding(options.target, client).fetch_document(may_follow=lambda url: may_call(options, url))
        except Unreachable as error:
            raise FuzzUnavailable(f"target unreachable: {error}") from None
    if not isinstance(discovery.document, dict):
        raise FuzzUnavailable(f"the target's WoA document could not be read: {discovery.problem or 'not a JSON object'}")
    plan = openapi_from_woa(discovery.document)
    if plan.base is None or not plan.operations:
        raise FuzzUnavailable("nothing to fuzz: " + "; ".join(plan.left_out or ["no agent is offered over rest"]))
    if not may_call(options, plan.base + "/"):
        raise FuzzUnavailable(f"the rest base {plan.base} is not on the target's origin; allow it with --allow-origin")
    if plan.base.startswith("http://") and not (options.allow_http_loopback and may_call(options, plan.base)):
        raise FuzzUnavailable(f"the rest base {plan.base} is plain HTTP; the suite fuzzes it only with --allow-http-loopback")
    header = RunHeader(__version__, options.target, ("woa",), "fuzz", started,
                       {**options.recorded(), "max_examples": max_examples, "seed": seed,
                        "fuzzed_agents": plan.agents, "left_out": plan.left_out})
    broadcast(RunStarted(header), handlers)
    outcome = await asyncio.to_thread(fuzz, plan.openapi, plan.base, max_examples=max_examples, seed=seed,
                                      timeout=options.timeout, cacert=options.cacert)
    duration = round((time.perf_counter() - clock) * 1000, 1)
    results = _results(outcome, plan.left_out, duration, options.strict)
    for result in results:
        broadcast(ResultRecorded(result), handlers)
    summary = gated(summarize(results, finished=utc_now(), duration_ms=duration))
    broadcast(RunFinished(summary), handlers)
    return summary
