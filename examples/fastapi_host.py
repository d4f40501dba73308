"""A WoA host built the way FastAPI users build one: pydantic models for every input and output,
their JSON Schemas published as pydantic emits them ($defs and $ref for an Enum), one route for the
document and one for invocations.

    uvicorn examples.fastapi_host:app --port 8000
    agent-conformance run --target http://127.0.0.1:8000 --allow-http-loopback --suite woa
    pytest --agent-app examples.fastapi_host:app --agent-suite woa   # in-process, no socket

Two agents: `weather` (inline Literal units) and `translate`, whose required `target_language` is a
str Enum, so its inputs schema holds `{"$ref": "#/$defs/Language"}`. `create_app(fault=...)`
serves the same host with one named fault (FAULTS), each breaking one rule of the draft; the
project's tests certify the host clean and catch every fault.
"""

from __future__ import annotations

import hashlib
import json
from enum import Enum
from typing import Any
from typing import Literal

from fastapi import FastAPI
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.responses import Response
from pydantic import BaseModel
from pydantic import Field
from pydantic import ValidationError

__all__ = ["FAULTS", "app", "create_app"]

PROBLEM = "application/problem+json"
#: Named faults: each breaks exactly one requirement of WoA, and is named after what it does.
FAULTS = {
    # translate serves an envelope naming another agent
    "translate-ignores-mismatch": "WOA-5.2-AGENT-MISMATCH-400",
    # weather answers its temperature as text
    "weather-wrong-output": "WOA-5.2-SUCCESS-CONFORMS-OUTPUTS",
    # invalid inputs answered with FastAPI's own 422 JSON
    "plain-json-errors": "WOA-5.2-ERROR-PROBLEM-DETAILS",
}


class Language(str, Enum):  # noqa: UP042 (written as pydantic users write it)
    english = "en"
    french = "fr"
    german = "de"


class WeatherRequest(BaseModel):
    city: str = Field(min_length=1, max_length=80, description="City name")
    units: Literal["metric", "imperial"] = "metric"


class WeatherReport(BaseModel):
    city: str
    temperature: float
    units: Literal["metric", "imperial"]


class TranslateRequest(BaseModel):
    text: str = Field(min_length=1, max_length=2000)
    target_language: Language


class Translation(BaseModel):
    text: str
    language: Language


# WoA 5.1; agent may be left out where the URL names it (5.2), null is not a string
class Envelope(BaseModel):
    agent: str = Field(default=None, validate_default=False)  # type: ignore[assignment]
    operation: str = "default"
    input: dict[str, Any]


AGENTS: dict[str, tuple[type[BaseModel], type[BaseModel], str]] = {
    "weather": (WeatherRequest, WeatherReport, "Current weather for a city"),
    "translate": (TranslateRequest, Translation, "Translates a text into another language"),
}


def _problem(status: int, title: str, detail: str) -> JSONResponse:
    return JSONResponse(
        {"type": "about:blank", "title": title, "status": status, "detail": detail},
        status_code=status,
        media_type=PROBLEM,
    )


def _answer(agent_id: str, given: BaseModel, fault: str | None) -> dict[str, Any]:
    if isinstance(given, WeatherRequest):
        report = WeatherReport(city=given.city, temperature=21.5, units=given.units).model_dump(
            mode="json"
        )
        return (
            {**report, "temperature": f"{report['temperature']} C"}
            if fault == "weather-wrong-output"
            else report
        )
    assert isinstance(given, TranslateRequest)
    return Translation(
        text=f"[{given.target_language.value}] {given.text}", language=given.target_language
    ).model_dump(mode="json")


def create_app(base: str | None = None, fault: str | None = None) -> FastAPI:
    """The host, with one named fault of FAULTS if any. Its document announces `base` or, by
    default, the origin each request reached (behind a proxy, give the public one)."""
    application = FastAPI(title="Weather and translation agents")
    agents = [
        {
            "id": agent_id,
            "name": agent_id.title(),
            "description": description,
            "transports": ["rest"],
            "inputs": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                **inputs.model_json_schema(),
            },
            "outputs": {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                **outputs.model_json_schema(),
            },
        }
        for agent_id, (inputs, outputs, description) in AGENTS.items()
    ]

    def document(origin: str) -> bytes:
        return json.dumps(
            {
                "woa_version": "1",
                "host": {"name": "Example agents", "contact": "mailto:agents@example.com"},
                "transports": {
                    "rest": {"base": origin, "invoke_path": "/agents/{agent_id}/invoke"}
                },
                "agents": agents,
            }
        ).encode()

    @application.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> Response:
        return _problem(400, "Invalid request", str(error.errors()[:3]))

    @application.get("/.well-known/woa.json")
    async def woa_document(request: Request) -> Response:
        body = document(base or str(request.base_url).rstrip("/"))
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        headers = {"etag": etag, "cache-control": "max-age=300"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/woa+json", headers=headers)

    @application.post("/agents/{agent_id}/invoke")
    async def invoke(agent_id: str, request: Request) -> Response:
        if agent_id not in AGENTS:
            return _problem(404, "Unknown agent", f"no agent {agent_id!r}")
        try:
            envelope = Envelope.model_validate_json(await request.body())
        except ValidationError as error:
            return _problem(400, "Invalid envelope", str(error.errors()[:3]))
        if envelope.agent not in (None, agent_id) and not (
            fault == "translate-ignores-mismatch" and agent_id == "translate"
        ):
            return _problem(
                400,
                "Agent mismatch",
                f"the URL names {agent_id!r}, the envelope {envelope.agent!r} (WoA 5.2)",
            )
        if envelope.operation != "default":
            return _problem(
                400, "Unknown operation", f"{agent_id!r} has no operation {envelope.operation!r}"
            )
        inputs = AGENTS[agent_id][0]
        try:
            given = inputs.model_validate(envelope.input)
        except ValidationError as error:
            if fault == "plain-json-errors":
                return JSONResponse(
                    {"detail": error.errors(include_url=False, include_context=False)},
                    status_code=422,
                )
            return _problem(
                422,
                "Input does not conform",
                str(error.errors(include_url=False, include_context=False)[:3]),
            )
        return JSONResponse(_answer(agent_id, given, fault))

    return application


app = create_app()
