"""Shared fixtures: where the drafts are, and the project's root."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DRAFTS = ROOT.parent / "shared" / "drafts"


@pytest.fixture(scope="session")
def drafts_dir() -> Path | None:
    """../shared/drafts when this checkout has it beside it; None means the copies shipped in the
    package."""
    return SHARED_DRAFTS if SHARED_DRAFTS.is_dir() else None
