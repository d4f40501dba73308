"""`agent-conformance requirements`: the catalogue, and what covers each requirement."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer
from rich.table import Table

from ..checks import CHECKS
from ..checks import load_drafts
from ..requirements import Requirement
from ..requirements import catalogue_of
from ..requirements.revisions import RevisionUnknown
from ..requirements.revisions import diff as revision_diff
from ..requirements.revisions import revision as known_revision
from ..requirements.revisions import revisions as known_revisions
from ..schemas import schemas_by_requirement
from ._console import console
from ._console import fail_usage

__all__ = ["requirements"]


class Draft(StrEnum):
    sdsi = "sdsi"
    woa = "woa"
    aci = "aci"


class Format(StrEnum):
    table = "table"
    json = "json"


def requirements(
    draft: Annotated[Draft | None, typer.Option(help="Only this draft's requirements.")] = None,
    output: Annotated[
        Format, typer.Option("--format", help="table for reading, json for tools.")
    ] = Format.table,
    revision: Annotated[
        list[str] | None,
        typer.Option(
            help=(
                "List this revision's requirements (repeatable, one a draft): a revision the suite"
                " has, or a folder holding one's text and catalogue. Default: each draft's latest."
            )
        ),
    ] = None,
    revisions: Annotated[
        bool, typer.Option("--revisions", help="List the revisions of each draft the suite has.")
    ] = False,
    diff: Annotated[
        tuple[str, str] | None,
        typer.Option(
            metavar="A B",
            help=(
                "List the requirements added, removed and changed (level, section, sentence,"
                " role, keyword, basis) from revision A to revision B of one draft."
            ),
        ),
    ] = None,
) -> None:
    """List the requirement catalogue: every normative rule of the drafts, with the checks and
    schemas that cover it."""
    if revisions:
        for name, found in known_revisions().items():
            typer.echo(f"{name}: {', '.join(r.name for r in found)} (latest: {found[-1].name})")
        return
    try:
        chosen = tuple(known_revision(r) for r in revision or ())
        if diff is not None:
            for line in revision_diff(*(known_revision(r) for r in diff)).lines():
                typer.echo(line)
            return
    except RevisionUnknown as error:
        fail_usage(str(error))
    load_drafts()
    entries = [r for r in catalogue_of(chosen) if draft is None or r.draft == draft.value]
    if output is Format.json:
        rows = [
            {
                **r.as_dict(),
                "checks": _checks(r.id),
                "schemas": schemas_by_requirement().get(r.id, []),
            }
            for r in entries
        ]
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not console.is_terminal:  # piped: a header row, then one line per requirement, tab-separated
        typer.echo("\t".join(("id", "level", "basis", "role", "testability", "checks", "schemas")))
        for r in entries:
            typer.echo(
                "\t".join(
                    (
                        r.id,
                        _level(r),
                        r.basis,
                        r.role,
                        r.testability,
                        ",".join(_checks(r.id)) or "-",
                        ",".join(schemas_by_requirement().get(r.id, [])) or "-",
                    )
                )
            )
        return
    # Narrower terminals lose the last columns rather than wrap an ID (json and piped output keep
    # them all).
    wide, medium = console.width >= 150, console.width >= 100
    table = Table(
        title=f"{len(entries)} requirements",
        title_justify="left",
        caption="* judged at MUST with --strict",
        caption_justify="left",
    )
    for column in ("ID", "level", "basis", "role"):
        table.add_column(column, no_wrap=True)
    for column in ("testability", "checks", "schemas")[: 3 if wide else 1 if medium else 0]:
        table.add_column(column, no_wrap=True, overflow="ellipsis")
    for r in entries:
        cells = (
            r.testability,
            ", ".join(_checks(r.id)) or "-",
            ", ".join(schemas_by_requirement().get(r.id, [])) or "-",
        )
        table.add_row(
            r.id,
            r.level + ("*" if r.strict_level == "MUST" else ""),
            r.basis,
            r.role,
            *cells[: 3 if wide else 1 if medium else 0],
        )
    console.print(table)


def _level(requirement: Requirement) -> str:
    return requirement.level + (
        f" ({requirement.strict_level} strict)" if requirement.strict_level else ""
    )


def _checks(requirement: str) -> list[str]:
    """Every check of `requirement`, those that drive a client included."""
    return [c.name for c in CHECKS.values() if c.requirement == requirement]
