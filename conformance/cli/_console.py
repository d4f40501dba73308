"""Shared console helpers: one-line errors and the rich console."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

__all__ = ["console", "fail_usage"]

console = Console(highlight=False, soft_wrap=True)


def fail_usage(message: str, code: int = 2) -> NoReturn:
    """Print one line to standard error and leave with `code`."""
    typer.echo(f"agent-conformance: {message}", err=True)
    raise typer.Exit(code)
