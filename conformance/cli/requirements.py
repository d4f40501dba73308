"""`agent-conformance requirements`: the catalogue, and what covers each requirement."""

from __future__ import annotations

import json
from enum import StrEnum
from functools import cache
from typing import Annotated, Any

import typer
from rich.table import Table

from ..checks import checks_for
from ..requirements import catalogue
from ..schemas import schema, schema_names
from ._console import console

__all__ = ["requirements"]


class Draft(StrEnum):
    sdsi = "sdsi"
    woa = "woa"
    aci = "aci"


class Format(StrEnum):
    table = "table"
    json = "json"


def _tagged(node: Any, found: set[str]) -> set[str]:
    if isinstance(node, dict):
        found.update(node.get("x-requirements", ()))
        for value in node.values():
            _tagged(value, found)
    elif isinstance(node, list):
        for value in node:
            _tagged(value, found)
    return found


@cache
def schemas_by_requirement() -> dict[str, list[str]]:
    """Which message schemas enforce each requirement (from their x-requirements)."""
    table: dict[str, list[str]] = {}
    for name in schema_names():
        for requirement in sorted(_tagged(schema(name), set())):
            table.setdefault(requirement, []).append(name)
    return table


def requirements(
    draft: Annotated[Draft | None, typer.Option(help="Only this draft's requirements.")] = None,
    output: Annotated[Format, typer.Option("--format", help="table for reading, json for tools.")] = Format.table,
) -> None:
    """List the requirement catalogue: every normative rule of the drafts, with the checks and schemas that cover it."""
    entries = [r for r in catalogue() if draft is None or r.draft == draft.value]
    if output is Format.json:
        rows = [{**r.as_dict(), "checks": [c.name for c in checks_for(r.id)],
                 "schemas": schemas_by_requirement().get(r.id, [])} for r in entries]
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    table = Table(title=f"{len(entries)} requirements", title_justify="left")
    for column in ("ID", "level", "basis", "role", "testability", "checks", "schemas"):
        table.add_column(column, overflow="fold")
    for r in entries:
        level = r.level + (f" ({r.strict_level} strict)" if r.strict_level else "")
        table.add_row(r.id, level, r.basis, r.role, r.testability, ", ".join(c.name for c in checks_for(r.id)) or "-",
                      ", ".join(schemas_by_requirement().get(r.id, [])) or "-")
    console.print(table)
