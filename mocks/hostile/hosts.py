"""Behaviours that speak HTTP: a small WoA host (the reference summarizer's document, served
plainly) of which each behaviour changes one thing: the document's bytes or content, where it
redirects, or how invocations are answered."""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
from collections.abc import Awaitable
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.responses import Response
from starlette.routing import Route

from conformance.harness import problem
from conformance.validation.target_schemas import Unjudgeable
from conformance.validation.target_schemas import target_validator
from mocks.reference.woa_host import woa_document

__all__ = ["Build", "document", "host"]

WOA_JSON = "application/woa+json"
Build = Callable[[str], Starlette]
Endpoint = Callable[[Request], Awaitable[Response]]


def document(base: str, agents: int = 1) -> dict[str, Any]:
    """Appendix B's summarizer alone (over rest), `agents` times under distinct ids."""
    reference = woa_document(base)
    summarizer = reference["agents"][0]
    summarizer["transports"] = ["rest"]
    listed = [
        dict(copy.deepcopy(summarizer), id=f"summarizer-{n}" if n else "summarizer")
        for n in range(agents)
    ]
    return {
        "woa_version": "1",
        "agents": listed,
        "transports": {"rest": reference["transports"]["rest"]},
    }


def many_agents(base: str, agents: int) -> bytes:
    """The summarizer and `agents` - 1 minimal agents, compact JSON (80,000: about 9 MB, under
    the suite's 10 MiB cap)."""
    made = document(base)
    made["agents"] += [
        {
            "id": f"a{n}",
            "name": "n",
            "description": "d",
            "inputs": {"type": "object"},
            "outputs": {"type": "object"},
            "transports": ["rest"],
        }
        for n in range(1, agents)
    ]
    return json.dumps(made, separators=(",", ":")).encode()


async def _summarize(
    request: Request,
    agents: dict[str, Any],
    summary: str = "A summary.",
    extra: dict[str, Any] | None = None,
) -> Response:
    """Invoke an agent as a careful host would: the envelope and its input checked, problem
    details for no."""
    agent = agents.get(request.path_params["agent_id"])
    if agent is None:
        return problem(404, "Unknown agent")
    try:
        envelope = json.loads(await request.body())
    except ValueError:
        return problem(400, "Malformed JSON")
    if not isinstance(envelope, dict) or not isinstance(envelope.get("input"), dict):
        return problem(400, "Invalid envelope")
    if envelope.get("agent", agent["id"]) != agent["id"]:
        return problem(400, "Agent mismatch")
    try:
        errors = [
            e.message
            for e in target_validator(agent.get("inputs", {})).iter_errors(envelope["input"])
        ]
    except Unjudgeable as error:
        errors = [str(error)]
    if errors:
        return problem(422, "Input does not conform", "; ".join(errors)[:500])
    return JSONResponse({"summary": summary, **(extra or {})})


def host(
    make: Callable[[str], Any] = document,
    *,
    well_known: Endpoint | None = None,
    invoke: Endpoint | None = None,
    media_type: str = WOA_JSON,
    routes: list[Route] | None = None,
) -> Build:
    """A WoA host serving `make(base)` (or `well_known`) and answering invocations (or `invoke`)."""

    def build(base: str) -> Starlette:
        made = make(base)
        body = made if isinstance(made, bytes) else json.dumps(made).encode()
        if isinstance(made, bytes):
            try:
                made = json.loads(made)
            except ValueError:
                made = None
        listed = made.get("agents") if isinstance(made, dict) else None
        agents = (
            {a["id"]: a for a in listed if isinstance(a, dict) and isinstance(a.get("id"), str)}
            if isinstance(listed, list)
            else {}
        )

        async def served(request: Request) -> Response:
            return Response(
                body, media_type=media_type, headers={"cache-control": "max-age=60", "etag": '"1"'}
            )

        async def invoked(request: Request) -> Response:
            return await _summarize(request, agents)

        return Starlette(
            routes=[
                *(routes or []),
                Route("/.well-known/woa.json", well_known or served),
                Route("/agents/{agent_id}/invoke", invoke or invoked, methods=["POST"]),
            ]
        )

    return build


def redirecting(to: Callable[[str], str]) -> Build:
    """A host whose document redirects (302) to `to(base)`."""

    async def moved(request: Request) -> Response:
        return Response(
            status_code=302, headers={"location": to(str(request.base_url).rstrip("/"))}
        )

    return host(well_known=moved)


def answering(status: int, body: bytes, media_type: str) -> Build:
    """A host whose document request is answered `status` with `body`."""

    async def answer(request: Request) -> Response:
        return Response(body, status_code=status, media_type=media_type)

    return host(well_known=answer)


def with_inputs(change: Callable[[dict[str, Any]], None]) -> Build:
    """The summarizer host with its inputs schema changed by `change`."""

    def make(base: str) -> dict[str, Any]:
        made = document(base)
        change(made["agents"][0]["inputs"])
        return made

    return host(make)


def with_outputs(
    change: Callable[[dict[str, Any]], None],
    summary: str = "A summary.",
    extra: dict[str, Any] | None = None,
    inputs: Callable[[dict[str, Any]], None] | None = None,
) -> Build:
    """The summarizer host with its outputs schema changed by `change` (and its inputs by
    `inputs`), answering `summary` and the `extra` members."""

    def build(base: str) -> Starlette:
        made = document(base)
        change(made["agents"][0]["outputs"])
        if inputs is not None:
            inputs(made["agents"][0]["inputs"])
        agents = {a["id"]: a for a in made["agents"]}

        async def answer(request: Request) -> Response:
            return await _summarize(request, agents, summary, extra)

        return host(lambda _: made, invoke=answer)(base)

    return build


def changing() -> Build:
    """Every fetch of the document a different document: other agents, another ETag."""
    counter = itertools.count()

    def build(base: str) -> Starlette:
        async def served(request: Request) -> Response:
            n = next(counter)
            made = document(base)
            made["agents"][0]["id"] = f"summarizer-{n}"
            made["agents"][0]["version"] = f"1.0.{n}"
            return Response(
                json.dumps(made),
                media_type=WOA_JSON,
                headers={"etag": f'"{n}"', "cache-control": "max-age=60"},
            )

        return host(well_known=served)(base)

    return build


def slow_invocations(seconds: float, agents: int) -> Build:
    """`agents` agents, each invocation answered correctly after `seconds`."""

    def build(base: str) -> Starlette:
        made = document(base, agents)
        known = {a["id"]: a for a in made["agents"]}

        async def slow(request: Request) -> Response:
            await asyncio.sleep(seconds)
            return await _summarize(request, known)

        return host(lambda _: made, invoke=slow)(base)

    return build


def invocations_answered(
    status: int,
    body: bytes,
    media_type: str,
    headers: dict[str, str] | None = None,
    delay: float = 0.0,
) -> Build:
    """Every invocation answered `status` with `body` (after `delay` seconds)."""

    async def answer(request: Request) -> Response:
        await asyncio.sleep(delay)
        return Response(body, status_code=status, media_type=media_type, headers=headers)

    return host(invoke=answer)
