"""Agent code certified without a server: a Python function, served in-process through the suite's
own binding (WoA REST: a document naming one agent and its invocation route), then certified like
any in-process app.

    run --agent-callable my_agents:agent --suite aci                                # ACI invoked
    run --agent-callable my_agents:server --suite sdsi --scenario flight_booking    # SDSI server

The signatures (each may be a plain function or a coroutine function):

    agent(agent_context: dict) -> dict
        gets the AgentContext the master sends (ACI 5.2) and returns the updated one (5.3). A
        ContextURI in it resolves over the network, at the suite's context store, as for any agent.
    server(operation: str, input: dict) -> dict
        operation is get_schema_template, execute or get_schema_updates (SDSI over WoA REST); input
        is the envelope's input; the answer is the operation's result. A server without SDSI 6.2's
        OPTIONAL dynamic patches says so: `server.operations = ("get_schema_template", "execute")`
        (the document then offers no get_schema_updates, and 6.2's checks are not applicable).

An exception the function raises is its refusal: the suite's binding answers it 400 with problem
details, since the function chooses no status code. What needs a wire (TLS, HTTP versions) is a
skip, as for any in-process run. `module:function` resolves from the current directory, as uvicorn
resolves an app.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import threading
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.responses import Response
from starlette.routing import Route

from ..bindings.aci import CAPABILITY as ACI
from ..bindings.sdsi import CAPABILITY as SDSI
from . import TooLarge
from . import problem
from . import read_capped
from . import read_message
from .inprocess import IN_PROCESS_ORIGIN
from .inprocess import AppUnusable
from .inprocess import load_callable

__all__ = ["KINDS", "SDSI_OPERATIONS", "callable_app", "load_function", "sdsi_operations"]

#: What a callable can be certified as, by suite: the role it plays.
KINDS = {"aci": "invoked", "sdsi": "server"}
#: The operations a server function answers unless it names fewer in its `operations` attribute:
#: the core (SDSI 3.1, 3.2), then 6.2's OPTIONAL dynamic patches.
SDSI_OPERATIONS = ("get_schema_template", "execute", "get_schema_updates")
#: The most of a request body the wrapper reads (the suite's own requests are far smaller).
MAX_BODY = 1024 * 1024


def load_function(reference: str) -> Callable[..., Any]:
    """The function `module:function` names, resolved from the current directory."""
    found: Callable[..., Any] = load_callable(
        reference, option="--agent-callable", example="my_agents:agent", what="a function"
    )
    return found


async def _called(function: Callable[..., Any], *arguments: Any) -> Any:
    """The function's answer: a coroutine function awaited, a plain one run in a daemon thread of
    its own, so that the suite's request deadline holds even when it blocks (a model call, a
    fetch, a loop) and a function that never returns cannot hold the process at exit either."""
    if inspect.iscoroutinefunction(function):
        return await function(*arguments)
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Any] = loop.create_future()

    def settle(result: Any, error: BaseException | None) -> None:
        if answer.done():  # the request gave up on it: nobody waits any more
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(result)

    def work() -> None:
        try:
            result, error = function(*arguments), None
        except BaseException as raised:  # handed to the request, which answers it as a refusal
            result, error = None, raised
        with contextlib.suppress(RuntimeError):  # the loop closed while the function ran
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, name="agent-callable", daemon=True).start()
    result = await answer
    return await result if inspect.isawaitable(result) else result


def sdsi_operations(function: Callable[..., Any]) -> tuple[str, ...]:
    """The SDSI operations `function` answers: those its `operations` attribute names (the core
    two at least), or all three."""
    named = getattr(function, "operations", SDSI_OPERATIONS)
    if (
        isinstance(named, str)
        or not isinstance(named, list | tuple | set | frozenset)
        or not set(SDSI_OPERATIONS[:2]) <= set(named) <= set(SDSI_OPERATIONS)
    ):
        raise AppUnusable(
            f"{getattr(function, '__name__', 'the function')}.operations names what it answers:"
            f" get_schema_template and execute, and get_schema_updates if it offers SDSI 6.2's"
            f" patches, not {named!r}"
        )
    return tuple(o for o in SDSI_OPERATIONS if o in named)


def _agent_entry(
    agent_id: str, suite: str, scenarios: tuple[str, ...], answered: tuple[str, ...]
) -> dict[str, Any]:
    if suite == "aci":
        message = {
            "type": "object",
            "required": ["AgentContext"],
            "properties": {"AgentContext": {"type": "object"}},
        }
        return {
            "id": agent_id,
            "name": agent_id,
            "description": "An ACI invoked agent, certified as a Python function.",
            "capabilities": [ACI],
            "transports": ["rest"],
            "inputs": message,
            "outputs": message,
            "operations": [{"name": "execute_subtask", "inputs": message, "outputs": message}],
        }
    template = {
        "type": "object",
        "required": ["scenario"],
        "properties": {
            "scenario": {"type": "string", "enum": list(scenarios)},
            "preferred_language": {"type": "string"},
        },
    }
    schema_id = {
        "type": "object",
        "required": ["schema_id"],
        "properties": {"schema_id": {"type": "string"}},
    }
    execute = {
        "type": "object",
        "required": ["schema_id", "payload"],
        "properties": {"schema_id": {"type": "string"}, "payload": {"type": "object"}},
    }
    return {
        "id": agent_id,
        "name": agent_id,
        "description": "An SDSI server agent, certified as a Python function.",
        "capabilities": [SDSI],
        "transports": ["rest"],
        "inputs": template,
        "outputs": {"type": "object"},
        "operations": [
            {"name": name, "inputs": inputs, "outputs": {"type": "object"}}
            for name, inputs in zip(SDSI_OPERATIONS, (template, execute, schema_id), strict=True)
            if name in answered
        ],
    }


def callable_app(
    function: Callable[..., Any],
    suite: str,
    *,
    agent_id: str = "agent",
    scenarios: tuple[str, ...] = (),
) -> Starlette:
    """An ASGI app that serves `function` as one agent of a WoA host at IN_PROCESS_ORIGIN (suite:
    aci or sdsi); AppUnusable when an SDSI server's `operations` cannot be used."""
    answered = sdsi_operations(function) if suite == "sdsi" else ()
    entry = _agent_entry(agent_id, suite, scenarios, answered)
    operations = {o["name"] for o in entry["operations"]}
    document = json.dumps(
        {
            "woa_version": "1",
            "host": {"name": "agent-conformance callable host"},
            "transports": {
                "rest": {"base": IN_PROCESS_ORIGIN, "invoke_path": "/agents/{agent_id}/invoke"}
            },
            "agents": [entry],
        }
    ).encode()

    async def woa(request: Request) -> Response:
        return Response(
            document, media_type="application/woa+json", headers={"cache-control": "no-cache"}
        )

    async def invoke(request: Request) -> Response:
        try:
            envelope = read_message(await read_capped(request, MAX_BODY))
        except TooLarge as error:
            return problem(413, "Too large", str(error))
        except (ValueError, RecursionError):
            return problem(400, "Not JSON", "the body is not JSON")
        if request.path_params["agent_id"] != agent_id:
            return problem(404, "Unknown agent", f"this host serves {agent_id!r}")
        if not isinstance(envelope, dict) or envelope.get("agent", agent_id) != agent_id:
            return problem(
                400, "Agent mismatch", "the envelope names another agent than the URL (WoA 5.2)"
            )
        operation, given = envelope.get("operation"), envelope.get("input")
        if operation not in operations or not isinstance(given, dict):
            return problem(
                400,
                "Invalid envelope",
                f"the operations are {sorted(operations)}, the input an object",
            )
        try:
            if suite == "aci":
                context = given.get("AgentContext")
                if not isinstance(context, dict):
                    return problem(
                        400, "Invalid message", 'the input is {"AgentContext": {...}} (ACI 5.2)'
                    )
                result = {"AgentContext": await _called(function, context)}
            else:
                result = await _called(function, operation, given)
        except Exception as refusal:  # the function's refusal: it chooses no status code
            return problem(
                400, "Refused by the function", f"{type(refusal).__name__}: {str(refusal)[:2000]}"
            )
        try:
            return JSONResponse(result)
        except (TypeError, ValueError) as error:
            return problem(
                500, "Not JSON", f"the function returned what JSON cannot carry: {error}"
            )

    return Starlette(
        routes=[
            Route("/.well-known/woa.json", woa),
            Route("/agents/{agent_id}/invoke", invoke, methods=["POST"]),
        ]
    )
