"""`agent-conformance report-site REPORTS...`: the implementation report, a static site."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..report.site import SiteUnbuildable
from ..report.site import build_site
from ._console import console
from ._console import fail_usage

__all__ = ["report_site"]


def _reports(paths: list[Path]) -> list[Path]:
    """Each report.json: a file as given; a folder's own report.json, else those of its folders
    (a fleet's)."""
    found = []
    for path in paths:
        if path.is_file():
            found.append(path)
        elif (path / "report.json").is_file():
            found.append(path / "report.json")
        else:
            found += sorted(path.glob("*/report.json"))
    return found


def report_site(
    reports: Annotated[
        list[Path],
        typer.Argument(
            exists=True,
            help=(
                "report.json files of `run`, one per implementation, or folders holding them"
                " (a fleet's report folder)."
            ),
        ),
    ],
    interop: Annotated[
        Path | None,
        typer.Option(exists=True, help="An interop matrix: interop.json, or its folder."),
    ] = None,
    output: Annotated[Path, typer.Option(file_okay=False, help="Where to write the site.")] = Path(
        "reports/site"
    ),
) -> None:
    """Write the implementation report as a static site.

    Per draft and revision, every requirement with how many implementations pass, fail or leave
    it untested (fewer than two passing marked); each implementation's certification; the
    interop matrix with its evidence; an RFC 7942 Implementation Status section per draft in
    Markdown and xml2rfc v3."""
    found = _reports(reports)
    if not found:
        fail_usage("no report.json among " + ", ".join(str(p) for p in reports))
    try:
        views = build_site(found, output, interop)
    except SiteUnbuildable as error:
        fail_usage(str(error))
    except OSError as error:  # a full disk, a folder that cannot be made
        fail_usage(f"cannot write the site to {output}: {error}")
    for view in views:
        console.print(
            f"{view.revision}: {len(view.implementations)} implementations,"
            f" {len(view.thin)} of {len(view.rows)} requirements passed by fewer than two",
            markup=False,
        )
    console.print(f"Site: {output / 'index.html'}", markup=False)
