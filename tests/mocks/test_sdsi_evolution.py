"""The reference server's schema evolution runs on an injected clock: simulated time drives the DSP
and the lifecycle of its real world as a test session's header drives a session's."""

from __future__ import annotations

from typing import Any

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


def test_twenty_thousand_unique_requests_keep_the_reference_bounded() -> None:
    """A long-lived reference sent 20,000 executes, each with a fragment, a client id and (one in
    four) a test session never seen before: its worlds hold at most 256 sessions, 64 pools each
    and 512 clusters a pool, so its memory stays within 100 MB of where it started (measured: 36
    MB, most of it the fragments kept for the occurrence window) and the time per request stays
    level (measured: 0.64-0.75 s per 2,000, where it had grown from 0.95 to 4.6 s and 539 MB)."""
    import asyncio
    from pathlib import Path

    import httpx

    from mocks.host import create_app
    from mocks.reference.sdsi_evolution import MAX_SESSIONS

    def rss_mb() -> float:
        return int(Path("/proc/self/status").read_text().split("VmRSS:")[1].split()[0]) / 1024

    payloads: dict[str, dict[str, Any]] = {
        "flight_booking_v1": {
            "origin": "PEK",
            "destination": "SHA",
            "departure_date": "2026-05-04",
            "passenger_count": 1,
        },
        "photo_retouch_v2": {"skin_smoothing": 1, "teeth_whitening": False},
    }

    async def flood() -> tuple[float, list[int]]:
        app = create_app("http://testserver")
        statuses = []
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://testserver"
            ) as client,
        ):
            start = rss_mb()
            for n in range(20_000):
                schema = "flight_booking_v1" if n % 2 else "photo_retouch_v2"
                session = (
                    {"SDSI-Test-Session": f"s{n}", "SDSI-Test-Clock": "2026-05-04T09:00:00Z"}
                    if n % 4 == 0
                    else {}
                )
                body = {
                    "agent": "travel-and-photo",
                    "operation": "execute",
                    "client_id": f"client-{n}",
                    "input": {
                        "schema_id": schema,
                        "payload": {**payloads[schema], "other": f"wish {n} {n * 7919 % 100003}"},
                    },
                }
                answer = await client.post(
                    "/agents/travel-and-photo/invoke", json=body, headers=session
                )
                statuses.append(answer.status_code)
            return rss_mb() - start, statuses

    grown, statuses = asyncio.run(flood())
    assert set(statuses) == {200}
    assert grown < 100, grown
    assert MAX_SESSIONS == 256
