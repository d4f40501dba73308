"""A run: probe the target, judge every selected requirement, and send each result to the handlers.

    RunOptions ──> probe (GET the WoA document; Unreachable ends the run before it starts),
                   or, for a client driven by --client-command, nothing: the suite serves
                   what the client reads
               ──> for each requirement of the selected drafts, in catalogue order:
                       its checks' verdicts, or not-applicable (role), or skip / error (untested)
               ──> RunStarted, ResultRecorded..., RunFinished to every handler

A check that raises anything (BaseException included, KeyboardInterrupt excepted) or overruns its
deadline gives an `error` result; nothing a target does ends the run early. The whole run has a
budget (`RunOptions.budget`); when it runs out, or the run's task is cancelled (SIGINT, SIGTERM),
the requirements not yet judged are skips that say so, and RunFinished still reaches every handler
with the run marked `out-of-budget` or `interrupted`.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import hashlib
import time
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from dataclasses import field
from types import MappingProxyType
from typing import Any

from .. import __version__
from ..bindings import DocumentFetch
from ..bindings import HttpClient
from ..bindings import Unreachable
from ..bindings import WoaRestBinding
from ..bindings.observed import NotObserved
from ..bindings.observed import ObservedOnly
from ..checks import Check
from ..checks import Decided
from ..checks import agent_coverage
from ..checks import checks_for
from ..checks import driven_by
from ..checks import invocations_of
from ..checks import load_drafts
from ..checks.preconditions import DOCUMENT_RULES
from ..driver.command import unstartable
from ..recording import NotRecorded
from ..recording import Recorder
from ..recording.values import Values
from ..report import Handler
from ..report import Result
from ..report import ResultRecorded
from ..report import RunFinished
from ..report import RunHeader
from ..report import RunStarted
from ..report import Skip
from ..report import Status
from ..report import Summary
from ..report import broadcast
from ..report import summarize
from ..report.model import utc_now
from ..report.redaction import Redaction
from ..requirements import Requirement
from ..requirements import catalogue
from ..requirements import catalogue_digest
from ..targeting import DEFAULT_ROLES
from ..targeting import RunOptions
from ..targeting import Target
from ..targeting import may_call
from .claims import claims_of
from .claims import coverage_of
from .gate import gated

__all__ = ["DEFAULT_ROLES", "RunInterrupted", "RunOptions", "Target", "TargetUnreachable", "run"]

#: Why a document fetch leaves nothing to certify over WoA REST (a body that is not JSON is the
#: target's failure to judge, not a blocker).
_BLOCKING_CAUSES = frozenset({"exchange", "redirect", "status"})


class TargetUnreachable(Exception):
    """Nothing answered at the target: no report can be made."""


class RunInterrupted(Exception):
    """The run's task was cancelled (SIGINT, SIGTERM) before it judged anything: there is nothing
    to report. Its text names the signal."""


def _untested(requirement: Requirement, target: Target) -> Result:
    """The result on a requirement no check of this run judges: a skip saying why, or an error."""
    note, discovery = requirement.testability_note, target.fetched

    def skip(why: Skip, message: str) -> Result:
        return Result.of(requirement, Status.SKIP, message, strict=target.options.strict, skip=why)

    if target.options.drivers == (None,) and "client-command" in driven_by(requirement.id):
        return skip(
            Skip.OTHER_DRIVER,
            "tested when the suite drives a WoA client: run with --client-command (see the README)",
        )
    if target.options.drivers == ("client-command",) and checks_for(requirement.id):
        return skip(
            Skip.OTHER_DRIVER, "its checks judge what a host serves; this run drives a client"
        )
    if requirement.testability == "not-remotely-testable":
        return skip(Skip.NOT_REMOTELY_TESTABLE, f"not remotely testable: {note}")
    if discovery.cause == "not-observed":
        return skip(Skip.NOT_OBSERVED, f"not in the observed traffic: {discovery.problem}")
    if discovery.problem:
        return skip(
            Skip.DEPENDS_ON,
            f"no WoA document to start from ({DOCUMENT_RULES}): {discovery.problem}",
        )
    if requirement.testability == "needs-test-hook":
        return skip(Skip.NEEDS_TEST_HOOK, f"needs a test hook the target does not offer: {note}")
    return skip(Skip.NO_CHECK, "no check for this requirement yet")


def _cancelled_from_outside() -> bool:
    """Whether this task is being cancelled (budget, signal), rather than a future it awaited."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _uncancel() -> None:
    """This task takes the cancellation it caught as handled (the run finishes in order)."""
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()


class _ClosedDespiteASignal:
    """The run's client, closed as the `async with` ends; a signal while it closes (its checks
    done) cannot lose what they judged: the close ends there, and `signalled` says it came."""

    def __init__(self, client: HttpClient) -> None:
        self.client = client
        self.signalled = False

    async def __aenter__(self) -> HttpClient:
        return self.client

    async def __aexit__(self, *_: object) -> None:
        try:
            await self.client.aclose()
        except asyncio.CancelledError:
            if not _cancelled_from_outside():
                raise
            _uncancel()
            self.signalled = True


async def _execute(check: Check, requirement: Requirement, target: Target) -> Result:
    started = time.perf_counter()
    deadline = target.options.check_deadline
    try:
        async with asyncio.timeout(deadline) as scope:
            try:
                verdict = await check.judged(target.checked_under(scope))
            except Decided as decided:  # a shared step found nothing left to judge
                verdict = decided.verdict
        status, message, evidence, skip = (
            verdict.status,
            verdict.message,
            verdict.evidence,
            verdict.skip,
        )
    except TimeoutError:
        status, message, evidence, skip = (
            Status.ERROR,
            f"the check did not finish within {deadline:g} s",
            (),
            None,
        )
    except NotObserved as unseen:  # a run that watches holds no such exchange: nothing was judged
        status, message, evidence, skip = Status.SKIP, str(unseen), (), Skip.NOT_OBSERVED
    except NotRecorded as missing:
        # a replay lacks what the check needs: not the target's fault, not a verdict
        status, message, evidence, skip = Status.SKIP, str(missing), (), Skip.NOT_RECORDED
    except asyncio.CancelledError:
        if _cancelled_from_outside():
            raise
        status, message, evidence, skip = (
            Status.ERROR,
            "the check was cancelled: work it waited for was cancelled",
            (),
            None,
        )
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # a check must never end the run; say what happened instead
        status, message, evidence, skip = (
            Status.ERROR,
            f"the check raised {type(error).__name__}: {error}",
            (),
            None,
        )
    elapsed = round((time.perf_counter() - started) * 1000, 1)
    return Result.of(
        requirement,
        status,
        message,
        check=check.name,
        evidence=evidence,
        duration_ms=elapsed,
        strict=target.options.strict,
        skip=skip or Skip.NOT_OBSERVED,
    )


@functools.cache
def _roles_of(draft: str) -> frozenset[str]:
    """The roles the requirements of `draft` bind, other than any."""
    return frozenset(r.role for r in catalogue().for_draft(draft)) - {"any"}


async def _judge(requirement: Requirement, target: Target) -> list[Result]:
    left_out = target.options.selection.left_out(requirement, strict=target.options.strict)
    if left_out:
        return [
            Result.of(
                requirement, Status.SKIP, left_out, strict=target.options.strict, skip=Skip.LEFT_OUT
            )
        ]
    roles = target.options.roles
    if requirement.role not in roles:
        # the roles of this draft the run certifies (a WoA rule for clients names no ACI master)
        certified = [r for r in roles if r in _roles_of(requirement.draft)]
        message = f"binds {requirement.role}s; this run certifies the target as" + (
            f" {', '.join(certified)}" if certified else f" no role of {requirement.draft.upper()}"
        )
        return [
            Result.of(requirement, Status.NOT_APPLICABLE, message, strict=target.options.strict)
        ]
    checks = [c for driver in target.options.drivers for c in checks_for(requirement.id, driver)]
    if not checks:
        return [_untested(requirement, target)]
    return [await _execute(c, requirement, target) for c in checks]


def lane_of(requirement: Requirement) -> tuple[str, str]:
    """The checks that run in sequence: those of one draft and one role. A lane's checks share
    sessions and the state of the target they drive in that role (an SDSI server's pool, an ACI
    master's runs); lanes share nothing but read-only documents, so they run at once without
    changing any verdict (tested)."""
    return requirement.draft, requirement.role


@dataclass
class InOrder:
    """Results decided out of order (lanes run at once), handed on in catalogue order as soon as
    they can be."""

    hand_on: Callable[[list[Result]], None]
    decided: dict[int, list[Result]] = field(default_factory=dict)
    next: int = 0

    def decide(self, index: int, results: list[Result]) -> None:
        self.decided[index] = results
        while self.next in self.decided:
            self.hand_on(self.decided.pop(self.next))
            self.next += 1

    def flush(self) -> None:
        for index in sorted(self.decided):
            self.hand_on(self.decided.pop(index))


async def _judge_lanes(selected: list[Requirement], target: Target, in_order: InOrder) -> None:
    """Judge every requirement, lanes at once (at most `parallel` checks at a time), each lane in
    catalogue order."""
    lanes: dict[tuple[str, str], list[int]] = {}
    for index, requirement in enumerate(selected):
        lanes.setdefault(lane_of(requirement), []).append(index)
    gate = asyncio.Semaphore(max(1, target.options.parallel))

    async def lane(indices: list[int]) -> None:
        for index in indices:
            async with gate:
                judged = await _judge(selected[index], target)
            in_order.decide(index, judged)

    async with asyncio.TaskGroup() as group:
        for indices in lanes.values():
            group.create_task(lane(indices))


async def _probe_jsonrpc(options: RunOptions, client: HttpClient) -> DocumentFetch:
    """The jsonrpc binding has no document: a first template request shows the endpoint answers."""
    scenario = options.scenarios[0] if options.scenarios else "flight_booking"
    response = await client.request(
        "POST",
        options.target,
        json={"method": "get_schema_template", "params": {"scenario": scenario}},
    )
    return DocumentFetch(options.target, response)


def _blocker(options: RunOptions, discovery: DocumentFetch) -> str | None:
    """Why nothing can be certified: over WoA REST, a document that never arrived; a client
    command that cannot start."""
    if options.client_command:
        return unstartable(options.client_command)
    if (
        options.binding == WoaRestBinding.name
        and discovery.problem
        and discovery.cause in _BLOCKING_CAUSES
    ):
        return f"the WoA document could not be obtained: {discovery.problem}"
    return None


def _recorded(options: RunOptions, redaction: Redaction) -> dict[str, object]:
    """The options a run records: each header with its value redacted (a replay sends it as it
    lies in the recording, so that the replayed evidence is the recorded one)."""
    headers = [[name, redaction.header_value(name, value)] for name, value in options.headers]
    return options.recorded() | {"headers": headers}


def _recorder(options: RunOptions, redaction: Redaction) -> Recorder | None:
    """Where the run keeps its evidence: a new recording (--record), or the one the watched
    traffic goes to."""
    if options.observed is not None:
        return options.observed.recorder
    recorder = Recorder(options.record, redaction) if options.record else None
    if recorder is not None:
        recorder.start(
            {
                "suite_version": __version__,
                "catalogue_sha256": catalogue_digest(options.revisions),
                "target": options.target,
                "drafts": options.drafts,
                "seed": options.seed,
                "options": _recorded(options, redaction),
                "issued_key": redaction.issued_key,
            }
        )
    return recorder


def _header(
    options: RunOptions,
    started: str,
    discovery: DocumentFetch,
    about: Mapping[str, Any],
    redaction: Redaction,
) -> RunHeader:
    """The report's header: the run's options, what the document's bytes were, and in a run that
    watches, what it saw; its credentials redacted."""
    fetched = (
        discovery.response.body
        if discovery.response is not None and not options.client_command
        else None
    )
    recorded = _recorded(options, redaction) | {
        "document_sha256": hashlib.sha256(fetched).hexdigest() if fetched is not None else None
    }
    binding = options.binding
    if options.observed is not None:
        binding = options.observed.source
        recorded |= {
            "exchanges": len(options.observed.exchanges),
            "documents_rewritten": options.observed.rewrites,
        }
    return redaction.header(
        RunHeader(
            __version__, options.target, options.suites, binding, started, recorded | dict(about)
        )
    )


async def run(
    options: RunOptions,
    handlers: Sequence[Handler] = (),
    *,
    about: Mapping[str, Any] = MappingProxyType({}),
    completion: str = "complete",
) -> Summary:
    """Certify `options.target` (or, with `options.observed`, judge the traffic seen between it and
    a client); every result goes to `handlers` as it is made; `about` joins the header's options.
    Raises `TargetUnreachable`.

    Cancelling the task that runs this (a signal) ends the run early but still finishes it: the
    summary says `interrupted`, and the handlers get every result decided so far and the footer.
    `completion` says how what the run judges ended when it was not the run's own doing (watched
    traffic a signal cut short is judged whole, and the run is `interrupted`).

    A large WoA document lasts the whole run out of the cyclic collector's walks and is given
    back at its very end, after the reports (`parse_lasting`)."""
    with ExitStack() as lasting:
        return await _run(options, handlers, about, completion, lasting)


async def _run(
    options: RunOptions,
    handlers: Sequence[Handler],
    about: Mapping[str, Any],
    completion: str,
    lasting: ExitStack,
) -> Summary:
    started, clock = utc_now(), time.perf_counter()
    deadline = asyncio.get_running_loop().time() + options.budget
    redaction = (
        options.observed.recorder.redaction
        if options.observed is not None and options.observed.recorder is not None
        else Redaction.of(
            options.target,
            options.headers,
            keep=options.keep_credentials,
            command=options.client_command,
        )
    )
    if options.replay is not None and "issued_key" in options.replay.meta:
        redaction.handed_out(options.replay.handed_texts(), options.replay.meta["issued_key"])
    recorder = _recorder(options, redaction)
    transport = ObservedOnly() if options.observed is not None else options.transport
    closing = _ClosedDespiteASignal(
        HttpClient(
            timeout=options.timeout,
            max_body=options.max_body,
            cacert=options.cacert,
            headers=dict(options.headers),
            transport=transport,
            recorder=recorder if options.observed is None else None,
            replay=options.replay,
        )
    )
    async with closing as client:
        binding = WoaRestBinding(options.target, client)
        try:
            async with asyncio.timeout_at(deadline):
                if options.observed is not None:
                    discovery = options.observed.discovery(options.target)
                elif options.client_command:
                    # the suite serves the client's documents
                    discovery = DocumentFetch(options.target, None)
                elif options.binding == "jsonrpc":
                    discovery = await _probe_jsonrpc(options, client)
                else:
                    discovery = await binding.fetch_document(
                        may_follow=lambda url: may_call(options, url), lasting=True
                    )
                    if discovery.frozen:
                        lasting.callback(gc.unfreeze)
        except Unreachable as error:
            raise TargetUnreachable(redaction.text(str(error))) from None
        except TimeoutError:
            raise TargetUnreachable(
                f"no answer within the run's {options.budget:g} s budget"
            ) from None
        except asyncio.CancelledError as cancelled:
            if not _cancelled_from_outside():
                raise
            _uncancel()
            raise RunInterrupted(str(cancelled) or "a signal") from None
        target = Target(
            options,
            client,
            binding,
            discovery,
            Values(options.seed, recorder, options.replay),
            recorder,
        )
        broadcast(RunStarted(_header(options, started, discovery, about, redaction)), handlers)
        load_drafts(options.suites)
        selected = [r for r in options.catalogue() if r.draft in options.suites]
        results: list[Result] = []

        def hand_on(decided: list[Result]) -> None:
            for result in decided:
                result = redaction.result(result)
                results.append(options.baseline.apply(result) if options.baseline else result)
                broadcast(ResultRecorded(results[-1]), handlers)

        in_order = InOrder(hand_on)
        try:
            async with asyncio.timeout_at(deadline):
                await _judge_lanes(selected, target, in_order)
        except TimeoutError:
            completion = "out-of-budget"
        except asyncio.CancelledError:
            _uncancel()
            completion = "interrupted"
        finally:
            woa_host = "woa" in options.suites and None in options.drivers
            document, invoked = target.fetched.document, invocations_of(target)
            # each redacted whole, not entry by entry: a host of 80,000 agents has as many
            claims = (
                tuple(
                    redaction.value(
                        [c.as_dict() for c in claims_of(document, invoked.plan, results)]
                    )
                )
                if woa_host
                else ()
            )
            coverage = (
                tuple(
                    redaction.value(
                        [
                            c.as_dict()
                            for c in coverage_of(
                                document,
                                invoked.plan,
                                results,
                                invoked.judged_by,
                                invoked.mcp_answered,
                            )
                        ]
                    )
                )
                if woa_host
                else ()
            )
            listed = {a["id"] for a in coverage}
            coverage += tuple(
                redaction.value(
                    [a for a in agent_coverage(target, options.roles) if a["id"] not in listed]
                )
            )
            try:
                await target.aclose()
            except asyncio.CancelledError:  # a second signal: the reports come first
                _uncancel()
        if completion != "complete":
            in_order.flush()  # what lanes that ran ahead of an undecided requirement decided
            why = (
                "the run was interrupted"
                if completion == "interrupted"
                else f"the run's {options.budget:g} s budget ran out"
            )
            judged = {r.requirement for r in results}
            for requirement in selected:
                if requirement.id not in judged:
                    result = Result.of(
                        requirement,
                        Status.SKIP,
                        f"not judged: {why}",
                        strict=options.strict,
                        skip=Skip.NOT_REACHED,
                    )
                    results.append(result)
                    broadcast(ResultRecorded(result), handlers)
    if closing.signalled:
        completion = "interrupted"  # what was judged stands; a repeated run stops here
    if recorder is not None:
        recorder.results(
            [
                {"requirement": r.requirement, "status": r.status.value, "message": r.message}
                for r in results
            ]
        )
    summary = gated(
        summarize(
            results,
            finished=utc_now(),
            duration_ms=round((time.perf_counter() - clock) * 1000, 1),
            completion=completion,
            blocker=redaction.value(_blocker(options, discovery)),
            claims=claims,
            coverage=coverage,
            every_agent_required=options.require_every_agent,
            stale_baseline=options.baseline.stale(results) if options.baseline else (),
            selection=options.selection.label(),
        )
    )
    broadcast(RunFinished(summary), handlers)
    return summary
