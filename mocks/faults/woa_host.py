"""The WoA host's faults of what it serves over HTTP, each a named wrapper around the reference
host: an ASGI middleware that breaks one rule, by changing one request on its way in or one answer
on its way out. The reference host itself reads as the draft; each class here is one rule broken.

    host = create_app(base)                        # the reference
    broken = MediaTypeNotWoaJson(host)             # WOA-9.2-MEDIA-TYPE broken, nothing else

A wrapper sees the whole request and the whole answer of the routes it names (the document, the
invocations), never the MCP server's event streams.
"""

from __future__ import annotations

import json
from typing import Annotated
from typing import Any
from typing import ClassVar

from pydantic import BaseModel
from pydantic import Field
from starlette.types import ASGIApp
from starlette.types import Message
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from conformance.bindings.jsonparse import NotJson
from conformance.bindings.jsonparse import parse_json
from conformance.harness import PROBLEM_JSON

from ..reference.summarizer import summarize

__all__ = ["HTTP_FAULTS", "HttpFault", "summary_as_abstract_tool"]

WELL_KNOWN = "/.well-known/woa.json"
SUMMARIZER = "summarizer"
#: The largest request body a wrapper reads: the reference host's (woa_host.MAX_BODY).
LIMIT = 1024 * 1024


class Answer:
    """An answer as a wrapper may change it: status, headers (lower-case names), body."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    @classmethod
    def json(cls, status: int, value: Any, media_type: str = "application/json") -> Answer:
        return cls(status, {"content-type": media_type}, json.dumps(value).encode())

    @classmethod
    def problem(cls, status: int, title: str, detail: str) -> Answer:
        return cls.json(
            status,
            {"type": "about:blank", "title": title, "status": status, "detail": detail},
            PROBLEM_JSON,
        )

    @property
    def document(self) -> Any:
        try:
            return parse_json(self.body)
        except NotJson:
            return None


class HttpFault:
    """ASGI middleware breaking one rule on the routes `applies` names: `request` may change what
    comes in (scope, body) or answer in the host's place; `answer` may change what goes out."""

    #: the requirement the fault breaks, and what it does
    requirement: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def applies(self, scope: Scope) -> bool:
        path: str = scope["path"]
        return path == WELL_KNOWN or path.endswith("/invoke")

    def request(self, scope: Scope, body: bytes) -> tuple[Scope, bytes] | Answer:
        return scope, body

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        return answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.applies(scope):
            await self.app(scope, receive, send)
            return
        body = await _read(receive)
        if body is None:  # as the host says it (a fault reads no more than the host would)
            too_large = Answer.problem(413, "Request body too large", f"the limit is {LIMIT} bytes")
            await _send(send, too_large)
            return
        changed = self.request(scope, body)
        if isinstance(changed, Answer):
            await _send(send, changed)
            return
        scope, body = changed
        sent: list[Message] = []

        async def replay() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

        async def keep(message: Message) -> None:
            sent.append(message)

        await self.app(scope, replay, keep)
        start = next(m for m in sent if m["type"] == "http.response.start")
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in start.get("headers", [])
        }
        answered = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        await _send(send, self.answer(scope, body, Answer(start["status"], headers, answered)))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)


async def _read(receive: Receive) -> bytes | None:
    """The request's body; None past LIMIT bytes."""
    body, more = bytearray(), True
    while more:
        message = await receive()
        if message["type"] != "http.request":
            break
        body += message.get("body", b"")
        if len(body) > LIMIT:
            return None
        more = message.get("more_body", False)
    return bytes(body)


async def _send(send: Send, answer: Answer) -> None:
    headers = {k: v for k, v in answer.headers.items() if k != "content-length"}
    raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    await send(
        {
            "type": "http.response.start",
            "status": answer.status,
            "headers": [*raw, (b"content-length", str(len(answer.body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": answer.body})


def _envelope(body: bytes) -> Any:
    try:
        return parse_json(body)
    except NotJson:
        return None


def _agent(scope: Scope) -> str:
    return str(scope["path"]).removesuffix("/invoke").rsplit("/", 1)[-1]


class _Document(HttpFault):
    def applies(self, scope: Scope) -> bool:
        return bool(scope["path"] == WELL_KNOWN)


class _Invocation(HttpFault):
    """A fault of the invocations of any agent."""

    def applies(self, scope: Scope) -> bool:
        return bool(scope["method"] == "POST" and str(scope["path"]).endswith("/invoke"))


class _Summarizer(HttpFault):
    """A fault of the summarizer agent's invocations alone."""

    def applies(self, scope: Scope) -> bool:
        return scope["path"].endswith("/invoke") and _agent(scope) == SUMMARIZER


# -- how the document is served (WoA 1, 7, 9.2) --


class DocumentNotAtTheWellKnownPath(HttpFault):
    requirement, description = (
        "WOA-1-WELL-KNOWN-LOCATION",
        "serves its document at /woa.json, not at /.well-known/woa.json",
    )

    def applies(self, scope: Scope) -> bool:
        return scope["path"] in (WELL_KNOWN, "/woa.json")

    def request(self, scope: Scope, body: bytes) -> tuple[Scope, bytes] | Answer:
        if scope["path"] == WELL_KNOWN:
            return Answer.problem(404, "Not found", f"nothing at {WELL_KNOWN}")
        return {**scope, "path": WELL_KNOWN, "raw_path": WELL_KNOWN.encode()}, body


class MediaTypeNotWoaJson(_Document):
    requirement, description = "WOA-9.2-MEDIA-TYPE", "serves the document as application/json"

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        if answer.status == 200:
            answer.headers["content-type"] = "application/json"
        return answer


class EncodedInLatin1(_Document):
    requirement, description = (
        "WOA-9.2-UTF8-JSON",
        "encodes the document in ISO-8859-1 (an agent described as a café), and says so",
    )

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        if answer.status == 200:
            document = json.loads(answer.body)
            document["agents"][0]["description"] += " Made in a café."
            answer.body = json.dumps(document, ensure_ascii=False).encode("latin-1")
            answer.headers["content-type"] = "application/woa+json; charset=iso-8859-1"
        return answer


class NoCachingHeaders(_Document):
    requirement, description = (
        "WOA-7-CACHING-HEADERS",
        "sends no ETag, Last-Modified or Cache-Control",
    )

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        for name in ("etag", "last-modified", "cache-control"):
            answer.headers.pop(name, None)
        return answer


class NoValidator(_Document):
    requirement, description = (
        "WOA-7-CACHE-CONTROL-AND-VALIDATOR",
        "sends Cache-Control but no ETag or Last-Modified",
    )

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        for name in ("etag", "last-modified"):
            answer.headers.pop(name, None)
        return answer


class ConditionsIgnored(_Document):
    requirement, description = (
        "WOA-7-CONDITIONAL-GET",
        "ignores If-None-Match and If-Modified-Since",
    )

    def request(self, scope: Scope, body: bytes) -> tuple[Scope, bytes] | Answer:
        unconditional = [
            (k, v)
            for k, v in scope["headers"]
            if k.lower() not in (b"if-none-match", b"if-modified-since")
        ]
        return {**scope, "headers": unconditional}, body


# -- invocations (WoA 4.3.1, 5.1, 5.2) --


class MalformedBodyAnsweredAsPlainJson(_Invocation):
    requirement, description = (
        "WOA-4.3.1-ERRORS-PROBLEM-JSON",
        "answers a body that is not JSON with 400 application/json",
    )

    def request(self, scope: Scope, body: bytes) -> tuple[Scope, bytes] | Answer:
        try:
            parse_json(body)
        except NotJson as error:
            return Answer.json(400, {"error": f"the request body {error}"})
        return scope, body


class MismatchServed(_Summarizer):
    requirement, description = (
        "WOA-5.2-AGENT-MISMATCH-400",
        "serves the summarizer when the envelope names another agent (200)",
    )

    def request(self, scope: Scope, body: bytes) -> tuple[Scope, bytes] | Answer:
        envelope = _envelope(body)
        if isinstance(envelope, dict) and envelope.get("agent", SUMMARIZER) != SUMMARIZER:
            return scope, json.dumps({**envelope, "agent": SUMMARIZER}).encode()
        return scope, body


class _Mismatch(_Invocation):
    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        refused = answer.status == 400 and (answer.document or {}).get("title") == "Agent mismatch"
        return self.refused(answer) if refused else answer

    def refused(self, answer: Answer) -> Answer:
        return answer


class MismatchRefusedInPlainJson(_Mismatch):
    requirement, description = (
        "WOA-5.2-AGENT-MISMATCH-PROBLEM",
        "rejects a mismatch with 400 but a plain application/json body",
    )

    def refused(self, answer: Answer) -> Answer:
        return Answer.json(400, {"error": "agent mismatch"})


class MismatchRefusedWith422(_Mismatch):
    requirement, description = (
        "WOA-5.2-PLACEHOLDER-MISMATCH-400",
        "refuses an envelope naming another agent with 422, not 400",
    )

    def refused(self, answer: Answer) -> Answer:
        return Answer.problem(422, "Agent mismatch", str((answer.document or {}).get("detail", "")))


class OperationRequired(_Invocation):
    requirement, description = (
        "WOA-5.1-DEFAULT-OPERATION",
        "rejects an envelope without operation instead of serving default",
    )

    def request(self, scope: Scope, body: bytes) -> tuple[Scope, bytes] | Answer:
        envelope = _envelope(body)
        if (
            isinstance(envelope, dict)
            and "operation" not in envelope
            and isinstance(envelope.get("input"), dict)
        ):
            return Answer.problem(400, "Operation required", "name the operation in the envelope")
        return scope, body


class InvalidInputRefusedInPlainJson(_Summarizer):
    requirement, description = (
        "WOA-5.2-ERROR-PROBLEM-DETAILS",
        "refuses inputs that break the inputs schema with a plain application/json body",
    )

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        if (
            answer.status == 422
            and (answer.document or {}).get("title") == "Input does not conform"
        ):
            return Answer.json(422, {"error": answer.document["detail"]})
        return answer


class InvalidInputServed(_Summarizer):
    requirement, description = (
        "WOA-5.2-INVALID-INPUT-REJECTED",
        "answers inputs that break the inputs schema with 200 and an empty summary",
    )

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        if (
            answer.status == 422
            and (answer.document or {}).get("title") == "Input does not conform"
        ):
            return Answer.json(200, {"summary": ""})
        return answer


class WordLimitRefused(_Summarizer):
    requirement, description = (
        "WOA-5.2-VALID-INPUT-ACCEPTED",
        "refuses valid inputs that carry max_words with 422",
    )

    def request(self, scope: Scope, body: bytes) -> tuple[Scope, bytes] | Answer:
        if _with_word_limit(body):
            return Answer.problem(422, "Unsupported", "summaries with a word limit are not offered")
        return scope, body


class WordLimitAnswered300(_Summarizer):
    requirement, description = (
        "WOA-5.2-SUCCESS-2XX",
        "answers the summary of a text with a word limit with status 300",
    )

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        if answer.status == 200 and _with_word_limit(body):
            answer.status = 300
        return answer


class SummaryAsAbstract(_Summarizer):
    requirement, description = (
        "WOA-5.2-SUCCESS-CONFORMS-OUTPUTS",
        'answers {"abstract": ...} where the outputs schema asks for summary',
    )

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        document = answer.document
        if answer.status == 200 and isinstance(document, dict) and "summary" in document:
            return Answer.json(200, {"abstract": document["summary"]})
        return answer


class SummaryAsText(_Summarizer):
    requirement, description = (
        "WOA-4.3.1-HOST-RESPONDS-JSON",
        "labels its JSON summaries text/plain",
    )

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        if answer.status == 200:
            answer.headers["content-type"] = "text/plain; charset=utf-8"
        return answer


def _with_word_limit(body: bytes) -> bool:
    envelope = _envelope(body)
    given = envelope.get("input") if isinstance(envelope, dict) else None
    return isinstance(given, dict) and "max_words" in given


# -- the SDSI server agent over WoA REST (SDSI 3.1, 7) --


class SessionOnTheConnection(_Invocation):
    requirement, description = (
        "SDSI-3.1-SESSION-STATE-OUTSIDE-PROTOCOL",
        "executes a payload only on a connection that negotiated a template",
    )

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app)
        # the connections (peer address and port) that carried a negotiation
        self.negotiated: set[Any] = set()

    def request(self, scope: Scope, body: bytes) -> tuple[Scope, bytes] | Answer:
        envelope = _envelope(body)
        operation = envelope.get("operation") if isinstance(envelope, dict) else None
        if operation == "get_schema_template":
            self.negotiated.add(scope.get("client"))
        elif operation == "execute" and scope.get("client") not in self.negotiated:
            return Answer.problem(
                409, "No session", "negotiate a template on this connection first"
            )
        return scope, body


class SignedBytesNotSent(_Invocation):
    requirement, description = (
        "SDSI-7-SIGNATURES-VERIFY",
        "signs its templates and updates over bytes other than those it sends",
    )

    def answer(self, scope: Scope, body: bytes, answer: Answer) -> Answer:
        if "jws-signature" in answer.headers:
            answer.body += b" "  # the signature covers the bytes before it
        return answer


# -- the same agent as an MCP tool (WoA 5.3) --


class Abstract(BaseModel):
    abstract: str


def summary_as_abstract_tool(
    text: str, max_words: Annotated[int, Field(ge=10, le=500)] = 40
) -> Abstract:
    """The summarizer's MCP tool answering {"abstract": ...} where the outputs schema asks for
    summary."""
    return Abstract(abstract=summarize(text, max_words))


#: Every fault of this kind, by the requirement it breaks.
HTTP_FAULTS: dict[str, type[HttpFault]] = {
    fault.requirement: fault
    for fault in (
        DocumentNotAtTheWellKnownPath,
        MediaTypeNotWoaJson,
        EncodedInLatin1,
        NoCachingHeaders,
        NoValidator,
        ConditionsIgnored,
        MalformedBodyAnsweredAsPlainJson,
        MismatchServed,
        MismatchRefusedInPlainJson,
        MismatchRefusedWith422,
        OperationRequired,
        InvalidInputRefusedInPlainJson,
        InvalidInputServed,
        WordLimitRefused,
        WordLimitAnswered300,
        SummaryAsAbstract,
        SummaryAsText,
        SessionOnTheConnection,
        SignedBytesNotSent,
    )
}
