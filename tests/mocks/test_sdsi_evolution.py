"""The reference server's schema evolution runs on an injected clock: simulated time drives the DSP
and the lifecycle of its real world as a test session's header drives a session's."""

from __future__ import annotations

from conformance.oracle.clock import SimulatedClock
from conformance.oracle.clock import parse_time
from conformance.oracle.config import DAY
from mocks.reference.sdsi_evolution import Evolution
from mocks.reference.sdsi_server import TEMPLATES

REQUIRED = {"origin": "PEK", "destination": "SHA", "departure_date": "2026-05-04"}


def test_a_simulated_clock_drives_the_real_world() -> None:
    clock = SimulatedClock(parse_time("2026-05-01T00:00:00Z"))
    evolution = Evolution(TEMPLATES, clock=clock)
    suggested = []
    for n in range(12):
        clock.advance(60)
        suggested += evolution.observe(
            "flight_booking",
            f"client-{n % 4}",
            {**REQUIRED, "other": "window seat please"},
            None,
            None,
        )
    assert [k["key_name"] for p in suggested for k in p["new_keys"]] == ["window_seat"]
    assert (
        evolution.patches("flight_booking", "client-0", None, None)[0]["new_keys"][0][
            "experimental"
        ]
        is True
    )
    clock.advance(8 * DAY)  # no payload used the key through its trial: deprecated
    assert (
        evolution.patches("flight_booking", "client-0", None, None)[0]["new_keys"][0]["deprecated"]
        is True
    )


def test_test_sessions_are_isolated_from_each_other_and_from_the_real_world() -> None:
    evolution = Evolution(TEMPLATES, clock=SimulatedClock(0.0))
    at = parse_time("2026-05-01T00:00:00Z")
    for n in range(12):
        evolution.observe(
            "flight_booking",
            f"client-{n % 4}",
            {**REQUIRED, "other": "window seat please"},
            at + 60 * n,
            "session-a",
        )
    assert evolution.patches("flight_booking", "client-0", at + 3600, "session-a")
    assert evolution.patches("flight_booking", "client-0", at + 3600, "session-b") == []
    assert evolution.patches("flight_booking", "client-0", None, None) == []


def test_the_real_world_keeps_its_cap_with_the_seeded_patches_counted() -> None:
    """SDSI 6.2.3's cap is on the active experimental keys per scenario: the reference's seeded
    patches (the figure's seat_preference, payment_method) take two of flight_booking's three, so
    its pool induces one more and queues the rest. Ten certifications of one live server had
    induced three from the suite's own fragments: four keys served against a cap of three."""
    from mocks.reference.sdsi_server import SdsiServer

    clock = SimulatedClock(parse_time("2026-05-01T00:00:00Z"))
    server = SdsiServer()
    server.evolution.clock = clock
    for n in range(60):
        clock.advance(60)
        wish = ["window seat please", "near the front", "water my plants", "extra legroom"][n % 4]
        server.evolution.observe(
            "flight_booking", f"client-{n % 5}", {**REQUIRED, "other": wish}, None, None
        )
    served = server.updates("flight_booking_v1", authenticated=True, client_id="client-0")
    experimental = {
        k["key_name"] for p in served["patches"] for k in p["new_keys"] if k.get("experimental")
    }
    assert len(experimental) == 3, experimental
