"""Invariants of the oracle over random traces (hypothesis): the cap, the base schema, heat, the
dual gate, the queue's order, the trial period, determinism, and agreement of the batched pool
with the per-fragment loop."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck
from hypothesis import assume
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from conformance.oracle import Oracle
from conformance.oracle import OracleConfig
from conformance.oracle import dumps
from conformance.oracle import replay
from conformance.oracle.clock import format_time
from conformance.oracle.clock import parse_time
from conformance.oracle.config import DAY
from conformance.oracle.pool import BatchPool
from conformance.oracle.pool import LoopPool

T0 = parse_time("2026-05-01T00:00:00Z")
PHRASES = [
    "window seat",
    "vegetarian meal",
    "airport pickup",
    "extra legroom",
    "quiet cabin",
    "pet friendly",
    "seat preference aisle",
    "late checkout",
    "2 extra bags",
]
KEYS = [
    "window_seat",
    "vegetarian_meal",
    "airport_pickup",
    "extra_legroom",
    "seat_preference",
    "extra_bags",
]
BASE: dict[str, dict[str, Any]] = {
    "flight_booking": {
        "schema_id": "flight_booking_v1",
        "keys": [
            {
                "key_name": "seat_preference",
                "key_type": "string",
                "required": False,
                "default_value": "none",
                "semantic_description": "Seat.",
            },
            {
                "key_name": "origin",
                "key_type": "string",
                "required": True,
                "semantic_description": "From.",
            },
        ],
    }
}

configs = st.fixed_dictionaries(
    {
        "heat_increment": st.sampled_from([5.0, 10.0, 25.0]),
        "heat_threshold": st.sampled_from([10.0, 20.0, 50.0]),
        "half_life_hours": st.sampled_from([1.0, 24.0, 240.0]),
        "min_distinct_clients": st.integers(1, 4),
        "min_occurrences": st.integers(1, 8),
        "occurrence_window_days": st.sampled_from([0.5, 7.0]),
        "max_experimental_keys": st.integers(1, 3),
        "trial_days": st.sampled_from([0.5, 2.0]),
        "grace_days": st.sampled_from([0.5, 3.0]),
        "compatibility_window_days": st.sampled_from([1.0, 5.0]),
        "reevaluation_days": st.sampled_from([0.25, 1.0]),
        "cohort": st.sampled_from(["scenario", "client"]),
        "heat_comparison": st.sampled_from(["gt", "ge"]),
        "occurrences_count": st.sampled_from(["requests", "fragments"]),
        "base_schemas": st.just(BASE),
    }
)


@st.composite
def traces(draw: st.DrawFn) -> dict[str, Any]:
    config = draw(configs)
    t, events = T0, []
    for _ in range(draw(st.integers(0, 60))):
        t += draw(st.sampled_from([0.0, 1.0, 60.0, 3600.0, 6 * 3600.0, DAY, 3 * DAY]))
        if draw(st.integers(0, 9)) == 0:
            events.append({"type": "tick", "at": format_time(t)})
            continue
        event: dict[str, Any] = {
            "at": format_time(t),
            "client_id": f"c{draw(st.integers(0, 5))}",
            "scenario": draw(st.sampled_from(["flight_booking", "photo_retouch"])),
        }
        other = draw(st.lists(st.sampled_from(PHRASES), max_size=3))
        if other:
            event["other"] = other[0] if len(other) == 1 and draw(st.booleans()) else other
        keys = draw(
            st.dictionaries(st.sampled_from(KEYS), st.sampled_from(["aisle", 3, True]), max_size=2)
        )
        if keys:
            event["keys"] = keys
            if draw(st.booleans()):
                event["judgements"] = {k: draw(st.booleans()) for k in keys}
        events.append(event)
    return {"config": config, "events": events}


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _run(trace: dict[str, Any], pool: Any = BatchPool) -> tuple[Oracle, dict[str, Any]]:
    oracle = Oracle(OracleConfig.from_json(trace["config"]), pool=pool)
    return oracle, replay(trace, oracle=oracle)


@SETTINGS
@given(traces())
def test_lifecycle_invariants(trace: dict[str, Any]) -> None:
    config = OracleConfig.from_json(trace["config"])
    _, out = _run(trace)
    # No trigger without both gates.
    for trigger in out["triggers"]:
        assert (
            config.exceeds(trigger["heat"] + (1e-6 if config.heat_comparison == "gt" else 0))
            or trigger["heat"] > config.heat_threshold
        )
        assert (
            trigger["distinct_clients"] >= config.min_distinct_clients
            or trigger["occurrences"] >= config.min_occurrences
        )
    # Active experimental keys never exceed the cap, at any moment.
    live: dict[str, set[str]] = {}
    created: dict[tuple[str, str], float] = {}
    for change in out["transitions"]:
        ident = f"{change.get('client_id')}/{change['key']}"
        keys = live.setdefault(change["scenario"], set())
        if change["to"] == "experimental":
            keys.add(ident)
            created[(change["scenario"], ident)] = parse_time(change["at"])
        elif change["from"] == "experimental":
            keys.discard(ident)
            # No promotion or deprecation before the trial ends.
            assert (
                parse_time(change["at"])
                >= created[(change["scenario"], ident)] + config.trial_days * DAY - 1e-3
            )
        assert len(keys) <= config.max_experimental_keys
    # The base schema never changes: no new key takes a base key's name, no base key is retyped.
    base = {k["key_name"]: k for k in BASE["flight_booking"]["keys"]}
    for patch in out["patches"]:
        assert not set(patch) & {"removed_keys", "deleted_keys"}
        if patch["parent_schema_id"] != "flight_booking_v1":
            continue
        assert all(k["key_name"] not in base for k in patch.get("new_keys", []))
        for key in patch.get("modified_keys", []):
            if key["key_name"] in base:
                assert key["key_type"] == base[key["key_name"]]["key_type"]
                assert key["required"] == base[key["key_name"]]["required"]
    # Queued triggers are served in the order they were queued, per scenario.
    for scenario in {q["scenario"] for q in out["queued"]}:
        served = [q["served_at"] for q in out["queued"] if q["scenario"] == scenario]
        done = [s for s in served if s is not None]
        assert done == sorted(done, key=parse_time)
        assert served[: len(done)] == done  # FIFO: nothing is served before an older trigger


@SETTINGS
@given(traces())
def test_replay_is_deterministic_and_the_batched_pool_agrees_with_the_loop(
    trace: dict[str, Any],
) -> None:
    first = dumps(_run(trace)[1])
    assert dumps(_run(trace)[1]) == first
    assert dumps(_run(trace, LoopPool)[1]) == first


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0.0, 1.0, 600.0, 3600.0, DAY]), st.sampled_from(PHRASES[:3])),
        min_size=1,
        max_size=40,
    ),
    st.lists(st.sampled_from([60.0, 3600.0, DAY, 10 * DAY]), min_size=1, max_size=5),
)
def test_heat_is_never_negative_and_never_rises_without_an_event(
    steps: list[tuple[float, str]], probes: list[float]
) -> None:
    oracle = Oracle(OracleConfig(heat_threshold=1e9))
    t = T0
    for gap, phrase in steps:
        t += gap
        oracle.observe([_payload(t, phrase)])
    pool = next(iter(oracle._pools.values()))
    for cluster in range(pool.clusters):
        moment, previous = t, pool.heat(cluster, t)
        for gap in probes:
            moment += gap
            heat = pool.heat(cluster, moment)
            assert 0.0 <= heat <= previous
            previous = heat


#: How close to the threshold, or to another leader, a float32 similarity may fall before rounding
#: decides.
HAIR = 1e-5


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 400),
    st.sampled_from([0.5, 0.85, 0.95]),
    st.sampled_from([1, 7, 64]),
)
def test_batched_clustering_equals_the_loop_on_random_vectors(
    seed: int, n: int, threshold: float, chunk: int
) -> None:
    """Leaders do not move, so batching cannot change which cluster a fragment joins: where
    float32 does not decide. A similarity within a hair of the threshold, or two leaders within a
    hair of each other, is summed in another order by a matrix product than by a single dot
    product and may fall either side; such inputs are set aside (the oracle's own decisions stay
    deterministic: one run, one pool)."""
    rng = np.random.default_rng(seed)
    intents = rng.standard_normal((12, 16)).astype(np.float32)
    vectors = intents[rng.integers(0, 12, n)] + 0.3 * rng.standard_normal((n, 16)).astype(
        np.float32
    )
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)

    at = T0 + np.cumsum(rng.integers(0, 4000, n)).astype(np.float64)
    config = OracleConfig(similarity_threshold=threshold, heat_threshold=3.0)
    batched, loop = Oracle(config, pool=BatchPool), Oracle(config, pool=LoopPool)
    clients = rng.integers(0, 9, n)
    for lo in range(0, n, chunk):
        batched.observe_vectors(
            at[lo : lo + chunk], clients[lo : lo + chunk], "s", vectors[lo : lo + chunk]
        )
    loop.observe_vectors(at, clients, "s", vectors)
    pool = next(iter(loop._pools.values()))
    assert isinstance(pool, LoopPool)
    leaders = pool.leaders.active.astype(np.float64)
    sims = np.sort(vectors.astype(np.float64) @ leaders.T, axis=1)
    assume(not np.any(np.abs(sims[:, -1] - threshold) < HAIR))
    assume(leaders.shape[0] < 2 or not np.any(sims[:, -1] - sims[:, -2] < HAIR))
    assert batched.outcome.to_json() == loop.outcome.to_json()
    assert batched.state()["clusters"] == loop.state()["clusters"]


def _payload(t: float, phrase: str) -> Any:
    from conformance.oracle import Payload

    return Payload(t, "c", "s", (phrase,))
