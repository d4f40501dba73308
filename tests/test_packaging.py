"""The wheel ships what an installed suite needs: the catalogue, the drafts, the schemas and the
vectors."""

from __future__ import annotations

import zipfile
from pathlib import Path

from hatchling.builders.wheel import WheelBuilder

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_carries_data_and_vectors(tmp_path: Path) -> None:
    wheel = Path(
        next(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"]))
    )
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "conformance/requirements/woa.json",
        "conformance/requirements/catalogue.schema.json",
        "conformance/requirements/drafts/draft-chang-agent-context-interaction-02.xml",
        "conformance/schemas/woa/document.json",
        "conformance/errata/register.json",
        "conformance/report/report.schema.json",
        "conformance/vectors/vector-file.schema.json",
        "conformance/_data/vectors/sdsi/figure-02-flight-booking-template.json",
        "mocks/reference/woa_host.py",
    }
    assert expected <= names
    vectors = {n for n in names if n.startswith("conformance/_data/vectors/")}
    # message vectors and dsp traces
    assert len(vectors) == len(list((ROOT / "vectors").glob("*/*.json")))
