"""Write the golden DSP and lifecycle traces in vectors/dsp/ (SDSI 6.2) and the oracle's output
for each.

Each trace is `<name>.trace.json` (what `agent-conformance oracle replay` reads) and
`<name>.expected.json` (what it must print, byte for byte). The expectations are the oracle's, so
tests/oracle/test_golden_traces.py also states, for every trace, the facts derived by hand from
the draft's rules (when the trigger fires, which state a key reaches, when), so that the oracle
cannot drift and drag its own expectations with it. A test fails when these files differ from
what this script writes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conformance.oracle import dumps  # noqa: E402
from conformance.oracle import replay  # noqa: E402
from conformance.oracle.clock import format_time  # noqa: E402
from conformance.oracle.clock import parse_time  # noqa: E402

T0 = parse_time("2026-05-01T00:00:00Z")
HOUR, DAY = 3600.0, 86400.0
FLIGHT_BASE = {
    "schema_id": "flight_booking_v1",
    "keys": [
        {
            "key_name": "origin",
            "key_type": "string",
            "required": True,
            "semantic_description": "Departure city or airport code.",
        },
        {
            "key_name": "seat_preference",
            "key_type": "string",
            "required": False,
            "default_value": "none",
            "semantic_description": "Seat preference. Acceptable values: window, aisle, none.",
        },
        {
            "key_name": "other",
            "key_type": "string",
            "required": False,
            "semantic_description": "Unmapped fragments.",
        },
    ],
}


def at(seconds: float) -> str:
    return format_time(T0 + seconds)


def payload(
    seconds: float,
    client: str,
    other: str | list[str] | None = None,
    scenario: str = "flight_booking",
    **extra: Any,
) -> dict[str, Any]:
    event: dict[str, Any] = {"at": at(seconds), "client_id": client, "scenario": scenario}
    if other is not None:
        event["other"] = other
    event.update(extra)
    return event


def tick(seconds: float) -> dict[str, Any]:
    return {"type": "tick", "at": at(seconds)}


TRACES: dict[str, Callable[[], dict[str, Any]]] = {}


def trace(function: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
    TRACES[function.__name__.replace("_", "-")] = function
    return function


@trace
def single_client_burst() -> dict[str, Any]:
    return {
        "description": (
            "One client sends nine requests in nine minutes, each asking for a window seat: heat"
            " reaches about 90 (increment 10) but the cluster has 1 client and 9 occurrences, so"
            " the dual gate holds: no trigger."
        ),
        "config": {"heat_increment": 10},
        "events": [payload(60 * i, "alice", "window seat please") for i in range(9)],
    }


@trace
def many_clients_burst() -> dict[str, Any]:
    return {
        "description": (
            "Six clients each send one window-seat request a minute apart (increment 10): heat"
            " exceeds 50 at the sixth request, which brings the sixth client: the trigger fires"
            " then, once."
        ),
        "config": {"heat_increment": 10},
        "events": [payload(60 * i, f"client-{i}", "window seat please") for i in range(8)],
    }


@trace
def slow_trickle() -> dict[str, Any]:
    return {
        "description": (
            "One request an hour for ten days from ten clients: heat converges to 1/(1-2^(-1/24)) ="
            " 35.1 < 50, so decay keeps the cluster below the threshold although both gates' counts"
            " are met."
        ),
        "config": {},
        "events": [payload(HOUR * i, f"client-{i % 10}", "quiet cabin") for i in range(240)],
    }


@trace
def threshold_equality() -> dict[str, Any]:
    return {
        "description": (
            "Five clients at the same instant (increment 10): heat is exactly 50, which does not"
            " exceed 50; the sixth request a second later does (E-SDSI-6.2.1-EXCEEDS)."
        ),
        "config": {"heat_increment": 10, "half_life_hours": 1e6},
        "events": (
            [payload(0, f"client-{i}", "extra legroom") for i in range(5)]
            + [payload(1, "client-5", "extra legroom")]
        ),
    }


@trace
def threshold_equality_ge() -> dict[str, Any]:
    return {
        "description": (
            "The same five requests with heat_comparison ge: heat 50 meets the threshold, so the"
            " fifth fires."
        ),
        "config": {"heat_increment": 10, "half_life_hours": 1e6, "heat_comparison": "ge"},
        "events": [payload(0, f"client-{i}", "extra legroom") for i in range(5)],
    }


@trace
def window_edge() -> dict[str, Any]:
    first = [payload(0, "alice", "pet friendly")]
    middle = [payload(HOUR * (i + 1), "alice", "pet friendly") for i in range(8)]
    return {
        "description": (
            "Occurrences gate only (min_distinct_clients 100, threshold 5, no decay to speak of)."
            " The tenth request comes exactly 7 days after the first, which has left the half-open"
            " window (t - 7d, t]: 9 occurrences, no trigger. The eleventh, a second later, counts"
            " 10 and fires."
        ),
        "config": {"heat_threshold": 5, "min_distinct_clients": 100, "half_life_hours": 1e6},
        "events": (
            first
            + middle
            + [
                payload(7 * DAY, "alice", "pet friendly"),
                payload(7 * DAY + 1, "alice", "pet friendly"),
            ]
        ),
    }


def _burst(start: float, text: str, clients: int = 6) -> list[dict[str, Any]]:
    return [payload(start + 60 * i, f"client-{i}", text) for i in range(clients)]


@trace
def cap_saturation_and_queue_drain() -> dict[str, Any]:
    return {
        "description": (
            "Cap of 2 experimental keys. Three clusters fire within the hour: the third waits in"
            " the queue. No payload uses the two keys, so at the end of their 7-day trial both are"
            " deprecated (usage 0 < 5%), which frees the cap and serves the queued trigger at that"
            " instant."
        ),
        "config": {"heat_increment": 10, "max_experimental_keys": 2},
        "events": (
            _burst(0, "window seat please")
            + _burst(600, "vegetarian meal")
            + _burst(1200, "airport pickup")
            + [tick(8 * DAY)]
        ),
    }


def _usage(start: float, days: int, key: str, value: Any, share: int) -> list[dict[str, Any]]:
    """Ten payloads a day, an hour apart; the first `share` of each ten carry `key`."""
    return [
        (
            payload(start + d * DAY + i * HOUR, f"client-{i}", keys={key: value})
            if i < share
            else payload(start + d * DAY + i * HOUR, f"client-{i}")
        )
        for d in range(days)
        for i in range(10)
    ]


@trace
def promotion() -> dict[str, Any]:
    return {
        "description": (
            "window_seat is induced at minute 5; for the next 7 days 3 of every 10 payloads carry"
            " it, well typed (usage 30%, type correctness 100%, aligned by the type judge):"
            " promoted to stable at the trial's end."
        ),
        "config": {"heat_increment": 10},
        "events": (
            _burst(0, "window seat please")
            + _usage(HOUR, 7, "window_seat", "window", 3)
            + [tick(8 * DAY)]
        ),
    }


@trace
def deprecation() -> dict[str, Any]:
    return {
        "description": (
            "window_seat is used by 3 of every 10 payloads but its values are numbers, not strings:"
            " type correctness 0 < 70%, so it is deprecated at the trial's end, although usage is"
            " high."
        ),
        "config": {"heat_increment": 10},
        "events": (
            _burst(0, "window seat please")
            + _usage(HOUR, 7, "window_seat", 12, 3)
            + [tick(8 * DAY)]
        ),
    }


@trace
def withdrawal_and_compatibility_window() -> dict[str, Any]:
    trial, grace, window = 7 * DAY + 300, 14 * DAY, 30 * DAY
    return {
        "description": (
            "An unused key is deprecated at the end of its trial (usage 0), withdrawn 14 days"
            " later, still accepted with a warning 10 days after that, and rejected once the 30-day"
            " backward-compatibility window is over."
        ),
        "config": {"heat_increment": 10},
        "events": [
            *_burst(0, "window seat please"),
            tick(trial),
            tick(trial + grace),
            payload(trial + grace + 10 * DAY, "client-1", keys={"window_seat": "window"}),
            payload(trial + grace + window + DAY, "client-1", keys={"window_seat": "window"}),
        ],
    }


@trace
def undecided_then_promoted() -> dict[str, Any]:
    return {
        "description": (
            "Usage 10% after the trial meets neither rule: the key stays experimental and is"
            " evaluated again each day (E-SDSI-6.2.3-NEITHER-RULE). From day 7 usage rises to 40%;"
            " at the first daily evaluation where the 30-day usage reaches 15%, the key is"
            " promoted."
        ),
        "config": {"heat_increment": 10},
        "events": (
            _burst(0, "window seat please")
            + _usage(HOUR, 7, "window_seat", "aisle", 1)
            + _usage(7 * DAY + 2 * HOUR, 6, "window_seat", "aisle", 4)
            + [tick(14 * DAY)]
        ),
    }


@trace
def alignment_judgements() -> dict[str, Any]:
    return {
        "description": (
            "Well-typed values that an auditor judged misaligned in 5 of every 10 payloads"
            " (alignment 50% < 60%): deprecated at the trial's end although usage and type"
            " correctness are high."
        ),
        "config": {"heat_increment": 10, "alignment_judge": "explicit"},
        "events": (
            _burst(0, "window seat please")
            + [e for d in range(7) for e in _judged_day(HOUR + d * DAY)]
            + [tick(8 * DAY)]
        ),
    }


def _judged_day(start: float) -> list[dict[str, Any]]:
    return [
        payload(
            start + i * HOUR,
            f"client-{i}",
            keys={"window_seat": "window"},
            judgements={"window_seat": i % 2 == 0},
        )
        for i in range(10)
    ]


@trace
def collision_merged() -> dict[str, Any]:
    return {
        "description": (
            "The fragments induce seat_preference, a key of the base schema: no new key; the patch"
            " refines the existing key's description in modified_keys, its type unchanged (SDSI"
            " 6.2.2 conflict detection)."
        ),
        "config": {"heat_increment": 10, "base_schemas": {"flight_booking": FLIGHT_BASE}},
        "events": _burst(0, "seat preference: aisle please"),
    }


@trace
def personalised_cohort() -> dict[str, Any]:
    return {
        "description": (
            "DSP per client cohort: one frequent traveller asks for extra legroom eleven times; the"
            " occurrences gate fires in that client's pool and the patch is that client's own"
            " (client_id). Another client's one request does not join it."
        ),
        "config": {"cohort": "client", "heat_increment": 10},
        "events": (
            [payload(HOUR * i, "traveller", "extra legroom") for i in range(11)]
            + [payload(12 * HOUR, "other-client", "extra legroom")]
        ),
    }


@trace
def paraphrases_cluster() -> dict[str, Any]:
    texts = [
        "window seat please",
        "a window seat, please",
        "window seat please!",
        "please, window seat",
        "Window seat please",
    ]
    return {
        "description": (
            "Rewordings of one wish cluster together under the default encoder (similarity >= 0.85"
            " to the first) and an unrelated wish founds its own cluster; six clients fire the"
            " window-seat cluster only."
        ),
        "config": {"heat_increment": 10},
        "events": (
            [payload(60 * i, f"client-{i}", texts[i % len(texts)]) for i in range(6)]
            + [payload(400, "client-9", "vegetarian meal")]
        ),
    }


def build() -> dict[str, tuple[str, str]]:
    files = {}
    for name, make in TRACES.items():
        document = make()
        files[name] = (
            json.dumps(document, indent=1, ensure_ascii=False) + "\n",
            dumps(replay(document)),
        )
    return files


def main() -> None:
    out = ROOT / "vectors" / "dsp"
    out.mkdir(parents=True, exist_ok=True)
    for name, (trace_text, expected) in build().items():
        (out / f"{name}.trace.json").write_text(trace_text, encoding="utf-8")
        (out / f"{name}.expected.json").write_text(expected, encoding="utf-8")
    print(f"wrote {len(TRACES)} traces to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
