"""Checks, one per requirement, registered by draft. Importing this package registers them all.

The draft modules (woa, sdsi, aci) arrive with the issues that certify each draft; until a
requirement has a check, a run reports it as skip with the reason, never as pass.
"""

from . import aci, sdsi, woa  # noqa: F401  (registers the checks of each draft)
from .registry import (
    CHECKS,
    Check,
    Skip,
    Verdict,
    check,
    checks_for,
    driven_by,
    errored,
    failed,
    not_applicable,
    passed,
    skipped,
    waived,
)

__all__ = [
    "CHECKS",
    "Check",
    "Skip",
    "Verdict",
    "check",
    "checks_for",
    "driven_by",
    "errored",
    "failed",
    "not_applicable",
    "passed",
    "skipped",
    "waived",
]
