"""Checks, one per requirement, registered by draft: `load_drafts` imports the checks of the drafts
a run judges (a run of one draft imports no other's), and each draft's package registers its
checks as it is imported.

Until a requirement has a check, a run reports it as skip with the reason, never as pass.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from ..requirements import DRAFTS
from .registry import *  # noqa: F403 (the registry's names are the package's)
from .registry import __all__ as _registry_names

__all__ = [*_registry_names, "load_drafts"]


def load_drafts(drafts: Iterable[str] = tuple(DRAFTS)) -> None:
    """Register the checks of `drafts` (every draft of the catalogue by default), each in the
    package of its name; a draft loaded already is left as it is."""
    for draft in drafts:
        importlib.import_module(f"{__name__}.{draft}")
