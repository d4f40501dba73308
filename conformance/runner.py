"""A run: probe the target, judge every selected requirement, and send each result to the handlers.

    RunOptions ──> probe (GET the WoA document; Unreachable ends the run before it starts)
               ──> for each requirement of the selected drafts, in catalogue order:
                       its checks' verdicts, or not-applicable (role), or skip / error (untested)
               ──> RunStarted, ResultRecorded..., RunFinished to every handler

A check that raises or overruns its deadline gives an `error` result; nothing a target does ends
the run early.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from . import __version__
from .bindings import DocumentFetch, HttpClient, Unreachable, WoaRestBinding
from .checks import Check, checks_for
from .report import (
    Handler,
    Result,
    ResultRecorded,
    RunFinished,
    RunHeader,
    RunStarted,
    Status,
    Summary,
    broadcast,
    summarize,
)
from .report.model import utc_now
from .requirements import Requirement, catalogue
from .target import DEFAULT_ROLES, RunOptions, Target, may_call

__all__ = ["DEFAULT_ROLES", "RunOptions", "Target", "TargetUnreachable", "run"]


class TargetUnreachable(Exception):
    """Nothing answered at the target: no report can be made."""


def _untested(requirement: Requirement, discovery: DocumentFetch) -> tuple[Status, str]:
    note = requirement.testability_note
    if requirement.testability == "not-remotely-testable":
        return Status.SKIP, f"not remotely testable: {note}"
    if discovery.problem:
        return Status.ERROR, f"the target's WoA document could not be read: {discovery.problem}"
    if requirement.testability == "needs-test-hook":
        return Status.SKIP, f"needs a test hook the target does not offer: {note}"
    return Status.SKIP, "no check for this requirement yet"


async def _execute(check: Check, requirement: Requirement, target: Target) -> Result:
    started = time.perf_counter()
    deadline = target.options.timeout * 6
    try:
        async with asyncio.timeout(deadline):
            verdict = await check.function(target)
        status, message, evidence = verdict.status, verdict.message, verdict.evidence
    except TimeoutError:
        status, message, evidence = Status.ERROR, f"the check did not finish within {deadline:g} s", ()
    except Exception as error:  # a check must never end the run; say what happened instead
        status, message, evidence = Status.ERROR, f"the check raised {type(error).__name__}: {error}", ()
    elapsed = round((time.perf_counter() - started) * 1000, 1)
    return Result.of(requirement, status, message, check=check.name, evidence=evidence, duration_ms=elapsed)


async def _judge(requirement: Requirement, target: Target) -> list[Result]:
    roles = target.options.roles
    if requirement.role not in roles:
        message = f"binds {requirement.role}s; this run certifies the target as {', '.join(r for r in roles if r != 'any')}"
        return [Result.of(requirement, Status.NOT_APPLICABLE, message)]
    checks = checks_for(requirement.id)
    if not checks:
        return [Result.of(requirement, *_untested(requirement, target.discovery))]
    return [await _execute(c, requirement, target) for c in checks]


async def _probe_jsonrpc(options: RunOptions, client: HttpClient) -> DocumentFetch:
    """The jsonrpc binding has no document: a first template request shows the endpoint answers."""
    scenario = options.scenarios[0] if options.scenarios else "flight_booking"
    response = await client.request("POST", options.target, json={"method": "get_schema_template", "params": {"scenario": scenario}})
    return DocumentFetch(options.target, response)


async def run(options: RunOptions, handlers: Sequence[Handler] = ()) -> Summary:
    """Certify `options.target`; every result goes to `handlers` as it is made. Raises `TargetUnreachable`."""
    started, clock = utc_now(), time.perf_counter()
    async with HttpClient(timeout=options.timeout, max_body=options.max_body, cacert=options.cacert,
                          transport=options.transport) as client:
        binding = WoaRestBinding(options.target, client)
        try:
            if options.binding == "jsonrpc":
                discovery = await _probe_jsonrpc(options, client)
            else:
                discovery = await binding.fetch_document(may_follow=lambda url: may_call(options, url))
        except Unreachable as error:
            raise TargetUnreachable(str(error)) from None
        target = Target(options, client, binding, discovery)
        header = RunHeader(__version__, options.target, options.suites, options.binding, started, options.recorded())
        broadcast(RunStarted(header), handlers)
        results: list[Result] = []
        for requirement in catalogue():
            if requirement.draft in options.suites:
                for result in await _judge(requirement, target):
                    results.append(result)
                    broadcast(ResultRecorded(result), handlers)
    summary = summarize(results, finished=utc_now(), duration_ms=round((time.perf_counter() - clock) * 1000, 1))
    broadcast(RunFinished(summary), handlers)
    return summary
