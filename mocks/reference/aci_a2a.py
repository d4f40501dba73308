"""The reference ACI invoked agents over A2A (a2a-sdk 1.x): one A2A server per agent, its agent
card at /a2a/{agent_id}/.well-known/agent-card.json and JSON-RPC at /a2a/{agent_id}/rpc. The
AgentContext arrives as a data part; the answer is one message with a data part (the updated
AgentContext, or {"problem": {...}} when the context is refused). A body over 1 MiB is refused
(413 problem details) before the SDK reads it."""

from __future__ import annotations

from typing import Any

from a2a.helpers import get_data_parts
from a2a.helpers import new_data_message
from a2a.server.agent_execution import AgentExecutor
from a2a.server.agent_execution import RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes
from a2a.server.routes import create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import AgentCapabilities
from a2a.types import AgentCard
from a2a.types import AgentInterface
from a2a.types import AgentSkill
from a2a.utils import TransportProtocol
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from conformance.bindings.a2a import restore_integers
from conformance.harness import ProblemDetailsOnly
from conformance.harness import TooLarge
from conformance.harness import read_capped

from .aci_agents import AciError
from .aci_agents import Fetch
from .aci_agents import InvokedAgent
from .aci_agents import SubtaskExecutor
from .problems import problem

__all__ = ["a2a_app"]


class _Executor(AgentExecutor):
    def __init__(self, agent: InvokedAgent, fetch: Fetch, executor: SubtaskExecutor) -> None:
        self.agent, self.fetch, self.executor = agent, fetch, executor

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        data = (
            [restore_integers(d) for d in get_data_parts(message.parts)]
            if message is not None
            else []
        )
        given = next((d for d in data if isinstance(d, dict)), None)
        try:
            reply: dict[str, Any] = await self.executor.execute(self.agent, given, self.fetch)
        except AciError as error:
            reply = {
                "problem": {"status": error.status, "title": error.title, "detail": error.detail}
            }
        await event_queue.enqueue_event(new_data_message(reply, context_id=context.context_id))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        return None


class _CappedBody:
    """The SDK reads request bodies whole: this wrapper answers 413 problem details to a body over
    `limit` bytes (declared or streamed) before the SDK sees it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope, receive)
        try:
            body = await read_capped(request, self.limit)
        except TooLarge as error:
            return await problem(413, "Request body too large", str(error))(scope, receive, send)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def a2a_app(
    agent: InvokedAgent,
    base: str,
    fetch: Fetch,
    executor: SubtaskExecutor,
    limit: int = 1024 * 1024,
) -> ASGIApp:
    """The A2A server of `agent`, to be mounted at `base` (an absolute URL ending
    /a2a/{agent_id})."""
    card = AgentCard(
        name=agent.name,
        description=f"{agent.name}: executes ACI subtasks of the {agent.scenario} scenario.",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(
                url=f"{base}/rpc",
                protocol_binding=TransportProtocol.JSONRPC.value,
                protocol_version="1.0",
            )
        ],
        capabilities=AgentCapabilities(streaming=False),
        default_input_modes=["application/json"],
        default_output_modes=["application/json"],
        skills=[
            AgentSkill(
                id="execute_subtask",
                name="Execute an ACI subtask",
                description=(
                    'Takes {"AgentContext": {...}} as a data part and returns the updated'
                    " AgentContext."
                ),
                tags=["aci", "agent-context"],
                input_modes=["application/json"],
                output_modes=["application/json"],
            )
        ],
    )
    handler = DefaultRequestHandler(
        agent_executor=_Executor(agent, fetch, executor),
        task_store=InMemoryTaskStore(),
        agent_card=card,
    )
    routes = [*create_agent_card_routes(card), *create_jsonrpc_routes(handler, rpc_url="/rpc")]
    return ProblemDetailsOnly(_CappedBody(Starlette(routes=routes), limit))
