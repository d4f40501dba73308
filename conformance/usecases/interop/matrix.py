"""The interop matrix: every compatible pair of a manifest's implementations, run (in threads, or
as tasks on Dask distributed like `fleet`), and written as interop.json and interop.md.

For each pairing (pairs.py) a table: A's client side by row, B's server side by column. An
implementation is not paired with itself (that is what `run` certifies); a pair whose roles do
not meet is not made. What the suite could not read of an implementation (its host unreachable,
no WoA document) is said beside the matrix.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...report.redaction import public
from ..spread import in_threads
from ..spread import on_dask
from .manifest import Implementation
from .pairs import PAIRINGS
from .pairs import Pair
from .pairs import interoperate
from .pairs import roles_of
from .pairs import woa_document

__all__ = ["MARKS", "discovered", "interop_matrix", "planned"]

#: How a cell reads in interop.md.
MARKS = {"interoperates": "interoperates", "broke": "broke", "could-not-run": "could not run"}


def discovered(
    implementations: list[Implementation], timeout: float = 10.0
) -> dict[str, dict[str, Any]]:
    """Per implementation, the roles it plays and, when its host could not be read, why."""

    async def each() -> list[Any]:
        return await asyncio.gather(
            *(
                woa_document(i.host, i, timeout) if i.host else asyncio.sleep(0)
                for i in implementations
            )
        )

    documents = asyncio.run(each())
    found = {}
    for implementation, document in zip(implementations, documents, strict=True):
        found[implementation.name] = {
            "host": public(implementation.host) if implementation.host else None,
            "roles": sorted(roles_of(implementation, document)),
            "problem": (
                f"no WoA document could be read at {public(implementation.host)}"
                if implementation.host and document is None
                else ""
            ),
        }
    return found


def planned(implementations: list[Implementation], roles: dict[str, dict[str, Any]]) -> list[Pair]:
    """Every pair of two implementations whose roles meet, pairing by pairing."""
    plays = {name: set(found["roles"]) for name, found in roles.items()}
    return [
        Pair(pairing, a, b)
        for pairing in PAIRINGS
        for a in implementations
        if pairing.client in plays[a.name]
        for b in implementations
        if b is not a and pairing.server in plays[b.name]
    ]


def _markdown(found: dict[str, dict[str, Any]], cells: list[dict[str, Any]]) -> str:
    lines = ["# agent-conformance interop", ""]
    for pairing in PAIRINGS:
        mine = [c for c in cells if c["draft"] == pairing.draft]
        if not mine:
            continue
        clients = list(dict.fromkeys(c["client"] for c in mine))
        servers = list(dict.fromkeys(c["server"] for c in mine))
        lines += [
            f"## {pairing.draft}: {pairing.client} (rows) with {pairing.server} (columns)",
            "",
            "| | " + " | ".join(servers) + " |",
            "|---|" + "---|" * len(servers),
        ]
        for client in clients:
            row = []
            for server in servers:
                cell = next(
                    (c for c in mine if c["client"] == client and c["server"] == server), None
                )
                if cell is None:
                    row.append("-")
                    continue
                said = MARKS[cell["outcome"]]
                broke = "; ".join(f"{b['side']}: {b['requirement']}" for b in cell["broke"])
                detail = "; ".join(filter(None, [broke, cell["why"]])).replace("|", "\\|")
                row.append(f"[{said}]({cell['folder']}/)" + (f" ({detail})" if detail else ""))
            lines.append(f"| {client} | " + " | ".join(row) + " |")
        lines.append("")
    missing = [f"- {name}: {f['problem']}" for name, f in found.items() if f["problem"]]
    if missing:
        lines += ["## Not read", "", *missing, ""]
    return "\n".join(lines)


def interop_matrix(
    implementations: list[Implementation],
    out: Path,
    *,
    jobs: int = 4,
    scheduler: str | None = None,
    timeout: float = 30.0,
    progress: Callable[[dict[str, Any]], None] = lambda _: None,
) -> dict[str, Any]:
    """Run every pair of `implementations` into `out` (one folder a pair); the matrix, also
    written as out/interop.json and out/interop.md. `progress` hears each cell as it is done."""
    out.mkdir(parents=True, exist_ok=True)
    found = discovered(implementations, timeout)
    pairs = planned(implementations, found)
    cells: dict[str, dict[str, Any]] = {}
    running = (
        on_dask(
            scheduler, interoperate, pairs, lambda pair: f"interop-{pair.slug}", str(out), timeout
        )
        if scheduler
        else in_threads(interoperate, pairs, jobs, str(out), timeout)
    )
    for cell in running:
        cells[cell["folder"]] = cell
        progress(cell)
    ordered = [cells[p.slug] for p in pairs if p.slug in cells]
    matrix = {"implementations": found, "pairs": ordered}
    (out / "interop.json").write_text(json.dumps(matrix, indent=2) + "\n", encoding="utf-8")
    (out / "interop.md").write_text(_markdown(found, ordered), encoding="utf-8")
    return matrix
