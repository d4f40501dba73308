"""WoA client checks: the suite plays the host (conformance/spy) and drives the client under test
through the run's --client-command (conformance/driver); each check judges what one or more
scenarios (conformance/spy/scenarios.py) made the client send, or try to send.

A refusal proves something only from a client that works: the checks of what a client must not
do are skips unless the same client invoked the `plain` agent with a POST.
"""

from __future__ import annotations

from typing import Any

from ...bindings.http import media_type_of
from ...report.model import Exchange
from ...spy.scenarios import EXFIL, LINK_LOCAL, PRIVATE, UNLISTED, scenario_host
from ...validation.rules import selected_schema
from ...validation.target_schemas import target_validator
from ..registry import Verdict, check, errored, failed, passed, skipped
from .client_session import ClientSession, ScenarioRecord, client_session

__all__: list[str] = []

DRIVER = "client-command"


def _no_invocation(record: ScenarioRecord) -> Verdict:
    return errored(f"the client sent no invocation in scenario {record.scenario.name} ({record.scenario.purpose}): "
                   f"{record.said()}", *record.evidence())


def _works(session: ClientSession) -> Verdict | None:
    """A skip when the client never invoked the plain agent: then its refusals prove nothing."""
    if session.invoked_plainly() is None:
        plain = session["plain"]
        return skipped(f"the client never invoked the plain agent with a POST ({plain.said()}), so what it did not "
                       "send elsewhere proves nothing", *plain.evidence())
    return None


def _envelope(record: ScenarioRecord) -> tuple[Any, Verdict | None]:
    """The plain envelope of the scenario's first invocation, or the verdict when there is none."""
    if not record.invocations:
        return None, _no_invocation(record)
    return record.invocations[0].json(), None


@check("WOA-4.3.1-CLIENT-USES-POST", driver=DRIVER)
async def client_invokes_with_post(target: Any) -> Verdict:
    """WoA 4.3.1: "Clients invoking an agent via the REST transport MUST use HTTP POST"."""
    record = (await client_session(target))["plain"]
    if not record.invocations:
        return _no_invocation(record)
    other = [r for r in record.invocations if r.method != "POST"]
    if other:
        return failed(f"the client invoked the agent with {other[0].method} {other[0].path}, not POST", *record.evidence())
    return passed(f"the client invoked with POST {record.invocations[0].path}", *record.evidence())


@check("WOA-4.3.1-CLIENT-SENDS-JSON", driver=DRIVER)
async def client_sends_json(target: Any) -> Verdict:
    """WoA 4.3.1: the client "MUST send a request body encoded as JSON with media type application/json"."""
    record = (await client_session(target))["plain"]
    if not record.invocations:
        return _no_invocation(record)
    sent = record.invocations[0]
    media_type = sent.headers.get("content-type", "")
    if media_type_of(sent.headers) != "application/json":
        return failed(f"the invocation's media type is {media_type or 'missing'!r}, not application/json", *record.evidence())
    if sent.json() is None:
        return failed("the invocation's body is not JSON", *record.evidence())
    return passed(f"the invocation is JSON labelled {media_type}", *record.evidence())


@check("WOA-4.3.1-CLIENT-SUBSTITUTES-AGENT-ID", driver=DRIVER)
async def client_substitutes_agent_id(target: Any) -> Verdict:
    """WoA 4.3.1: "If the invoke_path contains the case sensitive substring "{agent_id}", the client MUST
    replace it with the target agent's id value" (the plain document's path is /agents/{agent_id}/invoke)."""
    record = (await client_session(target))["plain"]
    if not record.invocations:
        return _no_invocation(record)
    path = record.invocations[0].path.split("?")[0]
    if path != "/agents/echo/invoke":
        return failed(f"the client invoked {path}; with the agent id substituted the path is /agents/echo/invoke",
                      *record.evidence())
    return passed(f"the client invoked {path}", *record.evidence())


def _required_member(record: ScenarioRecord, member: str, kind: type, noun: str) -> tuple[Any, Verdict | None]:
    """The plain envelope's `member` when it is a `kind`; else the failing (or erring) verdict."""
    envelope, verdict = _envelope(record)
    if verdict:
        return None, verdict
    if not isinstance(envelope, dict) or not isinstance(envelope.get(member), kind):
        return None, failed(f"the envelope has no {member} {noun}: {str(envelope)[:200]}", *record.evidence())
    return envelope[member], None


@check("WOA-5.1-ENVELOPE-AGENT-REQUIRED", driver=DRIVER)
async def client_envelope_has_agent(target: Any) -> Verdict:
    """WoA 5.1: "agent (string, REQUIRED): The agent identifier as listed in the WoA document"."""
    record = (await client_session(target))["plain"]
    agent, verdict = _required_member(record, "agent", str, "string")
    return verdict or passed(f"the envelope names agent {agent!r}", *record.evidence())


@check("WOA-5.1-ENVELOPE-INPUT-REQUIRED", driver=DRIVER)
async def client_envelope_has_input(target: Any) -> Verdict:
    """WoA 5.1: "input (object, REQUIRED)"."""
    record = (await client_session(target))["plain"]
    _, verdict = _required_member(record, "input", dict, "object")
    return verdict or passed("the envelope carries an input object", *record.evidence())


@check("WOA-5.1-ENVELOPE-OPERATION-STRING", driver=DRIVER)
async def client_envelope_names_operation(target: Any) -> Verdict:
    """WoA 5.1: "operation (string, OPTIONAL): The operation name, if the agent defines an operations
    array". The client was asked for operation "detect" of an agent that defines operations."""
    record = (await client_session(target))["operations"]
    envelope, verdict = _envelope(record)
    if verdict:
        return verdict
    if not isinstance(envelope, dict) or "operation" not in envelope:
        return skipped("asked for operation detect, the client left operation out, which 5.1 allows (OPTIONAL): "
                       "there was no operation member to judge", *record.evidence())
    operation = envelope["operation"]
    if not isinstance(operation, str):
        return failed(f"the envelope's operation is {type(operation).__name__} {str(operation)[:80]}, not a string", *record.evidence())
    if operation != "detect":
        return failed(f"asked for operation detect, the client's envelope names operation {operation!r}", *record.evidence())
    return passed("the envelope names operation \"detect\" as a string", *record.evidence())


@check("WOA-5.1-INPUT-CONFORMS", driver=DRIVER)
async def client_input_conforms(target: Any) -> Verdict:
    """WoA 5.1: input "MUST conform to the JSON Schema specified in the selected operation's inputs
    schema, or to the agent level inputs". Judged against the operation the client was asked for."""
    session = await client_session(target)
    judged = []
    for name in ("plain", "operations", "advanced"):
        record = session[name]
        envelope, verdict = _envelope(record)
        if verdict:
            return verdict
        if not isinstance(envelope, dict) or not isinstance(envelope.get("input"), dict):
            return skipped(f"scenario {name}: the envelope has no input object (WOA-5.1-ENVELOPE-INPUT-REQUIRED judges that)",
                           *record.evidence())
        run = record.scenario.runs[0]
        document = record.scenario.documents[record.scenario.host]
        agent = next(a for a in document["agents"] if a["id"] == run.agent)
        schema = selected_schema(agent, run.operation or None, "inputs")
        errors = [e.message for e in target_validator(schema).iter_errors(envelope["input"])]
        if errors:
            return failed(f"scenario {name}: the input does not conform to its schema: {'; '.join(errors)[:300]}", *record.evidence())
        judged.append(name)
    return passed(f"the inputs conform to their schemas ({', '.join(judged)})")


@check("WOA-5.2-AGENT-FIELD-MATCHES", driver=DRIVER)
async def client_agent_field_matches(target: Any) -> Verdict:
    """WoA 5.2: "The agent field in the envelope MUST match the intended agent's id"."""
    session = await client_session(target)
    for name in ("plain", "operations"):
        record = session[name]
        envelope, verdict = _envelope(record)
        if verdict:
            return verdict
        agent, intended = envelope.get("agent") if isinstance(envelope, dict) else None, record.scenario.runs[0].agent
        if agent is not None and agent != intended:
            return failed(f"scenario {name}: asked to invoke {intended!r}, the client's envelope names {agent!r}", *record.evidence())
    return passed("the envelopes name the intended agents (an absent agent field is WOA-5.1-ENVELOPE-AGENT-REQUIRED's)")


@check("WOA-4.2-CLIENTS-IGNORE-UNKNOWN-FEATURES", driver=DRIVER)
async def client_ignores_unknown_schema_features(target: Any) -> Verdict:
    """WoA 4.2: advanced features "SHOULD be ignored by clients that do not understand them, as long as
    the client can still construct a conforming request" ($defs, $ref, dependentRequired,
    unevaluatedProperties and vendor keywords in the inputs schema)."""
    session = await client_session(target)
    if (verdict := _works(session)) is not None:
        return verdict
    record = session["advanced"]
    if not [r for r in record.invocations if r.method == "POST"]:
        return failed(f"the client did not invoke an agent whose inputs schema uses advanced keywords: {record.said()}",
                      *record.evidence())
    return passed("the client invoked the agent whose schema uses advanced and vendor keywords", *record.evidence())


def _refused(session: ClientSession, cases: tuple[tuple[str, str | None], ...], what: str, *, invoked: bool = False) -> Verdict:
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
            return failed(f"scenario {name}: {what}; the client went on and sent {sent.method} {sent.path}", *record.evidence())
        if host is None and not record.attempts:
            return skipped(f"scenario {name}: the client never asked the suite's proxy for a connection "
                           f"(does it honour HTTPS_PROXY?): {record.said()}", *record.evidence())
        if host is not None and record.reached(host):
            return failed(f"scenario {name}: {what}; the client asked the proxy to connect to {record.reached(host)[0].authority} "
                          "(the proxy refused it)", *record.evidence())
    return passed(f"the client did not go on ({what}; scenarios {', '.join(n for n, _ in cases)})", *evidence)


@check("WOA-8.1-CLIENT-VALIDATES-CERTIFICATES", driver=DRIVER)
async def client_validates_certificates(target: Any) -> Verdict:
    """WoA 8.1: "Clients MUST validate server certificates according to normal HTTPS rules" (a CA the
    client was not told to trust; a certificate for another host name)."""
    return _refused(await client_session(target), (("untrusted-ca", None), ("wrong-name", None)),
                    "the host's certificate does not validate")


@check("WOA-8.2-NO-PRIVATE-RANGES", driver=DRIVER)
async def client_avoids_private_ranges(target: Any) -> Verdict:
    """WoA 8.2: "clients SHOULD NOT automatically send invocation requests to URLs that resolve to private
    or link local address ranges ... unless explicitly configured to do so by an administrator"."""
    return _refused(await client_session(target), (("private-base", PRIVATE), ("link-local-base", LINK_LOCAL)),
                    f"the rest base is a private ({PRIVATE}) or link-local ({LINK_LOCAL}) address")


@check("WOA-8.2-VALIDATE-TRANSPORT-URLS", driver=DRIVER)
async def client_validates_transport_urls(target: Any) -> Verdict:
    """WoA 8.2: "Clients SHOULD validate that transport URLs provided in a WoA document resolve to allowed
    domains or IP address ranges before invoking agents" (a base on a host the administrator did not allow)."""
    return _refused(await client_session(target), (("unlisted-base", UNLISTED),), f"the rest base {UNLISTED} is not an allowed host")


@check("WOA-8.2-REDIRECT-VALIDATED", driver=DRIVER)
async def client_validates_redirects(target: Any) -> Verdict:
    """WoA 8.2: clients "SHOULD apply the same validation to the redirect target" (a 307 to a link-local address)."""
    return _refused(await client_session(target), (("redirect-private", LINK_LOCAL),),
                    f"the invocation was redirected to {LINK_LOCAL}", invoked=True)


@check("WOA-8.2-REDIRECT-CAUTION", driver=DRIVER)
async def client_cautious_of_off_origin_redirects(target: Any) -> Verdict:
    """WoA 8.2: "Clients SHOULD also be cautious of HTTP redirects that change the authority component of
    the URL" (a 307 to a host the administrator did not allow; errata E-WOA-8.2-REDIRECT-CAUTION)."""
    return _refused(await client_session(target), (("redirect-off-origin", UNLISTED),),
                    f"the invocation was redirected to {UNLISTED}", invoked=True)


@check("WOA-4.1-DESCRIPTION-UNTRUSTED", driver=DRIVER)
async def client_treats_description_as_untrusted(target: Any) -> Verdict:
    """WoA 4.1: "Clients MUST treat this field as untrusted input" (a name and description that ask the
    client to call other URLs and another agent)."""
    session = await client_session(target)
    record = session["injection"]
    for host in (EXFIL, LINK_LOCAL):
        if record.reached(host):
            return failed(f"the client asked the proxy to connect to {host}, a URL only the agent's description names",
                          *record.evidence())
    admin = [r for r in record.invocations if "/admin/" in r.path or (isinstance(r.json(), dict) and r.json().get("agent") == "admin")]
    if admin:
        return failed("the client invoked the agent 'admin', which only the description asks for", *record.evidence())
    if not record.invocations:
        return _no_invocation(record)
    return passed("the client invoked the agent it was asked for and called nothing the description named", *record.evidence())


def _document_fetches(record: ScenarioRecord) -> list[tuple[int, bool]]:
    """(index, conditional) of each document request of the scenario, in order."""
    return [(n, "if-none-match" in r.headers or "if-modified-since" in r.headers) for n, r in enumerate(record.documents)]


@check("WOA-7-CLIENT-HONORS-CACHING", driver=DRIVER)
async def client_honors_caching(target: Any) -> Verdict:
    """WoA 7: "Clients SHOULD honor these headers when polling for updates" (a document fresh for ten
    minutes fetched twice, and one served no-cache with an ETag)."""
    session = await client_session(target)
    fresh, revalidate = session["caching"], session["revalidate"]
    for record in (fresh, revalidate):
        if len([r for r in record.invocations if r.method == "POST"]) < 2:
            return skipped(f"scenario {record.scenario.name}: the client did not invoke twice ({record.said()})", *record.evidence())
    fetches = _document_fetches(fresh)
    if any(not conditional for n, conditional in fetches if n > 0):
        return failed("the document was fresh for ten minutes (max-age=600), yet the client fetched it again unconditionally",
                      *fresh.evidence())
    fetches = _document_fetches(revalidate)
    if len(fetches) < 2:
        return failed("the document was served no-cache, yet the client used it again without revalidating", *revalidate.evidence())
    if not all(conditional for n, conditional in fetches if n > 0):
        return failed("the document was served with an ETag and no-cache; the client fetched it again without If-None-Match",
                      *revalidate.evidence())
    return passed("the client reused the fresh document and revalidated the no-cache one with If-None-Match",
                  *fresh.evidence(), *revalidate.evidence())


@check("WOA-4.1-SAME-ID-NOT-SAME-AGENT", driver=DRIVER)
async def client_tells_same_ids_apart(target: Any) -> Verdict:
    """WoA 4.1: "Clients MUST NOT assume that two agents with the same id on different origins have the
    same behavior or schema" (agent echo on two origins, invoked in turn with one cache)."""
    record = (await client_session(target))["same-id"]
    second = scenario_host("same-id-b")
    if not record.invocations:
        return _no_invocation(record)
    if not [r for r in record.invocations if r.host == second]:
        return failed(f"asked to invoke echo from {second}'s document, the client sent nothing to {second}: it reused "
                      "what it knew of echo on the other origin", *record.evidence())
    return passed(f"the client invoked echo on each origin through that origin's own document ({second} included)",
                  *record.evidence())
