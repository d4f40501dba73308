"""How the suite talks to ACI agents (draft-chang-agent-context-interaction-02), which leaves the
transport open (its section 1 names A2A as one possibility).

1. ACI over WoA REST (`woa-rest`, the default): an ACI agent is a WoA agent whose capabilities
   hold the ACI capability URI, or (capabilities being OPTIONAL in WoA 4.1) that lists one of the
   operations below.
   - An invoked agent offers `execute_subtask`: input {"AgentContext": {...}}, output its updated
     {"AgentContext": {...}}.
   - A master agent offers `run_task`: input {"UserQuery": str, "agents": the URL of a WoA document
     listing the invoked agents it may use}, output {"TaskContext": {...}}.
2. ACI over A2A (`a2a`): the AgentContext travels as a data part of an A2A message (a2a-sdk). An
   invoked agent's WoA entry names its agent card's base URL in `x-a2a`; a target with no WoA
   document is itself one A2A agent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Protocol

from .http import HttpClient
from .reply import Reply
from .reply import agents_offering
from .reply import operation_names
from .reply import post_json

__all__ = [
    "CAPABILITY",
    "A2aInvoked",
    "AciInvoked",
    "RestInvoked",
    "RestMaster",
    "aci_agents",
    "role_of",
]

CAPABILITY = "https://datatracker.ietf.org/doc/draft-chang-agent-context-interaction/"


def aci_agents(document: Any) -> list[dict[str, Any]]:
    """The agents of a WoA document that claim the ACI capability or offer run_task or
    execute_subtask."""
    offered = agents_offering(document, CAPABILITY, lambda agent: role_of(agent) is not None)
    return [a for a in offered if isinstance(a.get("id"), str)]


def role_of(agent: dict[str, Any]) -> str | None:
    """ "master" if the agent offers run_task, "invoked" if execute_subtask, else None."""
    names = operation_names(agent)
    return "master" if "run_task" in names else "invoked" if "execute_subtask" in names else None


class AciInvoked(Protocol):
    binding: str
    agent_id: str

    async def execute(self, message: Any) -> Reply: ...


class RestInvoked:
    binding = "woa-rest"

    def __init__(self, client: HttpClient, agent_id: str, url: str) -> None:
        self.client, self.agent_id, self.url = client, agent_id, url

    async def execute(self, message: Any) -> Reply:
        return await post_json(
            self.client,
            self.url,
            {"agent": self.agent_id, "operation": "execute_subtask", "input": message},
        )


class A2aInvoked:
    binding = "a2a"

    def __init__(
        self,
        client: HttpClient,
        agent_id: str,
        base_url: str,
        allowed: Callable[[str], bool],
        message_ids: Callable[[], str],
    ) -> None:
        """`message_ids` makes each A2A message's id (from the run's values, so that a replay
        sends the same)."""
        self.client, self.agent_id, self.base_url, self.allowed, self.message_ids = (
            client,
            agent_id,
            base_url,
            allowed,
            message_ids,
        )

    async def execute(self, message: Any) -> Reply:
        from .a2a import send_data

        if not isinstance(message, dict):
            raise TypeError("an A2A data part carries a JSON object")
        return await send_data(
            self.client, self.base_url, message, self.allowed, self.message_ids()
        )


class RestMaster:
    binding = "woa-rest"

    def __init__(self, client: HttpClient, agent_id: str, url: str) -> None:
        self.client, self.agent_id, self.url = client, agent_id, url

    async def run_task(self, user_query: str, agents: str) -> Reply:
        return await post_json(
            self.client,
            self.url,
            {
                "agent": self.agent_id,
                "operation": "run_task",
                "input": {"UserQuery": user_query, "agents": agents},
            },
        )
