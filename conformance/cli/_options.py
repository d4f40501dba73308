"""The options several commands share, declared once: the same name, limits and help wherever a
user meets them (`cacert: Cacert = None`). A run's own options come from their one declaration
(targeting/declared.py), which the pytest plugin and fleet read too."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated
from typing import Any
from typing import Literal

import typer

from ..targeting.declared import GIVEN

__all__ = [
    "AllowHttpLoopback",
    "AllowOrigin",
    "Baseline",
    "Binding",
    "Budget",
    "Cacert",
    "CheckTimeout",
    "ClientCommand",
    "Debug",
    "Exclude",
    "Fault",
    "FaultRate",
    "FaultSeed",
    "Header",
    "KeepCredentials",
    "Level",
    "MaxExperimentalKeys",
    "MaxProbes",
    "Minimal",
    "Parallel",
    "Record",
    "ReportDir",
    "RequireEveryAgent",
    "Requirement",
    "Revision",
    "Role",
    "Scenario",
    "Section",
    "Seed",
    "Strict",
    "Suite",
    "Timeout",
    "dask_at_hand",
    "folder",
    "run_option",
    "scheduler_option",
]


def run_option(keyword: str) -> Any:
    """The typer option of one of a run's options, as targeting/declared.py declares it: its flag,
    help, type and limits (`timeout: Timeout = GIVEN["timeout"].default`)."""
    given = GIVEN[keyword]
    kind: Any = Literal.__getitem__(given.choices) if given.choices else given.kind
    if given.repeatable:
        kind = list[kind] | None
    elif given.default is None:
        kind = kind | None
    limits: dict[str, Any] = {"min": given.minimum, "max": given.maximum}
    if given.path == "existing-file":
        limits |= {"exists": True, "dir_okay": False}
    elif given.path == "file":
        limits["dir_okay"] = False
    elif given.path == "folder":
        limits["file_okay"] = False
    return Annotated[
        kind,
        typer.Option(
            f"--{given.flag}", help=given.help, **{k: v for k, v in limits.items() if v is not None}
        ),
    ]


Suite = run_option("suites")
Role = run_option("roles")
Cacert = run_option("cacert")
Timeout = run_option("timeout")
AllowHttpLoopback = run_option("allow_http_loopback")
AllowOrigin = run_option("allowed_origins")
Binding = run_option("binding")
Scenario = run_option("scenarios")
Revision = run_option("revisions")
MaxExperimentalKeys = run_option("max_experimental_keys")
CheckTimeout = run_option("check_timeout")
Budget = run_option("budget")
Strict = run_option("strict")
ClientCommand = run_option("client_command")
Level = run_option("levels")
Requirement = run_option("requirements")
Section = run_option("sections")
Exclude = run_option("exclude")
Baseline = run_option("baseline")
Header = run_option("headers")
Record = run_option("record")
Seed = run_option("seed")
MaxProbes = run_option("max_probes")
RequireEveryAgent = run_option("require_every_agent")
Parallel = run_option("parallel")
KeepCredentials = run_option("keep_credentials")
ReportDir = Annotated[Path, typer.Option(file_okay=False, help="Where to write the reports.")]
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


def scheduler_option(each: str) -> Any:
    """--scheduler: a Dask scheduler, one task per `each`."""
    return typer.Option(
        help=(
            f"A Dask distributed scheduler, e.g. tcp://10.0.0.5:8786: one task per {each},"
            " retried once if its worker dies."
        )
    )


def dask_at_hand(given: str | None, work: str) -> None:
    """With a --scheduler given, a usage error when Dask (the [fleet] extra) is not installed."""
    if given is None:
        return
    try:
        import distributed  # noqa: F401  (only to know it is there)
    except ImportError:
        from ._console import fail_usage

        fail_usage(
            f"--scheduler runs the {work} on Dask, which is an extra: pip install"
            " 'agent-conformance[fleet]'"
        )
