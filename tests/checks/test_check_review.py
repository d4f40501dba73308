"""Every check read against its sentence (docs/check-review.json, rendered to docs/check-review.md by
tools/render_check_review.py): one entry per registered check, under the requirement it judges."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conformance.checks import CHECKS
from conformance.requirements import catalogue

ROOT = Path(__file__).parents[2]
REVIEW = json.loads((ROOT / "docs" / "check-review.json").read_text(encoding="utf-8"))


def test_every_check_is_reviewed_once_under_its_requirement_and_level() -> None:
    assert sorted(e["check"] for e in REVIEW) == sorted(CHECKS)
    for entry in REVIEW:
        assert CHECKS[entry["check"]].requirement == entry["requirement"]
        assert entry["level"] == catalogue()[entry["requirement"]].level, entry["check"]
        assert entry["verdict"] in ("exact", "over", "under")
        assert entry["status"] == ("" if entry["verdict"] == "exact" else entry["status"]) and entry["status"] in ("", "open", "fixed")
        assert entry["verdict"] == "exact" or entry["fix"], entry["check"]


def test_the_markdown_table_is_rendered_from_the_review() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "render_check_review.py"), "--check"], capture_output=True)
    assert done.returncode == 0, "run: python tools/render_check_review.py"
