"""The reference ACI agents on the reference WoA host: the six invoked agents (WoA REST and A2A)
and, in aci_master.py, the master. `woa_host.py` lists them in its document and routes to them.

The invoked agents fetch a ContextURI only from the host's own origin or a loopback address (the
suite's context store runs there), over a client with a deadline and a body cap (ACI 6: no
reference leads them to arbitrary addresses).
"""

from __future__ import annotations

import importlib.util
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator
from starlette.responses import JSONResponse
from starlette.responses import Response
from starlette.routing import Mount
from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from conformance.bindings.http import ExchangeFailed
from conformance.bindings.http import HttpClient
from conformance.bindings.http import Unreachable
from conformance.targeting import is_loopback

from .aci_agents import AGENTS
from .aci_agents import CAPABILITY
from .aci_agents import AciError
from .aci_agents import Fetch
from .aci_agents import InvokedAgent
from .aci_agents import SubtaskExecutor
from .problems import problem
from .problems import refused

__all__ = [
    "CONTEXT_LIMIT",
    "Clients",
    "fetcher",
    "invoke_invoked",
    "invoked_entries",
    "invoked_mounts",
]

CONTEXT_LIMIT = 1024 * 1024
_OUTPUTS = {
    "type": "object",
    "required": ["AgentContext"],
    "properties": {"AgentContext": {"type": "object"}},
}
#: Whether the A2A SDK is installed (the a2a extra): the agents are then also served over A2A.
A2A = importlib.util.find_spec("a2a") is not None


def agent_context_inputs(agent_id: str) -> dict[str, Any]:
    """What an invoked agent accepts: an AgentContext addressed to it (ACI 5.2, Figure 4)."""
    item = {
        "type": "object",
        "required": ["itemId", "description"],
        "properties": {
            "itemId": {"type": "string", "minLength": 1},
            "description": {"type": "string"},
        },
    }
    context = {
        "type": "object",
        "required": ["AgentID", "SubTaskID", "todoItems"],
        "properties": {
            "AgentID": {"const": agent_id},
            "AgentName": {"type": "string"},
            "SubTaskID": {"type": "string", "minLength": 1},
            "SubTaskName": {"type": "string"},
            "Dependencies": {"type": "array", "items": {"type": "string"}},
            "Context": {"type": "string"},
            "ContextURI": {"type": "string"},
            "todoItems": {"type": "array", "items": item},
        },
    }
    example = {
        "AgentContext": {
            "AgentID": agent_id,
            "SubTaskID": "task-001/one",
            "todoItems": [{"itemId": "i1", "description": "do it"}],
            "Context": "An example subtask.",
        }
    }
    return {
        "type": "object",
        "required": ["AgentContext"],
        "properties": {"AgentContext": context},
        "examples": [example],
    }


def invoked_entries(base: str) -> list[dict[str, Any]]:
    """The invoked agents as they stand in the WoA document."""
    return [
        {
            "id": agent.id,
            "name": agent.name,
            "description": f"Executes ACI subtasks of the {agent.scenario} scenario.",
            "version": "1.0.0",
            "capabilities": [CAPABILITY],
            "transports": ["rest"],
            **({"x-a2a": f"{base}/a2a/{agent.id}"} if A2A else {}),
            "inputs": agent_context_inputs(agent.id),
            "outputs": _OUTPUTS,
            "operations": [
                {
                    "name": "execute_subtask",
                    "description": "Execute the subtask of an AgentContext (ACI 5.3).",
                    "inputs": agent_context_inputs(agent.id),
                    "outputs": _OUTPUTS,
                }
            ],
        }
        for agent in AGENTS.values()
    ]


class Clients:
    """The HTTP client the host's ACI agents share: the suite's own, with its deadline and body cap
    (one per host: making a client costs tens of milliseconds of TLS setup), opened on first use
    and closed with the host."""

    def __init__(self) -> None:
        self._client: HttpClient | None = None

    def get(self) -> HttpClient:
        if self._client is None:
            self._client = HttpClient(timeout=5.0, max_body=CONTEXT_LIMIT)
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


def fetcher(base: str, clients: Clients) -> Fetch:
    """Fetch a ContextURI's text from the host's own origin or loopback, capped and with a
    deadline."""
    own = urlsplit(base).netloc

    async def fetch(uri: str) -> str:
        parts = urlsplit(uri)
        if parts.scheme not in ("https", "http") or not (parts.netloc == own or is_loopback(uri)):
            raise AciError(
                422,
                "ContextURI refused",
                f"{uri} is not on an origin this agent fetches context from",
            )
        if parts.scheme == "http" and not is_loopback(uri):
            raise AciError(
                422,
                "ContextURI refused",
                "context is fetched over HTTPS (plain HTTP only on loopback)",
            )
        try:
            response = await clients.get().request("GET", uri)
        except (ExchangeFailed, Unreachable) as error:
            raise AciError(424, "ContextURI unreachable", str(error)) from None
        if response.status != 200:
            raise AciError(
                424, "ContextURI refused by its store", f"the store answered {response.status}"
            )
        return response.body.decode("utf-8", errors="replace")

    return fetch


_VALIDATORS = {
    agent_id: Draft202012Validator(agent_context_inputs(agent_id)) for agent_id in AGENTS
}


async def invoke_invoked(
    agent_id: str, operation: str | None, given: Any, fetch: Fetch, executor: SubtaskExecutor
) -> Response:
    no = refused(agent_id, operation, "execute_subtask", _VALIDATORS[agent_id], given)
    if no is not None:
        return no
    try:
        return JSONResponse(await executor.execute(AGENTS[agent_id], given, fetch))
    except AciError as error:
        return problem(error.status, error.title, error.detail)


def invoked_mounts(base: str, fetch: Fetch, executor: SubtaskExecutor) -> list[Mount]:
    """The A2A servers of the invoked agents, where the A2A SDK is installed (the a2a extra). Each
    is built at its first request: the SDK takes a third of a second to import, which a run that
    never speaks A2A (most runs of the reference) does not pay."""
    if not A2A:
        return []
    return [
        Mount(
            f"/a2a/{agent.id}",
            app=_BuiltAtFirstRequest(agent, f"{base}/a2a/{agent.id}", fetch, executor),
        )
        for agent in AGENTS.values()
    ]


class _BuiltAtFirstRequest:
    """One invoked agent's A2A server (mocks/reference/aci_a2a.py), imported and built when the
    first request reaches it."""

    def __init__(
        self, agent: InvokedAgent, url: str, fetch: Fetch, executor: SubtaskExecutor
    ) -> None:
        self._made = (agent, url, fetch, executor)
        self._app: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._app is None:
            from .aci_a2a import a2a_app

            self._app = a2a_app(*self._made)
        await self._app(scope, receive, send)
