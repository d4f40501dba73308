"""`agent-conformance compare REPORT.json ...`: requirements by implementations, as HTML and
Markdown."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..report.compare import ReportUnreadable
from ..report.compare import load_matrix
from ._console import console
from ._console import fail_usage

__all__ = ["compare"]


def compare(
    reports: Annotated[
        list[Path],
        typer.Argument(
            exists=True, dir_okay=False, help="report.json files of `run`, one per implementation."
        ),
    ],
    output: Annotated[
        Path,
        typer.Option(file_okay=False, help="Where to write comparison.html and comparison.md."),
    ] = Path("reports/comparison"),
) -> None:
    """Write a requirements-by-implementations matrix of REPORTS: a status per cell, rows that
    differ marked, each report's suite version and draft revisions in the header (a warning when
    they differ)."""
    try:
        matrix = load_matrix(reports)
    except ReportUnreadable as error:
        fail_usage(str(error))
    try:
        output.mkdir(parents=True, exist_ok=True)
        (output / "comparison.html").write_text(matrix.html(output), encoding="utf-8")
        (output / "comparison.md").write_text(matrix.markdown(), encoding="utf-8")
    except OSError as error:
        fail_usage(f"cannot write to {output}: {error}")
    for warning in matrix.warnings:
        console.print(f"Warning: {warning}", markup=False)
    differing = sum(matrix.differs(r) for r, _, _ in matrix.rows)
    console.print(
        f"{len(matrix.columns)} reports, {len(matrix.rows)} requirements, {differing} differ. "
        f"Wrote {output / 'comparison.html'} and {output / 'comparison.md'}",
        markup=False,
    )
