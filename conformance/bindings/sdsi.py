"""The two ways the suite talks to an SDSI server agent. The draft leaves the transport open.

1. SDSI over WoA REST (`woa-rest`, the default). An SDSI server agent is a WoA agent whose
   capabilities hold the SDSI capability URI, or (capabilities being OPTIONAL in WoA 4.1) that
   lists a get_schema_template operation; it offers the operations get_schema_template
   ({scenario, preferred_language?} -> a template), execute ({schema_id, payload} -> the result)
   and, if it implements SDSI 6.2, get_schema_updates ({schema_id} -> {"patches": [...]}). The
   scenarios it serves are the enum of get_schema_template's scenario input. The client's identity
   travels in the envelope member client_id; errors are 4xx problem details.
2. JSON-RPC as in SDSI Appendix A (`jsonrpc`). One endpoint takes {"method":
   "get_schema_template", "params": {...}}, payload messages {"schema_id", "payload"} and {"method":
   "get_schema_updates", "params": {"schema_id"}}; a reply may be bare or framed as JSON-RPC 2.0
   ({"jsonrpc": "2.0", "id", "result" | "error"}). The scenarios come from --scenario.

Both give back `Reply`: the status, the parsed body (the JSON-RPC result, unframed), and the
exchange as evidence.
"""

from __future__ import annotations

import itertools
from typing import Any
from typing import Protocol

from .http import HttpClient
from .reply import Reply
from .reply import agents_offering
from .reply import operation_names
from .reply import post_json

__all__ = ["CAPABILITY", "JsonRpcSdsi", "Reply", "SdsiBinding", "WoaRestSdsi", "sdsi_agents"]

CAPABILITY = "https://datatracker.ietf.org/doc/draft-zhou-structured-data-schema-interaction/"


class SdsiBinding(Protocol):
    name: str
    endpoint: str
    supports_updates: bool

    def with_headers(self, headers: dict[str, str]) -> SdsiBinding: ...
    def without(self, names: tuple[str, ...]) -> SdsiBinding: ...
    def over(self, client: HttpClient) -> SdsiBinding: ...
    async def scenarios(self) -> list[str]: ...
    async def template(self, scenario: str, preferred_language: str | None = None) -> Reply: ...
    async def execute(
        self, schema_id: Any, payload: Any, client_id: str | None = None
    ) -> Reply: ...
    async def updates(self, schema_id: Any, client_id: str | None = None) -> Reply: ...


def sdsi_agents(document: Any) -> list[dict[str, Any]]:
    """The agents of a WoA document that claim the SDSI capability or offer get_schema_template."""
    return agents_offering(
        document, CAPABILITY, lambda agent: "get_schema_template" in operation_names(agent)
    )


class WoaRestSdsi:
    """SDSI over WoA REST: envelopes POSTed to the agent's invocation URL."""

    name = "woa-rest"

    def __init__(
        self,
        client: HttpClient,
        agent: dict[str, Any],
        url: str,
        headers: dict[str, str] | None = None,
        scenarios: tuple[str, ...] = (),
        dropped: tuple[str, ...] = (),
    ) -> None:
        self.client, self.agent, self.endpoint, self.headers, self.dropped = (
            client,
            agent,
            url,
            headers or {},
            dropped,
        )
        self.given = scenarios
        operations: list[Any] = (
            agent["operations"] if isinstance(agent.get("operations"), list) else []
        )
        self._operations = {o.get("name"): o for o in operations if isinstance(o, dict)}
        self.supports_updates = "get_schema_updates" in self._operations

    async def scenarios(self) -> list[str]:
        """The scenarios to certify: --scenario's, or those the agent's schema lists (the checks
        read them)."""
        return list(self.given)

    async def _invoke(
        self, operation: str, value: dict[str, Any], client_id: str | None = None
    ) -> Reply:
        envelope: dict[str, Any] = {
            "agent": self.agent.get("id"),
            "operation": operation,
            "input": value,
        }
        if client_id:
            envelope["client_id"] = client_id
        return await post_json(self.client, self.endpoint, envelope, self.headers, self.dropped)

    def with_headers(self, headers: dict[str, str]) -> WoaRestSdsi:
        """The same binding, sending `headers` with every request (a test session's clock, say)."""
        return WoaRestSdsi(
            self.client,
            self.agent,
            self.endpoint,
            {**self.headers, **headers},
            self.given,
            self.dropped,
        )

    def without(self, names: tuple[str, ...]) -> WoaRestSdsi:
        """The same binding, leaving out the run's headers `names` (its credentials, say)."""
        return WoaRestSdsi(self.client, self.agent, self.endpoint, self.headers, self.given, names)

    def over(self, client: HttpClient) -> WoaRestSdsi:
        """The same binding, sending through `client` (a fresh connection, say)."""
        return WoaRestSdsi(
            client, self.agent, self.endpoint, self.headers, self.given, self.dropped
        )

    async def template(self, scenario: str, preferred_language: str | None = None) -> Reply:
        value: dict[str, Any] = {"scenario": scenario}
        if preferred_language:
            value["preferred_language"] = preferred_language
        return await self._invoke("get_schema_template", value)

    async def execute(self, schema_id: Any, payload: Any, client_id: str | None = None) -> Reply:
        return await self._invoke(
            "execute", {"schema_id": schema_id, "payload": payload}, client_id
        )

    async def updates(self, schema_id: Any, client_id: str | None = None) -> Reply:
        return await self._invoke("get_schema_updates", {"schema_id": schema_id}, client_id)


class JsonRpcSdsi:
    """SDSI as in Appendix A: method/params requests and bare payload messages to one endpoint."""

    name = "jsonrpc"
    supports_updates = True

    def __init__(
        self,
        client: HttpClient,
        endpoint: str,
        scenarios: tuple[str, ...],
        headers: dict[str, str] | None = None,
        dropped: tuple[str, ...] = (),
    ) -> None:
        self.client, self.endpoint, self._scenarios, self.headers, self.dropped = (
            client,
            endpoint,
            list(scenarios),
            headers or {},
            dropped,
        )
        self._ids = itertools.count(1)

    def with_headers(self, headers: dict[str, str]) -> JsonRpcSdsi:
        return JsonRpcSdsi(
            self.client,
            self.endpoint,
            tuple(self._scenarios),
            {**self.headers, **headers},
            self.dropped,
        )

    def without(self, names: tuple[str, ...]) -> JsonRpcSdsi:
        return JsonRpcSdsi(self.client, self.endpoint, tuple(self._scenarios), self.headers, names)

    def over(self, client: HttpClient) -> JsonRpcSdsi:
        return JsonRpcSdsi(
            client, self.endpoint, tuple(self._scenarios), self.headers, self.dropped
        )

    async def scenarios(self) -> list[str]:
        return self._scenarios

    async def _call(self, body: dict[str, Any], client_id: str | None = None) -> Reply:
        if client_id:
            body["client_id"] = client_id
        reply = await post_json(self.client, self.endpoint, body, self.headers, self.dropped)
        if reply.status is None:
            return reply
        framed = (
            reply.body
            if isinstance(reply.body, dict) and reply.body.get("jsonrpc") == "2.0"
            else None
        )
        if framed is None:
            return reply
        if "error" in framed:
            error = framed["error"] if isinstance(framed["error"], dict) else {}
            return Reply(
                reply.status if reply.status >= 400 else 400,
                framed,
                reply.media_type,
                reply.exchange,
                f"JSON-RPC error {error.get('code')}: {error.get('message')}",
            )
        return Reply(reply.status, framed.get("result"), reply.media_type, reply.exchange)

    async def template(self, scenario: str, preferred_language: str | None = None) -> Reply:
        params: dict[str, Any] = {"scenario": scenario}
        if preferred_language:
            params["preferred_language"] = preferred_language
        return await self._call({"method": "get_schema_template", "params": params})

    async def execute(self, schema_id: Any, payload: Any, client_id: str | None = None) -> Reply:
        return await self._call({"schema_id": schema_id, "payload": payload}, client_id)

    async def updates(self, schema_id: Any, client_id: str | None = None) -> Reply:
        return await self._call(
            {"method": "get_schema_updates", "params": {"schema_id": schema_id}}, client_id
        )
