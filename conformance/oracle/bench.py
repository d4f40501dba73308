"""Figures for the oracle (`agent-conformance oracle bench`): replay throughput at growing sizes
against the per-fragment loop, peak memory, the machine's float32 matrix-product roof, and the
encoders' throughput.

Fragments are 384-dimension unit vectors drawn around 1,000 latent intents (cosine to their
intent about 0.96, so two fragments of one intent are about 0.92 alike and two intents about 0),
from 10,000 clients, arriving at a fixed rate: a million fragments span three days, so the first n
fragments are the same input whatever other sizes a run measures (the same input gives the same
clusters and triggers, which the figures show). Each batch is computed from the seed and its index
while the clock is stopped: nothing is written to disk, and memory does not grow with the number of
fragments.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .config import DAY
from .config import OracleConfig
from .engine import Oracle
from .pool import BatchPool
from .pool import LoopPool
from .pool import Pool

__all__ = [
    "Figures",
    "blas_roof",
    "encoding_rate",
    "fragments",
    "measure",
    "peak_mb",
    "replay",
    "spread",
]

DIMENSION, INTENTS, CLIENTS, SPAN = 384, 1000, 10_000, 3 * DAY
RATE = 1_000_000 / SPAN  # fragments per second of simulated time
BATCH = 16_384
START = 1_777_593_600.0  # 2026-05-01T00:00:00Z
SEED = 7


def fragments(
    lo: int, hi: int, seed: int = SEED
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Fragments lo..hi as (arrival times, clients, float32 vectors), a batch at a time: batch b
    is made from (seed, b) alone, so any range is the same fragments whichever ranges are asked
    for."""
    intents = np.random.default_rng(seed).standard_normal((INTENTS, DIMENSION)).astype(np.float32)
    intents /= np.linalg.norm(intents, axis=1, keepdims=True)
    sigma = 0.0149  # |noise| ~ 0.29: cos(fragment, intent) ~ 0.96
    for b in range(lo // BATCH, (hi + BATCH - 1) // BATCH):
        rng = np.random.default_rng([seed, b])
        vectors = intents[rng.integers(0, INTENTS, BATCH)] + sigma * rng.standard_normal(
            (BATCH, DIMENSION)
        ).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        at = START + (b * BATCH + np.arange(BATCH) + rng.uniform(0, 1, BATCH)) / RATE
        client = rng.integers(0, CLIENTS, BATCH)
        first, last = max(lo - b * BATCH, 0), min(hi - b * BATCH, BATCH)
        yield at[first:last], client[first:last], vectors[first:last]


def replay(n: int, pool: Callable[..., Pool], warm: int = 0) -> tuple[float, Oracle]:
    """Seconds spent replaying n fragments through a fresh oracle (only the oracle's work is timed),
    after `warm` fragments replayed untimed (so that the clusters exist already)."""
    oracle = Oracle(OracleConfig(), pool=pool)
    for at, client, vectors in fragments(0, warm):
        oracle.observe_vectors(at, client, "bench", vectors)
    spent = 0.0
    for at, client, vectors in fragments(warm, warm + n):
        started = time.perf_counter()
        oracle.observe_vectors(at, client, "bench", vectors)
        spent += time.perf_counter() - started
    return spent, oracle


def blas_roof(repeat: int = 5) -> float:
    """GFLOP/s of the product the batched pool spends its time in (a batch against 1,000
    leaders), best of `repeat`."""
    rng = np.random.default_rng(1)
    block = rng.standard_normal((BATCH, DIMENSION)).astype(np.float32)
    leaders = rng.standard_normal((DIMENSION, INTENTS)).astype(np.float32)
    out = np.empty((BATCH, INTENTS), np.float32)
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(4):
            np.matmul(block, leaders, out=out)
        best = min(best, (time.perf_counter() - started) / 4)
    return 2 * BATCH * DIMENSION * INTENTS / best / 1e9


@dataclass(frozen=True)
class Figures:
    fragments: int
    seconds: float
    per_second: float
    peak_rss_mb: float
    clusters: int
    triggers: int


def peak_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited across exec)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(n: int) -> Figures:
    """Replay in this process (run it in a fresh one for an honest peak memory)."""
    seconds, oracle = replay(n, BatchPool)
    peak = peak_mb()
    return Figures(
        n,
        round(seconds, 3),
        round(n / seconds),
        round(peak, 1),
        sum(p.clusters for p in oracle._pools.values()),
        len(oracle.outcome.triggers),
    )


def encoding_rate(encoder_name: str, sentences: int = 1000) -> float:
    from .encoders import encoder_named

    words = [
        "window",
        "seat",
        "aisle",
        "quiet",
        "cabin",
        "extra",
        "legroom",
        "vegetarian",
        "meal",
        "late",
        "checkout",
        "early",
        "boarding",
        "pet",
        "friendly",
        "wheelchair",
        "access",
        "sea",
        "view",
        "high",
        "floor",
        "baby",
        "cot",
        "airport",
        "pickup",
    ]
    rng = np.random.default_rng(3)
    texts = [
        " ".join(rng.choice(words, int(rng.integers(5, 13)))) + f" {i}" for i in range(sentences)
    ]
    encoder = encoder_named(encoder_name)
    encoder.encode(texts[:8])  # load the model, if any
    started = time.perf_counter()
    encoder.encode(texts)
    return sentences / (time.perf_counter() - started)


def spread(samples: list[float]) -> str:
    """Seconds as the benchmarks print them: min and median."""
    return f"min {min(samples):.3f} s, median {statistics.median(samples):.3f} s"


def run(
    sizes: list[int], baseline: int, echo: Callable[[str], None], repeat: int = 3
) -> dict[str, object]:
    """The whole benchmark, printing as it goes; the figures as data. Each size is replayed
    `repeat` times, each in a fresh process: the minimum is the figure of a quiet machine, the
    median what a loaded one gives."""
    roof = blas_roof()
    report: dict[str, object] = {
        "machine": {
            "cpus": _cpus(),
            "python": sys.version.split()[0],
            "float32_gflops": round(roof, 1),
        }
    }
    echo(
        f"float32 matrix product ({BATCH:,} x {DIMENSION} by {DIMENSION} x {INTENTS:,}), best of 5:"
        f" {roof:,.0f} GFLOP/s"
    )
    rows = []
    for n in sizes:
        runs = [
            Figures(
                **json.loads(
                    subprocess.run(
                        [sys.executable, "-m", "conformance.oracle.bench", str(n)],
                        check=True,
                        capture_output=True,
                        text=True,
                    ).stdout
                )
            )
            for _ in range(repeat)
        ]
        seconds = [r.seconds for r in runs]
        same = len({(r.clusters, r.triggers) for r in runs}) == 1
        best = min(runs, key=lambda r: r.seconds)
        rows.append(
            best.__dict__
            | {"median_seconds": statistics.median(seconds), "repeat": repeat, "same_output": same}
        )
        echo(
            f"  {n:>9,} fragments  {spread(seconds)}  {best.per_second:>9,.0f} fragments/s (best) "
            f" peak RSS {max(r.peak_rss_mb for r in runs):6.0f} MiB  clusters {best.clusters} "
            f" triggers {best.triggers}" + ("" if same else "  OUTPUT DIFFERS BETWEEN REPETITIONS")
        )
    fast = [replay(baseline, BatchPool) for _ in range(repeat)]
    slow = [replay(baseline, LoopPool) for _ in range(repeat)]
    same = len({json.dumps(o.outcome.to_json(), sort_keys=True) for _, o in fast + slow}) == 1
    ratio = min(t for t, _ in slow) / min(t for t, _ in fast)
    echo(
        f"  baseline on {baseline:,} from a cold start: batched {spread([t for t, _ in fast])},"
        f" per-fragment loop {spread([t for t, _ in slow])}, ratio {ratio:.1f}x (of the minima),"
        f" same output: {'yes' if same else 'NO'}"
    )
    warm_fast = min(replay(baseline, BatchPool, warm=baseline)[0] for _ in range(repeat))
    warm_slow = min(replay(baseline, LoopPool, warm=baseline)[0] for _ in range(repeat))
    echo(
        f"  baseline on {baseline:,} after {baseline:,} (clusters founded): batched"
        f" {baseline / warm_fast:,.0f}/s, per-fragment loop {baseline / warm_slow:,.0f}/s, ratio"
        f" {warm_slow / warm_fast:.1f}x (of the minima)"
    )
    report["replay"] = rows
    report["baseline"] = {
        "fragments": baseline,
        "batched_per_second": round(baseline / min(t for t, _ in fast)),
        "loop_per_second": round(baseline / min(t for t, _ in slow)),
        "ratio": round(ratio, 1),
        "same_output": same,
        "warm_ratio": round(warm_slow / warm_fast, 1),
    }
    encoders: dict[str, float | str] = {
        "hashing": round(max(encoding_rate("hashing") for _ in range(repeat)))
    }
    try:
        encoders["minilm"] = round(encoding_rate("minilm"))
    except ImportError as error:
        encoders["minilm"] = (
            f"not installed ({error.name}): pip install 'agent-conformance[embeddings]'"
        )
    for name, rate in encoders.items():
        echo(
            f"  encoder {name}: "
            + (f"{rate:,.0f} sentences/s" if isinstance(rate, float | int) else str(rate))
        )
    report["encoders"] = encoders
    return report


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


if __name__ == "__main__":  # one measurement in a fresh process: bench.py N
    print(json.dumps(measure(int(sys.argv[1])).__dict__))
