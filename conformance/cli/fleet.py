"""`agent-conformance fleet`: certify a list of targets, locally or on Dask distributed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated
from typing import Any

import typer

from ..report.compare import ReportUnreadable
from ..report.compare import load_matrix
from ..usecases.fleet import fleet_results
from ..usecases.fleet import read_targets
from ._console import console
from ._console import fail_usage
from ._options import dask_at_hand
from ._options import scheduler_option

__all__ = ["fleet"]


MATRIX_LIMIT = 100


def fleet(
    targets: Annotated[
        Path,
        typer.Option(
            exists=True,
            dir_okay=False,
            help=(
                "One target URL a line, or a JSON list of {target, suite, cacert, timeout, budget,"
                " allow_http_loopback}."
            ),
        ),
    ],
    jobs: Annotated[
        int, typer.Option(min=1, max=256, help="Targets certified at once (locally).")
    ] = 4,
    scheduler: Annotated[str | None, scheduler_option("target")] = None,
    report_dir: Annotated[
        Path,
        typer.Option(
            file_okay=False,
            help=(
                "Where each target's reports go (one folder each), with fleet.json, fleet.md and"
                " the comparison matrix."
            ),
        ),
    ] = Path("reports/fleet"),
) -> None:
    """Certify every target of TARGETS into REPORT_DIR/<target>/, then write fleet.json, fleet.md
    and comparison.{html,md}. A target whose folder holds a complete report is not certified
    again. Exit 0 when every target passed, 1 otherwise."""
    dask_at_hand(scheduler, "fleet")
    try:
        specs = read_targets(targets)
    except (OSError, ValueError, TypeError) as error:
        fail_usage(f"{targets} is not a targets file: {error}")
    if not specs:
        fail_usage(f"{targets} names no target")

    def finished(row: dict[str, Any]) -> None:
        reused = " (kept from an earlier run)" if row.get("reused") else ""
        console.print(
            f"{row['target']}: {row.get('verdict') or row.get('problem')} (exit"
            f" {row['exit_code']}){reused}",
            markup=False,
        )

    rows = fleet_results(specs, report_dir, jobs=jobs, scheduler=scheduler, progress=finished)
    reports = [
        report_dir / row["folder"] / "report.json"
        for row in rows
        if (report_dir / row["folder"] / "report.json").is_file()
    ]
    # a column per target: past this nobody reads it, and it holds every report in memory
    if len(reports) > MATRIX_LIMIT:
        console.print(
            f"No comparison matrix for {len(reports)} targets (it is written up to {MATRIX_LIMIT});"
            " fleet.json and fleet.md hold every verdict.",
            markup=False,
        )
    elif reports:
        try:
            matrix = load_matrix(reports)
            (report_dir / "comparison.html").write_text(matrix.html(report_dir), encoding="utf-8")
            (report_dir / "comparison.md").write_text(matrix.markdown(), encoding="utf-8")
        except ReportUnreadable as error:
            console.print(f"No comparison: {error}", markup=False)
    failing = [row for row in rows if row["exit_code"] != 0]
    console.print(
        f"{len(rows) - len(failing)} of {len(rows)} targets passed. Summary:"
        f" {report_dir / 'fleet.md'}",
        markup=False,
    )
    code = fleet_code([row["exit_code"] for row in rows])
    if code:
        named = ", ".join(f"{row['target']} exited {row['exit_code']}" for row in failing[:3])
        more = f", and {len(failing) - 3} more" if len(failing) > 3 else ""
        typer.echo(
            f"agent-conformance: {len(failing)} of {len(rows)} targets did not pass ({named}{more})"
            f" (exit {code})",
            err=True,
        )
    raise typer.Exit(code)


def fleet_code(codes: list[int]) -> int:
    """The fleet's exit code: its targets' codes in the contract's precedence (a defect of the
    suite, then nothing certifiable, then a MUST failure, then an unfinished run); 0 when all
    passed."""
    return next((c for c in (3, 2, 1, 4) if c in codes), 0)
