"""The figure commands run and print their figures (the figures themselves are not asserted:
speed is measured, never tested)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from conformance.cli import app


def test_oracle_bench_prints_throughput_memory_the_baseline_ratio_and_encoders(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(app, ["oracle", "bench", "--sizes", "400,800", "--baseline", "300", "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert "fragments/s" in result.output and "same output: yes" in result.output and "encoder hashing" in result.output
    figures = json.loads(out.read_text())
    assert [r["fragments"] for r in figures["replay"]] == [400, 800] and figures["baseline"]["same_output"] is True


def test_aci_isolation_prints_both_scenarios() -> None:
    result = CliRunner().invoke(app, ["aci", "isolation"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith("tour-plan") and lines[2].startswith("see-a-doctor")
