"""Checks, one per requirement, registered by draft. Importing this package registers them all.

The draft modules (woa, sdsi, aci) arrive with the issues that certify each draft; until a
requirement has a check, a run reports it as skip with the reason, never as pass.
"""

from . import aci  # noqa: F401  (registers the checks of each draft)
from . import sdsi  # noqa: F401  (registers the checks of each draft)
from . import woa  # noqa: F401  (registers the checks of each draft)
from .registry import *  # noqa: F403 (the registry's names are the package's)
from .registry import __all__ as __all__
