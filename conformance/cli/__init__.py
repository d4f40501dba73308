"""The command line: `agent-conformance COMMAND`. One module per command group.

Exit codes (conformance/engine/gate.py has the contract of `run` and `fuzz`): 0 passed; 1 a
MUST-level requirement failed (or, for `vectors validate`, a vector disagreed); 2 a usage error
or nothing could be certified; 3 a defect of the suite itself; 4 inconclusive; 130 interrupted
outside a run."""

from __future__ import annotations

import gc
import importlib
import logging
import re
import sys
from functools import cached_property
from typing import Any

import typer

# the click typer carries (0.29 vendors it): its Command and Context types
from typer import _click as click
from typer.core import TyperCommand
from typer.core import TyperGroup

from .. import __version__
from ._help import quiet_type_tags
from ._lifecycle import Interrupted
from ._lifecycle import settings
from ._lifecycle import signals_interrupt
from ._lifecycle import write_defect

__all__ = ["COMMANDS", "app", "main"]

#: Every command, imported only when it runs (so `--help` and `version` start as quickly as typer
#: does): its name, where it lives (module:function, or module:app for a group) and the one line the
#: command list shows (the first sentence of its help; tests/cli/test_cli.py holds them equal).
COMMANDS: dict[str, tuple[str, str]] = {
    "run": (
        "run:run",
        (
            "Certify the target at --target (or the built-in reference mock, --mock) against the"
            " drafts, and write report.json, events.jsonl, junit.xml, summary.md, report.html and a"
            " badge per draft into --report-dir"
        ),
    ),
    "fuzz": (
        "fuzz:fuzz",
        (
            "Fuzz the host's agents (schemathesis on an OpenAPI document built from the WoA"
            " document) and judge every exchange with run's checks"
        ),
    ),
    "mutate": (
        "mutate:mutate",
        (
            "Run generic mutation operators over the reference agents' answers (drop, rename,"
            " retype, empty or null a member, add one, swap ids, change the status or media type,"
            " truncate or corrupt the JSON, shift a number, reorder an array, replay a stale"
            " answer, delay past the deadline) and certify each mutant in process"
        ),
    ),
    "proxy": (
        "proxy:proxy",
        (
            "Forward every exchange between a client and --upstream unchanged, and judge both sides"
            " from the traffic"
        ),
    ),
    "baseline": (
        "baseline:baseline",
        (
            "Print a baseline (for `run --baseline`) listing every failure of REPORT; replace each"
            " reason with the real one"
        ),
    ),
    "compare": (
        "compare:compare",
        (
            "Write a requirements-by-implementations matrix of REPORTS: a status per cell, rows"
            " that differ marked, each report's suite version and draft revisions in the header (a"
            " warning when they differ)"
        ),
    ),
    "keygen": (
        "attest:keygen_command",
        (
            "Make an Ed25519 key pair for signing attestations (the private key file is readable by"
            " its owner only)"
        ),
    ),
    "attest": (
        "attest:attest_command",
        (
            "Sign REPORT_DIR: the report, the digests of every report file, the suite and catalogue"
            " versions, the draft revisions and the digest of the target's WoA document, written to"
            " REPORT_DIR/attestation.json"
        ),
    ),
    "verify": (
        "attest:verify_command",
        "Check an attestation offline: its signature, then every attested file",
    ),
    "rejudge": (
        "rejudge:rejudge",
        (
            "Judge a recorded run again with this version's checks, answering every request from"
            " the recording: nothing is contacted"
        ),
    ),
    "fleet": (
        "fleet:fleet",
        (
            "Certify every target of TARGETS into REPORT_DIR/<target>/, then write fleet.json,"
            " fleet.md and comparison.{html,md}"
        ),
    ),
    "interop": (
        "interop:interop",
        (
            "Run every compatible pair of MANIFEST's implementations against each other through the"
            " judging proxy"
        ),
    ),
    "report-site": ("report_site:report_site", "Write the implementation report as a static site"),
    "requirements": (
        "requirements:requirements",
        (
            "List the requirement catalogue: every normative rule of the drafts, with the checks"
            " and schemas that cover it"
        ),
    ),
    "vectors": ("vectors:app", "The golden vectors taken from the drafts' figures and appendices."),
    "errata": (
        "errata:errata",
        (
            "Review the drafts: each slip, gap and ambiguity, the text proposed to the authors, and"
            " the suite's reading"
        ),
    ),
    "mock": ("mock:app", "The reference agents the suite certifies, and their named faults."),
    "oracle": ("oracle:app", "The reference DSP and lifecycle oracle (SDSI 6.2)."),
    "aci": ("aci:app", "Figures of the reference ACI agents."),
}


def short_help(function: Any) -> str:
    """The first sentence of a command's help: the one line the command list shows."""
    first = " ".join((function.__doc__ or "").split())
    return re.split(r"(?<=\.)\s", first, maxsplit=1)[0].rstrip(".")


def loaded(name: str) -> click.Command:
    """The click command of `name`, its module imported now."""
    module, attribute = COMMANDS[name][0].split(":")
    found = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    if isinstance(found, typer.Typer):
        group: click.Command = typer.main.get_group(found)
        group.name = name
        return group
    holder = typer.Typer()
    holder.command(name, short_help=short_help(found))(found)
    return typer.main.get_command(holder)


class _Deferred(TyperCommand):
    """A command known by its name and one line until it is invoked: then its module is imported."""

    def __init__(self, name: str) -> None:
        super().__init__(name, short_help=COMMANDS[name][1], help=COMMANDS[name][1])

    @cached_property
    def command(self) -> click.Command:
        return loaded(str(self.name))

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        return self.command.make_context(info_name, args, parent=parent, **extra)


class _Commands(TyperGroup):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*COMMANDS, *super().list_commands(ctx)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _Deferred(cmd_name) if cmd_name in COMMANDS else super().get_command(ctx, cmd_name)


quiet_type_tags()
app = typer.Typer(
    name="agent-conformance",
    cls=_Commands,
    help=(
        "Certify AI agents against the SDSI, WoA and ACI Internet-Drafts, and write compliance"
        " reports."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


@app.callback()
def _suite() -> None:
    """Certify AI agents against the SDSI, WoA and ACI Internet-Drafts, and write compliance
    reports."""


@app.command("version")
def version() -> None:
    """Print the suite's version."""
    typer.echo(f"agent-conformance {__version__}")


def main() -> None:
    # Libraries that configure logging themselves (the MCP SDK does) find it configured already.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    signals_interrupt()
    try:
        app()
    except SystemExit:
        # the process ends here, its reports written: the collections at interpreter shutdown
        # need not walk every object it made (a tenth of `run --mock`)
        gc.freeze()
        raise
    except (Interrupted, KeyboardInterrupt) as interrupted:
        # a signal outside a run (a run cut short finishes in order: _lifecycle.py)
        what = f" by {interrupted}" if str(interrupted).startswith("SIG") else ""
        typer.echo(f"agent-conformance: interrupted{what} (exit 130)", err=True)
        sys.exit(130)
    except Exception as error:
        # a defect of the suite: one line, the traceback in a log, a distinct exit code
        log, text = write_defect(error)
        if settings.debug:
            typer.echo(text, err=True)
        where = f"; the traceback is in {log}" if log else ""
        said = settings.redaction.text(str(error)) if settings.redaction else str(error)
        typer.echo(
            f"agent-conformance: internal error (a defect of the suite): {type(error).__name__}:"
            f" {said}{where}",
            err=True,
        )
        sys.exit(3)
    except BaseException as error:
        if type(error).__name__ != "CancelledError":  # asyncio's, imported only by what runs
            raise
        typer.echo("agent-conformance: interrupted (exit 130)", err=True)
        sys.exit(130)
