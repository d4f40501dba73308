"""The benchmark command runs and prints every figure (its timings are printed, never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_prints_every_figure() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--repeat", "1", "--suite", "woa"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for start in (
        "startup:",
        "over loopback HTTPS:",
        "in-process (ASGI):",
        "validation of the reference WoA document",
    ):
        assert any(line.startswith(start) for line in lines), start
    assert all(
        "ratio" in line for line in lines if line.startswith(("over loopback", "in-process"))
    )
