"""`agent-conformance aci`: figures of the reference ACI master."""

from __future__ import annotations

import typer

__all__ = ["app"]

app = typer.Typer(help="Figures of the reference ACI agents.", no_args_is_help=True)


@app.command("isolation")
def isolation() -> None:
    """Bytes (and tokens, with the embeddings extra) the reference master sends its invoked
    agents in the draft's two scenarios, with context isolation against a naive broadcast of the
    whole context."""
    from .mock import reference_agents

    typer.echo(
        f"{'scenario':14} {'dispatches':>10} {'isolated B':>11} {'broadcast B':>12} {'ratio':>6} "
        " tokens (isolated / broadcast)"
    )
    for f in reference_agents().isolation_figures():
        tokens = (
            f"{f.isolated_tokens:,} / {f.broadcast_tokens:,}"
            if f.isolated_tokens is not None and f.broadcast_tokens is not None
            else "n/a: pip install 'agent-conformance[embeddings]' for a tokenizer"
        )
        typer.echo(
            f"{f.scenario:14} {f.dispatches:>10} {f.isolated_bytes:>11,} {f.broadcast_bytes:>12,}"
            f" {f.ratio:>5.1f}x  {tokens}"
        )
