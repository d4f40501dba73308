"""`agent-conformance run`: certify a target and write its reports."""

from __future__ import annotations

import asyncio
import logging
from contextlib import ExitStack
from enum import StrEnum
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

import typer
from rich.table import Table

from mocks.serve import serve_host

from ..bindings import BINDINGS
from ..report import Status, Summary
from ..report.writers import FORMATS, writers_for
from ..runner import DEFAULT_ROLES, RunOptions, TargetUnreachable
from ..runner import run as run_suite
from ._console import console, fail_usage
from .mock import check_fault

__all__ = ["normalized_target", "run"]


class Suite(StrEnum):
    woa = "woa"
    sdsi = "sdsi"
    aci = "aci"
    all = "all"


def normalized_target(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        fail_usage(f"--target must be an http or https URL such as https://agents.example.com, not {url!r}")
    if parts.query or parts.fragment:
        fail_usage("--target is an origin (and optional base path), without a query or fragment")
    return url.rstrip("/")


def _print_summary(summary: Summary, report_dir: Path, formats: list[str]) -> None:
    waived = f" ({summary.waived} waived)" if summary.waived else ""
    table = Table(title=f"Compliance: {summary.level}{waived}", title_justify="left")
    table.add_column("level")
    for status in Status:
        table.add_column(status.value, justify="right")
    for level in ("MUST", "SHOULD", "MAY"):
        table.add_row(level, *(str(summary.count(level, s)) for s in Status))
    console.print(table)
    console.print(f"{summary.untested_must} MUST-level requirements untested (a skip is never a pass).")
    files = ", ".join(str(report_dir / FORMATS[f].filename) for f in formats)
    console.print(f"Reports: {files}")


def run(
    target: Annotated[str | None, typer.Option(help="The target's origin, e.g. https://agents.example.com (the suite GETs /.well-known/woa.json there).")] = None,
    mock: Annotated[bool, typer.Option("--mock", help="Certify the built-in reference mock instead, started on loopback for this run.")] = False,
    fault: Annotated[str | None, typer.Option(help="With --mock: give the mock this named fault (see `mock faults`).")] = None,
    suite: Annotated[Suite, typer.Option(help="Which draft to certify against.")] = Suite.all,
    cacert: Annotated[Path | None, typer.Option(exists=True, dir_okay=False, help="Trust this CA certificate (PEM), e.g. a local test CA.")] = None,
    report_dir: Annotated[Path, typer.Option(file_okay=False, help="Where to write the reports.")] = Path("reports"),
    timeout: Annotated[float, typer.Option(min=0.1, max=600, help="Seconds allowed for each request.")] = 10.0,
    report_format: Annotated[list[str] | None, typer.Option("--format", help=f"Report formats to write (repeatable): {', '.join(FORMATS)}. Default: all.")] = None,
    role: Annotated[list[str] | None, typer.Option(help=f"Roles to certify the target in (repeatable). Default: {', '.join(r for r in DEFAULT_ROLES if r != 'any')}.")] = None,
    allow_http_loopback: Annotated[bool, typer.Option(help="For a plain-HTTP target on loopback, report the HTTPS requirements as waived (never as pass).")] = False,
    allow_origin: Annotated[list[str] | None, typer.Option(help="Also let the suite invoke URLs on this origin (repeatable); by default it calls only the target's own origin.")] = None,
    binding: Annotated[str, typer.Option(help="How to talk to the target: woa-rest (default), jsonrpc (SDSI Appendix A, --suite sdsi) or a2a (ACI invoked agents, --suite aci).")] = "woa-rest",
    scenario: Annotated[list[str] | None, typer.Option(help="With --binding jsonrpc: an SDSI scenario to certify (repeatable).")] = None,
    max_experimental_keys: Annotated[int, typer.Option(min=1, help="The SDSI convergence cap: most active experimental keys per scenario (6.2.3).")] = 10,
) -> None:
    """Certify the target at --target (or the built-in reference mock, --mock) against the drafts, and write
    report.json, events.jsonl, junit.xml and summary.md into --report-dir.

    Exit code 0 when no MUST-level requirement failed, 1 when at least one did, 2 for a usage error
    or a target that cannot be reached.
    """
    formats = report_format or list(FORMATS)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        fail_usage(f"unknown --format {', '.join(unknown)}; choose from {', '.join(FORMATS)}")
    roles = tuple(role or DEFAULT_ROLES)
    bad_roles = [r for r in roles if r not in (*DEFAULT_ROLES, "client")]
    if bad_roles:
        fail_usage(f"unknown --role {', '.join(bad_roles)}")
    if (target is None) == (not mock):
        fail_usage("give either --target URL or --mock")
    if fault and not mock:
        fail_usage("--fault goes with --mock")
    if binding not in BINDINGS:
        fail_usage(f"unknown --binding {binding!r}; choose from {', '.join(BINDINGS)}")
    if binding == "jsonrpc" and (suite is not Suite.sdsi or not scenario):
        fail_usage("--binding jsonrpc certifies an SDSI endpoint: give --suite sdsi and at least one --scenario")
    if binding == "a2a" and suite is not Suite.aci:
        fail_usage("--binding a2a certifies ACI invoked agents over A2A: give --suite aci")
    check_fault(fault)
    suites = ("woa", "sdsi", "aci") if suite is Suite.all else (suite.value,)
    with ExitStack() as stack:
        if mock:
            # The mock's own log (a reference server logs what the drafts tell servers to log) is not the run's output.
            logging.getLogger("mocks").setLevel(logging.ERROR)
            served = stack.enter_context(serve_host(fault))
            target, cacert = served.url, served.cacert
            console.print(f"Reference mock serving at {target}")
        assert target is not None
        options = RunOptions(target=normalized_target(target), suites=suites, roles=(*roles, "any"), timeout=timeout,
                             cacert=cacert, allow_http_loopback=allow_http_loopback,
                             allowed_origins=tuple(normalized_target(o) for o in allow_origin or ()),
                             binding=binding, scenarios=tuple(scenario or ()), max_experimental_keys=max_experimental_keys)
        try:
            summary = asyncio.run(run_suite(options, writers_for(report_dir, tuple(formats))))
        except TargetUnreachable as error:
            fail_usage(f"target unreachable: {error}")
    _print_summary(summary, report_dir, formats)
    raise typer.Exit(1 if summary.must_failed else 0)
