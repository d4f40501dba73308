"""A WoA host whose agents are tools of an MCP server built with the official SDK: typed Python
functions, their schemas emitted by the SDK (a str Enum as a `$ref` to `$defs`), and a WoA document
made from the server's own tool list (WoA 4.3.2, 5.3: transport mcp, tool_field "agent").

    uvicorn examples.mcp_host:app --port 8000
    agent-conformance run --target http://127.0.0.1:8000 --allow-http-loopback --suite woa

(plain HTTP on loopback: without --allow-http-loopback the suite calls none of its agents, and
says so with exit 2)

`create_app(fault=...)` serves it with one named fault of FAULTS; the project's tests certify
it clean and catch the fault on its requirement alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from enum import Enum
from typing import Annotated
from typing import Any

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel
from pydantic import Field
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.routing import Route

__all__ = ["FAULTS", "app", "create_app"]

#: Named faults: each breaks exactly one requirement.
FAULTS = {
    # the tool's result is not what the document's outputs say
    "conversion-wrong-output": "WOA-5.3-MCP-TOOL-INVOCATION",
    # nor, when it is asked for a quote on a given exchange, the other tool's
    "quote-on-an-exchange-wrong-output": "WOA-5.3-MCP-TOOL-INVOCATION",
}
NAMESPACE = "finance"


class Currency(str, Enum):  # noqa: UP042 (written as SDK users write it)
    euro = "EUR"
    dollar = "USD"
    yen = "JPY"


class Conversion(BaseModel):
    amount: float
    currency: Currency


class Quote(BaseModel):
    symbol: str
    price: Annotated[float, Field(gt=0)]


RATES = {"EUR": 1.0, "USD": 1.08, "JPY": 162.0}


def _server(fault: str | None) -> MCPServer:
    server = MCPServer("finance agents", log_level="WARNING")

    @server.tool(name="convert", description="Converts an amount from one currency to another.")
    def convert(
        amount: Annotated[float, Field(ge=0, le=1e9)], source: Currency, target: Currency
    ) -> Conversion:
        converted = round(amount / RATES[source.value] * RATES[target.value], 2)
        return Conversion(amount=converted, currency=target)

    @server.tool(name="quote", description="The last price of a listed symbol.")
    def quote(
        symbol: Annotated[str, Field(pattern=r"^[A-Z]{1,5}$")],
        exchange: Annotated[str | None, Field(pattern=r"^[A-Z]{2,4}$")] = None,
    ) -> Quote:
        return Quote(symbol=symbol, price=101.25)

    # the document promises one shape, the tool answers another
    if fault == "conversion-wrong-output":
        server.remove_tool("convert")

        @server.tool(name="convert", description="Converts an amount from one currency to another.")
        def convert_text(
            amount: Annotated[float, Field(ge=0, le=1e9)], source: Currency, target: Currency
        ) -> str:
            return f"{amount} {source.value} in {target.value}"

    # right with the required argument alone, wrong with the optional one
    if fault == "quote-on-an-exchange-wrong-output":
        server.remove_tool("quote")

        @server.tool(name="quote", description="The last price of a listed symbol.")
        def quote_anywhere(
            symbol: Annotated[str, Field(pattern=r"^[A-Z]{1,5}$")],
            exchange: Annotated[str | None, Field(pattern=r"^[A-Z]{2,4}$")] = None,
        ) -> dict[str, Any]:
            return {"symbol": symbol, "price": 101.25 if exchange is None else "101.25 USD"}

    return server


def create_app(base: str | None = None, fault: str | None = None) -> Starlette:
    """The host, with one named fault of FAULTS if any. Its document announces `base` or, by
    default, the origin each request reached (behind a proxy, give the public one)."""
    server = _server(fault)
    honest = _server(None)  # the document describes the tools as they should be
    listed: list[list[dict[str, Any]]] = []

    async def document(origin: str) -> bytes:
        if not listed:
            tools = await honest.list_tools()
            listed.append(
                [
                    {
                        "id": tool.name,
                        "name": tool.name.title(),
                        "description": tool.description or tool.name,
                        "inputs": tool.input_schema,
                        "outputs": tool.output_schema or {"type": "object"},
                        "transports": ["mcp"],
                    }
                    for tool in tools
                ]
            )
        mcp = {"server": origin + "/mcp/", "tool_namespace": NAMESPACE, "tool_field": "agent"}
        return json.dumps(
            {
                "woa_version": "1",
                "host": {"name": "Finance agents", "contact": "mailto:agents@example.com"},
                "transports": {"mcp": mcp},
                "agents": listed[0],
            }
        ).encode()

    async def woa(request: Request) -> Response:
        body = await document(base or str(request.base_url).rstrip("/"))
        headers = {
            "cache-control": "max-age=300",
            "etag": '"' + hashlib.sha256(body).hexdigest()[:16] + '"',
        }
        if request.headers.get("if-none-match") == headers["etag"]:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/woa+json", headers=headers)

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with server.session_manager.run():
            yield

    mcp_app: Any = server.streamable_http_app(streamable_http_path="/")
    return Starlette(
        routes=[Route("/.well-known/woa.json", woa), Mount("/mcp", app=mcp_app)], lifespan=lifespan
    )


app = create_app()
