"""`agent-conformance fuzz`: fetch a host's WoA document, fuzz its rest agents with schemathesis,
and judge what passed between them with the engine, as a run that watches (the same registered
checks as `run`, the same events and writers): each invocation the fuzzer made is read as the probe
it amounts to, each finding names its requirement and carries the exchange that shows it (and the
curl command that sends it again, in the reports).

The fuzzer sends requests only to the rest base, and only when the address policy allows it (the
target's origin, or --allow-origin).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import replace

from ...bindings import HttpClient
from ...bindings import Unreachable
from ...bindings import WoaRestBinding
from ...bindings.observed import Observed
from ...bindings.observed import Traffic
from ...engine.runner import RunInterrupted
from ...engine.runner import run
from ...report import Handler
from ...report import Summary
from ...report.redaction import Redaction
from ...report.redaction import public
from ...targeting import RunOptions
from ...targeting import may_call
from .engine import fuzz
from .openapi import openapi_from_woa

__all__ = ["FuzzUnavailable", "fuzz_target"]


class FuzzUnavailable(Exception):
    """The target cannot be fuzzed at all (unreachable, no document, no rest agent allowed)."""


async def fuzz_target(
    options: RunOptions,
    *,
    max_examples: int = 100,
    seed: int = 0,
    handlers: Sequence[Handler] = (),
    progress: Callable[[str], None] | None = None,
) -> Summary:
    """Fuzz `options.target` and judge the traffic; `progress` hears what is being done as it
    goes."""
    say = progress or (lambda _: None)
    say(f"Fetching {public(options.target)}/.well-known/woa.json")
    started = time.perf_counter()
    async with HttpClient(
        timeout=options.timeout, max_body=options.max_body, cacert=options.cacert
    ) as client:
        try:
            discovery = await WoaRestBinding(options.target, client).fetch_document(
                may_follow=lambda url: may_call(options, url)
            )
        except Unreachable as error:
            hidden = Redaction.of(options.target, options.headers)
            raise FuzzUnavailable(f"target unreachable: {hidden.text(str(error))}") from None
    if not isinstance(discovery.document, dict) or discovery.response is None:
        raise FuzzUnavailable(
            "the target's WoA document could not be read:"
            f" {discovery.problem or 'not a JSON object'}"
        )
    plan = openapi_from_woa(discovery.document)
    if plan.base is None or not plan.operations:
        raise FuzzUnavailable(
            "nothing to fuzz: " + "; ".join(plan.left_out or ["no agent is offered over rest"])
        )
    if not may_call(options, plan.base + "/"):
        raise FuzzUnavailable(
            f"the rest base {plan.base} is not on the target's origin; allow it with --allow-origin"
        )
    if plan.base.startswith("http://") and not (
        options.allow_http_loopback and may_call(options, plan.base)
    ):
        raise FuzzUnavailable(
            f"the rest base {plan.base} is plain HTTP; the suite fuzzes it only with"
            " --allow-http-loopback"
        )
    fetched = discovery.response.exchange
    document = Observed(
        "GET",
        discovery.final_url,
        discovery.final_url.removeprefix(options.target) or "/",
        fetched.request_headers,
        b"",
        discovery.response.status,
        dict(discovery.response.headers.items()),
        discovery.response.body,
        fetched.elapsed_ms or 0.0,
        tls_version=fetched.tls_version,
    )
    say(f"Fuzzing {', '.join(plan.agents)} ({max_examples} examples per operation)")
    stop = threading.Event()
    fuzzing = asyncio.ensure_future(
        asyncio.to_thread(
            fuzz,
            plan.openapi,
            plan.base,
            max_examples=max_examples,
            seed=seed,
            timeout=options.timeout,
            cacert=options.cacert,
            progress=lambda sent: say(f"Fuzzing: {sent} requests sent"),
            stop=stop,
            edges=plan.edges,
        )
    )
    completion = "complete"
    try:
        outcome = await asyncio.shield(fuzzing)
    except asyncio.CancelledError:
        # a signal: the fuzzer ends after the operation under way, and what it sent is judged
        if not fuzzing.done():
            say("Interrupted: judging what was sent so far")
        stop.set()
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
        outcome, completion = await fuzzing, "interrupted"
    if not outcome.exchanges and completion == "interrupted":
        raise RunInterrupted("a signal")
    if not outcome.exchanges:
        raise FuzzUnavailable(
            "the fuzzer sent nothing: "
            + ("; ".join(outcome.errors[:3]) or outcome.stop_reason or "no case was made")
        )
    say(f"Judging {len(outcome.exchanges)} exchanges")
    traffic = Traffic([document, *outcome.exchanges], source="fuzz")
    about = {
        "max_examples": max_examples,
        "fuzz_seed": seed,
        "fuzzed_agents": plan.agents,
        "left_out": plan.left_out,
        "cases": outcome.cases,
        "fuzz_errors": outcome.errors[:5],
        "fuzz_seconds": round(time.perf_counter() - started, 1),
    }
    return await run(
        replace(options, roles=("host", "any"), observed=traffic),
        handlers,
        about=about,
        completion=completion,
    )
