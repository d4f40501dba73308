"""`agent-conformance run`: certify a target and write its reports."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import ExitStack
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated
from typing import Any
from typing import NoReturn
from typing import TypeVar

import httpx
import typer

from ..engine.runner import DEFAULT_ROLES
from ..engine.runner import RunInterrupted
from ..engine.runner import TargetUnreachable
from ..engine.runner import run as run_suite
from ..harness.callables import KINDS
from ..harness.callables import callable_app
from ..harness.callables import load_function
from ..harness.inprocess import IN_PROCESS_ORIGIN
from ..harness.inprocess import AppUnusable
from ..harness.inprocess import in_process
from ..report import Summary
from ..report.outcome import told
from ..report.redaction import Redaction
from ..report.writers import FORMATS
from ..report.writers import ReportDirUnusable
from ..report.writers import Writer
from ..report.writers import writers_for
from ..targeting import OptionsUnusable
from ..targeting import RunOptions
from ..targeting import run_options
from ..targeting.declared import GIVEN
from ..targeting.sources import Sources
from ..targeting.sources import refused
from ..usecases.repeat import repeated
from ._console import console
from ._console import fail_usage
from ._lifecycle import interruptible
from ._lifecycle import settings
from ._options import AllowHttpLoopback
from ._options import AllowOrigin
from ._options import Baseline
from ._options import Binding
from ._options import Budget
from ._options import Cacert
from ._options import CheckTimeout
from ._options import ClientCommand
from ._options import Debug
from ._options import Exclude
from ._options import Fault
from ._options import FaultRate
from ._options import FaultSeed
from ._options import Header
from ._options import KeepCredentials
from ._options import Level
from ._options import MaxExperimentalKeys
from ._options import MaxProbes
from ._options import Minimal
from ._options import Parallel
from ._options import Record
from ._options import ReportDir
from ._options import RequireEveryAgent
from ._options import Requirement
from ._options import Revision
from ._options import Role
from ._options import Scenario
from ._options import Section
from ._options import Seed
from ._options import Strict
from ._options import Suite
from ._options import Timeout
from ._terminal import RunDisplay
from .mock import check_fault
from .mock import reference_agents

__all__ = ["finish", "prepared_writers", "run", "usable"]

T = TypeVar("T")


def usable(check: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`check(...)` (run_options, origin, usable_cacert), or a usage error (exit 2) naming the
    option at fault. The run's options, once made, tell the lifecycle what to keep out of a
    defect's line and log (settings.redaction)."""
    try:
        made = check(*args, **kwargs)
    except OptionsUnusable as error:
        fail_usage(str(error))
    if isinstance(made, RunOptions):
        settings.redaction = Redaction.of(
            made.target, made.headers, keep=made.keep_credentials, command=made.client_command
        )
    return made


def prepared_writers(report_dir: Path, formats: list[str], *, debug: bool = False) -> list[Writer]:
    """The writers of `formats`, the folder made ready first; a folder that cannot be written is
    a usage error."""
    settings.report_dir, settings.debug = report_dir, debug
    try:
        return writers_for(report_dir, tuple(formats))
    except ReportDirUnusable as error:
        fail_usage(str(error))


def written(report_dir: Path, formats: list[str]) -> list[Path]:
    """The report files the formats wrote (a badge per draft)."""
    return [path for f in formats for path in sorted(report_dir.glob(FORMATS[f].filename))]


@contextmanager
def reported(report_dir: Path, formats: list[str], *, made: bool) -> Iterator[None]:
    """Around a run whose reports go to `report_dir` (`made`: by this command, which found no
    folder there): a signal before it judged anything is one line and exit 130; reports it could
    not write whole (a full disk) are removed, none left to read as the run's, and that is a usage
    error. A run that wrote no report (its target unreachable, say) leaves no folder it made."""
    try:
        try:
            yield
        except RunInterrupted as signal:
            fail_usage(
                f"interrupted by {signal} before anything was judged; no report was written", 130
            )
        except ReportDirUnusable as error:
            for path in written(report_dir, formats):
                path.unlink(missing_ok=True)
            fail_usage(str(error))
    except BaseException:
        if made:
            with contextlib.suppress(OSError):  # not empty (a report, a debug log), or gone
                report_dir.rmdir()
        raise


def finish(summary: Summary) -> NoReturn:
    """Leave with the exit code of the run's outcome (conformance/engine/gate.py), saying why in
    one line (and, in a GitHub Actions job, as an annotation)."""
    outcome = told(summary)
    if outcome.code:
        typer.echo(f"agent-conformance: {outcome.reason} (exit {outcome.code})", err=True)
        if os.environ.get("GITHUB_ACTIONS") == "true":
            console.out(
                f"::error title=agent-conformance%3A {outcome.headline}::{outcome.reason}",
                highlight=False,
            )
    raise typer.Exit(outcome.code)


def run(
    target: Annotated[
        str | None,
        typer.Option(
            help=(
                "The target's origin, e.g. https://agents.example.com (the suite GETs"
                " /.well-known/woa.json there)."
            )
        ),
    ] = None,
    mock: Annotated[
        bool,
        typer.Option(
            "--mock",
            help="Certify the built-in reference mock instead, started on loopback for this run.",
        ),
    ] = False,
    fault: Fault = None,
    fault_rate: FaultRate = None,
    fault_seed: FaultSeed = 0,
    minimal: Minimal = False,
    suite: Suite = GIVEN["suites"].default,
    cacert: Cacert = None,
    report_dir: ReportDir = Path("reports"),
    timeout: Timeout = GIVEN["timeout"].default,
    report_format: Annotated[
        list[str] | None,
        typer.Option(
            "--format",
            help=f"Report formats to write (repeatable): {', '.join(FORMATS)}. Default: all.",
        ),
    ] = None,
    role: Role = None,
    allow_http_loopback: AllowHttpLoopback = False,
    allow_origin: AllowOrigin = None,
    binding: Binding = GIVEN["binding"].default,
    scenario: Scenario = None,
    revision: Revision = None,
    max_experimental_keys: MaxExperimentalKeys = None,
    check_timeout: CheckTimeout = None,
    budget: Budget = GIVEN["budget"].default,
    strict: Strict = False,
    agent_callable: Annotated[
        str | None,
        typer.Option(
            help=(
                "Certify agent code without a server: module:function, an ACI invoked agent"
                " (--suite aci: agent(agent_context) -> dict) or an SDSI server agent (--suite"
                " sdsi: server(operation, input) -> dict), resolved from the current directory."
            )
        ),
    ] = None,
    client_command: ClientCommand = None,
    level: Level = None,
    requirement: Requirement = None,
    section: Section = None,
    exclude: Exclude = None,
    baseline: Baseline = None,
    header: Header = None,
    record: Record = None,
    seed: Seed = None,
    max_probes: MaxProbes = GIVEN["max_probes"].default,
    repeat: Annotated[
        int,
        typer.Option(
            min=1,
            max=10_000,
            help=(
                "Certify the target this many times, each run with a fresh seed, and report each"
                " requirement's violation rate with an upper bound at 95% (Clopper-Pearson); flaky"
                " requirements first."
            ),
        ),
    ] = 1,
    max_violation_rate: Annotated[
        float | None,
        typer.Option(
            min=0.0001,
            max=1,
            help=(
                "Keep running (up to --repeat, 100 by default) until every judged MUST's bound is"
                " at most this rate, or a violation is seen."
            ),
        ),
    ] = None,
    require_every_agent: RequireEveryAgent = False,
    parallel: Parallel = GIVEN["parallel"].default,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            "-q",
            help="No progress and no tables: only the verdict and where the reports are.",
        ),
    ] = False,
    keep_credentials_in_evidence: KeepCredentials = False,
    debug: Debug = False,
) -> None:
    """Certify the target at --target (or the built-in reference mock, --mock) against the drafts,
    and write report.json, events.jsonl, junit.xml, summary.md, report.html and a badge per draft
    into --report-dir. A WoA client is certified with --client-command (the suite plays the host);
    --mock --suite woa --role client certifies the reference client.

    Exit codes:
    0  at least one MUST tested, none failed or errored, every selected requirement judged, and
       (on a WoA host that advertises agents) at least one agent exercised
    1  a MUST failed, or the baseline lists a requirement that now passes
    2  a usage error, or nothing could be certified
    3  a defect of the suite
    4  inconclusive: a MUST check errored, the run was interrupted or ran out of budget, or
       (--require-every-agent) an advertised agent was not exercised"""
    flags = dict(locals())  # the command line as given, for the translations below
    roles, scenarios = tuple(role or DEFAULT_ROLES), tuple(scenario or ())
    usable(refused, _sources(flags))
    certifies_client = client_command is not None or (
        mock and roles == ("client",) and suite == "woa"
    )
    transport = None
    if agent_callable is not None:
        transport, target, roles = _function_target(agent_callable, suite, scenarios)
    given = _given(
        flags,
        suites="woa" if certifies_client else suite,
        roles=("client",) if certifies_client else roles,
    )
    # every option checked before anything starts
    usable(run_options, target or "https://agents.example", **given)
    check_fault(fault, client=certifies_client)
    formats = report_format or list(FORMATS)
    fresh = not report_dir.exists()
    writers = prepared_writers(report_dir, formats, debug=debug)
    with ExitStack() as stack:
        if certifies_client:
            if client_command is None:
                # the reference client: one long-lived process while the run lasts, each
                # invocation a forwarder of the standard library (1.4 s a certification, where an
                # interpreter importing the client at each invocation took 3.7 s)
                made = stack.enter_context(reference_agents().client_daemon())
                client_command = made(fault, minimal=minimal)
            target = client_command
            if not quiet:
                shown = Redaction().command(client_command)
                console.print(f"Certifying the WoA client run as: {shown}", markup=False)
        if mock and not certifies_client:
            target, cacert = _served_mock(stack, binding, fault, fault_rate, fault_seed, minimal)
            if not quiet:
                console.print(f"Reference mock serving at {target}")
        assert target is not None
        options = usable(
            run_options,
            target,
            **{**given, "cacert": cacert},
            client_command=client_command,
            transport=transport,
        )
        display = RunDisplay(quiet=quiet)
        with reported(report_dir, formats, made=fresh):
            summary = _certified(options, [*writers, display], repeat, max_violation_rate, quiet)
    display.finish(summary, written(report_dir, formats), options.seed)
    finish(summary)


def _sources(flags: dict[str, Any]) -> Sources:
    """What `run`'s flags certify, for the rules about options that go together."""
    return Sources(
        target=flags["target"] is not None,
        mock=flags["mock"],
        agent_callable=flags["agent_callable"] is not None,
        client_command=flags["client_command"] is not None,
        suite=flags["suite"],
        scenarios=tuple(flags["scenario"] or ()),
        binding=flags["binding"],
        roles=tuple(flags["role"]) if flags["role"] else None,
        fault=flags["fault"] is not None,
        fault_rate=flags["fault_rate"] is not None,
        minimal=flags["minimal"],
    )


def _given(flags: dict[str, Any], **decided: Any) -> dict[str, Any]:
    """run_options' keywords from `run`'s flags, each under its declared flag's name
    (targeting/declared.py), and what `decided` says (the suites, the roles); the client command
    is decided later (the reference client's, with --mock)."""
    given = {
        g.keyword: tuple(value or ()) if g.repeatable else value
        for g in GIVEN.values()
        if g.keyword != "client_command"
        for value in (flags[g.flag.replace("-", "_")],)
    }
    return {**given, **decided}


def _function_target(
    reference: str, suite: str, scenarios: tuple[str, ...]
) -> tuple[httpx.AsyncBaseTransport, str, tuple[str, ...]]:
    """Agent code given as module:function, served in-process: its transport, origin and role."""
    try:
        function = load_function(reference)
        agent_app = callable_app(
            function, suite, agent_id=getattr(function, "__name__", "agent"), scenarios=scenarios
        )
    except AppUnusable as error:
        fail_usage(str(error))
    return in_process(agent_app), IN_PROCESS_ORIGIN, (KINDS[suite],)


def _served_mock(
    stack: ExitStack,
    binding: str,
    fault: str | None,
    fault_rate: float | None,
    fault_seed: int,
    minimal: bool,
) -> tuple[str, Path | None]:
    """The reference host served on loopback for the run (until `stack` closes): where the run
    aims, and the CA to trust."""
    # The mock's own log (a reference server logs what the drafts tell servers to log) is not the
    # run's output; nor is its MCP server's, which logs a request cut off by an interrupt as an
    # error with its traceback.
    logging.getLogger("mocks").setLevel(logging.ERROR)
    logging.getLogger("mcp.server.streamable_http").setLevel(logging.CRITICAL)
    try:
        served = stack.enter_context(
            reference_agents().serve_host(
                fault, fault_rate=fault_rate, fault_seed=fault_seed, minimal=minimal
            )
        )
    except ValueError as error:
        fail_usage(str(error))
    # the mock serves SDSI's Appendix A JSON-RPC at one endpoint of its own; every other binding
    # starts at its document
    return served.url + ("/sdsi/rpc" if binding == "jsonrpc" else ""), served.cacert


def _certified(
    options: RunOptions,
    handlers: list[Any],
    repeat: int,
    max_violation_rate: float | None,
    quiet: bool,
) -> Summary:
    """The run, or (--repeat, --max-violation-rate) the runs, of `options`; an unreachable target
    is a usage error."""
    runs = repeat if max_violation_rate is None or repeat > 1 else 100
    certifying = (
        repeated(
            options,
            runs,
            handlers,
            max_violation_rate=max_violation_rate,
            progress=None if quiet else _progress,
        )
        if runs > 1
        else run_suite(options, handlers)
    )
    try:
        return asyncio.run(interruptible(certifying))
    except TargetUnreachable as error:
        fail_usage(f"target unreachable: {error}")


def _progress(done: int, runs: int, summary: Summary) -> None:
    console.print(f"Run {done} of {runs}: {told(summary).headline}", markup=False)
