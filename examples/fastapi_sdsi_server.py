"""An SDSI server agent written the ordinary FastAPI way: pydantic models for its three operations,
the scenario a `Literal` (pydantic emits `const` or `enum`), the schemas published as pydantic
emits them, one WoA invocation route. The SDSI behaviour itself (templates, payload validation, the
`other` key, patches) is the reference server's (mocks/reference/sdsi_server.py), so this file shows
only what a user writes around it.

    uvicorn examples.fastapi_sdsi_server:app --port 8000
    agent-conformance run --target http://127.0.0.1:8000 --allow-http-loopback --suite sdsi

`create_app(fault=...)` serves it with one named fault of FAULTS, each breaking one rule.
"""

from __future__ import annotations

from typing import Any
from typing import Literal

from fastapi import FastAPI
from fastapi import Request
from fastapi.responses import JSONResponse
from fastapi.responses import Response
from pydantic import BaseModel
from pydantic import Field
from pydantic import ValidationError

from mocks.faults.sdsi import LimitsOther
from mocks.reference.sdsi_server import CAPABILITY
from mocks.reference.sdsi_server import SdsiError
from mocks.reference.sdsi_server import SdsiServer

__all__ = ["FAULTS", "app", "create_app"]

PROBLEM = "application/problem+json"
#: Named faults: each breaks exactly one requirement of SDSI.
FAULTS = {
    # execute runs whatever payload arrives
    "payload-not-validated": "SDSI-3.1-SERVER-VALIDATES-PAYLOAD",
    # a long value under the reserved "other" key is refused
    "other-not-accepted": "SDSI-4.3-OTHER-ACCEPTED",
}


class TemplateRequest(BaseModel):
    scenario: Literal["flight_booking", "photo_retouch"]
    preferred_language: str | None = Field(default=None, max_length=35)


class ExecuteRequest(BaseModel):
    schema_id: str
    payload: dict[str, Any]


class UpdatesRequest(BaseModel):
    schema_id: str


class Template(BaseModel):
    schema_id: str
    scenario: str
    keys: list[dict[str, Any]]


class Patches(BaseModel):
    patches: list[dict[str, Any]]


OPERATIONS: dict[str, tuple[type[BaseModel], type[BaseModel] | None, str]] = {
    "get_schema_template": (
        TemplateRequest,
        Template,
        "The schema template of a scenario (SDSI 4.1).",
    ),
    "execute": (ExecuteRequest, None, "Execute a structured payload (SDSI 3.2)."),
    "get_schema_updates": (UpdatesRequest, Patches, "The active schema patches (SDSI 6.2.2)."),
}
AGENT_ID = "travel"


def _problem(status: int, title: str, detail: str) -> JSONResponse:
    return JSONResponse(
        {"type": "about:blank", "title": title, "status": status, "detail": detail},
        status_code=status,
        media_type=PROBLEM,
    )


def create_app(base: str | None = None, fault: str | None = None) -> FastAPI:
    """The server agent behind a WoA host, with one named fault of FAULTS if any. Its document
    announces `base` or, by default, the origin each request reached (behind a proxy, give the
    public one)."""
    application = FastAPI(title="Travel and photo agent")
    server = LimitsOther() if fault == "other-not-accepted" else SdsiServer()
    operations = [
        {
            "name": name,
            "description": description,
            "inputs": inputs.model_json_schema(),
            "outputs": outputs.model_json_schema() if outputs else {"type": "object"},
        }
        for name, (inputs, outputs, description) in OPERATIONS.items()
    ]
    document = {
        "woa_version": "1",
        "host": {"name": "Travel agents", "contact": "mailto:agents@example.com"},
        "agents": [
            {
                "id": AGENT_ID,
                "name": "Travel and photo",
                "description": "Books flights and retouches photos (SDSI).",
                "capabilities": [CAPABILITY],
                "transports": ["rest"],
                "inputs": operations[0]["inputs"],
                "outputs": operations[0]["outputs"],
                "operations": operations,
            }
        ],
    }

    @application.get("/.well-known/woa.json")
    async def woa_document(request: Request) -> Response:
        origin = base or str(request.base_url).rstrip("/")
        rest = {"rest": {"base": origin, "invoke_path": "/agents/{agent_id}/invoke"}}
        return JSONResponse(
            {**document, "transports": rest},
            media_type="application/woa+json",
            headers={"cache-control": "max-age=300"},
        )

    @application.post("/agents/{agent_id}/invoke")
    async def invoke(agent_id: str, request: Request) -> Response:
        if agent_id != AGENT_ID:
            return _problem(404, "Unknown agent", f"no agent {agent_id!r}")
        try:
            envelope = await request.json()
        except ValueError:
            return _problem(400, "Invalid envelope", "the body is not JSON")
        if not isinstance(envelope, dict) or envelope.get("agent", agent_id) != agent_id:
            return _problem(
                400, "Agent mismatch", "the envelope names another agent than the URL (WoA 5.2)"
            )
        operation = envelope.get("operation")
        if operation not in OPERATIONS:
            return _problem(
                400, "Unknown operation", f"{agent_id!r} has no operation {operation!r}"
            )
        try:
            given = OPERATIONS[operation][0].model_validate(envelope.get("input"))
        except ValidationError as error:
            return _problem(422, "Input does not conform", str(error.errors(include_url=False)[:3]))
        client_id = (
            envelope["client_id"] if isinstance(envelope.get("client_id"), str) else "anonymous"
        )
        try:
            if isinstance(given, TemplateRequest):
                return JSONResponse(server.template(given.scenario, given.preferred_language))
            if isinstance(given, ExecuteRequest):
                if fault == "payload-not-validated":
                    return JSONResponse({"status": "accepted", "schema_id": given.schema_id})
                return JSONResponse(server.execute(given.schema_id, given.payload, client_id))
            assert isinstance(given, UpdatesRequest)
            return JSONResponse(
                server.updates(given.schema_id, "authorization" in request.headers, client_id)
            )
        except SdsiError as error:
            return _problem(error.status, error.title, error.detail)

    return application


app = create_app()
