"""Shared fixtures: where the drafts are, and the project's root."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.checks import load_drafts

# the tests read the whole registry (CHECKS) as the suite defines it; a run loads the checks of
# its drafts alone (tests/checks/test_registry_loading.py holds that it misses none)
load_drafts()

ROOT = Path(__file__).resolve().parents[1]
SHARED_DRAFTS = ROOT.parent / "shared" / "drafts"


@pytest.fixture(scope="session")
def drafts_dir() -> Path | None:
    """../shared/drafts when this checkout has it beside it; None means the copies shipped in the
    package."""
    return SHARED_DRAFTS if SHARED_DRAFTS.is_dir() else None
