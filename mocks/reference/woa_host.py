"""The reference WoA host: WoA Appendix B's summarizer agent, served as the draft describes.

GET /.well-known/woa.json (application/woa+json, ETag, Last-Modified, Cache-Control, 304 on a
matching conditional GET), POST /agents/{agent_id}/invoke (strict JSON, a body size limit, the
envelope and input validated, problem details for every error), and the same agent as the MCP
tool "summarizer" at /mcp/ (the official SDK's server, streamable HTTP). Summaries are
deterministic: the first `max_words` words of the text.

`create_app(base)` serves it. A fault changes it through `Changes` (the document it serves, the
class each agent runs as, the function its MCP tool serves); mocks/host.py applies one by name.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import AsyncIterator
from collections.abc import Callable
from contextlib import asynccontextmanager
from datetime import UTC
from datetime import datetime
from email.utils import format_datetime
from email.utils import parsedate_to_datetime
from typing import Any
from typing import Protocol
from typing import TypeVar

from joserfc import jws
from joserfc.jwk import ECKey
from joserfc.jwk import KeySet
from jsonschema import Draft202012Validator
from mcp.server.mcpserver import MCPServer
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.responses import Response
from starlette.routing import Mount
from starlette.routing import Route

from conformance.bindings.jsonparse import NotJson
from conformance.harness import ProblemDetailsOnly
from conformance.harness import TooLarge
from conformance.harness import read_capped
from conformance.harness import read_message
from conformance.oracle.clock import parse_time

from ..minimal import MinimalResponses
from ..minimal import minimal_document
from . import aci_host
from . import aci_master
from . import sdsi_client
from . import sdsi_server
from .aci_agents import AGENTS as ACI_AGENTS
from .aci_agents import AciError
from .aci_agents import SubtaskExecutor
from .aci_master import ContextStore
from .aci_master import Master
from .problems import nonconforming
from .problems import problem
from .problems import refused
from .problems import unknown_operation
from .sdsi_client import SdsiClient
from .sdsi_evolution import CLOCK_HEADER
from .sdsi_evolution import SESSION_HEADER
from .sdsi_server import SdsiServer
from .summarizer import summarize
from .summarizer import summarizer_tool

__all__ = ["MAX_BODY", "create_app", "woa_document"]

MAX_BODY = 1024 * 1024
_LATEST_TEST_CLOCK = parse_time("9000-01-01T00:00:00Z")
T = TypeVar("T")
SDSI_AGENT = "travel-and-photo"
WOA_JSON = "application/woa+json"

SUMMARIZER_INPUTS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "text": {"type": "string", "description": "Input document text in English."},
        "max_words": {
            "type": "integer",
            "minimum": 10,
            "maximum": 500,
            "description": "Maximum number of words in the summary.",
        },
    },
    "required": ["text"],
}
SUMMARIZER_OUTPUTS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {"summary": {"type": "string", "description": "The generated summary."}},
    "required": ["summary"],
}


def woa_document(base: str, test_mode: bool = False, *, minimal: bool = False) -> dict[str, Any]:
    """Appendix B's document, with `base` (e.g. https://127.0.0.1:8443) as the rest transport's
    base; `minimal`: as the minimal conformer lists it (mocks/minimal.py)."""
    if minimal:
        return minimal_document(_document(base, test_mode, minimal=True))
    return _document(base, test_mode)


def _document(base: str, test_mode: bool, *, minimal: bool = False) -> dict[str, Any]:
    return {
        "woa_version": "1",
        "agents": [
            {
                "id": "summarizer",
                "name": "Document Summarizer",
                "description": "Summarizes English text.",
                "version": "1.0.0",
                "capabilities": ["https://example.com/capability/summarization"],
                "inputs": copy.deepcopy(SUMMARIZER_INPUTS),
                "outputs": copy.deepcopy(SUMMARIZER_OUTPUTS),
                "transports": ["rest", "mcp"],
                "operations": [
                    {"name": "default", "description": "Default summarization operation."}
                ],
            },
            sdsi_server.woa_agent(SDSI_AGENT, base, test_mode, minimal=minimal),
            sdsi_client.woa_agent(),
            *aci_host.invoked_entries(base),
            aci_master.master_entry(base),
        ],
        "transports": {
            "rest": {"base": base, "invoke_path": "/agents/{agent_id}/invoke"},
            "mcp": {
                "server": base + "/mcp/",
                "tool_namespace": "summarizer",
                "tool_field": "agent",
            },
        },
    }


def _mcp_server(tool: Callable[..., Any]) -> MCPServer:
    """The summarizer agent as the MCP tool "summarizer" (a fault may serve another function)."""
    server = MCPServer("agent-conformance reference host", log_level="WARNING")
    server.tool(name="summarizer", description="Summarizes English text.")(tool)
    return server


def _served_ids(document: Any) -> set[str]:
    agents = document.get("agents") if isinstance(document, dict) else None
    listed = (
        agents.values() if isinstance(agents, dict) else agents if isinstance(agents, list) else []
    )
    return {a["id"] for a in listed if isinstance(a, dict) and isinstance(a.get("id"), str)} | {
        "summarizer"
    }


class Changes(Protocol):
    """What a fault changes of the reference host (mocks/faults/): the document it serves, the
    class each agent runs as, and the function its MCP tool serves (None: the summarizer)."""

    @property
    def mcp_tool(self) -> Callable[..., Any] | None: ...

    def apply(self, document: dict[str, Any]) -> Any: ...

    def agent_for(self, reference: type[T]) -> type[T]: ...


class _Host:
    """The reference host's state, one handler per route, grouped by draft: WoA (the document and
    invocations), SDSI (the server agent, the assistant, Appendix A's endpoint, the signing key),
    ACI (the master and its context store; the invoked agents mount their own routes)."""

    def __init__(self, base: str, test_mode: bool, minimal: bool, changes: Changes | None) -> None:
        self.base, self.test_mode, self.minimal, self.changes = base, test_mode, minimal, changes
        document = woa_document(base, test_mode, minimal=minimal)
        self.document = changes.apply(document) if changes else document
        self.body = json.dumps(self.document, indent=2).encode()
        self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:16] + '"'
        self.modified = datetime.now(UTC).replace(microsecond=0)
        self.caching = {
            "etag": self.etag,
            "last-modified": format_datetime(self.modified, usegmt=True),
            "cache-control": "max-age=300",
        }
        self.agents = _served_ids(self.document)
        self.summarizer_inputs = Draft202012Validator(SUMMARIZER_INPUTS)
        # ACI
        self.clients = aci_host.Clients()
        self.fetch_context = aci_host.fetcher(base, self.clients)
        self.context_store = self.agent(ContextStore)(base)
        self.master_agent = self.agent(Master)(minimal=minimal)
        self.executor = self.agent(SubtaskExecutor)(minimal=minimal)
        self.master_inputs = Draft202012Validator(
            aci_master.master_entry(base)["inputs"],
            format_checker=Draft202012Validator.FORMAT_CHECKER,
        )
        # SDSI
        self.server = self.agent(SdsiServer)(minimal=minimal)
        self.assistant_agent = self.agent(SdsiClient)()
        # the envelope's input as the document describes it, less execute's payload schemas: the
        # server agent judges payloads by its own templates (which a fault may change)
        self.sdsi_inputs = {
            o["name"]: Draft202012Validator({k: v for k, v in o["inputs"].items() if k != "allOf"})
            for o in sdsi_server.woa_agent(minimal=minimal)["operations"]
        }
        self.assistant_inputs = Draft202012Validator(
            sdsi_client.woa_agent()["inputs"], format_checker=Draft202012Validator.FORMAT_CHECKER
        )
        self.signing_key = ECKey.generate_key(
            "P-256", parameters={"kid": "sdsi-1", "use": "sig", "alg": "ES256"}
        )
        # MCP
        tool = changes.mcp_tool if changes and changes.mcp_tool else summarizer_tool
        self.mcp = _mcp_server(tool)

    def agent(self, reference: type[T]) -> type[T]:
        """The class an agent runs as: the reference's, or a fault's subclass of it."""
        return self.changes.agent_for(reference) if self.changes else reference

    # -- WoA: the document, invocations, errors --

    async def well_known(self, request: Request) -> Response:
        if request.headers.get("if-none-match") in (self.etag, "*"):
            return Response(status_code=304, headers=self.caching)
        since = request.headers.get("if-modified-since")
        if since and "if-none-match" not in request.headers:
            try:
                if parsedate_to_datetime(since) >= self.modified:
                    return Response(status_code=304, headers=self.caching)
            except (TypeError, ValueError):
                pass  # an unreadable date is ignored (RFC 9110 section 13.1.3)
        return Response(self.body, headers={**self.caching, "content-type": WOA_JSON})

    async def invoke(self, request: Request) -> Response:
        agent_id = request.path_params["agent_id"]
        if agent_id not in self.agents:
            return problem(404, "Unknown agent", f"this host has no agent {agent_id!r}")
        envelope = await _envelope(request, agent_id)
        if isinstance(envelope, Response):
            return envelope
        operation, given = envelope.get("operation"), envelope.get("input")
        if operation not in (None, "default") and agent_id not in (
            SDSI_AGENT,
            sdsi_client.CLIENT_AGENT_ID,
            aci_master.MASTER_ID,
            *ACI_AGENTS,
        ):
            return unknown_operation(agent_id, operation)
        if not isinstance(given, dict):
            return problem(
                400, "Invalid envelope", "the envelope's input must be a JSON object (WoA 5.1)"
            )
        if agent_id == SDSI_AGENT:
            return self.sdsi(operation, given, envelope, request)
        if agent_id == sdsi_client.CLIENT_AGENT_ID:
            return await self.assistant(operation, given)
        if agent_id == aci_master.MASTER_ID:
            return await self.master(operation, given)
        if agent_id in ACI_AGENTS:
            return await aci_host.invoke_invoked(
                agent_id, operation, given, self.fetch_context, self.executor
            )
        errors = [e.message for e in self.summarizer_inputs.iter_errors(given)]
        if errors:
            return problem(422, "Input does not conform", "; ".join(errors), errors=errors)
        return JSONResponse({"summary": summarize(given["text"], int(given.get("max_words", 40)))})

    async def not_found(self, request: Request, _: Exception) -> Response:
        return problem(404, "Not found", f"nothing at {request.url.path}")

    async def not_allowed(self, request: Request, _: Exception) -> Response:
        return problem(
            405, "Method not allowed", f"{request.method} is not allowed on {request.url.path}"
        )

    # -- ACI: the master and its context store --

    async def master(self, operation: str | None, given: dict[str, Any]) -> Response:
        no = refused(aci_master.MASTER_ID, operation, "run_task", self.master_inputs, given)
        if no is not None:
            return no
        try:
            return JSONResponse(
                await self.master_agent.run_task(
                    given, self.base, self.context_store, self.clients.get()
                )
            )
        except AciError as error:
            return problem(error.status, error.title, error.detail)

    async def stored_context(self, request: Request) -> Response:
        status, text = self.context_store.get(request.path_params["ident"], request.url.query)
        if status != 200:
            return problem(status, "Context refused", text)
        return Response(
            text, media_type="text/plain; charset=utf-8", headers={"cache-control": "no-store"}
        )

    # -- SDSI: the server agent, the assistant, Appendix A's endpoint, the signing key --

    def sdsi(
        self,
        operation: str | None,
        given: dict[str, Any],
        envelope: dict[str, Any],
        request: Request,
    ) -> Response:
        if operation not in self.sdsi_inputs:
            return unknown_operation(SDSI_AGENT, operation)
        if (
            self.server.validates_payloads()
            and (refusal := nonconforming(self.sdsi_inputs[operation], given)) is not None
        ):
            return refusal
        client_id = (
            envelope["client_id"] if isinstance(envelope.get("client_id"), str) else "anonymous"
        )
        try:
            moment = _moment(request, self.test_mode)
            if operation == "get_schema_template":
                return self.signed(
                    self.server.template(given["scenario"], given.get("preferred_language"))
                )
            if operation == "execute":
                return JSONResponse(
                    self.server.execute(given["schema_id"], given["payload"], client_id, moment)
                )
            return self.signed(
                self.server.updates(
                    given["schema_id"], "authorization" in request.headers, client_id, moment
                )
            )
        except sdsi_server.SdsiError as error:
            return problem(error.status, error.title, error.detail)

    def signed(self, value: Any) -> Response:
        """The answer, with a detached JWS over its exact bytes in JWS-Signature (SDSI 7;
        E-SDSI-7-SIGNED-MESSAGES)."""
        body = json.dumps(value).encode()
        if self.minimal:
            return Response(body, media_type="application/json")
        header, _, signature = jws.serialize_compact(
            {"alg": "ES256", "kid": "sdsi-1"}, body, self.signing_key
        ).split(".")
        return Response(
            body, media_type="application/json", headers={"JWS-Signature": f"{header}..{signature}"}
        )

    async def jwks(self, request: Request) -> Response:
        return JSONResponse(
            KeySet([self.signing_key]).as_dict(private=False), media_type="application/jwk-set+json"
        )

    async def assistant(self, operation: str | None, given: dict[str, Any]) -> Response:
        no = refused(
            sdsi_client.CLIENT_AGENT_ID,
            operation,
            "handle_user_request",
            self.assistant_inputs,
            given,
        )
        if no is not None:
            return no
        try:
            return JSONResponse(
                await self.assistant_agent.handle_user_request(given["utterance"], given["server"])
            )
        except RuntimeError as error:
            return problem(500, "Internal error", str(error))

    async def sdsi_rpc(self, request: Request) -> Response:
        """SDSI as in its Appendix A: method/params requests and bare payload messages to one
        endpoint; answers framed as JSON-RPC 2.0 when the request is."""
        try:
            message = read_message(await read_capped(request, MAX_BODY))
        except TooLarge as error:
            return problem(413, "Request body too large", str(error))
        except NotJson as error:
            return problem(400, "Malformed JSON", f"the request body {error}")
        framed = isinstance(message, dict) and message.get("jsonrpc") == "2.0"
        try:
            result = self._rpc_result(message, "authorization" in request.headers)
        except sdsi_server.SdsiError as error:
            if framed:
                return JSONResponse(
                    {
                        "jsonrpc": "2.0",
                        "id": message.get("id"),
                        "error": {"code": -32602, "message": error.detail},
                    }
                )
            return problem(error.status, error.title, error.detail)
        return JSONResponse(
            {"jsonrpc": "2.0", "id": message.get("id"), "result": result} if framed else result
        )

    def _rpc_result(self, message: Any, authenticated: bool) -> Any:
        if not isinstance(message, dict):
            raise sdsi_server.SdsiError(400, "Invalid request", "the request must be a JSON object")
        params: dict[str, Any] = (
            message["params"] if isinstance(message.get("params"), dict) else {}
        )
        if message.get("method") == "get_schema_template" and isinstance(
            params.get("scenario"), str
        ):
            return self.server.template(params["scenario"], params.get("preferred_language"))
        if message.get("method") == "get_schema_updates":
            return self.server.updates(params.get("schema_id"), authenticated=authenticated)
        if "schema_id" in message and "payload" in message and "method" not in message:
            return self.server.execute(message["schema_id"], message["payload"])
        raise sdsi_server.SdsiError(
            400,
            "Invalid request",
            "expected get_schema_template, get_schema_updates or a payload message",
        )

    # -- the app --

    def app(self) -> Starlette:
        mcp_app = self.mcp.streamable_http_app(streamable_http_path="/")

        @asynccontextmanager
        async def lifespan(_: Starlette) -> AsyncIterator[None]:
            async with self.mcp.session_manager.run():
                yield
            await self.clients.aclose()

        return Starlette(
            routes=[
                Route("/.well-known/woa.json", self.well_known, methods=["GET", "HEAD"]),
                Route("/agents/{agent_id}/invoke", self.invoke, methods=["POST"]),
                Route("/sdsi/rpc", self.sdsi_rpc, methods=["POST"]),
                Route("/sdsi/jwks.json", self.jwks),
                Route("/aci/contexts/{ident}", self.stored_context),
                Mount("/mcp", app=mcp_app),
                *aci_host.invoked_mounts(self.base, self.fetch_context, self.executor),
            ],
            exception_handlers={404: self.not_found, 405: self.not_allowed},
            middleware=[Middleware(ProblemDetailsOnly)],
            lifespan=lifespan,
        )


async def _envelope(request: Request, agent_id: str) -> dict[str, Any] | Response:
    """The invocation envelope of `request` to `agent_id` as WoA 5.1 and 5.2 make it (strict
    JSON, a size limit, the agent and the operation's type checked), or the problem answered."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return problem(
            415, "Unsupported media type", "send the invocation envelope as application/json"
        )
    try:
        raw = await read_capped(request, MAX_BODY)
    except TooLarge:
        return problem(413, "Request body too large", f"the limit is {MAX_BODY} bytes")
    try:
        envelope = read_message(raw)
    except NotJson as error:
        return problem(400, "Malformed JSON", f"the request body {error}")
    if not isinstance(envelope, dict):
        return problem(
            400, "Invalid envelope", "the invocation envelope must be a JSON object (WoA 5.1)"
        )
    named = envelope.get("agent", agent_id)
    if named != agent_id:
        return problem(
            400,
            "Agent mismatch",
            f"the URL names agent {agent_id!r} but the envelope names {named!r} (WoA 5.2)",
        )
    if "operation" in envelope and not isinstance(envelope["operation"], str):
        return problem(
            400, "Invalid envelope", "the envelope's operation must be a string (WoA 5.1)"
        )
    return envelope


def _moment(request: Request, test_mode: bool) -> sdsi_server.Moment:
    """The test session and simulated time a request names, honoured only in test mode."""
    session, clock = request.headers.get(SESSION_HEADER), request.headers.get(CLOCK_HEADER)
    if not test_mode or (session is None and clock is None):
        return sdsi_server.Moment()
    if session is None or clock is None or not 0 < len(session) <= 128:
        raise sdsi_server.SdsiError(
            400,
            "Invalid test headers",
            f"send both {SESSION_HEADER} (1-128 characters) and {CLOCK_HEADER}",
        )
    try:
        moment = parse_time(clock)
    except ValueError as error:
        raise sdsi_server.SdsiError(
            400, "Invalid test clock", f"{CLOCK_HEADER} must be an RFC 3339 date-time: {error}"
        ) from error
    # the lifecycle's deadlines, years ahead, must stay datable
    if not 0 <= moment < _LATEST_TEST_CLOCK:
        raise sdsi_server.SdsiError(
            400, "Invalid test clock", f"{CLOCK_HEADER} must fall between 1970 and 9000"
        )
    return sdsi_server.Moment(moment, session)


def create_app(
    base: str, test_mode: bool = True, *, minimal: bool = False, changes: Changes | None = None
) -> Any:
    """The host, announcing `base` as its REST base URL, as `changes` make it if any. In
    `test_mode` (the default: it is a mock) its SDSI server agent declares and honours a test clock.
    `minimal`: the minimal conformer, what the MUSTs demand and nothing more (mocks/minimal.py); it
    has no test clock."""
    host = _Host(base, test_mode and not minimal, minimal, changes).app()
    return MinimalResponses(host) if minimal else host
