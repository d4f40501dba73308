"""The reference oracle for SDSI 6.2: the Differential Semantic Pool, schema self-evolution and the
key lifecycle, deterministic and replayable from traces.

    config -> Oracle(config, encoder) <- events (payloads, ticks) -> Outcome (triggers, patches,
    transitions, queued, warnings, rejected)

Modules: `config` (parameters), `clock` (time), `encoders` (text to vectors), `pool` (clustering and
heat), `evolution` (patches), `lifecycle` (metrics and rules), `engine` (the oracle), `trace`
(replay), `bench` (figures).
"""

from .config import OracleConfig
from .engine import Oracle
from .engine import Outcome
from .engine import Payload
from .trace import TraceError
from .trace import dumps
from .trace import replay

__all__ = ["Oracle", "OracleConfig", "Outcome", "Payload", "TraceError", "dumps", "replay"]
