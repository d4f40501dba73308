"""The pool's heat against its closed form (SDSI 6.2.1), and the oracle's boundaries."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conformance.oracle import Oracle
from conformance.oracle import OracleConfig
from conformance.oracle import Payload
from conformance.oracle.config import HOUR
from conformance.oracle.pool import BatchPool
from conformance.oracle.pool import LoopPool


@pytest.mark.parametrize("pool", [BatchPool, LoopPool])
def test_heat_is_the_sum_of_decayed_increments(pool: type) -> None:
    """heat(t) = increment * sum over events of 0.5 ** ((t - t_i) / half_life)."""
    config = OracleConfig(heat_increment=3.0, half_life_hours=2.0, heat_threshold=1e9)
    oracle = Oracle(config, pool=pool)
    times = [0.0, 600.0, 3 * HOUR, 3 * HOUR, 10 * HOUR]
    for t in times:
        oracle.observe([Payload(t, "c", "s", ("window seat",))])
    the_pool = next(iter(oracle._pools.values()))
    for probe in (10 * HOUR, 11 * HOUR, 40 * HOUR):
        expected = sum(3.0 * 0.5 ** ((probe - t) / (2.0 * HOUR)) for t in times)
        assert math.isclose(the_pool.heat(0, probe), expected, rel_tol=1e-12)


def test_a_trigger_fires_on_the_fragment_that_exceeds_the_threshold() -> None:
    config = OracleConfig(heat_increment=10.0, half_life_hours=1e6, min_distinct_clients=1)
    oracle = Oracle(config)
    for n in range(6):
        oracle.observe([Payload(float(n), f"c{n}", "s", ("extra legroom",))])
        assert bool(oracle.outcome.triggers) == (n == 5)


def test_online_and_batched_observation_agree() -> None:
    rng = np.random.default_rng(1)
    phrases = ["window seat", "vegetarian meal", "airport pickup"]
    events = [
        Payload(float(t), f"c{rng.integers(4)}", "s", (phrases[rng.integers(3)],))
        for t in np.cumsum(rng.integers(0, 900, 300))
    ]
    config = OracleConfig(
        heat_threshold=8, min_distinct_clients=2, max_experimental_keys=1, trial_days=0.05
    )
    one_by_one, batched = Oracle(config), Oracle(config)
    for event in events:
        one_by_one.observe([event])
    batched.observe(events)
    assert one_by_one.outcome.to_json() == batched.outcome.to_json()


@pytest.mark.parametrize("pool", [BatchPool, LoopPool])
def test_a_bounded_pool_pools_nothing_past_its_bounds(pool: type) -> None:
    """max_clusters: a fragment that would found a cluster past the bound is not pooled, while
    fragments of the clusters kept still count; max_cohorts: no DSP instance past the bound. Both
    pools read the bounds alike (a server's memory stays bounded whatever its clients send)."""
    config = OracleConfig(
        heat_increment=10.0,
        half_life_hours=1e6,
        min_distinct_clients=1,
        max_clusters=2,
        max_cohorts=2,
        cohort="client",
    )
    oracle = Oracle(config, pool=pool)
    wishes = ["window seat", "vegetarian meal", "airport pickup", "extra legroom"]
    for n, wish in enumerate(wishes * 6):
        oracle.observe([Payload(float(n), "c0", "s", (wish,))])
    for n in range(20):  # new clients past the second cohort: not pooled
        oracle.observe([Payload(100.0 + n, f"c{n + 1}", "s", ("window seat",))])
    assert len(oracle._pools) == 2
    assert all(p.clusters <= 2 for p in oracle._pools.values())
    fired = {t["cluster"] for t in oracle.outcome.to_json()["triggers"]}
    # the two kept clusters of c0 fired (their heat passed 50); the two past the bound never did
    assert len(fired) == 2


def test_bounded_pools_agree() -> None:
    config = OracleConfig(heat_threshold=5.0, min_distinct_clients=1, max_clusters=3)
    rng = np.random.default_rng(3)
    phrases = [f"wish {n}" for n in range(8)]
    events = [
        Payload(float(t), f"c{rng.integers(3)}", "s", (phrases[rng.integers(8)],))
        for t in np.cumsum(rng.integers(0, 900, 400))
    ]
    batched, loop = Oracle(config, pool=BatchPool), Oracle(config, pool=LoopPool)
    batched.observe(events)
    for event in events:
        loop.observe([event])
    assert batched.outcome.to_json() == loop.outcome.to_json()
