"""`agent-conformance baseline REPORT.json`: a baseline of a report's failures, to give reasons
to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..targeting.baseline import from_report
from ._console import fail_usage

__all__ = ["baseline"]


def baseline(
    report: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help="A report.json of `run`.")
    ],
) -> None:
    """Print a baseline (for `run --baseline`) listing every failure of REPORT; replace each
    reason with the real one."""
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        fail_usage(f"{report} is not a report.json: {error}")
    if not isinstance(data, dict) or "results" not in data:
        fail_usage(f"{report} is not a report.json of agent-conformance")
    typer.echo(json.dumps(from_report(data), indent=2))
