"""Checks, one per requirement, registered by draft. Importing this package registers them all.

The draft modules (woa, sdsi, aci) arrive with the issues that certify each draft; until a
requirement has a check, a run reports it as skip with the reason, never as pass.
"""

from . import aci  # noqa: F401  (registers the checks of each draft)
from . import sdsi  # noqa: F401  (registers the checks of each draft)
from . import woa  # noqa: F401  (registers the checks of each draft)
from .registry import CHECKS
from .registry import Check
from .registry import Skip
from .registry import Verdict
from .registry import check
from .registry import checks_for
from .registry import driven_by
from .registry import errored
from .registry import failed
from .registry import not_applicable
from .registry import passed
from .registry import skipped
from .registry import waived

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
