"""A run imports the checks of its drafts alone, and misses none of them: the registry a process
that loads one draft sees is the full registry's checks of that draft (no check is registered by
an import another draft happens to make)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conformance.checks import CHECKS
from conformance.requirements import DRAFTS
from conformance.requirements import catalogue

_SEEN = (
    "import json, sys; from conformance.checks import CHECKS, load_drafts;"
    " load_drafts(sys.argv[1:]);"
    " print(json.dumps({n: c.requirement for n, c in CHECKS.items()}))"
)


@pytest.mark.parametrize("draft", DRAFTS)
def test_a_run_of_one_draft_sees_every_check_of_it(draft: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SEEN, draft], capture_output=True, text=True, check=True
    )
    seen = json.loads(done.stdout)
    full = {n: c.requirement for n, c in CHECKS.items()}
    drafts = {r.id: r.draft for r in catalogue()}
    assert {n: r for n, r in seen.items() if drafts[r] == draft} == {
        n: r for n, r in full.items() if drafts[r] == draft
    }


def test_a_process_that_loads_nothing_has_no_checks() -> None:
    done = subprocess.run([sys.executable, "-c", _SEEN], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {}
