"""Shared console helpers: one-line errors and the rich console."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn
from rich.progress import MofNCompleteColumn
from rich.progress import Progress
from rich.progress import TextColumn
from rich.progress import TimeElapsedColumn

__all__ = ["console", "fail_usage", "progress_bar"]

console = Console(highlight=False, soft_wrap=True)


def fail_usage(message: str, code: int = 2) -> NoReturn:
    """Print one line to standard error and leave with `code`."""
    typer.echo(f"agent-conformance: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def progress_bar(what: str, total: int) -> Iterator[Callable[[str], None]]:
    """A live bar of `total` items on a terminal (nothing otherwise); call what it yields once
    per item done."""
    if not console.is_terminal:
        yield lambda _: None
        return
    with Progress(
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[dim]{task.fields[last]}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(what, total=total, last="")
        yield lambda last: progress.update(task, advance=1, last=last)
