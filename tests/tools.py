"""The build scripts of tools/ (scripts, not a package), loaded as modules for the tests that hold
the files they write to what they would write now."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

__all__ = ["build_script"]

ROOT = Path(__file__).resolve().parents[1]


def build_script(name: str) -> Any:
    """tools/`name`.py, loaded once as the module `name`."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
