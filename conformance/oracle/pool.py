"""The Differential Semantic Pool (SDSI 6.2.1): clustering, heat and the dual gate's counts.

Two implementations with one contract, so each checks the other:

- `BatchPool` ingests a run of fragments at once with matrix products (the oracle's engine);
- `LoopPool` is the plain per-fragment loop the draft's prose describes (the benchmark's baseline).

Clustering is leader clustering (E-SDSI-6.2.1-CLUSTER-LEADER): a cluster is represented by its
first fragment's vector; a fragment joins the most similar cluster whose similarity is >= the
threshold (the oldest cluster on a tie), else it founds a new cluster. Leaders never move, so the
result does not depend on how fragments are batched.

Heat after a fragment at t joins: heat(t0) * 0.5 ** ((t - t0) / half_life) + increment. `ingest`
returns every fragment after which its cluster's heat exceeds the threshold (the candidates); the
engine decides which of them fire, with the gate counts from `gate`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from .config import TOLERANCE
from .config import OracleConfig

__all__ = ["BatchPool", "Candidates", "LoopPool", "Pool"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]
#: Fragments compared with the leaders in one matrix product.
_BLOCK = 4096
#: A span of fragments processed together covers at most this many half-lives (which bounds the
#: scaled cumulative sums of `_heats`); while clusters are being founded, at most 256 fragments.
_SPAN_HALF_LIVES = 4.0


@dataclass
class Candidates:
    """Fragments (by position in the ingested run) after which their cluster's heat exceeds the
    threshold."""

    index: I64
    cluster: I64
    heat: F64

    @classmethod
    def empty(cls) -> Candidates:
        return cls(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float64))


class Pool(Protocol):
    @property
    def clusters(self) -> int: ...

    def ingest(self, at: F64, seq: I64, event: I64, client: I64, vectors: F32) -> Candidates: ...

    def gate(self, cluster: int, at: float, seq: int) -> tuple[int, int]: ...

    def members(self, cluster: int, at: float, seq: int) -> I64: ...

    def heat(self, cluster: int, at: float) -> float: ...

    def forget_before(self, moment: float) -> None: ...


class _Leaders:
    """The leaders' vectors in a growable matrix, and cluster ids handed out by the engine."""

    def __init__(self, dimension: int, allocate: Callable[[], int]) -> None:
        # small at first: a server keeps a pool per client where the cohort is the client
        self.matrix = np.zeros((4, dimension), np.float32)
        self.ids: list[int] = []
        self.allocate = allocate

    def add(self, vector: F32) -> int:
        k = len(self.ids)
        if k == self.matrix.shape[0]:
            self.matrix = np.concatenate([self.matrix, np.zeros_like(self.matrix)])
        self.matrix[k] = vector
        cluster = self.allocate()
        self.ids.append(cluster)
        return k

    @property
    def active(self) -> F32:
        return self.matrix[: len(self.ids)]


class BatchPool:
    """One DSP instance, batched. Cluster ids are global (handed out by `allocate`); inside the
    pool a cluster is its leader's row."""

    def __init__(
        self, config: OracleConfig, allocate: Callable[[], int], dimension: int = 384
    ) -> None:
        self.config = config
        self.leaders = _Leaders(dimension, allocate)
        self.row_of: dict[int, int] = {}
        self._heat = np.zeros(4, np.float64)
        self._heat_at = np.zeros(4, np.float64)
        # The log of fragments, in chunks sorted by cluster row: (rows, at, seq, event, client).
        self._chunks: list[tuple[I64, F64, I64, I64, I64, float, float]] = []
        self._founding = True
        self._buffer = np.empty((0, 0), np.float32)

    @property
    def clusters(self) -> int:
        return len(self.leaders.ids)

    @property
    def full(self) -> bool:
        """Whether the pool founds no more clusters (config.max_clusters)."""
        cap = self.config.max_clusters
        return cap is not None and len(self.leaders.ids) >= cap

    # -- clustering ------------------------------------------------------------------------------
    def _assign(self, vectors: F32) -> I64:
        threshold = self.config.similarity_threshold
        n = vectors.shape[0]
        existing = len(self.leaders.ids)
        rows = np.full(n, -1, np.int64)
        best = np.full(n, -np.inf, np.float32)
        if existing:
            self._nearest(vectors, rows, best)
            rows[best < threshold] = -1
        unmatched = np.flatnonzero(rows < 0)
        founded: list[int] = []  # positions whose fragment founded a cluster in this batch
        for i in unmatched.tolist():
            if founded:
                new_sims = self.leaders.matrix[existing : existing + len(founded)] @ vectors[i]
                j = int(new_sims.argmax())
                if new_sims[j] >= threshold:
                    rows[i] = existing + j
                    continue
            if self.full:
                continue  # not pooled (-1): no cluster past max_clusters
            rows[i] = self.leaders.add(vectors[i])
            founded.append(i)
        if founded:
            # A fragment matched to an old cluster may be closer to a cluster founded earlier in the
            # batch.
            matched = np.flatnonzero((rows < existing) & (rows >= 0))
            if matched.size:
                new_sims = (
                    vectors[matched] @ self.leaders.matrix[existing : existing + len(founded)].T
                )
                positions = np.asarray(founded)
                new_sims[matched[:, None] <= positions[None, :]] = -np.inf
                j = new_sims.argmax(axis=1)
                better = new_sims[np.arange(matched.size), j] > best[matched]
                rows[matched[better]] = existing + j[better]
        return rows

    def _nearest(self, vectors: F32, rows: I64, best: F32) -> None:
        """The most similar leader of each fragment and its similarity, a block at a time into one
        reused buffer (fresh 60 MB products cost page faults, and a block's argmax stays in cache).
        """
        leaders = self.leaders.active.T
        k = leaders.shape[1]
        if self._buffer.shape[1] != k:
            self._buffer = np.empty((_BLOCK, k), np.float32)
        for lo in range(0, vectors.shape[0], _BLOCK):
            block = vectors[lo : lo + _BLOCK]
            sims = self._buffer[: block.shape[0]]
            np.matmul(block, leaders, out=sims)
            top = sims.argmax(axis=1)
            rows[lo : lo + block.shape[0]] = top
            best[lo : lo + block.shape[0]] = sims[np.arange(block.shape[0]), top]

    # -- heat ------------------------------------------------------------------------------------
    def _grow(self) -> None:
        size = self._heat.shape[0]
        while size < len(self.leaders.ids):
            size *= 2
        if size != self._heat.shape[0]:
            self._heat = np.concatenate([self._heat, np.zeros(size - self._heat.shape[0])])
            self._heat_at = np.concatenate([self._heat_at, np.zeros(size - self._heat_at.shape[0])])

    def _heats(self, rows: I64, at: F64, seq: I64, event: I64, client: I64) -> F64:
        """Heat after each fragment, by segmented scaled cumulative sums (one pass, no Python
        loop)."""
        self._grow()
        half_life, increment = self.config.half_life, self.config.heat_increment
        order = np.argsort(rows, kind="stable")
        r, t = rows[order], at[order]
        starts = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])
        lengths = np.diff(np.r_[starts, r.size])
        t0 = np.repeat(t[starts], lengths)
        scale = np.exp2((t - t0) / half_life)
        cumulative = np.cumsum(scale)
        before = np.repeat(cumulative[starts] - scale[starts], lengths)
        group_rows = r[starts]
        carry = self._heat[group_rows] * np.exp2(
            -(t[starts] - self._heat_at[group_rows]) / half_life
        )
        heat_sorted = (np.repeat(carry, lengths) + increment * (cumulative - before)) / scale
        ends = np.r_[starts[1:], r.size] - 1
        self._heat[group_rows] = heat_sorted[ends]
        self._heat_at[group_rows] = t[ends]
        heat: F64 = np.empty_like(heat_sorted)
        heat[order] = heat_sorted
        self._chunks.append(
            (r, t, seq[order], event[order], client[order], float(at[0]), float(at[-1]))
        )
        return heat

    def ingest(self, at: F64, seq: I64, event: I64, client: I64, vectors: F32) -> Candidates:
        if at.size == 0:
            return Candidates.empty()
        rows_all, heat_all = np.empty(at.size, np.int64), np.empty(at.size, np.float64)
        width, lo = self.config.half_life * _SPAN_HALF_LIVES, 0
        while lo < at.size:
            hi = max(int(np.searchsorted(at, at[lo] + width, "right")), lo + 1)
            if self._founding:
                hi = min(hi, lo + 256)
            before = self.clusters
            rows = self._assign(vectors[lo:hi])
            # While many fragments found clusters, small spans let the matrix product see the new
            # leaders.
            self._founding = (self.clusters - before) * 20 > hi - lo
            rows_all[lo:hi] = rows
            pooled = np.flatnonzero(rows >= 0)  # a fragment past max_clusters is not pooled
            heat_all[lo:hi] = 0.0
            if pooled.size == hi - lo:
                heat_all[lo:hi] = self._heats(
                    rows, at[lo:hi], seq[lo:hi], event[lo:hi], client[lo:hi]
                )
            elif pooled.size:
                kept = pooled + lo
                heat_all[kept] = self._heats(
                    rows[pooled], at[kept], seq[kept], event[kept], client[kept]
                )
            lo = hi
        over = _exceeding(self.config, heat_all)
        over = over[rows_all[over] >= 0]
        ids = np.asarray(self.leaders.ids, np.int64)
        for row, cluster in enumerate(self.leaders.ids[len(self.row_of) :], start=len(self.row_of)):
            self.row_of[cluster] = row
        return Candidates(over, ids[rows_all[over]], heat_all[over])

    # -- queries ---------------------------------------------------------------------------------
    def _entries(self, cluster: int, at: float, seq: int) -> tuple[I64, I64, I64]:
        """(seq, event, client) of the cluster's fragments in the window (at - W, at], up to
        `seq`."""
        row, start = self.row_of[cluster], at - self.config.window
        parts: list[tuple[I64, I64, I64]] = []
        for rows, times, seqs, events, clients, first, last in reversed(self._chunks):
            if last <= start:
                break
            if first > at:
                continue
            lo, hi = np.searchsorted(rows, row, "left"), np.searchsorted(rows, row, "right")
            if lo == hi:
                continue
            s, t = seqs[lo:hi], times[lo:hi]
            keep = (t > start) & (t <= at) & (s <= seq)
            parts.append((s[keep], events[lo:hi][keep], clients[lo:hi][keep]))
        if not parts:
            empty = np.zeros(0, np.int64)
            return empty, empty, empty
        return (
            np.concatenate([p[0] for p in parts]),
            np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]),
        )

    def gate(self, cluster: int, at: float, seq: int) -> tuple[int, int]:
        seqs, events, clients = self._entries(cluster, at, seq)
        occurrences = (
            seqs.size if self.config.occurrences_count == "fragments" else np.unique(events).size
        )
        return int(np.unique(clients).size), int(occurrences)

    def members(self, cluster: int, at: float, seq: int) -> I64:
        return np.sort(self._entries(cluster, at, seq)[0])

    def heat(self, cluster: int, at: float) -> float:
        row = self.row_of[cluster]
        return float(self._heat[row] * np.exp2(-(at - self._heat_at[row]) / self.config.half_life))

    def forget_before(self, moment: float) -> None:
        """Drop log chunks that ended before `moment` (the engine passes now minus the window)."""
        self._chunks = [c for c in self._chunks if c[6] > moment]


def _exceeding(config: OracleConfig, heat: F64) -> I64:
    if config.heat_comparison == "gt":
        return np.flatnonzero(heat > config.heat_threshold + TOLERANCE)
    return np.flatnonzero(heat >= config.heat_threshold - TOLERANCE)


class LoopPool:
    """The same pool, one fragment at a time, as the draft's prose reads."""

    def __init__(
        self, config: OracleConfig, allocate: Callable[[], int], dimension: int = 384
    ) -> None:
        self.config = config
        self.leaders = _Leaders(dimension, allocate)
        self._heat: list[float] = []
        self._heat_at: list[float] = []
        self._log: list[deque[tuple[float, int, int, int]]] = []
        self.row_of: dict[int, int] = {}

    @property
    def clusters(self) -> int:
        return len(self.leaders.ids)

    def ingest(self, at: F64, seq: I64, event: I64, client: I64, vectors: F32) -> Candidates:
        index, clusters, heats = [], [], []
        threshold, half_life = self.config.similarity_threshold, self.config.half_life
        for i in range(at.size):
            t = float(at[i])
            row = -1
            if self.leaders.ids:
                sims = self.leaders.active @ vectors[i]
                j = int(sims.argmax())
                if sims[j] >= threshold:
                    row = j
            if row < 0:
                cap = self.config.max_clusters
                if cap is not None and len(self.leaders.ids) >= cap:
                    continue  # not pooled: no cluster past max_clusters
                row = self.leaders.add(vectors[i])
                self.row_of[self.leaders.ids[row]] = row
                self._heat.append(0.0)
                self._heat_at.append(t)
                self._log.append(deque())
            heat = (
                self._heat[row] * 0.5 ** ((t - self._heat_at[row]) / half_life)
                + self.config.heat_increment
            )
            self._heat[row], self._heat_at[row] = heat, t
            self._log[row].append((t, int(seq[i]), int(event[i]), int(client[i])))
            if self.config.exceeds(heat):
                index.append(i)
                clusters.append(self.leaders.ids[row])
                heats.append(heat)
        return Candidates(
            np.asarray(index, np.int64),
            np.asarray(clusters, np.int64),
            np.asarray(heats, np.float64),
        )

    def _entries(self, cluster: int, at: float, seq: int) -> list[tuple[float, int, int, int]]:
        start = at - self.config.window
        return [e for e in self._log[self.row_of[cluster]] if start < e[0] <= at and e[1] <= seq]

    def gate(self, cluster: int, at: float, seq: int) -> tuple[int, int]:
        entries = self._entries(cluster, at, seq)
        occurrences = (
            len(entries)
            if self.config.occurrences_count == "fragments"
            else len({e[2] for e in entries})
        )
        return len({e[3] for e in entries}), occurrences

    def members(self, cluster: int, at: float, seq: int) -> I64:
        return np.asarray(sorted(e[1] for e in self._entries(cluster, at, seq)), np.int64)

    def heat(self, cluster: int, at: float) -> float:
        row = self.row_of[cluster]
        return float(self._heat[row] * 0.5 ** ((at - self._heat_at[row]) / self.config.half_life))

    def forget_before(self, moment: float) -> None:
        for log in self._log:
            while log and log[0][0] <= moment:
                log.popleft()
