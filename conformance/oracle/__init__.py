"""The reference oracle for SDSI 6.2: the Differential Semantic Pool, schema self-evolution and the
key lifecycle, deterministic and replayable from traces.

    config -> Oracle(config, encoder) <- events (payloads, ticks) -> Outcome (triggers, patches,
    transitions, queued, warnings, rejected)

Modules: `config` (parameters), `clock` (time), `encoders` (text to vectors), `pool` (clustering and
heat), `evolution` (patches), `lifecycle` (metrics and rules), `engine` (the oracle), `trace`
(replay), `bench` (figures).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING
from typing import Any

from .config import OracleConfig

if TYPE_CHECKING:
    from .engine import Oracle
    from .engine import Outcome
    from .engine import Payload
    from .trace import TraceError
    from .trace import dumps
    from .trace import replay

__all__ = ["Oracle", "OracleConfig", "Outcome", "Payload", "TraceError", "dumps", "replay"]

#: Names whose module brings numpy: imported when first asked for, so that a run whose checks never
#: drive the oracle starts without numpy.
_LAZY = {
    "Oracle": "engine",
    "Outcome": "engine",
    "Payload": "engine",
    "TraceError": "trace",
    "dumps": "trace",
    "replay": "trace",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
