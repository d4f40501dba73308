"""The command line: `agent-conformance COMMAND`. One module per command group.

Exit codes (conformance/gate.py has the contract of `run` and `fuzz`): 0 passed; 1 a MUST-level
requirement failed (or, for `vectors validate`, a vector disagreed); 2 a usage error or nothing
could be certified; 3 a defect of the suite itself; 4 inconclusive; 130 interrupted outside a run.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable

import typer

from .. import __version__
from . import (
    aci,
    attest,
    baseline,
    compare,
    errata,
    fleet,
    fuzz,
    mock,
    mutate,
    oracle,
    proxy,
    rejudge,
    requirements,
    run,
    vectors,
)
from ._help import quiet_type_tags
from ._lifecycle import settings, sigterm_interrupts, write_defect

__all__ = ["app", "main"]

quiet_type_tags()
app = typer.Typer(
    name="agent-conformance",
    help="Certify AI agents against the SDSI, WoA and ACI Internet-Drafts, and write compliance reports.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _command(name: str, function: Callable[..., None]) -> None:
    """Register `function` as `name`, its first sentence as the one line the command list shows."""
    first = " ".join((function.__doc__ or "").split())
    short = re.split(r"(?<=\.)\s", first, maxsplit=1)[0].rstrip(".")
    app.command(name, short_help=short)(function)


for _name, _function in (("run", run.run), ("fuzz", fuzz.fuzz), ("mutate", mutate.mutate), ("proxy", proxy.proxy),
                         ("baseline", baseline.baseline), ("compare", compare.compare), ("keygen", attest.keygen_command),
                         ("attest", attest.attest_command), ("verify", attest.verify_command), ("rejudge", rejudge.rejudge),
                         ("fleet", fleet.fleet), ("requirements", requirements.requirements)):
    _command(_name, _function)
app.add_typer(vectors.app, name="vectors")
_command("errata", errata.errata)
app.add_typer(mock.app, name="mock")
app.add_typer(oracle.app, name="oracle")
app.add_typer(aci.app, name="aci")


@app.command("version")
def version() -> None:
    """Print the suite's version."""
    typer.echo(f"agent-conformance {__version__}")


def main() -> None:
    # Libraries that configure logging themselves (the MCP SDK does) find it configured already.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    sigterm_interrupts()
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("agent-conformance: interrupted", err=True)
        sys.exit(130)
    except Exception as error:  # a defect of the suite: one line, the traceback in a log, a distinct exit code
        log, text = write_defect(error)
        if settings.debug:
            typer.echo(text, err=True)
        where = f"; the traceback is in {log}" if log else ""
        typer.echo(f"agent-conformance: internal error (a defect of the suite): {type(error).__name__}: {error}{where}", err=True)
        sys.exit(3)
