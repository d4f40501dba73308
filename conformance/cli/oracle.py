"""`agent-conformance oracle`: replay DSP and lifecycle traces through the reference oracle
(SDSI 6.2), check the golden traces, and print the oracle's benchmark figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ._console import console
from ._console import fail_usage
from ._options import folder

__all__ = ["app"]

app = typer.Typer(help="The reference DSP and lifecycle oracle (SDSI 6.2).", no_args_is_help=True)

Encoder = Annotated[
    str,
    typer.Option("--encoder", help="hashing (default, no model) or minilm (the embeddings extra)."),
]


def _load(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        fail_usage(f"cannot read trace {path}: {error}")


@app.command("replay")
def replay(
    trace: Annotated[Path, typer.Argument(help='A trace: {"config": {...}, "events": [...]}.')],
    encoder: Encoder = "hashing",
    state: Annotated[
        bool,
        typer.Option(
            "--state", help="Add the oracle's final state (pools, clusters, keys, queues)."
        ),
    ] = False,
) -> None:
    """Replay TRACE through a fresh oracle and print its decisions as JSON: triggers, patches,
    transitions, queued, warnings, rejected. The same trace always prints the same bytes."""
    from ..oracle import Oracle
    from ..oracle import OracleConfig
    from ..oracle import TraceError
    from ..oracle import dumps
    from ..oracle import replay as run
    from ..oracle.encoders import encoder_named

    document = _load(trace)
    try:
        chosen = encoder_named(encoder)
        config = OracleConfig.from_json(
            document.get("config") if isinstance(document, dict) else None
        )
        oracle = Oracle(config, chosen)
        output = run(document, oracle=oracle)
    except (TraceError, ValueError, TypeError) as error:
        fail_usage(str(error))
    except ImportError as error:
        fail_usage(
            f"the {encoder} encoder needs the embeddings extra: pip install"
            f" 'agent-conformance[embeddings]' ({error})"
        )
    if state:
        output["state"] = oracle.state()
    typer.echo(dumps(output), nl=False)


@app.command("check")
def check(
    directory: Annotated[
        Path | None, folder("NAME.trace.json and NAME.expected.json files", "golden traces")
    ] = None,
) -> None:
    """Replay every golden trace and compare the output with its expected file, byte for byte."""
    from ..oracle import dumps
    from ..oracle import replay as run
    from ..vectors import vectors_root

    root = directory or vectors_root() / "dsp"
    traces = sorted(root.glob("*.trace.json"))
    if not traces:
        fail_usage(f"no *.trace.json in {root}")
    failed = 0
    for path in traces:
        name = path.name.removesuffix(".trace.json")
        expected = path.with_name(f"{name}.expected.json")
        got = dumps(run(_load(path)))
        if not expected.is_file() or expected.read_text(encoding="utf-8") != got:
            failed += 1
            console.print(f"[red]✗[/red] {name}: output differs from {expected.name}", markup=True)
        else:
            console.print(f"[green]✓[/green] {name}", markup=True)
    console.print(
        f"{len(traces)} traces: " + ("all as expected" if not failed else f"{failed} differ")
    )
    raise typer.Exit(1 if failed else 0)


@app.command("bench")
def bench(
    sizes: Annotated[
        str, typer.Option(help="Fragment counts to replay, comma-separated.")
    ] = "10000,100000,1000000",
    baseline: Annotated[
        int, typer.Option(help="Fragments for the batched-against-loop comparison.")
    ] = 10_000,
    repeat: Annotated[
        int,
        typer.Option(
            min=1, max=20, help="Repetitions of each figure (min and median are printed)."
        ),
    ] = 3,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Also write the figures as JSON here.")
    ] = None,
) -> None:
    """Print the oracle's figures: replay throughput and peak memory at each size (384-dimension
    vectors around 1,000 intents, made from a seed outside the timed work; nothing is written to
    disk), min and median over --repeat runs, the machine's float32 matrix-product roof, the ratio
    against the per-fragment loop, and the encoders' sentences per second."""
    from ..oracle import bench as figures

    try:
        counts = [int(s.replace("_", "")) for s in sizes.split(",") if s.strip()]
    except ValueError:
        fail_usage(f"--sizes must be integers: {sizes!r}")
    if not counts or min(counts) < 1 or baseline < 1:
        fail_usage("sizes and baseline must be positive")
    report = figures.run(counts, baseline, typer.echo, repeat)
    if output:
        output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
