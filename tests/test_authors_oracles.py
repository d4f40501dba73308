"""The ACI draft's authors' own oracles (test_acp.py, docs/aci-authors-oracles.json) as a second
opinion: each protocol oracle names the requirement that judges the same point, the errata entry
that records where the readings differ or the draft is silent, and the named faults that break it,
each fault on one of those requirements (tests/checks/test_aci_faults.py proves each is caught
there alone)."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.errata import register
from conformance.requirements import catalogue
from mocks.faults.catalogue import FAULTS

ORACLES = json.loads((Path(__file__).parents[1] / "docs" / "aci-authors-oracles.json").read_text())


def test_every_check_of_test_acp_is_read() -> None:
    checks = " / ".join(o["check"] for o in ORACLES["oracles"]).split(" / ")
    assert len(checks) == 21  # test_acp.py's check() calls, one name each
    assert len(set(checks)) == len(checks)


def test_each_protocol_oracle_has_its_requirement_errata_and_faults() -> None:
    requirements = catalogue()
    errata = {e.id: e for e in register()}
    for oracle in ORACLES["oracles"]:
        if oracle["reading"].startswith("not a protocol matter"):
            assert not oracle["requirements"] and not oracle["faults"], oracle["check"]
            continue
        assert oracle["requirements"], oracle["check"]
        assert all(r in requirements for r in oracle["requirements"]), oracle["check"]
        assert oracle["faults"], oracle["check"]
        for name in oracle["faults"]:
            assert name in FAULTS, name
            assert FAULTS[name].requirement in oracle["requirements"], (oracle["check"], name)
        assert all(e in errata for e in oracle["errata"]), oracle["check"]
        if not oracle["reading"].startswith("agree"):
            # a difference or a silence is recorded, with the text proposed to the authors
            assert oracle["errata"], oracle["check"]
            assert all(errata[e].proposal for e in oracle["errata"])


def test_each_difference_names_the_authors_reading_in_the_register() -> None:
    errata = {e.id: e for e in register()}
    differing = {
        e
        for o in ORACLES["oracles"]
        if o["reading"].startswith(("disagree", "draft silent")) or "disagree" in o["reading"]
        for e in o["errata"]
    }
    for entry in differing:
        told = errata[entry].interpretation + " ".join(errata[entry].readings.values())
        assert "test_acp.py" in told, entry
