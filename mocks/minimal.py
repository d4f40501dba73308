"""The minimal conformer: the reference host doing what the MUSTs of the three drafts demand and
nothing more (issue 22). It proves the other half of what the mutants prove: a check that fails
it asserts more than its sentence.

    create_app(base, minimal=True)       (mocks/reference/woa_host.py)
    agent-conformance mock server --minimal
    agent-conformance run --mock --minimal --suite all        exits 0

Every choice below is one the drafts leave open, taken the least expected way: no SHOULD honoured,
every MAY declined, every OPTIONAL member left out, every free choice (status code within its
class, member order) made unlike the reference. `DECLINED` names each SHOULD and MAY
with what the conformer does instead, `FREE_CHOICES` the rest; a run against the minimal
conformer may fail requirements of `DECLINED` (all below MUST) and nothing else, which
tests/mocks/test_minimal.py holds.

Most choices are made here, on the way out of the reference agents (`MinimalResponses`, an ASGI
wrapper, and `minimal_document`); the rest are the agents' own (`minimal=True` in sdsi_server,
aci_agents and aci_master): an SDSI server without Section 6, AgentContexts with only the members
Figure 4 and Section 5.3 name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from conformance.harness import HttpMiddleware

__all__ = ["DECLINED", "FREE_CHOICES", "Declined", "MinimalResponses", "minimal_document"]


@dataclass(frozen=True)
class Declined:
    requirement: str  # a catalogue ID, below MUST
    what: str


#: The SHOULDs the minimal conformer does not honour and the MAYs it declines: a run against it may
#: fail these (never a MUST) and nothing else.
DECLINED = (
    Declined("WOA-7-CACHING-HEADERS", "no ETag, Last-Modified or Cache-Control on any response"),
    Declined(
        "WOA-7-CONDITIONAL-GET", "conditional requests are answered in full with 200, never 304"
    ),
    Declined(
        "WOA-9.2-MEDIA-TYPE", "the document is served as application/json, not application/woa+json"
    ),
    Declined(
        "WOA-4.3.1-ERRORS-PROBLEM-JSON",
        'errors are application/json {"error": "..."}, not problem details',
    ),
    Declined("WOA-5.2-ERROR-PROBLEM-DETAILS", "the same, for invocation errors"),
    Declined(
        "WOA-5.2-AGENT-MISMATCH-PROBLEM",
        "the same, for the 400 to an envelope naming another agent",
    ),
    Declined("WOA-8.1-TLS-1.3", "TLS 1.2 at most"),
    Declined("WOA-7-CLIENT-HONORS-CACHING", "the client fetches the document afresh every time"),
    Declined(
        "WOA-4.2-CLIENT-MAY-VALIDATE-REQUEST", "the client validates no input against the schema"
    ),
    Declined(
        "WOA-4.2-CLIENT-MAY-VALIDATE-RESPONSE", "the client validates no output against the schema"
    ),
    Declined("WOA-4.3-ADDITIONAL-TRANSPORTS-MAY", "rest only: no mcp transport"),
    Declined(
        "SDSI-6-ENHANCEMENTS-OPTIONAL",
        "no Section 6: no Differential Semantic Pool, no patches, no test clock",
    ),
    Declined(
        "SDSI-2-SCHEMA-UPDATE-OPTIONAL",
        "no get_schema_updates operation and no schema_update_suggestion",
    ),
    Declined("SDSI-3.2-RESULT-STRUCTURED", "an execution result is a line of text, not an object"),
    Declined("SDSI-4.1-KEY-NAME-SNAKE-CASE", "the photo template's filterStyle is in camelCase"),
    Declined("SDSI-4.3-OTHER-DEFINED", 'the photo template has no "other" key'),
    Declined("SDSI-4.1-DEFAULT-VALUE-OPTIONAL", "no key has a default_value"),
    Declined(
        "SDSI-4.1-DESCRIPTION-LANGUAGE",
        "preferred_language is ignored: descriptions are in English (not remotely testable, so"
        " never failed)",
    ),
    Declined(
        "ACI-2.1-ASYNCHRONOUS-MAY",
        "the master dispatches subtasks one at a time, independent ones too",
    ),
    Declined(
        "ACI-5.2-LAST-UPDATED-TIMESTAMP", "no LastUpdated and no Optional array in any AgentContext"
    ),
    Declined("ACI-5.1-TIMES-OPTIONAL", "no StartTime, EndTime or Optional in the TaskContext"),
)

#: Choices the drafts leave free, made unlike the reference: they break no requirement at any level.
FREE_CHOICES = (
    "a successful invocation is answered 203, another status of the 2xx class (WoA 5.2)",
    "every JSON object's members in the reverse of the reference's order (RFC 8259 section 4)",
    (
        "no version member and no operations where an agent has only its default (both OPTIONAL in"
        " WoA 4.1)"
    ),
    "the master never offloads a context to a ContextURI (ACI 4.1 allows it, never requires it)",
    "the master delivers what Section 5.3 names: no ItemstateUpdates or KeyInformation of its own",
    (
        "no agent lists capabilities, OPTIONAL in WoA 4.1 (the suite finds SDSI and ACI agents by"
        " their operations)"
    ),
)

#: Headers a minimal host never sends (WoA 7's caching headers; SDSI 7's signature is a reading of
#: ours).
_DROPPED = {b"etag", b"last-modified", b"cache-control", b"jws-signature"}
#: Headers of a request a minimal host does not look at (it answers every GET in full).
_IGNORED = {b"if-none-match", b"if-modified-since"}
_JSON = (b"application/json", b"application/problem+json", b"application/woa+json")


def reversed_members(value: Any) -> Any:
    """`value` with every object's members in reverse order (JSON objects are unordered: RFC 8259
    section 4)."""
    if isinstance(value, dict):
        return {k: reversed_members(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_members(v) for v in value]
    return value


def _plain_error(problem: Any) -> Any:
    if not isinstance(problem, dict):
        return problem
    return {
        "error": ": ".join(str(problem[k]) for k in ("title", "detail") if k in problem) or "error"
    }


class MinimalResponses(HttpMiddleware):
    """ASGI: the reference agents' answers as a minimal host gives them (see `DECLINED`). JSON
    bodies are read whole and rewritten; anything else passes untouched."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope = {
            **scope,
            "headers": [(k, v) for k, v in scope["headers"] if k.lower() not in _IGNORED],
        }
        invocation = scope["method"] == "POST" and scope["path"].startswith("/agents/")
        start: Message | None = None
        chunks: list[bytes] = []

        async def rewritten(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() not in _DROPPED
                ]
                if _media(headers) in _JSON:
                    start = {**message, "headers": headers}
                else:
                    await send({**message, "headers": headers})
                return
            if start is None:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = _body(_media(start["headers"]), b"".join(chunks))
            status = 203 if invocation and start["status"] == 200 else start["status"]
            headers = [
                (k, v)
                for k, v in start["headers"]
                if k.lower() not in (b"content-length", b"content-type")
            ]
            headers += [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ]
            await send({**start, "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, rewritten)


def _media(headers: list[tuple[bytes, bytes]]) -> bytes:
    return next(
        (v.split(b";")[0].strip().lower() for k, v in headers if k.lower() == b"content-type"), b""
    )


def _body(media: bytes, body: bytes) -> bytes:
    try:
        value = json.loads(body)
    except ValueError:
        return body
    return json.dumps(
        reversed_members(_plain_error(value) if media == b"application/problem+json" else value)
    ).encode()


def minimal_document(document: dict[str, Any]) -> dict[str, Any]:
    """The reference document as a minimal host lists it: rest only, the REQUIRED members only
    (WoA 4.1: id, name, description, inputs, outputs, transports; operations only where an agent
    has more than one, or one that is not its default), no extension members."""
    agents = []
    for agent in document["agents"]:
        kept = {
            k: agent[k] for k in ("id", "name", "description", "inputs", "outputs") if k in agent
        }
        kept["transports"] = ["rest"]
        if (
            "x-a2a" in agent
            # the suite's way of finding an ACI agent's A2A binding, kept so that binding is
            # certified too
        ):
            kept["x-a2a"] = agent["x-a2a"]
        operations = agent.get("operations") or []
        if operations and [o.get("name") for o in operations] != ["default"]:
            kept["operations"] = [
                {k: o[k] for k in ("name", "description", "inputs", "outputs") if k in o}
                for o in operations
            ]
        agents.append(kept)
    rest = document["transports"]["rest"]
    return {
        "woa_version": document["woa_version"],
        "agents": agents,
        "transports": {"rest": {"base": rest["base"], "invoke_path": rest["invoke_path"]}},
    }
