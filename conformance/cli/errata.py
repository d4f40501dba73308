"""`agent-conformance errata`: the register of the drafts' slips, gaps and ambiguities, and the suite's readings."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

from ..errata import register

__all__ = ["errata"]


class Format(StrEnum):
    markdown = "markdown"
    json = "json"


def errata(
    draft: Annotated[str | None, typer.Option(help="Only this draft's entries (sdsi, woa, aci).")] = None,
    output: Annotated[Format, typer.Option("--format", help="markdown for reading, json for tools.")] = Format.markdown,
) -> None:
    """List every interpretation the suite makes where a draft is unclear, wrong or silent."""
    entries = [e for e in register() if draft is None or e.draft == draft]
    if output is Format.json:
        typer.echo(json.dumps([e.as_dict() for e in entries], indent=2, ensure_ascii=False))
        return
    for e in entries:
        typer.echo(f"### {e.id} ({e.draft.upper()} {e.section}, {e.kind})\n")
        typer.echo(f"> {e.text}\n")
        typer.echo(f"{e.issue}\n\n**Reading:** {e.interpretation}\n")
        for name, reading in e.readings.items():
            typer.echo(f"- `{name}`: {reading}")
        if e.requirements:
            typer.echo(("\n" if e.readings else "") + "Requirements: " + ", ".join(f"`{r}`" for r in e.requirements) + "\n")
