"""`agent-conformance interop`: run implementations against each other, both sides judged."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated
from typing import Any

import typer

from ..usecases.interop import ManifestUnusable
from ..usecases.interop import interop_matrix
from ..usecases.interop import read_manifest
from ..usecases.interop.matrix import MARKS
from ._console import console
from ._console import fail_usage
from ._options import dask_at_hand
from ._options import scheduler_option

__all__ = ["interop"]


def interop(
    manifest: Annotated[
        Path,
        typer.Argument(
            exists=True,
            dir_okay=False,
            help=(
                'JSON (or TOML) listing the implementations: {"implementations": [{name, host,'
                " cacert, client_command, headers}, ...]}."
            ),
        ),
    ],
    report_dir: Annotated[
        Path,
        typer.Option(
            file_okay=False,
            help=(
                "Where each pair's evidence goes (a folder each), with interop.json and interop.md."
            ),
        ),
    ] = Path("reports/interop"),
    jobs: Annotated[int, typer.Option(min=1, max=256, help="Pairs run at once (locally).")] = 4,
    scheduler: Annotated[str | None, scheduler_option("pair")] = None,
    timeout: Annotated[
        float, typer.Option(min=0.1, max=600, help="Seconds allowed for each request.")
    ] = 30.0,
) -> None:
    """Run every compatible pair of MANIFEST's implementations against each other through the
    judging proxy.

    A's WoA client with B's host, A's ACI master with B's invoked agents, A's SDSI client with
    B's SDSI server: both sides judged with the registered checks, the matrix written
    (interop.json, interop.md) with each pair's reports. Exit 0 when every pair interoperates, 1
    when one broke or could not run, 2 when no pair can be made."""
    dask_at_hand(scheduler, "pairs")
    try:
        implementations = read_manifest(manifest)
    except ManifestUnusable as error:
        fail_usage(str(error))

    def finished(cell: dict[str, Any]) -> None:
        broke = "; ".join(f"{b['side']} broke {b['requirement']}" for b in cell["broke"])
        detail = "; ".join(filter(None, [broke, cell["why"]]))
        console.print(
            f"{cell['draft']}: {cell['client']} with {cell['server']}: {MARKS[cell['outcome']]}"
            + (f" ({detail})" if detail else ""),
            markup=False,
        )

    try:
        matrix = interop_matrix(
            implementations,
            report_dir,
            jobs=jobs,
            scheduler=scheduler,
            timeout=timeout,
            progress=finished,
        )
    except OSError as error:  # a full disk, a folder that cannot be made
        fail_usage(f"cannot write the matrix to {report_dir}: {error}")
    for name, found in matrix["implementations"].items():
        if found["problem"]:
            console.print(f"{name}: {found['problem']}", markup=False)
    cells = matrix["pairs"]
    if not cells:
        fail_usage(
            "no pair can be made: each pairing needs a client side of one implementation and a"
            " server side of another (roles found: "
            + "; ".join(
                f"{name} {', '.join(found['roles']) or 'none'}"
                for name, found in matrix["implementations"].items()
            )
            + ")"
        )
    working = sum(c["outcome"] == "interoperates" for c in cells)
    console.print(
        f"{working} of {len(cells)} pairs interoperate. Matrix: {report_dir / 'interop.md'}",
        markup=False,
    )
    raise typer.Exit(0 if working == len(cells) else 1)
