"""`agent-conformance errata`: the register of the drafts' slips, gaps and ambiguities, and the
suite's readings."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

from ..errata import register
from ..errata.review import review_markdown

__all__ = ["errata"]


class Format(StrEnum):
    markdown = "markdown"
    json = "json"


def errata(
    draft: Annotated[
        str | None, typer.Option(help="Only this draft's entries (sdsi, woa, aci).")
    ] = None,
    output: Annotated[
        Format,
        typer.Option("--format", help="markdown: a review the authors can apply; json: for tools."),
    ] = Format.markdown,
) -> None:
    """Review the drafts: each slip, gap and ambiguity, the text proposed to the authors, and the
    suite's reading."""
    entries = [e for e in register() if draft is None or e.draft == draft]
    if output is Format.json:
        typer.echo(json.dumps([e.as_dict() for e in entries], indent=2, ensure_ascii=False))
        return
    typer.echo(review_markdown(entries), nl=False)
