"""The options several commands share, declared once: the same name, limits and help wherever a
user meets them (`cacert: Cacert = None`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated
from typing import Any

import typer

__all__ = [
    "AllowOrigin",
    "Cacert",
    "Debug",
    "Fault",
    "FaultRate",
    "FaultSeed",
    "Minimal",
    "Record",
    "ReportDir",
    "Strict",
    "Timeout",
    "folder",
]

Cacert = Annotated[
    Path | None,
    typer.Option(
        exists=True, dir_okay=False, help="Trust this CA certificate (PEM), e.g. a local test CA."
    ),
]
Timeout = Annotated[float, typer.Option(min=0.1, max=600, help="Seconds allowed for each request.")]
ReportDir = Annotated[Path, typer.Option(file_okay=False, help="Where to write the reports.")]
AllowOrigin = Annotated[
    list[str] | None,
    typer.Option(
        help=(
            "Also let the suite call URLs on this origin (repeatable); by default it calls only"
            " the target's own origin."
        )
    ),
]
Strict = Annotated[
    bool,
    typer.Option(
        "--strict",
        help=(
            "Judge requirements read out of prose (basis inferred) at the stronger level their"
            " errata entries argue for, MUST included: a schema-valid input answered 5xx then"
            " fails at MUST; recorded in the report."
        ),
    ),
]
Debug = Annotated[
    bool,
    typer.Option(
        "--debug",
        help=(
            "Print the traceback of a defect of the suite (it always goes to the report"
            " folder's debug log)."
        ),
    ),
]
Record = Annotated[
    Path | None,
    typer.Option(
        file_okay=False,
        help="Record every exchange into this folder, to judge it again later with `rejudge`.",
    ),
]
# -- the reference agents, served by `mock server` and `run --mock` --
Fault = Annotated[
    str | None,
    typer.Option(help="Break exactly one rule of the reference agents: a name from `mock faults`."),
]
FaultRate = Annotated[
    float | None,
    typer.Option(
        min=0.0,
        max=1.0,
        help=(
            "Apply --fault to this fraction of the requests only (a flaky agent; the coin's seed"
            " is --fault-seed)."
        ),
    ),
]
FaultSeed = Annotated[
    int,
    typer.Option(help="With --fault-rate: the seed of the coin that picks the faulty requests."),
]
Minimal = Annotated[
    bool,
    typer.Option(
        "--minimal",
        help=(
            "The minimal conformer instead: what the MUSTs demand and nothing more (no SHOULD"
            " honoured, every MAY declined)."
        ),
    ),
]


def folder(holding: str, shipped: str) -> Any:
    """--dir: a folder of `holding` to use instead of the `shipped` ones."""
    return typer.Option(
        "--dir",
        file_okay=False,
        exists=True,
        help=f"A folder of {holding} (default: the shipped {shipped}).",
    )
