"""Nothing a check does ends the run, shared work outlives a check that gives up on it, and a run
cut short by its budget or a signal still finishes in order."""

from __future__ import annotations

import asyncio
import gc
import json
import re
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from conformance.bindings import DocumentFetch
from conformance.bindings import HttpClient
from conformance.bindings import WoaRestBinding
from conformance.bindings.jsonparse import LASTING_FROM
from conformance.checks import Check
from conformance.checks.registry import Verdict
from conformance.checks.registry import passed
from conformance.cli import app
from conformance.engine.runner import run
from conformance.recording.values import Values
from conformance.report import ResultRecorded
from conformance.report import RunFinished
from conformance.report import Status
from conformance.report.writers import writers_for
from conformance.report.writers.jsonl import read_events
from conformance.targeting import Target
from conformance.targeting import run_options
from conformance.usecases.repeat import repeated
from mocks.hostile import hosts
from mocks.reference.woa_host import create_app
from tests.command import EVERY_ROLE

TARGET = "https://host.test"


def _target(**options: object) -> Target:
    opts = run_options(target=TARGET, **options)  # type: ignore[arg-type]
    client = HttpClient()
    return Target(
        opts,
        client,
        WoaRestBinding(TARGET, client),
        DocumentFetch(TARGET + "/.well-known/woa.json", None),
        Values(opts.seed),
    )


async def test_a_check_that_gives_up_never_cancels_the_work_the_next_check_needs() -> None:
    target = _target(timeout=0.1, check_timeout=0.1)  # shared work: four check deadlines
    started = 0

    async def shared() -> str:
        nonlocal started
        started += 1
        await asyncio.sleep(0.2)
        return "the plan"

    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):  # the first check's own deadline
            await target.memo("plan", shared)
    assert await target.memo("plan", shared) == "the plan" and started == 1
    await target.aclose()
    await target.client.aclose()


async def test_shared_work_that_plans_many_requests_may_take_their_timeouts() -> None:
    """Work that plans more requests than its deadline covers (the SDSI drives, against a server
    that takes a while to answer each) extends it to the run's timeout per request, and a check
    waiting on it waits as long."""
    target = _target(timeout=0.05, check_timeout=0.05)  # shared work: 0.2 s

    async def drives() -> str:
        target.allow("drives", 10)  # ten requests: 0.5 s
        await asyncio.sleep(0.35)
        return "driven"

    async with asyncio.timeout(0.05) as scope:
        target.deadline = scope
        assert await target.memo("drives", drives) == "driven"
    await target.aclose()
    await target.client.aclose()


def _only(monkeypatch: pytest.MonkeyPatch, requirement: str, function) -> None:  # type: ignore[no-untyped-def]
    from conformance.engine import runner

    monkeypatch.setattr(
        runner,
        "checks_for",
        lambda rid, driver=None: (
            [Check(function.__name__, rid, function)] if rid == requirement else []
        ),
    )


@pytest.mark.parametrize(
    "raised", [SystemExit(3), GeneratorExit(), MemoryError("no room"), "cancelled-future"]
)
async def test_anything_a_check_raises_is_an_error_result(
    raised: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def misbehaves(target: Target) -> Verdict:
        if raised == "cancelled-future":
            future = asyncio.get_running_loop().create_future()
            future.cancel()
            await future
        raise raised  # type: ignore[misc]

    _only(monkeypatch, "WOA-4-VERSION-1", misbehaves)
    seen: dict[str, object] = {}

    class Collect:
        def handle(self, event: object) -> None:
            if isinstance(event, ResultRecorded):
                seen[event.result.requirement] = event.result

    transport = httpx.ASGITransport(app=create_app(TARGET))
    summary = await run(
        run_options(target=TARGET, suites=("woa",), transport=transport), [Collect()]
    )
    result = seen["WOA-4-VERSION-1"]
    assert result.status is Status.ERROR  # type: ignore[attr-defined]
    assert summary.complete and summary.total == len(seen)
    # the collector, off while JSON is parsed, is on again (a user's process, the pytest
    # plugin's, is left as it was)
    assert gc.isenabled()


async def test_a_large_document_is_kept_out_of_the_collector_for_the_run_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A WoA document of a mebibyte or more is frozen out of the cyclic collector's walks while
    the run judges it, and given back when the run ends, reports included; a process that froze
    objects of its own is left as it was."""
    body = hosts.many_agents(TARGET, 12_000)
    assert len(body) >= LASTING_FROM
    frozen_while: list[int] = []

    class Watch:
        def handle(self, event: object) -> None:
            if isinstance(event, RunFinished):
                frozen_while.append(gc.get_freeze_count())

    async def certify() -> None:
        transport = httpx.ASGITransport(app=hosts.host(lambda base: body)(TARGET))
        await run(
            run_options(target=TARGET, suites=("woa",), transport=transport, max_probes=4),
            [Watch()],
        )

    await certify()
    assert frozen_while[-1] > 0 and gc.get_freeze_count() == 0 and gc.isenabled()
    # a process that froze its own objects (a pre-fork server) keeps them frozen
    gc.freeze()
    try:
        theirs = gc.get_freeze_count()
        await certify()
        # none frozen beside them (some of theirs freed since), and none given back
        assert frozen_while[-1] <= theirs and 0 < gc.get_freeze_count() <= theirs
    finally:
        gc.unfreeze()


async def test_a_run_out_of_budget_finishes_in_order(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    async def slow(target: Target) -> Verdict:
        await asyncio.sleep(30)
        return passed("never")

    _only(monkeypatch, "WOA-4-AGENTS-ARRAY", slow)
    transport = httpx.ASGITransport(app=create_app(TARGET))
    summary = await run(
        run_options(target=TARGET, suites=("woa",), transport=transport, budget=1.0),
        writers_for(tmp_path),
    )
    assert summary.completion == "out-of-budget"
    log = read_events(tmp_path / "events.jsonl")
    assert log.footer is not None and log.footer["completion"] == "out-of-budget"
    cut = [r for r in log.results if "budget ran out" in r["message"]]
    assert cut and all(r["status"] == "skip" for r in cut)
    assert len(log.results) == summary.total


async def test_a_cancelled_run_is_finished_as_interrupted(monkeypatch: pytest.MonkeyPatch) -> None:
    async def slow(target: Target) -> Verdict:
        await asyncio.sleep(30)
        return passed("never")

    _only(monkeypatch, "WOA-4-AGENTS-ARRAY", slow)
    footers: list[RunFinished] = []

    class Collect:
        def handle(self, event: object) -> None:
            if isinstance(event, RunFinished):
                footers.append(event)

    transport = httpx.ASGITransport(app=create_app(TARGET))
    task = asyncio.create_task(
        run(run_options(target=TARGET, suites=("woa",), transport=transport), [Collect()])
    )
    await asyncio.sleep(0.5)
    task.cancel("SIGINT")
    summary = await task
    assert (
        summary.completion == "interrupted"
        and footers
        and footers[0].summary.completion == "interrupted"
    )


#: Messages that report the target's own timing (whether the master's calls overlapped): the
#: machine's load changes them, at any parallelism; their verdicts are compared.
TIMED = {"ACI-3-INDEPENDENT-SUBTASKS-DISTRIBUTED"}


def test_the_report_is_the_same_whatever_the_parallelism(tmp_path: Path) -> None:
    """Lanes (a draft and a role) run at once; every verdict and message, and the order of the
    results and of their evidence, is what a run one check after another gives (the mock's own
    ids, keys and times aside: each run starts a mock of its own)."""
    reports = []
    for parallel in ("1", "16"):
        result = CliRunner().invoke(
            app,
            [
                *("run", "--mock", "--suite", "all", *EVERY_ROLE, "--quiet", "--seed", "3"),
                *("--parallel", parallel, "--report-dir", str(tmp_path / parallel)),
            ],
        )
        assert result.exit_code == 0, result.output
        report = json.loads((tmp_path / parallel / "report.json").read_text())
        origin = report["header"]["target"].split("//")[1]
        reports.append(
            [
                re.sub(
                    r"127\.0\.0\.1:\d+",
                    "LOOPBACK",
                    json.dumps(
                        [
                            r["requirement"],
                            r["status"],
                            "" if r["requirement"] in TIMED else r["message"],
                            r.get("check"),
                            [e["method"] for e in r.get("evidence", [])],
                        ]
                    ).replace(origin, "HOST"),
                )
                for r in report["results"]
            ]
        )
    assert len(reports[0]) > 200
    assert [pair for pair in zip(*reports, strict=True) if pair[0] != pair[1]] == []


def test_a_rule_for_another_role_names_the_roles_of_its_own_draft_the_run_certifies(
    tmp_path: Path,
) -> None:
    result = CliRunner().invoke(
        app, ["run", "--mock", "--suite", "woa", "--quiet", "--report-dir", str(tmp_path)]
    )
    report = json.loads((tmp_path / "report.json").read_text())
    messages = {
        r["message"]
        for r in report["results"]
        if r["status"] == "not-applicable" and r["message"].startswith("binds")
    }
    assert messages == {"binds clients; this run certifies the target as host"}, result.output


class _ClosesUntilCancelled(httpx.ASGITransport):
    """The reference host in process, whose connections close until the run is cancelled: the
    moment a signal comes after the checks, while the run's client closes."""

    def __init__(self, closing: asyncio.Event) -> None:
        super().__init__(app=create_app(TARGET))
        self.closing = closing

    async def aclose(self) -> None:
        self.closing.set()
        await asyncio.sleep(3600)


@pytest.mark.parametrize("runs", [1, 50])
async def test_a_signal_while_the_connections_close_keeps_what_was_judged(runs: int) -> None:
    """The checks done, a signal while the run's client closes: the run (or the first of fifty
    repeated runs) is reported, marked interrupted, not lost as a cancellation (which the
    command line can only tell as 'interrupted, nothing judged': exit 130, no report)."""
    closing = asyncio.Event()
    options = run_options(target=TARGET, suites=("woa",), transport=_ClosesUntilCancelled(closing))
    task = asyncio.ensure_future(repeated(options, runs) if runs > 1 else run(options))
    await closing.wait()
    task.cancel("SIGINT")
    summary = await task
    assert (summary.completion, summary.runs) == ("interrupted", 1)
    assert summary.counts["MUST"]["pass"] > 0
