"""Shared fixtures: where the drafts are, and the project's root."""

from __future__ import annotations

import os
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


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` (pyproject.toml's default): a worker more than the cores this process may use. A
    seventh of the tests' time is spent waiting (deadlines met, hung targets, processes starting),
    and a third worker on two cores fills it: measured 5 min 55 s against 6 min 24 s, the same CPU.
    PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set (xdist's own hook reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None  # not on macOS
    return (len(usable) if usable else os.cpu_count() or 1) + 1
