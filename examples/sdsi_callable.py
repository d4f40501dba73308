"""An SDSI server agent as a plain Python function, certified without a server:

    agent-conformance run --agent-callable examples.sdsi_callable:server --suite sdsi \
        --scenario flight_booking --scenario photo_retouch

`server(operation, input)` answers the three SDSI operations over WoA REST (get_schema_template,
execute, get_schema_updates) with their results; raising is refusing (the suite's binding answers
400 with problem details). The SDSI behaviour is the reference server's (mocks/reference), so this
file shows only the shape a user's own function takes.

`server_without_patches` is a server without SDSI 6.2's OPTIONAL dynamic patches: its `operations`
name the two it answers, so the suite offers no get_schema_updates and judges 6.2 not applicable.

`server_that_accepts_any_payload` is the same server with one fault: execute runs whatever payload
arrives (SDSI-3.1-SERVER-VALIDATES-PAYLOAD), which the project's tests catch.
"""

from __future__ import annotations

from typing import Any

from mocks.reference.sdsi_server import SdsiServer

__all__ = ["server", "server_that_accepts_any_payload", "server_without_patches"]

# one server agent's templates, patches and pool, kept between calls as a process keeps them
_STATE = SdsiServer()


def server(operation: str, given: dict[str, Any]) -> Any:
    """One SDSI operation: its result, or an exception that refuses it (an unknown scenario, a
    bad payload)."""
    if operation == "get_schema_template":
        return _STATE.template(given["scenario"], given.get("preferred_language"))
    if operation == "execute":
        return _STATE.execute(given["schema_id"], given["payload"])
    if operation == "get_schema_updates":
        return _STATE.updates(given["schema_id"], authenticated=False)
    raise ValueError(f"no operation {operation!r}")


def server_without_patches(operation: str, given: dict[str, Any]) -> Any:
    """Templates and execution only (SDSI 3, 4); no schema updates."""
    if operation == "get_schema_updates":
        raise ValueError("this server offers no schema updates")
    return server(operation, given)


server_without_patches.operations = ("get_schema_template", "execute")  # type: ignore[attr-defined]


def server_that_accepts_any_payload(operation: str, given: dict[str, Any]) -> Any:
    """The fault: execute accepts any payload, conforming to its template or not."""
    if operation == "execute":
        return {"status": "accepted", "schema_id": given.get("schema_id")}
    return server(operation, given)
