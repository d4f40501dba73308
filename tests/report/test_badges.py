"""badge-<draft>.svg: valid SVG, one per draft of the run, with the draft's level and its colour."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from conformance.engine.gate import gated
from conformance.report import Result
from conformance.report import ResultRecorded
from conformance.report import RunFinished
from conformance.report import RunHeader
from conformance.report import RunStarted
from conformance.report import Status
from conformance.report import summarize
from conformance.report.outcome import colour_of
from conformance.report.writers import FORMATS
from conformance.report.writers import BadgeWriter
from conformance.report.writers.badges import badge_svg
from conformance.requirements import catalogue

SVG = "{http://www.w3.org/2000/svg}"


def test_a_badge_is_valid_svg_with_escaped_text() -> None:
    root = ET.fromstring(badge_svg("a<b", "x&y", "#123456"))
    assert root.tag == f"{SVG}svg" and root.get("height") == "20"
    assert root.find(f"{SVG}title").text == "a<b: x&y"  # type: ignore[union-attr]
    assert {t.text for t in root.iter(f"{SVG}text")} == {"a<b", "x&y"}  # each with its shadow
    assert root.get("aria-label") == "a<b: x&y" and root.get("role") == "img"


def test_one_badge_per_draft_with_its_level(tmp_path: Path) -> None:
    failing = Result.of(catalogue()["WOA-4-VERSION-1"], Status.FAIL, "no")
    passing = Result.of(catalogue()["SDSI-4.1-KEY-NAME-SNAKE-CASE"], Status.PASS, "yes")
    writer = BadgeWriter(tmp_path)
    writer.handle(
        RunStarted(RunHeader("1", "https://t.example", ("woa", "sdsi", "aci"), "woa-rest", "now"))
    )
    for result in (failing, passing):
        writer.handle(ResultRecorded(result))
    summary = gated(summarize([failing, passing]))
    writer.handle(RunFinished(summary))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "badge-aci.svg",
        "badge-sdsi.svg",
        "badge-woa.svg",
    ]
    woa = ET.parse(tmp_path / "badge-woa.svg").getroot()
    assert woa.get("aria-label") == "agent-conformance WoA-00: non-compliant"  # its revision
    assert colour_of("non-compliant") in (tmp_path / "badge-woa.svg").read_text()
    assert "untested" in (tmp_path / "badge-aci.svg").read_text()
    assert FORMATS["badges"] is BadgeWriter
