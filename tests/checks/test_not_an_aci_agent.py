"""An agent that is not an ACI agent is not certified as one: a2a-samples' helloworld executor (a
completed task whose artifact is text, no AgentContext) had every ACI MUST it touched skipped or
passed "with 0 returned", and the run ended MUST-compliant. A completed task is an answer, not a
refusal (E-ACI-A2A-DECLINED): the rules on what an invoked agent returns judge it, and fail."""

from __future__ import annotations

from typing import Any

from a2a.helpers import new_task_from_user_message
from a2a.helpers import new_text_part
from a2a.server.agent_execution import AgentExecutor
from a2a.server.agent_execution import RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes
from a2a.server.routes import create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentCapabilities
from a2a.types import AgentCard
from a2a.types import AgentInterface
from a2a.types import AgentSkill
from a2a.utils import TransportProtocol
from starlette.applications import Starlette

from conformance.report import Status
from mocks.serve import serve
from tests.command import agent_conformance


class HelloWorld(AgentExecutor):
    """As a2a-samples' helloworld answers whatever it is sent: a completed task, text only."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.message is not None
        task = context.current_task or new_task_from_user_message(context.message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        await updater.add_artifact([new_text_part("No text input is provided!")])
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        return None


def helloworld(base: str) -> Any:
    card = AgentCard(
        name="Hello World Agent",
        description="Just a hello world agent",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(
                url=f"{base}/rpc",
                protocol_binding=TransportProtocol.JSONRPC.value,
                protocol_version="1.0",
            )
        ],
        capabilities=AgentCapabilities(streaming=False),
        default_input_modes=["text"],
        default_output_modes=["text"],
        skills=[AgentSkill(id="hello", name="hello", description="says hello", tags=["hello"])],
    )
    handler = DefaultRequestHandler(
        agent_executor=HelloWorld(), task_store=InMemoryTaskStore(), agent_card=card
    )
    return Starlette(
        routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, rpc_url="/rpc")]
    )


def test_a_helloworld_a2a_agent_is_no_aci_invoked_agent(tmp_path: Any) -> None:
    import json

    with serve(helloworld) as agent:
        done = agent_conformance(
            *("run", "--target", agent.url, "--cacert", str(agent.cacert)),
            *("--suite", "aci", "--binding", "a2a", "--report-dir", str(tmp_path)),
        )
    report = json.loads((tmp_path / "report.json").read_text())
    statuses = {r["requirement"]: r["status"] for r in report["results"]}
    assert done.returncode == 2, done.stdout + done.stderr
    gate = report["summary"]["gate"]
    assert (gate["kind"], gate["headline"]) == (
        "no-agent-exercised",
        "not certified: 0 of 1 agents exercised",
    )
    assert statuses["ACI-2.1-RETURNS-OWN-AGENTCONTEXT"] == Status.FAIL
    for vacuous in (
        "ACI-5.2-AGENTCONTEXT-MEMBERS",
        "ACI-5.2-TODO-ITEMS",
        "ACI-5.2-ITEM-STATE-BINARY",
    ):
        assert statuses[vacuous] != Status.PASS, (vacuous, report["results"])
    assert not [
        r for r in report["results"] if r["status"] == "pass" and "0 returned" in r["message"]
    ]
