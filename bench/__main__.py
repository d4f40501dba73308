"""Benchmarks: what a certification costs against its floor, measured side by side.

    python -m bench [--repeat N] [--suite all] [--requests N] [--agents N] [--examples N] [--tck D]

Every figure is min, median and max over `--repeat` samples, the samples of the things compared
taken in turn (run, floor, run, floor ...) so that the machine's load falls on both alike, and the
load average printed beside; a ratio is of the minima, then of the medians. Nothing is asserted.

- startup: `agent-conformance version` and `--help` against importing typer and rich (the floor of
  a typer CLI), and a bare interpreter;
- a live target: `run --target --suite woa` against a reference host already up, against the same
  requests sent again by a fresh process judging nothing, and the ratio of the variable parts;
- the whole command: `agent-conformance run --mock` from process start to exit, against its floor
  (bench/floor.py as a process: the reference host served the same way, the run's recorded
  exchanges in both directions at the run's own concurrency, nothing judged);
- the checks phase, over loopback HTTPS and in-process (ASGI): the engine's run against the same
  floor in the same process, and milliseconds per check;
- fuzz: `agent-conformance fuzz` against schemathesis and httpx sending the same requests
  (bench/fuzz.py), wall and peak memory;
- the A2A TCK beside the suite on the same A2A agent, per item (with `--tck`);
- message validation: `validate_message` against plain jsonschema and jsonschema-rs;
- a large document (`--agents`, default 80,000): the whole command against the same document
  fetched, parsed and validated by jsonschema-rs, and the cost per agent;
- mock throughput: the reference host against a bare Starlette app answering the same bytes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import httpx

from bench import fuzz
from bench.floor import floor
from bench.floor import recorded
from bench.timing import DEADLINE
from bench.timing import cli
from bench.timing import command
from bench.timing import interleaved
from bench.timing import load
from bench.timing import ratio
from bench.timing import run_command
from bench.timing import spread
from conformance.engine.runner import RunOptions
from conformance.engine.runner import run
from conformance.report import Collect
from conformance.targeting import run_options
from mocks.reference.woa_host import create_app
from mocks.serve import serve_host

IN_PROCESS = "https://agent.test"


async def _certify(options: RunOptions) -> int:
    collect = Collect()
    await run(options, [collect])
    return sum(1 for r in collect.results if r.check)


#: A typer app of two commands that do nothing: the least a typer CLI costs to run one (typer 0.2x
#: builds a pydantic adapter for each parameter, so this is well above importing typer).
_MINIMAL_TYPER = """
import typer
app = typer.Typer()
@app.command()
def version() -> None:
    print("0")
@app.command()
def other() -> None:
    pass
app()
"""


def _startup(repeat: int) -> None:
    suite_cli = cli()
    samples = interleaved(
        {
            "bare": command(sys.executable, "-c", "pass"),
            "typer": command(sys.executable, "-c", "import typer, rich"),
            "app": command(sys.executable, "-c", _MINIMAL_TYPER, "version"),
            "version": command(*suite_cli, "version"),
            "help": command(*suite_cli, "--help"),
        },
        repeat,
    )
    print(
        f"startup: agent-conformance version {spread(samples['version'])}; --help"
        f" {spread(samples['help'])}; a minimal typer app's command {spread(samples['app'])};"
        f" import typer, rich {spread(samples['typer'])}; bare interpreter"
        f" {spread(samples['bare'])}; ratio of version / minimal app"
        f" {ratio(samples['version'], samples['app'])}; --help / minimal app"
        f" {ratio(samples['help'], samples['app'])}; version / import typer, rich"
        f" {ratio(samples['version'], samples['typer'])}; {load()}"
    )


def _whole_command(suite: str, repeat: int) -> None:
    suite_cli = cli()
    with tempfile.TemporaryDirectory(prefix="agent-conformance-bench-") as folder:
        recording, reports = Path(folder) / "recording", Path(folder) / "reports"
        certify = [
            *suite_cli,
            "run",
            "--mock",
            "--suite",
            suite,
            "--quiet",
            "--report-dir",
            str(reports),
        ]
        run_command([*certify, "--record", str(recording)], check=False)
        record = recorded(recording)
        samples = interleaved(
            {
                "run": command(*certify, check=False),
                "floor": command(sys.executable, "-m", "bench.floor", str(recording)),
            },
            repeat,
        )
    inbound = sum(len(a) for answers in record.answers.values() for a in answers.values())
    print(
        f"whole command (run --mock --suite {suite}, process start to exit): run"
        f" {spread(samples['run'])}; floor (the reference host served alike,"
        f" {len(record.exchanges)} requests of the suite and {inbound} of the targets at the"
        f" run's concurrency) {spread(samples['floor'])}; ratio"
        f" {ratio(samples['run'], samples['floor'])}; {load()}"
    )


def _live_target(suite: str, repeat: int) -> None:
    """`run --target --suite SUITE` against a reference host already up (served by this process,
    as a user's server is by its own), beside its floor: a fresh process that imports httpx and
    sends the run's recorded requests to the same host at the run's concurrency, judging
    nothing. Beside the whole-process ratio, the ratio of the variable parts: both minus what
    they share, a process that imports httpx and exits."""
    from mocks.serve import serve_host

    suite_cli = cli()
    with (
        serve_host() as host,
        tempfile.TemporaryDirectory(prefix="agent-conformance-bench-") as folder,
    ):
        recording, reports = Path(folder) / "recording", Path(folder) / "reports"
        certify = [
            *suite_cli,
            *("run", "--target", host.url, "--cacert", str(host.cacert), "--suite", suite),
            *("--quiet", "--report-dir", str(reports)),
        ]
        run_command([*certify, "--record", str(recording)], check=False)
        exchanges = len(recorded(recording).exchanges)
        samples = interleaved(
            {
                "run": command(*certify, check=False),
                "floor": command(sys.executable, "-m", "bench.floor", str(recording), "--live"),
                "shared": command(sys.executable, "-c", "import httpx"),
            },
            repeat,
        )
    shared = statistics.median(samples["shared"])
    variable = (statistics.median(samples["run"]) - shared) / (
        statistics.median(samples["floor"]) - shared
    )
    print(
        f"live target (run --target --suite {suite}, a host already up): run"
        f" {spread(samples['run'])}; floor ({exchanges} recorded requests sent again at the"
        f" run's concurrency, nothing judged) {spread(samples['floor'])}; ratio"
        f" {ratio(samples['run'], samples['floor'])}; variable parts (each minus a process that"
        f" imports httpx, {spread(samples['shared'])}) {variable:.2f}x (medians); {load()}"
    )


def _checks_phase(
    label: str,
    certify: Callable[..., Any],
    floor_of: Callable[[Path], Callable[[], Any]],
    repeat: int,
) -> None:
    with tempfile.TemporaryDirectory(prefix="agent-conformance-bench-") as folder:
        checks = asyncio.run(certify(record=Path(folder)))
        record = recorded(Path(folder))
        samples = interleaved(
            {"run": lambda: asyncio.run(certify()), "floor": floor_of(Path(folder))}, repeat
        )
    print(
        f"{label}: run {spread(samples['run'])}; floor ({len(record.exchanges)} requests and"
        f" what targets sent the suite's servers, at the run's concurrency)"
        f" {spread(samples['floor'])}; ratio {ratio(samples['run'], samples['floor'])};"
        f" {1000 * min(samples['run']) / checks:.1f} ms per check ({checks} checks); {load()}"
    )


def _over_loopback(suites: tuple[str, ...], repeat: int) -> None:
    with serve_host() as host:
        options = run_options(host.url, suites=suites, cacert=host.cacert, timeout=10)

        async def certify(record: Path | None = None) -> int:
            return await _certify(replace(options, record=record))

        def floor_of(folder: Path) -> Callable[[], Any]:
            record = recorded(folder)

            async def both() -> None:
                async with httpx.AsyncClient(verify=str(host.cacert), timeout=10) as client:
                    await floor(record, client)

            return lambda: asyncio.run(both())

        _checks_phase("checks phase over loopback HTTPS", certify, floor_of, repeat)


def _in_process(suites: tuple[str, ...], repeat: int) -> None:
    async def certify(record: Path | None = None) -> int:
        app = create_app(IN_PROCESS)  # a fresh app each time: its MCP session manager runs once
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            options = run_options(IN_PROCESS, suites=suites, timeout=10, transport=transport)
            return await _certify(replace(options, record=record))

    def floor_of(folder: Path) -> Callable[[], Any]:
        record = recorded(folder)

        async def both() -> None:
            app = create_app(IN_PROCESS)
            async with (
                app.router.lifespan_context(app),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app), timeout=10) as client,
            ):
                await floor(record, client)

        return lambda: asyncio.run(both())

    _checks_phase("checks phase in-process (ASGI)", certify, floor_of, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--suite", default="all", choices=("woa", "sdsi", "aci", "all"))
    parser.add_argument(
        "--requests",
        type=int,
        default=2000,
        help="requests a sample of the mock throughput sends (default 2000)",
    )
    parser.add_argument(
        "--agents", type=int, default=80_000, help="agents of the large document (default 80,000)"
    )
    parser.add_argument(
        "--examples",
        type=int,
        default=100,
        help="fuzz's --max-examples for its line (default 100, as the command has it)",
    )
    parser.add_argument(
        "--tck",
        type=Path,
        help="a checkout of the A2A TCK with its own venv (bench/tck.py): run it beside the suite",
    )
    parser.add_argument(
        "--tck-python", type=Path, help="the TCK's interpreter (default: DIR/.venv/bin/python)"
    )
    arguments = parser.parse_args()
    suites = ("woa", "sdsi", "aci") if arguments.suite == "all" else (arguments.suite,)
    # the reference agents log what the drafts ask servers to log
    logging.getLogger("mocks").setLevel(logging.ERROR)
    repeat = arguments.repeat
    print(f"machine: {load()}; {repeat} samples of each, taken in turn")
    _startup(repeat)
    _whole_command(arguments.suite, repeat)
    _live_target("woa", repeat)
    _over_loopback(suites, repeat)
    _in_process(suites, repeat)
    fuzz.side_by_side(repeat, arguments.examples)
    if arguments.tck:
        from bench.tck import side_by_side

        side_by_side(arguments.tck, repeat, arguments.tck_python)
    else:
        print("A2A TCK: not run (give --tck DIR, a checkout of the TCK with its venv)")
    _validation(repeat)
    _large_document(repeat, arguments.agents)
    _throughput(repeat, arguments.requests)


def _large_document(repeat: int, agents: int) -> None:
    """The whole command on a host of `agents` minimal agents (served over plain HTTP on
    loopback), against its floor: the same document fetched, parsed and validated by jsonschema-rs
    in this process; and the cost per agent."""
    import jsonschema_rs

    from conformance.schemas import fast_validator
    from mocks.hostile import hosts
    from mocks.serve import serve

    checker: jsonschema_rs.Validator = fast_validator("woa/document")
    with (
        serve(hosts.host(lambda base: hosts.many_agents(base, agents)), tls=False) as host,
        tempfile.TemporaryDirectory() as folder,
    ):

        def parsed_and_validated() -> None:
            body = httpx.get(f"{host.url}/.well-known/woa.json", timeout=60).content
            checker.is_valid(json.loads(body))

        samples = interleaved(
            {
                "run": command(
                    *cli(),
                    *("run", "--target", host.url, "--allow-http-loopback", "--suite", "woa"),
                    *("--quiet", "--report-dir", folder),
                    check=False,
                ),
                "floor": parsed_and_validated,
            },
            repeat,
        )
    per_agent = (statistics.median(samples["run"]) - statistics.median(samples["floor"])) / agents
    print(
        f"large document, {agents:,} agents, whole command {spread(samples['run'])}; floor (fetch,"
        f" parse, jsonschema-rs) {spread(samples['floor'])}; ratio"
        f" {ratio(samples['run'], samples['floor'])}; {per_agent * 1e6:.0f} µs an agent beyond"
        f" the floor (medians); {load()}"
    )


def _validation(repeat: int) -> None:
    from jsonschema import Draft202012Validator

    from conformance.schemas import fast_validator
    from conformance.schemas import validator
    from conformance.validation import validate_message
    from mocks.reference.woa_host import woa_document

    document = woa_document("https://bench.test")
    broken = {**document, "woa_version": 2}
    registry = validator("woa/document")._registry  # type: ignore[attr-defined]
    plain = Draft202012Validator(validator("woa/document").schema, registry=registry)
    rust = fast_validator("woa/document")
    n = 200
    for label, message in (("valid", document), ("invalid", broken)):
        samples = interleaved(
            {
                "ours": partial(
                    lambda m: [validate_message("woa/document", m) for _ in range(n)], message
                ),
                "plain": partial(lambda m: [list(plain.iter_errors(m)) for _ in range(n)], message),
                "native": partial(lambda m: [list(rust.iter_errors(m)) for _ in range(n)], message),
            },
            repeat,
        )
        print(
            f"validation of the reference WoA document, {label} ({n} times): validate_message"
            f" {spread(samples['ours'])}; plain jsonschema {spread(samples['plain'])};"
            f" jsonschema-rs {spread(samples['native'])}; ratio of validate_message / jsonschema"
            f" {ratio(samples['ours'], samples['plain'])}; {load()}"
        )


def _bare(document: bytes, answer: bytes) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    async def served(_: Request) -> Response:
        return Response(document, media_type="application/woa+json")

    async def invoked(request: Request) -> Response:
        await request.body()
        return Response(answer, media_type="application/json")

    return Starlette(
        routes=[
            Route("/.well-known/woa.json", served),
            Route("/agents/summarizer/invoke", invoked, methods=["POST"]),
        ]
    )


def _loaded(arguments: list[str], processes: int) -> None:
    """Run `processes` load generators at once (bench/load.py) and wait for them."""
    runs = [
        subprocess.Popen([sys.executable, "-m", "bench.load", *arguments], stdout=subprocess.PIPE)
        for _ in range(processes)
    ]
    for started in runs:
        started.communicate(timeout=DEADLINE)


def _throughput(repeat: int, count: int = 2000, processes: int = 2, clients: int = 4) -> None:
    from mocks.serve import serve

    envelope = json.dumps(
        {
            "agent": "summarizer",
            "input": {"text": "The IETF is an open international community of network designers."},
        }
    )
    with serve_host() as host:
        document = httpx.get(host.url + "/.well-known/woa.json", verify=str(host.cacert)).content
        answer = httpx.post(
            host.url + "/agents/summarizer/invoke",
            content=envelope,
            headers={"content-type": "application/json"},
            verify=str(host.cacert),
        ).content
    with serve_host() as reference, serve(lambda _: _bare(document, answer)) as bare:
        for label, method, path, body in (
            ("document GET", "GET", "/.well-known/woa.json", ""),
            ("invocation POST", "POST", "/agents/summarizer/invoke", envelope),
        ):
            samples = interleaved(
                {
                    name: partial(
                        _loaded,
                        [
                            served.url + path,
                            str(served.cacert),
                            method,
                            body,
                            str(count // processes),
                            str(clients),
                        ],
                        processes,
                    )
                    for name, served in (("reference", reference), ("bare", bare))
                },
                repeat,
            )
            rates = {name: [count / t for t in times] for name, times in samples.items()}
            print(
                f"mock throughput, {label} ({count} requests, {processes} processes x {clients}"
                f" clients): reference host max {max(rates['reference']):,.0f}/s, median"
                f" {statistics.median(rates['reference']):,.0f}/s; bare Starlette max"
                f" {max(rates['bare']):,.0f}/s, median {statistics.median(rates['bare']):,.0f}/s;"
                f" ratio {ratio(samples['reference'], samples['bare'])}; {load()}"
            )


if __name__ == "__main__":
    main()
