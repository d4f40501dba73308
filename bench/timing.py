"""What the benchmarks share: samples taken in turn, their spread, ratios, the machine's load, the
suite's command line."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

__all__ = ["cli", "command", "interleaved", "load", "ratio", "run_command", "spread"]


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def spread(samples: list[float]) -> str:
    return (
        f"min {min(samples):.3f} s, median {statistics.median(samples):.3f} s,"
        f" max {max(samples):.3f} s"
    )


def ratio(over: list[float], under: list[float]) -> str:
    return (
        f"{min(over) / min(under):.2f}x (minima), "
        f"{statistics.median(over) / statistics.median(under):.2f}x (medians)"
    )


def interleaved(works: dict[str, Callable[[], Any]], repeat: int) -> dict[str, list[float]]:
    """`repeat` timed samples of each work, taken in turn."""
    samples: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(repeat):
        for name, work in works.items():
            started = time.perf_counter()
            work()
            samples[name].append(time.perf_counter() - started)
    return samples


#: The longest one command of a benchmark may take.
DEADLINE = 600.0


def run_command(
    arguments: list[str], *, check: bool = True, **options: Any
) -> subprocess.CompletedProcess[Any]:
    """Run a command to its end (at most DEADLINE seconds), its output captured."""
    return subprocess.run(arguments, capture_output=True, check=check, timeout=DEADLINE, **options)


def command(*arguments: str, check: bool = True, **options: Any) -> Callable[[], Any]:
    """A command, to be run (and timed) later."""
    return partial(run_command, list(arguments), check=check, **options)


def cli() -> list[str]:
    """The console script beside this interpreter, as a user types it."""
    script = Path(sys.executable).with_name("agent-conformance")
    return [str(script)] if script.exists() else [sys.executable, "-m", "conformance.cli"]
