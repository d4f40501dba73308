"""The passive proxy: stand between two real agents, forward every exchange, and judge both sides.

    forward.py   the ASGI app that forwards to the upstream and records (into a Traffic)
    judge.py     the traffic judged by the engine, as a run that watches (bindings/observed.py)

`agent-conformance proxy` (cli/proxy.py) serves it until SIGINT or SIGTERM, then writes the reports.
"""

from .forward import forwarding_app
from .judge import judge
from .judge import judged_run

__all__ = ["forwarding_app", "judge", "judged_run"]
