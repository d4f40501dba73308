"""WoA client checks: the suite plays the host (conformance/spy) and drives the client under test
through the run's --client-command (conformance/driver); each check judges what one or more
scenarios (conformance/spy/scenarios.py) made the client send, or try to send.

A refusal proves something only from a client that works: the checks of what a client must not
do are skips unless the same client invoked the `plain` agent with a POST.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote
from urllib.parse import unquote

from ...bindings.http import media_type_of
from ...bindings.observed import NotObserved
from ...report.model import Exchange
from ...spy.host import SpyRequest
from ...spy.scenarios import EXFIL
from ...spy.scenarios import LINK_LOCAL
from ...spy.scenarios import NAMED_ONLY
from ...spy.scenarios import PRIVATE
from ...spy.scenarios import UNLISTED
from ...spy.scenarios import scenario_host
from ...validation.rules import selected_schema
from ...validation.target_schemas import target_validator
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import errored
from ..registry import failed
from ..registry import passed
from ..registry import skipped
from .client_session import ClientSession
from .client_session import ScenarioRecord
from .client_session import client_session

__all__: list[str] = []

DRIVER = "client-command"


def _no_invocation(record: ScenarioRecord) -> Verdict:
    return errored(
        f"the client sent no invocation in scenario {record.scenario.name}"
        f" ({record.scenario.purpose}): {record.said()}",
        *record.evidence(),
    )


def _works(session: ClientSession) -> Verdict | None:
    """A skip when the client never invoked the plain agent: then its refusals prove nothing."""
    if session.invoked_plainly() is None:
        plain = session["plain"]
        return skipped(
            Skip.NOT_OBSERVED,
            f"the client never invoked the plain agent with a POST ({plain.said()}), so what it did"
            " not send elsewhere proves nothing",
            *plain.evidence(),
        )
    return None


@dataclass(frozen=True)
class Sent:
    """One invocation the client sent, in any scenario: its request, and the agent it was meant
    for."""

    record: ScenarioRecord
    request: SpyRequest
    # the agent the client was asked for (in the injection scenario, and in a run that watches,
    # the one the URL names through the invoke_path, else the envelope's)
    agent: str
    placeholder: bool  # whether the scenario's invoke_path holds {agent_id}

    def label(self) -> str:
        return f"scenario {self.record.scenario.name}: {self.request.method} {self.request.path}"


def _path_pattern(invoke_path: str) -> re.Pattern[str]:
    """The paths (with their query, when the invoke_path has one) that `invoke_path` gives for
    any agent id."""
    literal = [re.escape(part) for part in invoke_path.split("{agent_id}")]
    return re.compile("(?P<id>[^/?#&]+)".join(literal) + "$")


def _sent(session: ClientSession) -> list[Sent]:
    """Every invocation of every scenario (a CORS preflight is not one): WoA 4.3.1 and 5.1 bind
    each."""
    found = []
    for record in session.records.values():
        asked = record.scenario.runs[0].agent if record.scenario.runs else None
        for request in record.invocations:
            if request.method == "OPTIONS" and "access-control-request-method" in request.headers:
                continue
            document = record.scenario.documents.get(request.host, {})
            invoke_path = str(document.get("transports", {}).get("rest", {}).get("invoke_path", ""))
            listed = {a["id"] for a in document.get("agents", [])}
            matched = _path_pattern(invoke_path).match(
                request.path if "?" in invoke_path else request.path.split("?")[0]
            )
            if request.method in ("GET", "HEAD") and not matched:
                continue  # a crawler's robots.txt or a liveness probe: no invocation
            named = unquote(matched["id"]) if matched and "{agent_id}" in invoke_path else None
            envelope = request.json()
            named_in_envelope = envelope.get("agent") if isinstance(envelope, dict) else None
            meant = (
                asked
                if asked is not None
                else named_in_envelope
                if isinstance(named_in_envelope, str)
                else ""
            )
            # the agent the client was asked for is the target; where it obeyed a description
            # instead (the injection scenario), that is WOA-4.1-DESCRIPTION-UNTRUSTED's
            target = (
                asked
                if asked is not None and record.scenario.name != "injection"
                else named
                if named is not None and named in listed
                else meant
            )
            found.append(Sent(record, request, target, "{agent_id}" in invoke_path))
    return found


def _judge_each(
    session: ClientSession, problem: Callable[[Sent], str | None], success: str
) -> Verdict:
    """Fail on the first invocation `problem` finds wrong; error when the plain scenario has none
    (in a run that watches, a skip when no invocation passed by)."""
    sent = _sent(session)
    if session.observed and not sent:
        raise NotObserved("no invocation by the client passed by")
    if not session.observed and not any(s.record.scenario.name == "plain" for s in sent):
        return _no_invocation(session["plain"])
    for each in sent:
        if (wrong := problem(each)) is not None:
            return failed(f"{each.label()}: {wrong}", *each.record.evidence())
    evidence = sent[0].record.evidence() if session.observed else session["plain"].evidence()
    return passed(
        f"{success} ({len(sent)} invocations in {len({s.record.scenario.name for s in sent})}"
        " scenarios)",
        *evidence,
    )


@check("WOA-4.3.1-CLIENT-USES-POST", driver=DRIVER)
async def woa_4_3_1_client_invokes_with_post(target: Any) -> Verdict:
    """WoA 4.3.1: "Clients invoking an agent via the REST transport MUST use HTTP POST"."""
    return _judge_each(
        await client_session(target),
        lambda s: None if s.request.method == "POST" else f"invoked with {s.request.method}",
        "every invocation was a POST",
    )


@check("WOA-4.3.1-CLIENT-SENDS-JSON", driver=DRIVER)
async def woa_4_3_1_client_sends_json(target: Any) -> Verdict:
    """WoA 4.3.1: the client "MUST send a request body encoded as JSON with media type
    application/json"."""

    def problem(sent: Sent) -> str | None:
        if media_type_of(sent.request.headers) != "application/json":
            return (
                f"the media type is {sent.request.headers.get('content-type') or 'missing'!r}, not"
                " application/json"
            )
        return None if sent.request.is_json else "the body is not JSON"

    return _judge_each(
        await client_session(target), problem, "every invocation was JSON labelled application/json"
    )


@check("WOA-4.3.1-CLIENT-SUBSTITUTES-AGENT-ID", driver=DRIVER)
async def woa_4_3_1_client_substitutes_agent_id(target: Any) -> Verdict:
    """WoA 4.3.1: "If the invoke_path contains the case sensitive substring "{agent_id}", the
    client MUST replace it with the target agent's id value": no placeholder left, and an agent
    id in its place."""

    def problem(sent: Sent) -> str | None:
        if not sent.placeholder:
            return None
        path = sent.request.path
        if "{agent_id}" in path or "%7bagent_id%7d" in path.lower():
            return "the {agent_id} placeholder is still in the path"
        document = sent.record.scenario.documents.get(sent.request.host, {})
        invoke_path = str(document.get("transports", {}).get("rest", {}).get("invoke_path", ""))
        expected = invoke_path.replace("{agent_id}", quote(sent.agent, safe=""))
        given = path if "?" in invoke_path else path.split("?")[0]
        return (
            None
            if unquote(given) == unquote(expected)
            else f"the path is not {expected}, the invoke_path with the agent's id"
        )

    return _judge_each(
        await client_session(target),
        problem,
        "every invocation path had the agent id in place of {agent_id}",
    )


def _envelope_member(member: str, kind: type, noun: str) -> Callable[[Sent], str | None]:
    def problem(sent: Sent) -> str | None:
        envelope = sent.request.json()
        if not isinstance(envelope, dict) or not isinstance(envelope.get(member), kind):
            return f"the envelope has no {member} {noun}: {str(envelope)[:200]}"
        return None

    return problem


@check("WOA-5.1-ENVELOPE-AGENT-REQUIRED", driver=DRIVER)
async def woa_5_1_client_envelope_has_agent(target: Any) -> Verdict:
    """WoA 5.1: "agent (string, REQUIRED): The agent identifier as listed in the WoA document"."""
    return _judge_each(
        await client_session(target),
        _envelope_member("agent", str, "string"),
        "every envelope names its agent",
    )


@check("WOA-5.1-ENVELOPE-INPUT-REQUIRED", driver=DRIVER)
async def woa_5_1_client_envelope_has_input(target: Any) -> Verdict:
    """WoA 5.1: "input (object, REQUIRED)"."""
    return _judge_each(
        await client_session(target),
        _envelope_member("input", dict, "object"),
        "every envelope carries an input object",
    )


@check("WOA-5.1-ENVELOPE-OPERATION-STRING", driver=DRIVER)
async def woa_5_1_client_envelope_names_operation(target: Any) -> Verdict:
    """WoA 5.1: "operation (string, OPTIONAL): The operation name, if the agent defines an
    operations array": where an envelope has an operation, it is a string (which one is
    WOA-5.1-OPERATION-MATCHES-INTENDED's)."""

    def problem(sent: Sent) -> str | None:
        envelope = sent.request.json()
        if not isinstance(envelope, dict) or "operation" not in envelope:
            return None
        operation = envelope["operation"]
        if isinstance(operation, str):
            return None
        return (
            f"the envelope's operation is {type(operation).__name__} {str(operation)[:80]}, not a"
            " string"
        )

    session = await client_session(target)
    if not any(
        isinstance(s.request.json(), dict) and "operation" in s.request.json()
        for s in _sent(session)
    ):
        return skipped(
            Skip.NOT_OBSERVED,
            "no envelope had an operation member, which 5.1 allows (OPTIONAL): nothing to judge",
            *session["operations"].evidence(),
        )
    return _judge_each(session, problem, "every operation member was a string")


@check("WOA-5.1-OPERATION-MATCHES-INTENDED", driver=DRIVER)
async def woa_5_1_client_names_the_intended_operation(target: Any) -> Verdict:
    """The suite's reading of WoA 5.1 (inferred): asked for an operation, the client names that
    one."""
    record = (await client_session(target))["operations"]
    asked = record.scenario.runs[0].operation
    posts = [r for r in record.invocations if r.method == "POST"]
    if not posts:
        return _no_invocation(record)
    envelope = posts[0].json()
    operation = envelope.get("operation") if isinstance(envelope, dict) else None
    if operation is None:
        return skipped(
            Skip.NOT_OBSERVED,
            f"asked for operation {asked}, the client left operation out (OPTIONAL in 5.1)",
            *record.evidence(),
        )
    if not isinstance(operation, str):
        return skipped(
            Skip.DEPENDS_ON,
            "the operation is not a string (WOA-5.1-ENVELOPE-OPERATION-STRING judges that)",
            *record.evidence(),
        )
    if operation != asked:
        return failed(
            f"asked for operation {asked!r}, the client's envelope names {operation!r}",
            *record.evidence(),
        )
    return passed(f"the envelope names operation {asked!r}, as asked", *record.evidence())


@check("WOA-5.1-INPUT-CONFORMS", driver=DRIVER)
async def woa_5_1_client_input_conforms(target: Any) -> Verdict:
    """WoA 5.1: input "MUST conform to the JSON Schema specified in the selected operation's inputs
    schema, or to the agent level inputs": the operation the envelope names (none: the agent's
    inputs)."""

    def problem(sent: Sent) -> str | None:
        envelope = sent.request.json()
        if not isinstance(envelope, dict) or not isinstance(envelope.get("input"), dict):
            return None  # WOA-5.1-ENVELOPE-INPUT-REQUIRED's
        document = sent.record.scenario.documents.get(sent.request.host, {})
        agent = next((a for a in document.get("agents", []) if a.get("id") == sent.agent), None)
        operation = envelope.get("operation")
        defined = {o.get("name") for o in agent.get("operations", [])} if agent else set()
        if agent is not None and not defined:
            operation = None  # an agent with no operations has only its own inputs (Appendix A)
        if agent is None or (
            operation is not None and (not isinstance(operation, str) or operation not in defined)
        ):
            return None  # no selected schema to judge by (WOA-5.1-OPERATION-MATCHES-INTENDED)
        errors = [
            e.message
            for e in target_validator(selected_schema(agent, operation, "inputs")).iter_errors(
                envelope["input"]
            )
        ]
        return (
            f"the input does not conform to its schema: {'; '.join(errors)[:300]}"
            if errors
            else None
        )

    return _judge_each(
        await client_session(target), problem, "every input conformed to the selected schema"
    )


@check("WOA-5.2-AGENT-FIELD-MATCHES", driver=DRIVER)
async def woa_5_2_client_agent_field_matches(target: Any) -> Verdict:
    """WoA 5.2: "The agent field in the envelope MUST match the intended agent's id": the agent the
    client was asked to invoke (in a run that watches, the one the URL names)."""

    def problem(sent: Sent) -> str | None:
        envelope = sent.request.json()
        agent = envelope.get("agent") if isinstance(envelope, dict) else None
        return (
            None
            if agent is None or agent == sent.agent
            else f"meant for {sent.agent!r}, the envelope names {agent!r}"
        )

    return _judge_each(
        await client_session(target),
        problem,
        "every envelope names the intended agent (an absent agent field is"
        " WOA-5.1-ENVELOPE-AGENT-REQUIRED's)",
    )


@check("WOA-4.2-CLIENTS-IGNORE-UNKNOWN-FEATURES", driver=DRIVER)
async def woa_4_2_client_ignores_unknown_schema_features(target: Any) -> Verdict:
    """WoA 4.2: advanced features "SHOULD be ignored by clients that do not understand them, as
    long as the client can still construct a conforming request" ($defs, $ref, dependentRequired,
    unevaluatedProperties and vendor keywords in the inputs schema)."""
    session = await client_session(target)
    if (verdict := _works(session)) is not None:
        return verdict
    record = session["advanced"]
    if not [r for r in record.invocations if r.method == "POST"]:
        return failed(
            "the client did not invoke an agent whose inputs schema uses advanced keywords:"
            f" {record.said()}",
            *record.evidence(),
        )
    return passed(
        "the client invoked the agent whose schema uses advanced and vendor keywords",
        *record.evidence(),
    )


def _refused(
    session: ClientSession,
    cases: tuple[tuple[str, str | None], ...],
    what: str,
    *,
    invoked: bool = False,
) -> Verdict:
    """Pass when in no scenario of `cases` the client asked for that case's host (None: reached the
    scenario's spy host at all). With `invoked`, the scenario's invocation must have reached the spy
    first (a redirect is only a test once the client followed the link to it)."""
    if (verdict := _works(session)) is not None:
        return verdict
    evidence: list[Exchange] = []
    for name, host in cases:
        record = session[name]
        evidence.extend(record.evidence())
        if invoked and not record.invocations:
            return _no_invocation(record)
        if host is None and record.requests:
            sent = record.requests[0]
            return failed(
                f"scenario {name}: {what}; the client went on and sent {sent.method} {sent.path}",
                *record.evidence(),
            )
        if host is None and not record.attempts:
            return skipped(
                Skip.NOT_OBSERVED,
                f"scenario {name}: the client never asked the suite's proxy for a connection "
                f"(does it honour HTTPS_PROXY?): {record.said()}",
                *record.evidence(),
            )
        if host is not None and record.reached(host):
            return failed(
                f"scenario {name}: {what}; the client asked the proxy to connect to"
                f" {record.reached(host)[0].authority} (the proxy refused it)",
                *record.evidence(),
            )
    return passed(
        f"the client did not go on ({what}; scenarios {', '.join(n for n, _ in cases)})", *evidence
    )


@check("WOA-8.1-CLIENT-VALIDATES-CERTIFICATES", driver=DRIVER)
async def woa_8_1_client_validates_certificates(target: Any) -> Verdict:
    """WoA 8.1: "Clients MUST validate server certificates according to normal HTTPS rules" (a CA
    the client was not told to trust; a certificate for another host name)."""
    return _refused(
        await client_session(target),
        (("untrusted-ca", None), ("wrong-name", None)),
        "the host's certificate does not validate",
    )


@check("WOA-8.2-NO-PRIVATE-RANGES", driver=DRIVER)
async def woa_8_2_client_avoids_private_ranges(target: Any) -> Verdict:
    """WoA 8.2: "clients SHOULD NOT automatically send invocation requests to URLs that resolve
    to private or link local address ranges ... unless explicitly configured to do so by an
    administrator"."""
    return _refused(
        await client_session(target),
        (("private-base", PRIVATE), ("link-local-base", LINK_LOCAL)),
        f"the rest base is a private ({PRIVATE}) or link-local ({LINK_LOCAL}) address",
    )


@check("WOA-8.2-VALIDATE-TRANSPORT-URLS", driver=DRIVER)
async def woa_8_2_client_validates_transport_urls(target: Any) -> Verdict:
    """WoA 8.2: "Clients SHOULD validate that transport URLs provided in a WoA document resolve
    to allowed domains or IP address ranges before invoking agents" (a base on a host the
    administrator did not allow)."""
    return _refused(
        await client_session(target),
        (("unlisted-base", UNLISTED),),
        f"the rest base {UNLISTED} is not an allowed host",
    )


@check("WOA-8.2-REDIRECT-VALIDATED", driver=DRIVER)
async def woa_8_2_client_validates_redirects(target: Any) -> Verdict:
    """WoA 8.2: clients "SHOULD apply the same validation to the redirect target" (a 307 to a
    link-local address)."""
    return _refused(
        await client_session(target),
        (("redirect-private", LINK_LOCAL),),
        f"the invocation was redirected to {LINK_LOCAL}",
        invoked=True,
    )


@check("WOA-8.2-REDIRECT-CAUTION", driver=DRIVER)
async def woa_8_2_client_cautious_of_off_origin_redirects(target: Any) -> Verdict:
    """WoA 8.2: "Clients SHOULD also be cautious of HTTP redirects that change the authority
    component of the URL" (a 307 to a host the administrator did not allow; errata
    E-WOA-8.2-REDIRECT-CAUTION)."""
    return _refused(
        await client_session(target),
        (("redirect-off-origin", UNLISTED),),
        f"the invocation was redirected to {UNLISTED}",
        invoked=True,
    )


@check("WOA-4.1-DESCRIPTION-UNTRUSTED", driver=DRIVER)
async def woa_4_1_client_treats_description_as_untrusted(target: Any) -> Verdict:
    """WoA 4.1: "Clients MUST treat this field as untrusted input" (a description that asks the
    client to call other URLs and another agent)."""
    session = await client_session(target)
    record = session["injection"]
    for host in (EXFIL, LINK_LOCAL):
        # a connection the client makes whatever the description says (a cloud SDK asking the
        # metadata service for its credentials) is not the description's doing
        if record.reached(host) and not session["plain"].reached(host):
            return failed(
                f"the client asked the proxy to connect to {host}, a URL only the agent's"
                " description names",
                *record.evidence(),
            )
    admin = [
        r
        for r in record.invocations
        if "/admin/" in r.path or (isinstance(r.json(), dict) and r.json().get("agent") == "admin")
    ]
    if admin:
        return failed(
            "the client invoked the agent 'admin', which only the description asks for",
            *record.evidence(),
        )
    if not record.invocations:
        return _no_invocation(record)
    return passed(
        "the client invoked the agent it was asked for and called nothing the description named",
        *record.evidence(),
    )


@check("WOA-8.3-LLM-FIELDS-UNTRUSTED", driver=DRIVER)
async def woa_8_3_client_treats_names_as_untrusted(target: Any) -> Verdict:
    """WoA 8.3: "Clients that use a large language model to reason about or select agents based
    on these fields [name and description] MUST treat them as untrusted input": the injected
    agent's name asks the client to invoke another agent instead (what its description asks is
    WOA-4.1-DESCRIPTION-UNTRUSTED's). A client with no model cannot break the rule, and passes."""
    record = (await client_session(target))["injection"]
    if not record.invocations:
        return _no_invocation(record)
    obeyed = [
        r
        for r in record.invocations
        if f"/{NAMED_ONLY}/" in r.path
        or (isinstance(r.json(), dict) and r.json().get("agent") == NAMED_ONLY)
    ]
    if obeyed:
        return failed(
            f"the client invoked the agent {NAMED_ONLY!r}, which only the injected agent's name"
            " asks for",
            *record.evidence(),
        )
    return passed(
        "the client invoked the agent it was asked for, not the one the agent's name asked for",
        *record.evidence(),
    )


def _max_age(headers: dict[str, str]) -> float | None:
    """Seconds the document stays fresh by its Cache-Control (0: it must be revalidated before
    each use)."""
    directives = [d.strip().lower() for d in headers.get("cache-control", "").split(",")]
    if "no-cache" in directives or "no-store" in directives:
        return 0.0
    ages = [d.partition("=")[2] for d in directives if d.startswith("max-age=")]
    return float(ages[0]) if ages and ages[0].isdigit() else None


def _caching_problem(record: ScenarioRecord) -> str | None:
    """How the client did not honour the caching headers of the document it used in `record`: it
    fetched it again unconditionally while it was fresh, or though it came with a validator; or
    it used it again once it had to be revalidated (no-cache, or stale by its max-age) without
    revalidating it."""
    headers: dict[str, str] = {}  # the caching headers in force: a 200's, updated by a 304's
    fetched_at: float | None = None
    used = False  # the document was used (an invocation) since it was last fetched
    for request in sorted(record.requests, key=lambda r: r.at):
        if request.is_document and request.method == "GET":
            conditional = (
                "if-none-match" in request.headers or "if-modified-since" in request.headers
            )
            if fetched_at is not None and not conditional:
                age = _max_age(headers)
                if age and request.at - fetched_at < age:
                    return (
                        f"the document was fresh (Cache-Control {headers.get('cache-control')}),"
                        " yet the client fetched it again unconditionally"
                    )
                if "etag" in headers or "last-modified" in headers:
                    return (
                        "the document came with a validator (ETag or Last-Modified), yet the client"
                        " fetched it again without If-None-Match or If-Modified-Since"
                    )
            if request.status == 200:
                headers, fetched_at, used = (
                    {k.lower(): v for k, v in request.answered.items()},
                    request.at,
                    False,
                )
            elif request.status == 304 and fetched_at is not None:
                headers |= {k.lower(): v for k, v in request.answered.items()}
                fetched_at, used = request.at, False
        elif request.method == "POST" and fetched_at is not None:
            age = _max_age(headers)
            if used and age is not None and request.at - fetched_at >= age:
                return (
                    "the document had to be revalidated (Cache-Control"
                    f" {headers.get('cache-control')}), yet the client used it again without"
                    " revalidating it"
                )
            used = True
    return None


@check("WOA-7-CLIENT-HONORS-CACHING", driver=DRIVER)
async def woa_7_client_honors_caching(target: Any) -> Verdict:
    """WoA 7: "Clients SHOULD honor these headers when polling for updates": a document it used
    again is not fetched again unconditionally while fresh or when it carries a validator, and is
    revalidated once no-cache or stale. Judged wherever the client used a document more than once
    (the scenarios of a fresh document and of one served no-cache with an ETag; in a run that
    watches, its traffic)."""
    session = await client_session(target)
    reused = [
        r
        for r in session.records.values()
        if len([i for i in r.invocations if i.method == "POST"]) >= 2
    ]
    if not reused:
        return skipped(
            Skip.NOT_OBSERVED,
            "the client never used a document twice, so what it does with caching headers was not"
            " seen",
            *next(iter(session.records.values())).evidence(),
        )
    for record in reused:
        if (problem := _caching_problem(record)) is not None:
            return failed(f"scenario {record.scenario.name}: {problem}", *record.evidence())
    return passed(
        "the client honoured the document's caching headers"
        f" ({', '.join(r.scenario.name for r in reused)})",
        *[e for r in reused for e in r.evidence()],
    )


@check("WOA-4.1-SAME-ID-NOT-SAME-AGENT", driver=DRIVER)
async def woa_4_1_client_tells_same_ids_apart(target: Any) -> Verdict:
    """WoA 4.1: "Clients MUST NOT assume that two agents with the same id on different origins
    have the same behavior or schema" (agent echo on two origins, invoked in turn with one
    cache)."""
    record = (await client_session(target))["same-id"]
    first, second = scenario_host("same-id"), scenario_host("same-id-b")
    if not record.invocations:
        return _no_invocation(record)
    posts = [r for r in record.invocations if r.method == "POST"]
    fetched_b = [d.at for d in record.documents if d.host == second]

    def for_a(r: SpyRequest) -> bool:
        return r.host == first or r.path.split("?")[0].startswith("/a/")

    if fetched_b:
        later = [r for r in posts if r.at >= max(fetched_b)]
        on_a = [r for r in later if for_a(r)]
    else:
        # B's document never fetched: the second run either reused what it knew of echo on A
        # (a second invocation there) or did nothing (one, the first run's)
        later = []
        on_a = [r for r in posts if for_a(r)][1:]
    if on_a:
        return failed(
            f"asked to invoke echo from {second}'s document, the client invoked"
            f" {on_a[0].host}{on_a[0].path}, the other origin's agent or path: it reused what it"
            " knew of echo there",
            *record.evidence(),
        )
    if not [r for r in later if r.host == second and r.path.split("?")[0] == "/b/echo/run"]:
        return errored(
            f"asked to invoke echo from {second}'s document, the client sent no POST to"
            f" {second}/b/echo/run: {record.said()}",
            *record.evidence(),
        )
    return passed(
        f"the client invoked echo on each origin through that origin's own document ({second}"
        " included)",
        *record.evidence(),
    )
