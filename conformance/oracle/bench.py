"""Figures for the oracle (`agent-conformance oracle bench`): replay throughput at growing sizes
against the per-fragment loop, peak memory, and the encoders' throughput.

Fragments are 384-dimension unit vectors drawn around 1,000 latent intents (cosine to their
intent about 0.96, so two fragments of one intent are about 0.92 alike and two intents about 0),
from 10,000 clients over three days. They are computed before the clock starts and written to a
file; the replay reads them back in batches, so memory does not grow with the number of fragments.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .config import DAY, OracleConfig
from .engine import Oracle
from .pool import BatchPool, LoopPool, Pool

__all__ = ["Figures", "encoding_rate", "measure", "write_fragments"]

DIMENSION, INTENTS, CLIENTS, SPAN = 384, 1000, 10_000, 3 * DAY
BATCH = 16_384
START = 1_777_593_600.0  # 2026-05-01T00:00:00Z


def write_fragments(path: Path, n: int, seed: int = 7) -> None:
    """n fragments: float32 vectors in `path`, times and clients in `path`.meta.npz."""
    rng = np.random.default_rng(seed)
    intents = rng.standard_normal((INTENTS, DIMENSION)).astype(np.float32)
    intents /= np.linalg.norm(intents, axis=1, keepdims=True)
    sigma = 0.0149  # |noise| ~ 0.29: cos(fragment, intent) ~ 0.96
    with path.open("wb") as out:
        for lo in range(0, n, 65_536):
            m = min(65_536, n - lo)
            v = intents[rng.integers(0, INTENTS, m)] + sigma * rng.standard_normal((m, DIMENSION)).astype(np.float32)
            v /= np.linalg.norm(v, axis=1, keepdims=True)
            out.write(v.astype(np.float32).tobytes())
    at = START + np.sort(rng.uniform(0, SPAN, n))
    np.savez(str(path) + ".meta.npz", at=at, client=rng.integers(0, CLIENTS, n))


def _feed(oracle: Oracle, source: Any, at: np.ndarray, client: np.ndarray, lo: int, hi: int, batch: int) -> None:
    buffer = np.empty((batch, DIMENSION), np.float32)  # one buffer: a fresh 25 MB array a batch costs its page faults
    for start in range(lo, hi, batch):
        m = min(batch, hi - start)
        source.readinto(buffer[:m].data.cast("B"))
        oracle.observe_vectors(at[start:start + m], client[start:start + m], "bench", buffer[:m])


def replay_file(path: Path, n: int, pool: Callable[..., Pool], batch: int = BATCH, warm: int = 0) -> tuple[float, Oracle]:
    """Seconds to replay n fragments of `path` through a fresh oracle, after `warm` fragments
    replayed untimed (so that the clusters exist already)."""
    meta = np.load(str(path) + ".meta.npz")
    at, client = meta["at"][:warm + n], meta["client"][:warm + n]
    oracle = Oracle(OracleConfig(), pool=pool)
    with path.open("rb") as source:
        _feed(oracle, source, at, client, 0, warm, batch)
        started = time.perf_counter()
        _feed(oracle, source, at, client, warm, warm + n, batch)
    return time.perf_counter() - started, oracle


@dataclass(frozen=True)
class Figures:
    fragments: int
    seconds: float
    per_second: float
    peak_rss_mb: float
    clusters: int
    triggers: int


def _peak_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited across exec)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(path: Path, n: int) -> Figures:
    """Replay in this process (run it in a fresh one for an honest peak memory)."""
    seconds, oracle = replay_file(path, n, BatchPool)
    peak = _peak_mb()
    return Figures(n, round(seconds, 3), round(n / seconds), round(peak, 1),
                   sum(p.clusters for p in oracle._pools.values()), len(oracle.outcome.triggers))


def encoding_rate(encoder_name: str, sentences: int = 1000) -> float:
    from .encoders import encoder_named

    words = ["window", "seat", "aisle", "quiet", "cabin", "extra", "legroom", "vegetarian", "meal", "late", "checkout", "early", "boarding", "pet", "friendly", "wheelchair", "access", "sea", "view", "high", "floor", "baby", "cot", "airport", "pickup"]
    rng = np.random.default_rng(3)
    texts = [" ".join(rng.choice(words, int(rng.integers(5, 13)))) + f" {i}" for i in range(sentences)]
    encoder = encoder_named(encoder_name)
    encoder.encode(texts[:8])  # load the model, if any
    started = time.perf_counter()
    encoder.encode(texts)
    return sentences / (time.perf_counter() - started)


def run(sizes: list[int], baseline: int, echo: Callable[[str], None]) -> dict[str, object]:
    """The whole benchmark, printing as it goes; the figures as data."""
    report: dict[str, object] = {"machine": {"cpus": _cpus(), "python": sys.version.split()[0]}}
    with tempfile.TemporaryDirectory(prefix="oracle-bench-") as tmp:
        path = Path(tmp) / "fragments.f32"
        largest = max([*sizes, 2 * baseline])
        echo(f"writing {largest:,} precomputed fragments ({largest * DIMENSION * 4 / 2**20:,.0f} MiB) ...")
        write_fragments(path, largest)
        rows = []
        for n in sizes:  # each size in a fresh process, so that peak memory is its own
            out = subprocess.run([sys.executable, "-m", "conformance.oracle.bench", str(path), str(n)],
                                 check=True, capture_output=True, text=True)
            figures = Figures(**json.loads(out.stdout))
            rows.append(figures)
            echo(f"  {n:>9,} fragments  {figures.seconds:7.2f} s  {figures.per_second:>9,.0f} fragments/s  "
                 f"peak RSS {figures.peak_rss_mb:6.0f} MiB  clusters {figures.clusters}  triggers {figures.triggers}")
        fast, fast_oracle = replay_file(path, baseline, BatchPool)
        slow, slow_oracle = replay_file(path, baseline, LoopPool)
        same = fast_oracle.outcome.to_json() == slow_oracle.outcome.to_json()
        echo(f"  baseline on {baseline:,} from a cold start: batched {baseline / fast:,.0f}/s, per-fragment loop "
             f"{baseline / slow:,.0f}/s, ratio {slow / fast:.1f}x, same output: {'yes' if same else 'NO'}")
        warm_fast, _ = replay_file(path, baseline, BatchPool, warm=baseline)
        warm_slow, _ = replay_file(path, baseline, LoopPool, warm=baseline)
        echo(f"  baseline on {baseline:,} after {baseline:,} (clusters founded): batched {baseline / warm_fast:,.0f}/s, "
             f"per-fragment loop {baseline / warm_slow:,.0f}/s, ratio {warm_slow / warm_fast:.1f}x")
        report["replay"] = [f.__dict__ for f in rows]
        report["baseline"] = {"fragments": baseline, "batched_per_second": round(baseline / fast),
                              "loop_per_second": round(baseline / slow), "ratio": round(slow / fast, 1), "same_output": same,
                              "warm_ratio": round(warm_slow / warm_fast, 1)}
    encoders: dict[str, float | str] = {"hashing": round(encoding_rate("hashing"))}
    try:
        encoders["minilm"] = round(encoding_rate("minilm"))
    except ImportError as error:
        encoders["minilm"] = f"not installed ({error.name}): pip install 'agent-conformance[embeddings]'"
    for name, rate in encoders.items():
        echo(f"  encoder {name}: " + (f"{rate:,.0f} sentences/s" if isinstance(rate, float | int) else str(rate)))
    report["encoders"] = encoders
    return report


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


if __name__ == "__main__":  # one measurement in a fresh process: bench.py FILE N
    print(json.dumps(measure(Path(sys.argv[1]), int(sys.argv[2])).__dict__))
