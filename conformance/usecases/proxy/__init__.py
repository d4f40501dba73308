"""The passive proxy: stand between two real agents, forward every exchange, and judge both sides.

    forward.py   the ASGI app that forwards to the upstream and records (Traffic, Recorded)
    judge.py     the traffic, read as the drafts' messages, judged requirement by requirement

`agent-conformance proxy` (cli/proxy.py) serves it until SIGINT or SIGTERM, then writes the reports.
"""

from .forward import MAX_BODY, Recorded, Traffic, forwarding_app
from .judge import judge, judged_run, schema_requirements

__all__ = ["MAX_BODY", "Recorded", "Traffic", "forwarding_app", "judge", "judged_run", "schema_requirements"]
