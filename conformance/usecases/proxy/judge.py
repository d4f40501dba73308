"""The judging half of the passive proxy: what the traffic shows of each side, requirement by requirement.

Every exchange is read as the draft's messages it carries, and each message is judged by the same
schemas and rules that judge the golden vectors (conformance/validation): the host's WoA document
and its answers, the client's invocation envelopes; SDSI and ACI messages wherever they travel (an
envelope's input, an answer). A requirement is `pass` when some exchange exercised it and none broke
it, `fail` with the exchanges that broke it, and `skip` when no exchange touched it: the traffic
decides what is tested, and what it never showed is never a pass.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from urllib.parse import unquote

from ... import __version__
from ...bindings.http import media_type_of
from ...checks.woa.document import APPLIES
from ...engine.gate import gated
from ...report import (
    Handler,
    Result,
    ResultRecorded,
    RunFinished,
    RunHeader,
    RunStarted,
    Skip,
    Status,
    Summary,
    broadcast,
    summarize,
)
from ...report.model import Exchange, utc_now
from ...requirements import catalogue
from ...schemas import schema, schema_names
from ...validation import UNMAPPED, validate_message
from ...validation.rules import RULES
from ...validation.target_schemas import Unjudgeable
from .forward import Recorded, Traffic

__all__ = ["Findings", "judge", "judged_run", "schema_requirements"]

_JSON = re.compile(r"^application/([\w.+-]+\+)?json$")
#: SDSI and ACI messages, recognised by the members only they carry (checked in this order).
_SHAPES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("aci/task-context", ("TaskContext",)),
    ("aci/agent-context", ("AgentContext",)),
    ("sdsi/payload-message", ("schema_id", "payload")),
    ("sdsi/schema-patch", ("patch_id", "new_keys")),
    ("sdsi/execution-result", ("schema_update_suggestion",)),
    ("sdsi/schema-template", ("schema_id", "keys")),
)


@cache
def schema_requirements(name: str, with_context: bool = False) -> frozenset[str]:
    """Every requirement a message schema (and the files it refers to) or its rules can report; the
    rules that read a context (a template, a document) only `with_context`, which judging them needs."""
    found: set[str] = set()
    group = name.split("/")[0]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            found.update(node.get("x-requirements", ()))
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.endswith(".json") and not ref.startswith("#"):
                referred = f"{group}/{ref.rsplit('/', 1)[-1].removesuffix('.json')}"
                if referred in schema_names() and referred not in seen:
                    seen.add(referred)
                    walk(schema(referred))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    seen = {name}
    walk(schema(name))
    for rule in RULES.get(name, ()):
        reads_context = list(inspect.signature(rule).parameters)[1] != "_"
        identifier = _rule_requirement(rule.__name__)
        if identifier and (with_context or not reads_context):
            found.add(identifier)
    return frozenset(r for r in found if r in catalogue())


def _rule_requirement(function_name: str) -> str | None:
    """The requirement a rule is named after: WOA_4_1_AGENT_ID_UNIQUE is WOA-4.1-AGENT-ID-UNIQUE."""
    return {re.sub(r"[-.]", "_", r.id): r.id for r in catalogue()}.get(function_name)


@dataclass
class Findings:
    """Per requirement: what the traffic showed (status, message, the exchange that showed it)."""

    seen: dict[str, list[tuple[Status, str, Exchange]]] = field(default_factory=dict)

    def note(self, requirement: str, ok: bool, message: str, recorded: Recorded) -> None:
        if requirement in catalogue():
            self.seen.setdefault(requirement, []).append((Status.PASS if ok else Status.FAIL, message, recorded.exchange()))

    def messages(self, name: str, message: Any, recorded: Recorded, side: str, **context: Any) -> None:
        """Judge `message` as the draft message `name`: each requirement it can break, broken or kept.
        A requirement about a part the message does not have (an mcp transport, an operation) is not
        kept by its absence: it is left untouched (the active checks' `APPLIES` say when)."""
        broken: dict[str, str] = {}
        applicable = {r for r in schema_requirements(name, bool(context)) if _applies(r, message)}
        try:
            violations = validate_message(name, message, **context)
        except Unjudgeable as error:  # a hostile schema of the target's: say so, decide nothing
            for requirement in applicable:
                self.seen.setdefault(requirement, []).append(
                    (Status.ERROR, f"the {side}'s {name} in {recorded.method} {recorded.path} cannot be judged: {error}", recorded.exchange()))
            return
        for violation in violations:
            if violation.requirement != UNMAPPED:
                broken.setdefault(violation.requirement, f"{violation.path}: {violation.message}")
        for requirement in applicable | broken.keys():
            where = f"the {side}'s {name} in {recorded.method} {recorded.path}"
            self.note(requirement, requirement not in broken,
                      f"{where}: {broken[requirement]}" if requirement in broken else f"{where} keeps it", recorded)


def _applies(requirement: str, message: Any) -> bool:
    if requirement in APPLIES:
        return isinstance(message, dict) and APPLIES[requirement](message) is None
    if requirement == "WOA-5.1-ENVELOPE-OPERATION-STRING":
        return isinstance(message, dict) and "operation" in message
    return True


def _invoke_pattern(document: Any) -> re.Pattern[str] | None:
    rest = document.get("transports", {}).get("rest") if isinstance(document, dict) and isinstance(document.get("transports"), dict) else None
    path = rest.get("invoke_path") if isinstance(rest, dict) else None
    if not isinstance(path, str) or not path.startswith("/"):
        return None
    template = path.split("?")[0]
    return re.compile("^" + re.escape(template).replace(re.escape("{agent_id}"), "(?P<agent>[^/?]+)") + r"(\?.*)?$")


def _judge_document(findings: Findings, recorded: Recorded, document: Any) -> None:
    if document is None:
        findings.note("WOA-4-DOCUMENT-OBJECT", False, "the host's WoA document is not JSON", recorded)
        return
    findings.messages("woa/document", document, recorded, "host")
    media_type = media_type_of(recorded.response_headers)
    findings.note("WOA-9.2-MEDIA-TYPE", media_type == "application/woa+json", f"the host served its document as {media_type or 'no media type'}", recorded)
    cached = [h for h in ("etag", "last-modified", "cache-control") if h in recorded.response_headers]
    enough = "cache-control" in cached and ("etag" in cached or "last-modified" in cached)  # as WOA-7-CACHING-HEADERS's check
    findings.note("WOA-7-CACHING-HEADERS", enough, f"the document came with caching headers {cached}" if enough
                  else f"the document came with {cached or 'no caching headers'}; a validator (ETag or Last-Modified) and "
                       "Cache-Control are expected", recorded)
    findings.note("WOA-8.1-HOST-USES-HTTPS", recorded.url.startswith("https://"), f"the host served its document from {recorded.url}", recorded)


def _judge_polling(findings: Findings, traffic: Traffic) -> None:
    """WoA 7, both sides: a repeat fetch after validators must be conditional; a conditional one answered 304 when unchanged."""
    previous: Recorded | None = None
    for recorded in (r for r in traffic.exchanges if r.is_document and r.method == "GET"):
        conditional = "if-none-match" in recorded.request_headers or "if-modified-since" in recorded.request_headers
        if previous is not None and previous.status == 200:
            validators = [h for h in ("etag", "last-modified") if h in previous.response_headers]
            if validators:
                findings.note("WOA-7-CLIENT-HONORS-CACHING", conditional,
                              "the client polled again with a conditional request" if conditional else
                              f"the document came with {validators}, yet the client polled again without a conditional request", recorded)
        etag = previous.response_headers.get("etag") if previous is not None else None
        if conditional and etag and etag in recorded.request_headers.get("if-none-match", ""):
            findings.note("WOA-7-CONDITIONAL-GET", recorded.status == 304,
                          f"a conditional GET with the current ETag was answered {recorded.status}", recorded)
        if recorded.status in (200, 304):
            previous = recorded if recorded.status == 200 else previous


def _judge_invocation(findings: Findings, recorded: Recorded, document: Any, agent_in_path: str | None) -> None:
    envelope = recorded.request_json()
    request_type = media_type_of(recorded.request_headers)
    findings.note("WOA-4.3.1-CLIENT-USES-POST", recorded.method == "POST", f"the client invoked with {recorded.method}", recorded)
    findings.note("WOA-4.3.1-CLIENT-SENDS-JSON", request_type == "application/json" and envelope is not None,
                  f"the client's invocation is {request_type or 'unlabelled'}{'' if envelope is not None else ', and not JSON'}", recorded)
    if agent_in_path is not None:
        literal = "{agent_id}" in unquote(agent_in_path)
        findings.note("WOA-4.3.1-CLIENT-SUBSTITUTES-AGENT-ID", not literal,
                      f"the client invoked {recorded.path}" + (" with the placeholder left in" if literal else ""), recorded)
    if envelope is not None:
        findings.messages("woa/envelope", envelope, recorded, "client", document=document)
        _judge_carried(findings, envelope.get("input") if isinstance(envelope, dict) else None, recorded, "client")
    if recorded.status is None:
        return
    answer = recorded.response_json()
    answer_type = media_type_of(recorded.response_headers)
    json_answer = answer is not None and bool(_JSON.match(answer_type))
    findings.note("WOA-4.3.1-HOST-RESPONDS-JSON", json_answer, f"the host answered {recorded.status} as {answer_type or 'no media type'}"
                  + ("" if answer is not None else " with a body that is not JSON"), recorded)
    named = envelope.get("agent") if isinstance(envelope, dict) else None
    if agent_in_path is not None and isinstance(named, str) and unquote(agent_in_path) != named:
        findings.note("WOA-5.2-AGENT-MISMATCH-400", recorded.status == 400,
                      f"the envelope names {named!r}, the URL {unquote(agent_in_path)!r}; the host answered {recorded.status}", recorded)
    if 200 <= recorded.status < 300 and answer is not None:
        agent = named if isinstance(named, str) else (unquote(agent_in_path) if agent_in_path else None)
        operation = envelope.get("operation") if isinstance(envelope, dict) else None
        findings.messages("woa/success-response", answer, recorded, "host", document=document, agent=agent,
                          operation=operation if isinstance(operation, str) else None)
        _judge_carried(findings, answer, recorded, "host")
    elif recorded.status >= 400:
        media_type = media_type_of(recorded.response_headers)
        findings.note("WOA-5.2-ERROR-PROBLEM-DETAILS", media_type == "application/problem+json",
                      f"the host's error {recorded.status} is {media_type or 'unlabelled'}", recorded)


def _judge_carried(findings: Findings, value: Any, recorded: Recorded, side: str) -> None:
    """SDSI and ACI messages an envelope's input or an answer carries, anywhere in it."""
    for message in _objects(value, depth=0):
        for name, members in _SHAPES:
            if all(m in message for m in members):
                findings.messages(name, message, recorded, side)
                break


def _objects(value: Any, depth: int) -> Iterator[dict[str, Any]]:
    if depth > 6:
        return
    if isinstance(value, dict):
        yield value
        for member in value.values():
            yield from _objects(member, depth + 1)
    elif isinstance(value, list):
        for item in value[:256]:
            yield from _objects(item, depth + 1)


def _findings(traffic: Traffic) -> Findings:
    findings = Findings()
    document: Any = None
    for recorded in traffic.exchanges:
        if recorded.is_document:
            if recorded.method == "GET" and recorded.status == 200:
                document = recorded.response_json()
                _judge_document(findings, recorded, document)
            continue
        pattern = _invoke_pattern(document)
        matched = pattern.match(recorded.path) if pattern else None
        if matched:
            _judge_invocation(findings, recorded, document, matched.groupdict().get("agent"))
    _judge_polling(findings, traffic)
    return findings


def judge(traffic: Traffic, suites: tuple[str, ...], *, strict: bool = False) -> list[Result]:
    """A result for every requirement of `suites`, from what the traffic showed."""
    findings = _findings(traffic)
    results = []
    for requirement in catalogue():
        if requirement.draft not in suites:
            continue
        seen = findings.seen.get(requirement.id, [])
        failures = [s for s in seen if s[0] is Status.FAIL]
        errors = [s for s in seen if s[0] is Status.ERROR]
        side = "the client" if requirement.role == "client" else "the host" if requirement.role in ("host", "server") else "an agent"
        if failures:
            status, message = Status.FAIL, f"{side}: {failures[0][1]}" + (f" (and {len(failures) - 1} more)" if len(failures) > 1 else "")
            evidence = tuple(f[2] for f in failures[:5])
        elif errors:
            status, message, evidence = Status.ERROR, f"{side}: {errors[0][1]}", (errors[0][2],)
        elif seen:
            status, message, evidence = Status.PASS, f"{side}: {len(seen)} exchange(s) exercised it, none broke it", (seen[0][2],)
        else:
            status, message, evidence = Status.SKIP, "no exchange in the traffic touched it", ()
        results.append(Result.of(requirement, status, message, check="proxy", evidence=evidence, strict=strict, skip=Skip.NOT_OBSERVED))
    return results


def judged_run(upstream: str, suites: tuple[str, ...], traffic: Traffic, handlers: Sequence[Handler], started: str,
               options: dict[str, Any]) -> Summary:
    """Judge `traffic` as a run of its own: its header, every result and its summary go to `handlers`;
    with a recorder, the verdicts go into the recording too (for `rejudge` to compare with)."""
    header = {"exchanges": len(traffic.exchanges), "documents_rewritten": traffic.rewrites} | options
    broadcast(RunStarted(RunHeader(__version__, upstream, suites, "proxy", started, header)), handlers)
    results = judge(traffic, suites, strict=bool(options.get("strict")))
    for result in results:
        broadcast(ResultRecorded(result), handlers)
    if traffic.recorder is not None:
        traffic.recorder.results([{"requirement": r.requirement, "status": r.status.value, "message": r.message} for r in results])
    summary = gated(summarize(results, finished=utc_now()))
    broadcast(RunFinished(summary), handlers)
    return summary
