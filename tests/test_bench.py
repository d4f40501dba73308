"""The benchmark command runs and prints every figure (its timings are printed, never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_prints_every_figure() -> None:
    done = subprocess.run(
        [
            *(sys.executable, "-m", "bench", "--repeat", "1", "--suite", "woa"),
            *("--requests", "200", "--agents", "2000", "--examples", "1"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    compared = (
        "startup:",
        "live target",
        "whole command",
        "checks phase over loopback HTTPS:",
        "checks phase in-process (ASGI):",
        "fuzz",
        "validation of the reference WoA document",
        "large document",
        "mock throughput",
    )
    for start in (*compared, "machine:", "A2A TCK: not run"):
        assert any(line.startswith(start) for line in lines), start
    for line in lines:
        if line.startswith(compared):  # each compares with its floor, min, median and max
            assert all(word in line for word in ("ratio", "min", "median", "max", "load")), line
    # issue 40: beside the whole-process ratio, the ratio of the variable parts
    assert any(line.startswith("live target") and "variable parts" in line for line in lines)
