"""A spy SDSI server: a WoA host with one SDSI agent serving the drafts' templates (SDSI Figures 2
and 10), answering payloads like Figure 9, and recording every envelope it receives, in order.

Its execute operation takes any payload object, so that what a client sends reaches the record
whatever its defects; the checks judge the record.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.responses import Response
from starlette.routing import Route

from ..bindings.jsonparse import NotJson
from ..bindings.sdsi import CAPABILITY
from ..vectors.figures import sdsi_figure
from . import ProblemDetailsOnly
from . import TooLarge
from . import problem
from . import read_capped
from . import read_message

__all__ = ["Recorded", "Spy", "spy_app"]

SPY_AGENT = "spy-server"


@dataclass(frozen=True)
class Recorded:
    operation: Any
    input: Any


@dataclass
class Spy:
    records: list[Recorded] = field(default_factory=list)

    @property
    def templates(self) -> dict[str, dict[str, Any]]:
        return {t["scenario"]: t for t in (sdsi_figure(2), sdsi_figure(10))}

    def since(self, start: int) -> list[Recorded]:
        return self.records[start:]


def spy_app(base: str, spy: Spy) -> Starlette:
    templates = spy.templates
    document = {
        "woa_version": "1",
        "transports": {"rest": {"base": base, "invoke_path": "/agents/{agent_id}/invoke"}},
        "agents": [
            {
                "id": SPY_AGENT,
                "name": "Spy server agent",
                "description": "Serves the SDSI drafts' templates and records what it receives.",
                "capabilities": [CAPABILITY],
                "transports": ["rest"],
                "inputs": {"type": "object"},
                "outputs": {"type": "object"},
                "operations": [
                    {
                        "name": "get_schema_template",
                        "description": "A template.",
                        "inputs": {
                            "type": "object",
                            "required": ["scenario"],
                            "properties": {
                                "scenario": {"type": "string", "enum": list(templates)},
                                "preferred_language": {"type": "string"},
                            },
                        },
                        "outputs": {"type": "object"},
                    },
                    {
                        "name": "execute",
                        "description": "Execute a payload.",
                        "inputs": {"type": "object"},
                        "outputs": {"type": "object"},
                    },
                ],
            }
        ],
    }

    async def well_known(request: Request) -> Response:
        return JSONResponse(document, media_type="application/woa+json")

    async def invoke(request: Request) -> Response:
        try:
            envelope = read_message(await read_capped(request))
        except TooLarge as error:
            return problem(413, "Too large", str(error))
        except NotJson as error:
            return problem(400, "Malformed JSON", str(error))
        envelope = envelope if isinstance(envelope, dict) else {}
        spy.records.append(Recorded(envelope.get("operation"), envelope.get("input")))
        given: dict[str, Any] = envelope["input"] if isinstance(envelope.get("input"), dict) else {}
        if (
            envelope.get("operation") == "get_schema_template"
            and given.get("scenario") in templates
        ):
            return JSONResponse(templates[given["scenario"]])
        if envelope.get("operation") == "execute":
            return JSONResponse({"status": "confirmed", "booking_id": "BK-SPY-001"})
        return problem(400, "Unknown request")

    return Starlette(
        routes=[
            Route("/.well-known/woa.json", well_known),
            Route("/agents/{agent_id}/invoke", invoke, methods=["POST"]),
        ],
        middleware=[Middleware(ProblemDetailsOnly)],
    )
