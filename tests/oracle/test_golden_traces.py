"""The golden traces in vectors/dsp: the oracle reproduces each expected output byte for byte, and
each output holds the facts derived by hand from SDSI 6.2 (so the expectations cannot drift with
the oracle)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.oracle import dumps
from conformance.oracle import replay
from conformance.vectors import vectors_root
from tests.tools import build_script

ROOT = Path(__file__).resolve().parents[2]
DSP = vectors_root() / "dsp"
TRACES = sorted(p.name.removesuffix(".trace.json") for p in DSP.glob("*.trace.json"))


def _out(name: str) -> dict[str, Any]:
    expected: dict[str, Any] = json.loads((DSP / f"{name}.expected.json").read_text())
    return expected


def _states(out: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    return [(t["key"], t["from"], t["to"]) for t in out["transitions"]]


FACTS: dict[str, Callable[[dict[str, Any]], None]] = {
    "single-client-burst": lambda o: _assert(o["triggers"] == [] and o["patches"] == []),
    "many-clients-burst": lambda o: _assert(
        [t["at"] for t in o["triggers"]] == ["2026-05-01T00:05:00Z"]
        and o["triggers"][0]["distinct_clients"] == 6
    ),
    "slow-trickle": lambda o: _assert(o["triggers"] == []),
    "threshold-equality": lambda o: _assert(
        [t["at"] for t in o["triggers"]] == ["2026-05-01T00:00:01Z"]
        and o["triggers"][0]["heat"] == 60.0
    ),
    "threshold-equality-ge": lambda o: _assert(
        [(t["at"], t["heat"]) for t in o["triggers"]] == [("2026-05-01T00:00:00Z", 50.0)]
    ),
    "window-edge": lambda o: _assert(
        [(t["at"], t["occurrences"]) for t in o["triggers"]] == [("2026-05-08T00:00:01Z", 10)]
    ),
    "cap-saturation-and-queue-drain": lambda o: _assert(
        len(o["triggers"]) == 3
        and [q["cluster"] for q in o["queued"]] == [o["triggers"][2]["cluster"]]
        and o["queued"][0]["served_at"] == "2026-05-08T00:05:00Z"
        and ("airport_pickup", "queued", "experimental") in _states(o)
    ),
    "promotion": lambda o: _assert(
        _states(o)[-1] == ("window_seat", "experimental", "stable")
        and o["transitions"][-1]["at"] == "2026-05-08T00:05:00Z"
    ),
    "deprecation": lambda o: _assert(
        _states(o)[-1] == ("window_seat", "experimental", "deprecated")
        and o["transitions"][-1]["metrics"]["value_type_correctness"] == 0.0
    ),
    "withdrawal-and-compatibility-window": lambda o: _assert(
        [(t["to"], t["at"]) for t in o["transitions"]]
        == [
            ("experimental", "2026-05-01T00:05:00Z"),
            ("deprecated", "2026-05-08T00:05:00Z"),
            ("withdrawn", "2026-05-22T00:05:00Z"),
            ("retired", "2026-06-21T00:05:00Z"),
        ]
        and [w["at"] for w in o["warnings"]] == ["2026-06-01T00:05:00Z"]
        and [r["at"] for r in o["rejected"]] == ["2026-06-22T00:05:00Z"]
    ),
    "undecided-then-promoted": lambda o: _assert(
        _states(o)[-1] == ("window_seat", "experimental", "stable")
        and o["transitions"][-1]["at"] > "2026-05-08T00:05:00Z"
    ),
    "alignment-judgements": lambda o: _assert(
        _states(o)[-1] == ("window_seat", "experimental", "deprecated")
        and o["transitions"][-1]["metrics"]["semantic_alignment_accuracy"] == 0.5
    ),
    "collision-merged": lambda o: _assert(
        len(o["patches"]) == 1
        and "new_keys" not in o["patches"][0]
        and o["patches"][0]["modified_keys"][0]["key_name"] == "seat_preference"
        and o["patches"][0]["modified_keys"][0]["key_type"] == "string"
    ),
    "personalised-cohort": lambda o: _assert(
        [p.get("client_id") for p in o["patches"]] == ["traveller"]
    ),
    "paraphrases-cluster": lambda o: _assert(
        len(o["triggers"]) == 1 and o["triggers"][0]["occurrences"] == 6
    ),
}


def _assert(condition: bool) -> None:
    assert condition


def test_every_trace_has_its_facts() -> None:
    assert set(FACTS) == set(TRACES)


@pytest.mark.parametrize("name", TRACES)
def test_replay_reproduces_the_expected_output(name: str) -> None:
    trace = json.loads((DSP / f"{name}.trace.json").read_text())
    assert dumps(replay(trace)) == (DSP / f"{name}.expected.json").read_text()
    FACTS[name](_out(name))


def test_cli_replay_prints_the_expected_bytes() -> None:
    result = CliRunner().invoke(
        app, ["oracle", "replay", str(DSP / "cap-saturation-and-queue-drain.trace.json")]
    )
    assert result.exit_code == 0
    assert result.stdout == (DSP / "cap-saturation-and-queue-drain.expected.json").read_text()


def test_cli_check_passes_the_shipped_traces_and_fails_a_changed_one(tmp_path: Path) -> None:
    assert CliRunner().invoke(app, ["oracle", "check"]).exit_code == 0
    for name in ("promotion", "deprecation"):
        for suffix in (".trace.json", ".expected.json"):
            (tmp_path / f"{name}{suffix}").write_text((DSP / f"{name}{suffix}").read_text())
    (tmp_path / "deprecation.expected.json").write_text(
        (DSP / "promotion.expected.json").read_text()
    )
    result = CliRunner().invoke(app, ["oracle", "check", "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "deprecation: output differs" in result.stdout


@pytest.mark.parametrize(
    "trace, message",
    [
        (
            {"events": [{"at": "2026-05-01T00:00:00Z", "scenario": "s"}]},
            "'client_id' is a required property",
        ),
        (
            {"config": {"half_lives": 3}, "events": []},
            "unknown config member(s): half_lives (known: ",
        ),
        ({"config": {"heat_increment": -1}, "events": []}, "heat_increment must be > 0"),
        (
            {
                "events": [
                    {"type": "tick", "at": "2026-05-02T00:00:00Z"},
                    {"type": "tick", "at": "2026-05-01T00:00:00Z"},
                ]
            },
            "time goes backwards",
        ),
    ],
)
def test_a_bad_trace_is_a_usage_error_naming_the_problem(
    tmp_path: Path, trace: dict[str, Any], message: str
) -> None:
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    result = CliRunner().invoke(app, ["oracle", "replay", str(path)])
    assert result.exit_code == 2
    assert message in result.stderr


def test_the_files_are_what_the_build_script_writes() -> None:
    module = build_script("build_dsp_traces")
    for name, (trace, expected) in module.build().items():
        assert (ROOT / "vectors" / "dsp" / f"{name}.trace.json").read_text() == trace, name
        assert (ROOT / "vectors" / "dsp" / f"{name}.expected.json").read_text() == expected, name
