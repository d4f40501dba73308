"""A2A (a2a-sdk 1.x) as a transport for ACI: the AgentContext travels as a data part of an A2A
message; the reply's first data part that is a JSON object is the answer. A task that ends failed,
canceled, rejected, or asking for input or authorization declines; a completed task or a message
without such a part is an answer all the same (its text), which the rules on what an agent returns
judge (E-ACI-A2A-DECLINED).

The SDK speaks httpx; its client is given a transport that sends every request through the
suite's HttpClient, so the suite's deadline, body cap and CA apply, the address policy decides
which URLs may be called (the agent card names the RPC URL), and every exchange is evidence.
A protobuf Value carries numbers as doubles: integral doubles are turned back into integers
(E-ACI-A2A-NUMBERS).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from ..report.model import Exchange
from .http import ExchangeFailed
from .http import HttpClient
from .http import Unreachable
from .reply import Reply

__all__ = ["A2aFailed", "restore_integers", "send_data"]


class A2aFailed(Exception):
    """The A2A exchange could not be completed (the message says why)."""


class _ThroughSuite(httpx.AsyncBaseTransport):
    """An httpx transport that sends through the suite's HttpClient and keeps the exchanges."""

    def __init__(self, client: HttpClient, allowed: Callable[[str], bool]) -> None:
        self.client, self.allowed = client, allowed
        self.exchanges: list[Exchange] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        if not self.allowed(url):
            raise A2aFailed(
                f"the agent card points at {url}, which the address policy does not allow"
            )
        headers = {
            k: v for k, v in request.headers.items() if k.lower() not in ("content-length", "host")
        }
        response = await self.client.request(
            request.method, url, headers=headers, content=await request.aread()
        )
        self.exchanges.append(response.exchange)
        kept = [
            (k, v)
            for k, v in response.headers.multi_items()
            if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
        ]
        return httpx.Response(response.status, headers=kept, content=response.body, request=request)


def restore_integers(value: Any) -> Any:
    """Integral floats back to integers, all the way down (protobuf's Value has only doubles)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: restore_integers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [restore_integers(v) for v in value]
    return value


#: The states in which an A2A task ends without an answer: A2A's own ways of saying no, or of
#: asking for more (E-ACI-A2A-DECLINED). A completed task, or a message, is an answer.
_DECLINED = frozenset(
    {
        "TASK_STATE_FAILED",
        "TASK_STATE_CANCELED",
        "TASK_STATE_REJECTED",
        "TASK_STATE_INPUT_REQUIRED",
        "TASK_STATE_AUTH_REQUIRED",
    }
)


def _parts(response: Any) -> tuple[list[Any], list[str], str | None]:
    """The data parts of a reply, its text parts, and the state its task ended in (None for a
    message)."""
    from a2a.helpers import get_data_parts
    from a2a.helpers import get_text_parts
    from a2a.types import TaskState

    if response.HasField("message"):
        parts = response.message.parts
        return list(get_data_parts(parts)), list(get_text_parts(parts)), None
    if response.HasField("task"):
        found: list[Any] = []
        texts: list[str] = []
        for artifact in response.task.artifacts:
            found += get_data_parts(artifact.parts)
            texts += get_text_parts(artifact.parts)
        if not found and response.task.status.HasField("message"):
            found += get_data_parts(response.task.status.message.parts)
            texts += get_text_parts(response.task.status.message.parts)
        return found, texts, TaskState.Name(response.task.status.state)
    return [], [], None


async def send_data(
    client: HttpClient,
    base_url: str,
    data: dict[str, Any],
    allowed: Callable[[str], bool],
    message_id: str,
) -> Reply:
    """Resolve the agent card under `base_url`, send `data` as a data part, and return the first
    JSON object of the reply's data parts (a Reply with no status if the exchange failed)."""
    from a2a.client import A2ACardResolver
    from a2a.client import ClientConfig
    from a2a.client import ClientFactory
    from a2a.helpers import new_data_part
    from a2a.types import Message
    from a2a.types import Role
    from a2a.types import SendMessageRequest
    from a2a.utils import TransportProtocol

    transport = _ThroughSuite(client, allowed)
    last = lambda: transport.exchanges[-1] if transport.exchanges else Exchange("POST", base_url)  # noqa: E731
    async with httpx.AsyncClient(transport=transport, timeout=client.timeout) as http:
        try:
            card = await A2ACardResolver(http, base_url).get_agent_card()
            sdk = ClientFactory(
                ClientConfig(
                    httpx_client=http,
                    streaming=False,
                    supported_protocol_bindings=[TransportProtocol.JSONRPC],
                )
            ).create(card)
            request = SendMessageRequest(
                message=Message(
                    role=Role.ROLE_USER, message_id=message_id, parts=[new_data_part(data)]
                )
            )
            found: list[Any] = []
            texts: list[str] = []
            state: str | None = None
            async for response in sdk.send_message(request):
                parts, text, state = _parts(response)
                found, texts = found + parts, texts + text
            await sdk.close()
        except (ExchangeFailed, Unreachable, A2aFailed) as error:
            exchange = getattr(error, "exchange", None) or last()
            return Reply(None, None, exchange=exchange, problem=str(error))
        except Exception as error:
            # the SDK's own errors: a JSON-RPC error, a card it cannot read, ...
            return Reply(
                None, None, exchange=last(), problem=f"A2A: {type(error).__name__}: {error}"
            )
    answer = next((restore_integers(item) for item in found if isinstance(item, dict)), None)
    if answer is not None:
        return Reply(200, answer, "application/json", last())
    if state in _DECLINED:
        return Reply(200, None, "application/json", last(), f"declined: the A2A task ended {state}")
    # a completed task or a message is an answer, though it holds no JSON object: what it holds
    # is judged as the agent's answer (its text, if any)
    return Reply(200, " ".join(texts) if texts else None, "text/plain", last())
