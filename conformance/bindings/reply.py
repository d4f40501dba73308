"""What a binding hands back for one JSON exchange: the status, the parsed body, and the
evidence."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..report.model import Exchange
from .http import ExchangeFailed
from .http import HttpClient
from .http import HttpResponse
from .http import Unreachable
from .jsonparse import NotJson
from .jsonparse import parse_json

__all__ = ["Reply", "claims", "operation_names", "post_json"]


@dataclass(frozen=True)
class Reply:
    status: int | None
    body: Any
    media_type: str = ""
    exchange: Exchange | None = None
    #: why there is no usable answer (exchange broke, not JSON, JSON-RPC error)
    problem: str | None = None
    raw: bytes = b""  # the body as sent, for verifying a detached signature
    signature: str | None = None  # the JWS-Signature header, if any

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300 and self.problem is None

    @property
    def rejected(self) -> bool:
        """A 4xx (or a JSON-RPC error), the way SDSI servers say no."""
        return self.status is not None and 400 <= self.status < 500


def _reply(response: HttpResponse) -> Reply:
    signature = response.headers.get("jws-signature")
    try:
        body = parse_json(response.body)
    except NotJson as error:
        return Reply(
            response.status,
            None,
            response.media_type,
            response.exchange,
            f"the answer is {error}",
            response.body,
            signature,
        )
    return Reply(
        response.status,
        body,
        response.media_type,
        response.exchange,
        raw=response.body,
        signature=signature,
    )


async def post_json(
    client: HttpClient,
    url: str,
    body: Any,
    headers: dict[str, str] | None = None,
    without: tuple[str, ...] = (),
) -> Reply:
    """POST `body` as JSON (leaving out the client's headers named in `without`); the reply, or a
    Reply with no status that says why there is none."""
    try:
        response = await client.request(
            "POST",
            url,
            json=body,
            headers={"accept": "application/json", **(headers or {})},
            without=without,
        )
    except ExchangeFailed as error:
        return Reply(None, None, exchange=error.exchange, problem=str(error))
    except Unreachable as error:
        return Reply(
            None, None, exchange=Exchange("POST", url, error=str(error)), problem=str(error)
        )
    return _reply(response)


def agents_offering(
    document: Any, capability: str, offers: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    """The agents of a WoA document that claim `capability` or, by their operations, `offers`
    what it binds."""
    agents = document.get("agents") if isinstance(document, dict) else None
    if not isinstance(agents, list):
        return []
    return [a for a in agents if isinstance(a, dict) and (claims(a, capability) or offers(a))]


def claims(agent: dict[str, Any], capability: str) -> bool:
    """Whether a WoA agent entry lists `capability` among its capabilities."""
    listed = agent.get("capabilities")
    return isinstance(listed, list) and capability in listed


def operation_names(agent: dict[str, Any]) -> set[Any]:
    """The names of the operations a WoA agent entry lists."""
    listed = agent.get("operations")
    return (
        {o.get("name") for o in listed if isinstance(o, dict)}
        if isinstance(listed, list)
        else set()
    )
