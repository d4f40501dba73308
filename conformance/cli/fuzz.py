"""`agent-conformance fuzz`: fuzz a WoA host's agents with schemathesis."""

from __future__ import annotations

import asyncio
import json
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer

from ..report.outcome import told
from ..report.redaction import public
from ..targeting import run_options
from ..usecases.fuzz.session import FuzzUnavailable
from ..usecases.fuzz.session import fuzz_target
from ._console import console
from ._console import fail_usage
from ._lifecycle import interruptible
from ._options import AllowOrigin
from ._options import Cacert
from ._options import Debug
from ._options import ReportDir
from ._options import Strict
from ._options import Timeout
from .run import finish
from .run import prepared_writers
from .run import reported
from .run import usable

__all__ = ["fuzz"]

#: What fuzz writes: the run's formats but the page and the badges.
FUZZ_FORMATS = ["jsonl", "json", "junit", "markdown"]


#: The longest curl command printed whole; a longer one is left to the report.
_LONGEST_CURL = 4_000


def fuzz(
    target: Annotated[
        str,
        typer.Option(
            help=(
                "The host's origin; the suite reads /.well-known/woa.json there and fuzzes every"
                " agent offered over rest."
            )
        ),
    ],
    max_examples: Annotated[
        int, typer.Option(min=1, max=100_000, help="Examples per operation and phase.")
    ] = 100,
    seed: Annotated[
        int, typer.Option(help="Seed for reproducible runs: the same seed sends the same requests.")
    ] = 0,
    cacert: Cacert = None,
    timeout: Timeout = 10.0,
    report_dir: ReportDir = Path("reports/fuzz"),
    allow_http_loopback: Annotated[
        bool, typer.Option(help="Fuzz a plain-HTTP rest base on loopback.")
    ] = False,
    allow_origin: AllowOrigin = None,
    strict: Strict = False,
    quiet: Annotated[
        bool,
        typer.Option("--quiet", "-q", help="No progress and no findings: only the verdict line."),
    ] = False,
    debug: Debug = False,
) -> None:
    """Fuzz the host's agents (schemathesis on an OpenAPI document built from the WoA document) and
    judge every exchange with run's checks.

    Valid inputs served 2xx with outputs that keep to their schema, inputs that break it refused
    with 4xx problem details, answers in JSON. Each failure comes with the curl command that
    sends its request again. Exit codes as for `run`."""
    options = usable(
        run_options,
        target,
        suites="woa",
        timeout=timeout,
        cacert=cacert,
        allow_http_loopback=allow_http_loopback,
        strict=strict,
        allowed_origins=allow_origin or (),
    )
    fresh = not report_dir.exists()
    writers = prepared_writers(report_dir, FUZZ_FORMATS, debug=debug)
    try:
        with (
            reported(report_dir, FUZZ_FORMATS, made=fresh),
            (
                console.status(f"Fuzzing {public(target)}…")
                if console.is_terminal and not quiet
                else nullcontext()
            ) as status,
        ):

            def progress(what: str) -> None:
                if quiet:
                    return
                if status is not None:
                    status.update(what + "…")
                elif not what.startswith("Fuzzing: "):  # a log gets the stages, not every operation
                    console.print(what, markup=False)

            summary = asyncio.run(
                interruptible(
                    fuzz_target(
                        options,
                        max_examples=max_examples,
                        seed=seed,
                        handlers=writers,
                        progress=progress,
                    )
                )
            )
    except FuzzUnavailable as error:
        fail_usage(str(error))
    if quiet:
        console.print(f"Fuzzing: {told(summary).headline}; reports in {report_dir}", markup=False)
        finish(summary)
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    header = report["header"]["options"]
    console.print(f"Fuzzed: {', '.join(header['fuzzed_agents']) or 'no agent'}", markup=False)
    for reason in header["left_out"]:
        console.print(f"Left out: {reason}", markup=False)
    for result in report["results"]:
        if result["status"] in ("fail", "error"):
            console.print(
                f"{result['status']} {result['requirement']}: {result['message']}", markup=False
            )
            curl = next((e["curl"] for e in result.get("evidence", []) if e.get("curl")), None)
            if curl and len(curl) > _LONGEST_CURL:  # a 70,000-character edge string, say
                console.print(
                    f"  reproduce: a {len(curl):,}-character curl command, in"
                    f" {report_dir / 'report.json'} (this result's evidence)",
                    markup=False,
                )
            elif curl:
                console.print(f"  reproduce: {curl}", markup=False, soft_wrap=True)
    console.print(
        f"Fuzzing: {told(summary).headline}; {summary.total} results; reports in {report_dir}",
        markup=False,
    )
    finish(summary)
