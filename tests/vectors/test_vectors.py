"""The golden vectors: all judged as their files expect, enough of them, and built from the
drafts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from conformance.vectors import check_vectors
from conformance.vectors import message_vector_files
from conformance.vectors import vectors_root
from tests.tools import build_script

ROOT = Path(__file__).resolve().parents[2]


def _builder() -> Any:
    return build_script("build_vectors")


def test_every_case_gets_the_verdict_its_file_expects() -> None:
    report = check_vectors()
    assert report.failures == []


def test_there_are_enough_cases_and_a_third_are_invalid() -> None:
    report = check_vectors()
    assert len(report.outcomes) >= 150
    assert report.invalid_cases * 3 >= len(report.outcomes)


def test_vector_files_are_what_the_builder_writes() -> None:
    for path, text in _builder().build().items():
        assert (ROOT / path).read_text(encoding="utf-8") == text, (
            f"{path} is stale: run python tools/build_vectors.py"
        )


def test_every_json_figure_of_the_drafts_has_a_vector_file() -> None:
    sources = {json.loads(p.read_text())["source"] for p in message_vector_files()}
    for number in range(2, 11):
        assert f"SDSI Figure {number}" in sources
    assert {"WoA Appendix A", "WoA Appendix B"} <= sources
    assert any(s.startswith("ACI Figure 3") for s in sources) and any(
        s.startswith("ACI Figure 4") for s in sources
    )


def test_a_figure_case_is_the_figure_as_the_draft_prints_it() -> None:
    from conformance.vectors.figures import sdsi_figure
    from conformance.vectors.figures import woa_object

    figure_2 = json.loads(
        (vectors_root() / "sdsi" / "figure-02-flight-booking-template.json").read_text()
    )
    assert figure_2["cases"][0]["data"] == sdsi_figure(2)
    envelope = json.loads((vectors_root() / "woa" / "appendix-b-envelope.json").read_text())
    assert envelope["cases"][0]["data"] == woa_object("agent's inputs schema:")


def test_a_malformed_vector_file_is_named_with_its_case(tmp_path: Path) -> None:
    shutil.copytree(vectors_root() / "woa", tmp_path / "woa")
    broken = tmp_path / "woa" / "appendix-b-response.json"
    vector = json.loads(broken.read_text())
    del vector["cases"][2]["valid"]
    broken.write_text(json.dumps(vector))
    (tmp_path / "woa" / "not-json.json").write_text("{")
    failures = check_vectors(tmp_path).failures
    assert any(f.startswith("woa/appendix-b-response.json case 2: malformed") for f in failures)
    assert any(f.startswith("woa/not-json.json: not a readable JSON file") for f in failures)


def test_a_wrong_expectation_is_reported_with_file_and_case(tmp_path: Path) -> None:
    shutil.copytree(vectors_root() / "sdsi", tmp_path / "sdsi")
    path = tmp_path / "sdsi" / "figure-03-semantic-annotation.json"
    vector = json.loads(path.read_text())
    vector["cases"][1]["requirements"] = ["SDSI-4.1-KEY-NAME-UNIQUE"]
    path.write_text(json.dumps(vector))
    failures = check_vectors(tmp_path).failures
    assert (
        failures == [f for f in failures if "figure-03-semantic-annotation.json case 1" in f]
        and len(failures) == 1
    )
