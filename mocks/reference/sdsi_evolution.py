"""The reference server agent's schema self-evolution (SDSI 6.2), driven by the suite's oracle.

One oracle per scenario: flight_booking pools "other" fragments per scenario (global patches),
photo_retouch per client (personal patch stacks, SDSI 6.2.2). The real time drives it, except in
a test session: a server started in test mode declares `x-sdsi-test-mode` in its WoA document and
honours two request headers, the session (a fresh, isolated DSP world per value) and the clock (the
simulated time of the request). See conformance/checks/sdsi/evolution.py for the binding.

Faults (mocks/faults/sdsi.py) change the server's real behaviour while it keeps declaring the
reference configuration, as a defective implementation would.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from conformance.oracle import Oracle
from conformance.oracle import OracleConfig
from conformance.oracle import Payload
from conformance.oracle.clock import Clock
from conformance.oracle.clock import SystemClock

__all__ = ["CLOCK_HEADER", "SESSION_HEADER", "Evolution", "declared_configs", "test_mode_member"]

CLOCK_HEADER = "SDSI-Test-Clock"
SESSION_HEADER = "SDSI-Test-Session"
#: Sessions kept at once (the oldest is dropped): a hostile client cannot grow the server without
#: bound.
MAX_SESSIONS = 256

#: The draft's example values, but a threshold of 10 heat units, a gate of 3 clients or 5
#: occurrences and a cap of 3 keys: the draft makes them configurable, and so a drive through a
#: trial takes a hundred requests, not a thousand (certifying the mock takes seconds). And bounds
#: on pools and clusters, which the draft leaves to the server.
_COMPACT = OracleConfig(
    heat_threshold=10.0,
    min_distinct_clients=3,
    min_occurrences=5,
    max_experimental_keys=3,
    # a long-lived server's bounds: whatever its clients send, a world holds at most 64 pools of
    # 512 clusters (a fragment past them is not pooled); fragments are forgotten after the window
    max_clusters=512,
    max_cohorts=64,
)
DECLARED = {"flight_booking": _COMPACT, "photo_retouch": replace(_COMPACT, cohort="client")}


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


class Evolution:
    """The DSP worlds of one server: the real one, and one per test session."""

    def __init__(
        self,
        templates: dict[str, dict[str, Any]],
        clock: Clock | None = None,
        seeded: Mapping[str, int] = MappingProxyType({}),
    ) -> None:
        """`clock` gives the real world's time (a test session's time comes with each request);
        `seeded`, per scenario, the experimental keys the real world serves outside its pool (the
        server's seeded patches), which take their places under the cap (SDSI 6.2.3: a limit on the
        active experimental keys per scenario)."""
        self.templates, self.clock = templates, clock or SystemClock()
        self.seeded = dict(seeded)
        self._worlds: dict[str | None, dict[str, Oracle]] = {}

    # -- what a fault overrides (mocks/faults/sdsi.py): each the reference's behaviour --

    def config(self, scenario: str) -> OracleConfig:
        """The configuration the server runs a scenario's pool with: the one it declares."""
        return replace(DECLARED[scenario], base_schemas={scenario: self.templates[scenario]})

    def oracle(self, config: OracleConfig) -> Oracle:
        """The pool and lifecycle of one scenario in one world (SDSI 6.2.1, 6.2.3)."""
        return Oracle(config)

    def owners(self, oracle: Oracle, client_id: str | None) -> set[str | None]:
        """Whose patches a client is served: its own and the global ones (SDSI 6.2.2)."""
        return {client_id}

    def serves(self, patch: dict[str, Any]) -> dict[str, Any]:
        """A patch as the server sends it: as the pool made it."""
        return patch

    def _world(self, session: str | None) -> dict[str, Oracle]:
        world = self._worlds.get(session)
        if world is None:
            if len(self._worlds) >= MAX_SESSIONS:
                self._worlds.pop(next(k for k in self._worlds if k is not None))
            world = self._worlds[session] = {
                s: self._oracle(s, session) for s in DECLARED if s in self.templates
            }
        return world

    def _oracle(self, scenario: str, session: str | None) -> Oracle:
        config = self.config(scenario)
        taken = self.seeded.get(scenario, 0) if session is None else 0
        if taken:
            cap = max(1, config.max_experimental_keys - taken)
            config = replace(config, max_experimental_keys=cap)
        return self.oracle(config)

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
        """The active patches for `client_id` at `now`."""
        oracle = self._world(session).get(scenario)
        if oracle is None:
            return []
        oracle.tick(self.clock.now() if now is None else now)
        return [
            self.serves(p)
            for p in {
                p["patch_id"]: p
                for owner in sorted(self.owners(oracle, client_id), key=str)
                for p in oracle.active_patches(scenario, owner)
            }.values()
        ]
