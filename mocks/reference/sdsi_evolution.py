"""The reference server agent's schema self-evolution (SDSI 6.2), driven by the suite's oracle.

One oracle per scenario: flight_booking pools "other" fragments per scenario (global patches),
photo_retouch per client (personal patch stacks, SDSI 6.2.2). The real time drives it, except in
a test session: a server started in test mode declares `x-sdsi-test-mode` in its WoA document and
honours two request headers, the session (a fresh, isolated DSP world per value) and the clock (the
simulated time of the request). See conformance/checks/sdsi/evolution.py for the binding.

Faults change the server's real behaviour while it keeps declaring the reference configuration,
as a defective implementation would.
"""

from __future__ import annotations

import copy
import zlib
from dataclasses import replace
from typing import Any

import numpy as np

from conformance.oracle import Oracle
from conformance.oracle import OracleConfig
from conformance.oracle import Payload
from conformance.oracle.clock import Clock
from conformance.oracle.clock import SystemClock
from conformance.oracle.encoders import DIMENSION
from conformance.oracle.engine import _Trigger
from conformance.oracle.lifecycle import Metrics
from conformance.oracle.lifecycle import decide

__all__ = ["CLOCK_HEADER", "SESSION_HEADER", "Evolution", "declared_configs", "test_mode_member"]

CLOCK_HEADER = "SDSI-Test-Clock"
SESSION_HEADER = "SDSI-Test-Session"
#: Sessions kept at once (the oldest is dropped): a hostile client cannot grow the server without
#: bound.
MAX_SESSIONS = 256

#: The draft's example values, but a threshold of 10 heat units, a gate of 3 clients or 5
#: occurrences and a cap of 3 keys: the draft makes them configurable, and so a drive through a
#: trial takes a hundred requests, not a thousand (certifying the mock takes seconds).
_COMPACT = OracleConfig(
    heat_threshold=10.0, min_distinct_clients=3, min_occurrences=5, max_experimental_keys=3
)
DECLARED = {"flight_booking": _COMPACT, "photo_retouch": replace(_COMPACT, cohort="client")}

#: Faults that make the server's oracle differ from the configuration it declares.
_CONFIG_FAULTS: dict[str, dict[str, Any]] = {
    "SDSI-6.2.1-TRIGGER-DUAL-GATE": {"min_distinct_clients": 1, "min_occurrences": 1},
    "SDSI-6.2.1-HEAT-DECAY": {"half_life_hours": 1e9},
    "SDSI-6.2.1-HEAT-DECAY-EXPONENTIAL": {
        "half_life_hours": 48.0
    },  # decays, at half the declared rate
    "SDSI-6.2.1-HEAT-INCREMENT": {"heat_increment": 1.2},
    "SDSI-6.2.1-SIMILARITY-CLUSTERING": {"similarity_threshold": -1.0},
    "SDSI-6.2.3-NEW-KEYS-START-EXPERIMENTAL": {"trial_days": 0.01},
    "SDSI-6.2.3-LONG-TERM-EVALUATION": {"trial_days": 1e6},
    "SDSI-6.2.3-PROMOTION": {"promote_usage": 0.5, "deprecate_usage": 0.5},
    "SDSI-6.2.3-WITHDRAWN-REMOVED": {"grace_days": 1e6},
    "SDSI-6.2.3-DEPRECATED-GRACE-FLAG/vanishes": {"grace_days": 1e-6},
    "SDSI-6.2.3-WITHDRAWN-KEY-ACCEPTED": {"compatibility_window_days": 1e-6},
}
EVOLUTION_FAULTS = (
    *_CONFIG_FAULTS,
    "SDSI-6.2.1-FRAGMENT-ENCODED",
    "SDSI-6.2.2-DESCRIPTION-FROM-REAL-FRAGMENTS",
    "SDSI-6.2.2-COLLISION-MERGED",
    "SDSI-6.2.2-CLIENT-PATCH-ONLY-FOR-CLIENT",
    "SDSI-6.2.3-DEPRECATION",
    "SDSI-6.2.3-TRIGGERS-QUEUED",
)


def declared_configs() -> dict[str, dict[str, Any]]:
    return {
        scenario: {k: v for k, v in config.to_json().items() if k != "base_schemas"}
        for scenario, config in DECLARED.items()
    }


def test_mode_member() -> dict[str, Any]:
    """The WoA agent member that declares the test clock."""
    return {
        "clock_header": CLOCK_HEADER,
        "session_header": SESSION_HEADER,
        "dsp": declared_configs(),
    }


class _RawStrings:
    """Fault SDSI-6.2.1-FRAGMENT-ENCODED: a fragment's "vector" is its raw string, hashed to one
    axis: identical strings pool, the same wish in another case or punctuation does not."""

    name = "raw-strings"

    def encode(self, texts: list[str]) -> Any:
        vectors = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for row, text in enumerate(texts):
            vectors[row, zlib.crc32(text.encode()) % DIMENSION] = 1.0
        return vectors


class _DroppingOracle(Oracle):
    """Fault SDSI-6.2.3-TRIGGERS-QUEUED: a trigger beyond the cap is dropped, not queued."""

    def _enqueue(self, scenario: str, trigger: _Trigger) -> None:
        self._block(trigger.cluster, "dropped")


def _promote_the_unused(metrics: Metrics, config: OracleConfig) -> str | None:
    """Fault SDSI-6.2.3-DEPRECATION: where the rules say deprecate, the key is promoted."""
    verdict = decide(metrics, config)
    return "stable" if verdict == "deprecated" else verdict


class Evolution:
    """The DSP worlds of one server: the real one, and one per test session."""

    def __init__(
        self, templates: dict[str, dict[str, Any]], fault: str = "", clock: Clock | None = None
    ) -> None:
        """`clock` gives the real world's time (a test session's time comes with each request)."""
        self.templates, self.fault, self.clock = templates, fault, clock or SystemClock()
        self._worlds: dict[str | None, dict[str, Oracle]] = {}

    def _world(self, session: str | None) -> dict[str, Oracle]:
        world = self._worlds.get(session)
        if world is None:
            if len(self._worlds) >= MAX_SESSIONS:
                self._worlds.pop(next(k for k in self._worlds if k is not None))
            world = self._worlds[session] = {
                s: self._oracle(s) for s in DECLARED if s in self.templates
            }
        return world

    def _oracle(self, scenario: str) -> Oracle:
        config = replace(
            DECLARED[scenario],
            base_schemas={scenario: self.templates[scenario]},
            **_CONFIG_FAULTS.get(self.fault, {}),
        )
        encoder = _RawStrings() if self.fault == "SDSI-6.2.1-FRAGMENT-ENCODED" else None
        oracle = (_DroppingOracle if self.fault == "SDSI-6.2.3-TRIGGERS-QUEUED" else Oracle)(
            config, encoder
        )
        if self.fault == "SDSI-6.2.3-DEPRECATION":
            oracle.decide = _promote_the_unused
        return oracle

    def observe(
        self,
        scenario: str,
        client_id: str,
        payload: dict[str, Any],
        now: float | None,
        session: str | None,
    ) -> list[dict[str, Any]]:
        """Record a payload; the patches this payload's fragments brought into being (for an
        inline suggestion)."""
        oracle = self._world(session).get(scenario)
        if oracle is None:
            return []
        other = payload.get("other")
        fragments = tuple(
            other
            if isinstance(other, list)
            else [other]
            if isinstance(other, str) and other
            else []
        )
        keys = {k: v for k, v in payload.items() if k != "other"}
        before = len(oracle.outcome.patches)
        oracle.observe(
            [
                Payload(
                    self.clock.now() if now is None else now, client_id, scenario, fragments, keys
                )
            ]
        )
        new = {p["patch_id"] for p in oracle.outcome.patches[before:]}
        return [p for p in self.patches(scenario, client_id, now, session) if p["patch_id"] in new]

    def key_state(
        self, scenario: str, client_id: str, name: str, now: float | None, session: str | None
    ) -> str | None:
        oracle = self._world(session).get(scenario)
        if oracle is None:
            return None
        oracle.tick(self.clock.now() if now is None else now)
        return oracle.key_state(scenario, client_id, name)

    def patches(
        self, scenario: str, client_id: str | None, now: float | None, session: str | None
    ) -> list[dict[str, Any]]:
        """The active patches for `client_id` at `now` (the fault-free shape unless a fault says
        otherwise)."""
        oracle = self._world(session).get(scenario)
        if oracle is None:
            return []
        oracle.tick(self.clock.now() if now is None else now)
        owners = (
            {p.get("client_id") for p in oracle.outcome.patches}
            if self.fault == "SDSI-6.2.2-CLIENT-PATCH-ONLY-FOR-CLIENT"
            else {client_id}
        )
        served = list(
            {
                p["patch_id"]: p
                for owner in sorted(owners, key=str)
                for p in oracle.active_patches(scenario, owner)
            }.values()
        )
        if self.fault in (
            "SDSI-6.2.2-DESCRIPTION-FROM-REAL-FRAGMENTS",
            "SDSI-6.2.2-COLLISION-MERGED",
            "SDSI-6.2.3-WITHDRAWN-REMOVED",
        ):
            served = copy.deepcopy(served)  # the faults below edit what they serve
        for patch in served:
            if self.fault == "SDSI-6.2.2-DESCRIPTION-FROM-REAL-FRAGMENTS":
                for key in patch.get("new_keys", []):
                    key["semantic_description"] = "A preference induced from recurring requests."
            if (
                self.fault == "SDSI-6.2.3-WITHDRAWN-REMOVED"
            ):  # never dropped (grace_days above): served as withdrawn
                for key in patch.get("new_keys", []):
                    if key.get("deprecated") is True:
                        key["withdrawn"] = True
            if self.fault == "SDSI-6.2.2-COLLISION-MERGED" and "modified_keys" in patch:
                patch["new_keys"] = [
                    {**k, "key_name": f"{k['key_name']}_2", "experimental": True}
                    for k in patch.pop("modified_keys")
                ]
        return served
