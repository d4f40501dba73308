"""`agent-conformance vectors validate`: judge every golden vector with the suite's own
validators."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..vectors import check_vectors
from ..vectors import vectors_root
from ._console import console
from ._options import folder

__all__ = ["app"]

app = typer.Typer(
    help="The golden vectors taken from the drafts' figures and appendices.", no_args_is_help=True
)


@app.command("validate")
def validate(directory: Annotated[Path | None, folder("vector files", "vectors")] = None) -> None:
    """Check that every vector case gets the verdict its file expects; name each file and case
    that does not."""
    root = directory or vectors_root()
    report = check_vectors(root)
    for failure in report.failures:
        console.print(f"[red]✗[/red] {failure}", markup=True)
    cases = len(report.outcomes)
    valid = cases - report.invalid_cases
    verdict = (
        "all as expected" if not report.failures else f"{len(report.failures)} not as expected"
    )
    console.print(
        f"{cases} cases in {report.files} files ({valid} valid, {report.invalid_cases} invalid):"
        f" {verdict}"
    )
    raise typer.Exit(1 if report.failures else 0)
