"""The oracle: events in (payloads, ticks), the DSP and lifecycle's decisions out.

Time comes only from the events (`at`), so the same events give the same output, whatever the
wall clock; servers pass their clock's time in the events they observe. Everything the oracle
decides is appended to `Outcome` lists in the order it happened.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from typing import Any

import numpy as np

from . import evolution
from .clock import format_time
from .config import DAY
from .config import OracleConfig
from .encoders import Encoder
from .encoders import default_encoder
from .lifecycle import LIVE
from .lifecycle import Key
from .lifecycle import Metrics
from .lifecycle import decide
from .lifecycle import type_matches
from .pool import BatchPool
from .pool import Candidates
from .pool import Pool

__all__ = ["Oracle", "Outcome", "Payload"]


@dataclass(frozen=True)
class Payload:
    """One structured request a server received: its `other` fragments and the keys it carried."""

    at: float
    client_id: str
    scenario: str
    other: tuple[str, ...] = ()
    keys: dict[str, Any] = field(default_factory=dict)
    judgements: dict[str, bool] = field(default_factory=dict)


@dataclass
class Outcome:
    triggers: list[dict[str, Any]] = field(default_factory=list)
    patches: list[dict[str, Any]] = field(default_factory=list)
    transitions: list[dict[str, Any]] = field(default_factory=list)
    queued: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Every list by its name (the lists themselves, not copies)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass
class _Cluster:
    pool: tuple[str, str | None]
    blocked_by: str | None = None  # "pending" while queued, else the key's id


@dataclass
class _Trigger:
    at: float
    cluster: int
    texts: list[str]
    record: dict[str, Any]


class Oracle:
    """The reference DSP and lifecycle. `pool` picks the implementation (`BatchPool` or
    `LoopPool`)."""

    def __init__(
        self,
        config: OracleConfig | None = None,
        encoder: Encoder | None = None,
        pool: Callable[..., Pool] = BatchPool,
    ) -> None:
        self.config = config or OracleConfig()
        self.encoder = encoder or default_encoder()
        self.outcome = Outcome()
        self._pool_factory = pool
        #: The promotion and deprecation rules (6.2.3); a mock's fault may replace them.
        self.decide: Callable[[Metrics, OracleConfig], str | None] = decide
        self._pools: dict[tuple[str, str | None], Pool] = {}
        self._clusters: list[_Cluster] = []
        self._blocked = np.zeros(64, bool)
        self._keys: dict[str, Key] = {}  # by id: scenario/client/name
        self._queues: dict[str, deque[_Trigger]] = {}
        self._deadlines: list[tuple[float, int, str, str]] = []
        self._deadline_order = 0
        self._clients: dict[str, int] = {}
        self._client_names: list[str] = []
        self._int_codes = np.full(0, -1, np.int64)
        self._texts: dict[int, str] = {}
        self._text_times: deque[tuple[float, int]] = deque()
        # (times, client codes) chunks
        self._payloads: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
        self._seq = 0
        self._events = 0
        self._now = -math.inf
        self._latest = -math.inf
        self._patch_count = 0

    # -- input -----------------------------------------------------------------------------------
    def observe(self, payloads: Iterable[Payload]) -> None:
        """Payloads, in time order (a time earlier than the latest one seen is taken as the
        latest)."""
        rows: list[tuple[float, int, Payload]] = []
        texts: list[str] = []
        for payload in payloads:
            at = self._latest = max(payload.at, self._latest)
            self._log_payloads(
                payload.scenario,
                np.asarray([at]),
                np.asarray([self._client_code(payload.client_id)]),
            )
            for text in payload.other:
                rows.append((at, self._events, payload))
                texts.append(text)
            self._events += 1
            if payload.keys:  # keys are judged in the state of their moment: flush the run first
                self._flush(rows, texts)
                rows, texts = [], []
                self._advance(at)
                self._use_keys(payload, at)
        self._flush(rows, texts)

    def _flush(self, rows: list[tuple[float, int, Payload]], texts: list[str]) -> None:
        if not rows:
            return
        for offset, (moment, _, _) in enumerate(rows):
            self._texts[self._seq + offset] = texts[offset]
            self._text_times.append((moment, self._seq + offset))
        n = len(rows)
        at = np.fromiter((r[0] for r in rows), np.float64, n)
        event = np.fromiter((r[1] for r in rows), np.int64, n)
        client = np.fromiter((self._client_code(r[2].client_id) for r in rows), np.int64, n)
        self._ingest(
            at, event, client, [self._pool_key(r[2]) for r in rows], self.encoder.encode(texts)
        )

    def observe_vectors(
        self, at: np.ndarray, client: np.ndarray, scenario: str, vectors: np.ndarray
    ) -> None:
        """One fragment per request, already encoded and in time order (benchmarks, outside
        encoders). `client` holds client ids (any values; they are compared by their text)."""
        n = at.size
        times = np.maximum.accumulate(np.maximum(np.asarray(at, np.float64), self._latest))
        self._latest = float(times[-1]) if n else self._latest
        codes = self._client_codes(np.asarray(client))
        self._log_payloads(scenario, times, codes)
        event = np.arange(self._events, self._events + n, dtype=np.int64)
        self._events += n
        pool_key = (scenario, None)
        if self.config.cohort == "client":
            keys: list[tuple[str, str | None]] | tuple[str, str | None] = [
                (scenario, self._client_names[c]) for c in codes.tolist()
            ]
        else:
            keys = pool_key
        self._ingest(times, event, codes, keys, np.ascontiguousarray(vectors, np.float32))

    def _client_codes(self, clients: np.ndarray) -> np.ndarray:
        """Codes for many client ids at once; integer ids go through a lookup table."""
        if clients.dtype.kind not in "iu" or clients.size == 0 or clients.min() < 0:
            names, inverse = np.unique(clients, return_inverse=True)
            return np.asarray([self._client_code(str(name)) for name in names.tolist()], np.int64)[
                inverse
            ]
        top = int(clients.max()) + 1
        if top > self._int_codes.size:
            self._int_codes = np.concatenate(
                [
                    self._int_codes,
                    np.full(max(top, 2 * self._int_codes.size) - self._int_codes.size, -1),
                ]
            )
        unseen = np.unique(clients[self._int_codes[clients] < 0])
        for name in unseen.tolist():
            self._int_codes[name] = self._client_code(str(name))
        codes: np.ndarray = self._int_codes[clients]
        return codes

    def _log_payloads(self, scenario: str, at: np.ndarray, codes: np.ndarray) -> None:
        chunks = self._payloads.setdefault(scenario, [])
        # coalesce the online path's singletons
        if chunks and chunks[-1][0].size < 4096 and at.size < 4096:
            last_at, last_codes = chunks[-1]
            chunks[-1] = (np.concatenate([last_at, at]), np.concatenate([last_codes, codes]))
        else:
            chunks.append((at, codes))

    def tick(self, at: float) -> None:
        """Let time pass to `at`: trial ends, grace periods and windows that fall due."""
        self._advance(at)

    # -- the DSP ---------------------------------------------------------------------------------
    def _pool_key(self, payload: Payload) -> tuple[str, str | None]:
        return (payload.scenario, payload.client_id if self.config.cohort == "client" else None)

    def _allocate(self, pool_key: tuple[str, str | None]) -> Callable[[], int]:
        def allocate() -> int:
            self._clusters.append(_Cluster(pool_key))
            if len(self._clusters) > self._blocked.size:
                self._blocked = np.concatenate([self._blocked, np.zeros_like(self._blocked)])
            return len(self._clusters) - 1

        return allocate

    def _client_code(self, name: str) -> int:
        code = self._clients.get(name)
        if code is None:
            code = self._clients[name] = len(self._client_names)
            self._client_names.append(name)
        return code

    def _ingest(
        self,
        at: np.ndarray,
        event: np.ndarray,
        client: np.ndarray,
        pool_keys: list[tuple[str, str | None]] | tuple[str, str | None],
        vectors: np.ndarray,
    ) -> None:
        n = at.size
        if n == 0:
            return
        seq = np.arange(self._seq, self._seq + n, dtype=np.int64)
        self._seq += n
        groups: dict[tuple[str, str | None], list[int]] = {}
        if isinstance(pool_keys, tuple):
            groups[pool_keys] = []
        else:
            for i, key in enumerate(pool_keys):
                groups.setdefault(key, []).append(i)
        found: list[tuple[np.ndarray, Candidates]] = []
        for key, members in groups.items():
            pool = self._pools.get(key)
            if pool is None:
                cap = self.config.max_cohorts
                if cap is not None and len(self._pools) >= cap:
                    continue  # not pooled: no DSP instance past max_cohorts
                pool = self._pools[key] = self._pool_factory(
                    self.config, self._allocate(key), vectors.shape[1]
                )
            if len(groups) == 1:
                index = np.arange(n)
                found.append((index, pool.ingest(at, seq, event, client, vectors)))
            else:
                index = np.asarray(members, np.int64)
                found.append(
                    (
                        index,
                        pool.ingest(
                            at[index], seq[index], event[index], client[index], vectors[index]
                        ),
                    )
                )
        if not found:
            self._advance(float(at[-1]))
            self._forget(self._now - self.config.window)
            return
        position = np.concatenate([index[c.index] for index, c in found])
        cluster = np.concatenate([c.cluster for _, c in found])
        heat = np.concatenate([c.heat for _, c in found])
        order = np.argsort(position, kind="stable")
        position, cluster, heat = position[order], cluster[order], heat[order]
        # Clusters blocked now stay blocked until a deadline: drop their candidates before it.
        horizon = self._deadlines[0][0] if self._deadlines else math.inf
        keep = ~(self._blocked[cluster] & (at[position] < horizon))
        for p, c, h in zip(
            position[keep].tolist(), cluster[keep].tolist(), heat[keep].tolist(), strict=True
        ):
            t = float(at[p])
            self._advance(t)
            if self._blocked[c]:
                continue
            pool = self._pools[self._clusters[c].pool]
            distinct, occurrences = pool.gate(c, t, int(seq[p]))
            if (
                distinct >= self.config.min_distinct_clients
                or occurrences >= self.config.min_occurrences
            ):
                self._fire(c, t, h, distinct, occurrences, pool.members(c, t, int(seq[p])))
        self._advance(float(at[-1]))
        self._forget(self._now - self.config.window)

    def _forget(self, before: float) -> None:
        """Drop what no window can reach any more: texts and the pools' logs."""
        while self._text_times and self._text_times[0][0] <= before:
            self._texts.pop(self._text_times.popleft()[1], None)
        for pool in self._pools.values():
            pool.forget_before(before)

    # -- triggers --------------------------------------------------------------------------------
    def _fire(
        self,
        cluster: int,
        at: float,
        heat: float,
        distinct: int,
        occurrences: int,
        members: np.ndarray,
    ) -> None:
        scenario, client = self._clusters[cluster].pool
        record: dict[str, Any] = {
            "at": format_time(at),
            "scenario": scenario,
            "cluster": cluster,
            "heat": round(heat, 6),
            "distinct_clients": distinct,
            "occurrences": occurrences,
        }
        if client is not None:
            record["client_id"] = client
        self.outcome.triggers.append(record)
        texts = [self._texts[s] for s in members.tolist() if s in self._texts]
        trigger = _Trigger(at, cluster, texts, record)
        if self._experimental(scenario) >= self.config.max_experimental_keys:
            self._enqueue(scenario, trigger)
        else:
            self._evolve(trigger, at, from_state=None)

    def _enqueue(self, scenario: str, trigger: _Trigger) -> None:
        """The convergence guard: the trigger waits, its cluster pending."""
        self._block(trigger.cluster, "pending")
        self._queues.setdefault(scenario, deque()).append(trigger)
        self.outcome.queued.append(
            {
                "at": trigger.record["at"],
                "scenario": scenario,
                "cluster": trigger.cluster,
                "served_at": None,
            }
        )

    def _block(self, cluster: int, by: str | None) -> None:
        self._clusters[cluster].blocked_by = by
        self._blocked[cluster] = by is not None

    def _experimental(self, scenario: str) -> int:
        return sum(
            1 for k in self._keys.values() if k.scenario == scenario and k.state == "experimental"
        )

    def _induce(self, texts: list[str], cluster: int) -> evolution.Candidate:
        """Intent induction: the candidate key of a cluster's fragments (a server that induces
        otherwise, another type say, overrides this)."""
        return evolution.induce(texts, cluster)

    def _evolve(self, trigger: _Trigger, at: float, from_state: str | None) -> None:
        """Intent induction, conflict detection and patch packaging for one triggered cluster."""
        scenario, client = self._clusters[trigger.cluster].pool
        candidate = self._induce(trigger.texts, trigger.cluster)
        base = self.config.base_schemas.get(scenario, {})
        parent = str(base.get("schema_id", scenario))
        self._patch_count += 1
        patch_id = f"{parent}-dsp{self._patch_count}"
        existing_base = next(
            (k for k in base.get("keys", []) if k.get("key_name") == candidate.key_name), None
        )
        existing = self._live_key(scenario, client, candidate.key_name)
        new_keys: list[dict[str, Any]] = []
        modified: list[dict[str, Any]] = []
        if existing_base is not None:  # collision with the base schema: refine its description
            modified.append(evolution.merge_description(existing_base, candidate))
            self._block(trigger.cluster, f"base:{candidate.key_name}")
        elif existing is not None:  # collision with an active patch's key
            existing.definition = evolution.merge_description(existing.definition, candidate)
            modified.append(dict(existing.definition))
            self._block(trigger.cluster, self._key_id(existing))
        else:
            definition = candidate.as_key()
            new_keys.append(definition)
            key = Key(
                candidate.key_name,
                scenario,
                client,
                patch_id,
                trigger.cluster,
                definition,
                at,
                changed=at,
            )
            key_id = self._key_id(key)
            self._keys[key_id] = key
            self._block(trigger.cluster, key_id)
            self._schedule(at + self.config.trial_days * DAY, key_id, "evaluate")
            self._transition(at, key, from_state, "experimental")
        patch = evolution.package(
            patch_id,
            parent,
            format_time(at),
            format_time(at + self.config.patch_ttl_days * DAY),
            new_keys,
            modified,
            client,
        )
        patch["cluster"] = trigger.cluster
        self.outcome.patches.append(patch)

    @staticmethod
    def _key_id(key: Key) -> str:
        return f"{key.scenario}/{key.client or '*'}/{key.name}"

    def _live_key(self, scenario: str, client: str | None, name: str) -> Key | None:
        for owner in (client, None) if client is not None else (None,):
            key = self._keys.get(f"{scenario}/{owner or '*'}/{name}")
            if key is not None and key.state in LIVE:
                return key
        return None

    # -- the lifecycle ---------------------------------------------------------------------------
    def _schedule(self, at: float, key_id: str, action: str) -> None:
        self._deadline_order += 1
        heapq.heappush(self._deadlines, (at, self._deadline_order, key_id, action))

    def _advance(self, now: float) -> None:
        while self._deadlines and self._deadlines[0][0] <= now:
            at, _, key_id, action = heapq.heappop(self._deadlines)
            key = self._keys[key_id]
            if action == "evaluate" and key.state == "experimental":
                metrics = self._metrics(key, at)
                verdict = self.decide(metrics, self.config)
                if verdict is None:
                    self._schedule(at + self.config.reevaluation_days * DAY, key_id, "evaluate")
                    continue
                self._transition(at, key, "experimental", verdict, metrics)
                if verdict == "deprecated":
                    self._block(key.cluster, None)
                    self._schedule(at + self.config.grace_days * DAY, key_id, "withdraw")
                self._drain(key.scenario, at)
            elif action == "withdraw" and key.state == "deprecated":
                self._transition(at, key, "deprecated", "withdrawn")
                self._schedule(at + self.config.compatibility_window_days * DAY, key_id, "retire")
            elif action == "retire" and key.state == "withdrawn":
                self._transition(at, key, "withdrawn", "retired")
        self._now = max(self._now, now)

    def _drain(self, scenario: str, at: float) -> None:
        queue = self._queues.get(scenario)
        while queue and self._experimental(scenario) < self.config.max_experimental_keys:
            trigger = queue.popleft()
            entry = next(
                q
                for q in self.outcome.queued
                if q["cluster"] == trigger.cluster and q["served_at"] is None
            )
            entry["served_at"] = format_time(at)
            self._block(trigger.cluster, None)
            self._evolve(trigger, at, from_state="queued")

    def _transition(
        self, at: float, key: Key, old: str | None, new: str, metrics: Metrics | None = None
    ) -> None:
        key.state, key.changed = new, at
        record: dict[str, Any] = {
            "at": format_time(at),
            "key": key.name,
            "scenario": key.scenario,
            "from": old,
            "to": new,
        }
        if key.client is not None:
            record["client_id"] = key.client
        if metrics is not None:
            record["metrics"] = metrics.to_json()
        self.outcome.transitions.append(record)

    def _metrics(self, key: Key, now: float) -> Metrics:
        start = max(key.activated, now - self.config.observation_window_days * DAY)
        chunks = self._payloads.get(key.scenario, [])
        times = np.concatenate([c[0] for c in chunks]) if chunks else np.zeros(0)
        codes = np.concatenate([c[1] for c in chunks]) if chunks else np.zeros(0, np.int64)
        mask = (times >= start) & (times <= now)
        if key.client is not None:
            mask &= codes == self._clients.get(key.client, -1)
        return Metrics.of(key, now, int(mask.sum()), int(np.unique(codes[mask]).size), self.config)

    def _use_keys(self, payload: Payload, at: float) -> None:
        for name, value in payload.keys.items():
            key = self._keys.get(
                f"{payload.scenario}/{payload.client_id}/{name}"
            ) or self._keys.get(f"{payload.scenario}/*/{name}")
            if key is None:
                continue
            note = {
                "at": format_time(at),
                "key": name,
                "scenario": payload.scenario,
                "client_id": payload.client_id,
            }
            if key.state in LIVE:
                typed = type_matches(value, key.key_type)
                aligned = payload.judgements.get(name)
                if aligned is None and self.config.alignment_judge == "type":
                    aligned = typed
                key.usage.append((at, payload.client_id, typed, aligned))
            elif key.state == "withdrawn":
                self.outcome.warnings.append(
                    {
                        **note,
                        "warning": "withdrawn key accepted in its backward-compatibility window",
                    }
                )
            elif key.state == "retired":
                self.outcome.rejected.append(
                    {**note, "reason": "withdrawn key past its backward-compatibility window"}
                )

    def key_state(self, scenario: str, client_id: str | None, name: str) -> str | None:
        """The lifecycle state of a patch key as `client_id` sees it (its own key first), or
        None."""
        key = (
            self._keys.get(f"{scenario}/{client_id}/{name}") if client_id else None
        ) or self._keys.get(f"{scenario}/*/{name}")
        return key.state if key is not None else None

    # -- views -----------------------------------------------------------------------------------
    def active_patches(self, scenario: str, client_id: str | None = None) -> list[dict[str, Any]]:
        """The patches a server serves now for `scenario` (and `client_id`'s own): keys with their
        current flags, withdrawn keys removed, patches left empty dropped."""
        served = []
        for patch in self.outcome.patches:
            owner = patch.get("client_id")
            if self._clusters[patch["cluster"]].pool[0] != scenario or (
                owner is not None and owner != client_id
            ):
                continue
            out = {k: v for k, v in patch.items() if k not in ("new_keys", "cluster")}
            keys = []
            for definition in patch.get("new_keys", []):
                key = self._keys[f"{scenario}/{owner or '*'}/{definition['key_name']}"]
                if key.patch_id != patch["patch_id"] or key.state not in LIVE:
                    continue
                current = {
                    k: v
                    for k, v in key.definition.items()
                    if k not in ("experimental", "deprecated")
                }
                if key.state == "experimental":
                    current["experimental"] = True
                elif key.state == "deprecated":
                    current["deprecated"] = True
                keys.append(current)
            if keys:
                out["new_keys"] = keys
            if keys or "modified_keys" in out:
                served.append(out)
        return served

    def state(self) -> dict[str, Any]:
        """What the oracle holds now, for inspection: pools, clusters' heat, keys and queues."""
        return {
            "now": format_time(self._now) if math.isfinite(self._now) else None,
            "pools": [
                {"scenario": s, "client_id": c, "clusters": p.clusters}
                for (s, c), p in self._pools.items()
            ],
            "clusters": [
                {
                    "cluster": i,
                    "scenario": c.pool[0],
                    "blocked_by": c.blocked_by,
                    "heat": (
                        round(self._pools[c.pool].heat(i, self._now), 6)
                        if math.isfinite(self._now)
                        else 0.0
                    ),
                }
                for i, c in enumerate(self._clusters)
            ],
            "keys": [
                {
                    "key": k.name,
                    "scenario": k.scenario,
                    "client_id": k.client,
                    "state": k.state,
                    "patch_id": k.patch_id,
                    "since": format_time(k.changed),
                }
                for k in self._keys.values()
            ],
            "queued": {s: [t.cluster for t in q] for s, q in self._queues.items() if q},
        }
