"""Revisions: one implementation certified against two revisions of one draft, the verdicts
differing exactly where the requirements do; `requirements --diff`; every report names the
revision; a revision is data alone (its folder: text and catalogue), no code.

Only one revision of each draft is at hand (the -01 text of ACI, which the only public ACI code
implements, is in no store the project can reach), so the second revision here is made for the
test from WoA -00, in a temporary folder, named -99 so that nobody takes it for a real one: one
requirement removed (WOA-4-VERSION-1, whose sentence it drops), one changed (a SHOULD made a
MUST), one added (with no check yet). The suite lists no such revision.
"""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.requirements import DRAFTS
from conformance.requirements.revisions import diff
from conformance.requirements.revisions import revision
from conformance.requirements.revisions import revisions
from conformance.targeting import OptionsUnusable
from conformance.targeting import run_options
from mocks.serve import serve_host
from tests.requirements.revision import ADDED
from tests.requirements.revision import CHANGED
from tests.requirements.revision import FAKE
from tests.requirements.revision import REMOVED
from tests.requirements.revision import made_revision


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_revision(tmp_path_factory.mktemp("revisions"))


def test_the_suite_lists_only_the_revisions_it_has_the_text_of() -> None:
    listed = revisions()
    assert {d: [r.name for r in found] for d, found in listed.items()} == {
        d: [name] for d, name in DRAFTS.items()
    }
    for found in listed.values():
        assert all(r.text_file.is_file() and r.catalogue_file.is_file() for r in found)


def test_the_diff_lists_what_was_added_removed_and_changed(folder: Path) -> None:
    found = diff(revision(DRAFTS["woa"]), revision(str(folder)))
    assert (found.added, found.removed) == ((ADDED,), (REMOVED,))
    assert found.changed == ((CHANGED, ("level",)),)
    result = CliRunner().invoke(app, ["requirements", "--diff", DRAFTS["woa"], str(folder)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"{DRAFTS['woa']} -> {FAKE}",
        f"+ {ADDED}",
        f"- {REMOVED}",
        f"~ {CHANGED} (level)",
        "1 added, 1 removed, 1 changed",
    ]
    listed = CliRunner().invoke(
        app, ["requirements", "--revision", str(folder), "--draft", "woa", "--format", "json"]
    )
    ids = {row["id"] for row in json.loads(listed.output)}
    assert ADDED in ids and REMOVED not in ids
    unknown = CliRunner().invoke(app, ["requirements", "--diff", "draft-gaikwad-woa-07", FAKE])
    assert unknown.exit_code == 2 and "draft-gaikwad-woa-07 is not a revision" in unknown.output


def _certified(host: Any, reports: Path, *revision_flags: str) -> dict[str, Any]:
    result = CliRunner().invoke(
        app,
        [
            *("run", "--target", host.url, "--cacert", str(host.cacert), "--suite", "woa"),
            *revision_flags,
            *("--report-dir", str(reports), "--quiet"),
        ],
    )
    report: dict[str, Any] = json.loads((reports / "report.json").read_text())
    report["exit_code"] = result.exit_code
    return report


def test_one_host_against_two_revisions_differs_where_the_requirements_do(
    folder: Path, tmp_path: Path
) -> None:
    # a host that declares woa_version "1.0": -00's WOA-4-VERSION-1 fails; the made revision drops
    # that sentence
    with serve_host("woa-4-version-1") as host:
        before = _certified(host, tmp_path / "00")
        after = _certified(host, tmp_path / "99", "--revision", str(folder))
    old = {r["requirement"]: r for r in before["results"]}
    new = {r["requirement"]: r for r in after["results"]}
    assert old[REMOVED]["status"] == "fail" and before["exit_code"] == 1
    assert set(old) - set(new) == {REMOVED} and set(new) - set(old) == {ADDED}
    assert new[ADDED]["status"] == "skip"  # no check of it yet: said, never a pass
    assert (old[CHANGED]["level"], new[CHANGED]["level"]) == ("SHOULD", "MUST")
    same = set(old) & set(new) - {CHANGED}
    assert {i: old[i]["status"] for i in same} == {i: new[i]["status"] for i in same}
    assert after["exit_code"] == 0
    # every report names the revision it certified against
    assert before["header"]["drafts"] == {"woa": DRAFTS["woa"]}
    assert after["header"]["drafts"] == {"woa": FAKE}
    assert f'name="revision" value="{FAKE}"' in (tmp_path / "99" / "junit.xml").read_text()
    assert "agent-conformance WoA-99" in (tmp_path / "99" / "badge-woa.svg").read_text()
    assert FAKE in (tmp_path / "99" / "summary.md").read_text()


def test_a_revision_is_data_its_folder_alone(folder: Path, tmp_path: Path) -> None:
    """A folder with the text and the catalogue is a revision wherever it stands: in the
    package's revisions/ (shown on a copy of the package's data: the suite lists it, and the
    newest is the default), or given as --revision PATH. What a folder lacks is named."""
    package = tmp_path / "requirements"
    shutil.copytree(resources.files("conformance.requirements"), package)  # type: ignore[arg-type]
    shutil.copytree(folder, package / "revisions" / FAKE)
    listed = revisions(package)
    assert [r.name for r in listed["woa"]] == [DRAFTS["woa"], FAKE]
    assert [r.name for r in listed["aci"]] == [DRAFTS["aci"]]
    copy = tmp_path / FAKE
    shutil.copytree(folder, copy)
    assert revision(str(copy)).entries() == revision(str(folder)).entries()
    (copy / "catalogue.json").unlink()
    with pytest.raises(OptionsUnusable, match=r"holds catalogue\.json"):
        run_options("https://agents.example", suites="woa", revisions=[str(copy)])
    with pytest.raises(OptionsUnusable, match="two revisions of woa"):
        run_options("https://a.example", suites="woa", revisions=[DRAFTS["woa"], str(folder)])
    with pytest.raises(OptionsUnusable, match="a draft this run does not certify"):
        run_options("https://agents.example", suites="aci", revisions=[str(folder)])
