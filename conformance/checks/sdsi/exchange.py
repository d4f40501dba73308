"""Structured exchange checks (SDSI 3.1, 3.2, 4.1, 4.3, 7): payloads made from each template,
valid, broken one way, and with "other" in every form; each check judges the answers of its kind."""

from __future__ import annotations

import json

from ...bindings.observed import NotObserved
from ...bindings.sdsi import sdsi_agents
from ...targeting import Target
from ...validation import validate_message
from ...validation.rules import selected_schema
from ..preconditions import on_the_wire
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import skipped
from ..registry import waived
from .common import judge_exchanges
from .common import payload_endpoint
from .common import server_session
from .session import HTML_INJECTION
from .session import INJECTIONS
from .session import Exchanged
from .session import Session
from .templates import KEY_RULES

__all__: list[str] = []

_INJECTED = {f'"other" as {name}' for name in INJECTIONS}


def _served(found: Session, *kinds: str) -> set[str]:
    """The scenarios whose template-conforming payload (of `kinds`: by default either) was
    served."""
    return {
        e.scenario
        for e in found.exchanges
        if e.kind in (kinds or ("minimal", "full")) and e.reply.ok
    }


def _answered(e: Exchanged) -> str:
    return f"answered {e.reply.status}" + (f" ({e.reply.problem})" if e.reply.problem else "")


def _beside(
    found: Session, kind: str, baseline: str
) -> tuple[list[tuple[Exchanged, Exchanged]], list[str]]:
    """Each exchange of `kind` beside the same template's `baseline` exchange, and the scenarios
    where the baseline was refused (then a refusal of `kind` tells nothing of what `kind`
    changes)."""
    first = {e.scenario: e for e in found.exchanges if e.kind == baseline}
    pairs, refused = [], []
    for e in found.exchanges:
        if e.kind == kind and e.scenario in first:
            if first[e.scenario].reply.ok:
                pairs.append((e, first[e.scenario]))
            elif e.scenario not in refused:
                refused.append(e.scenario)
    return pairs, refused


#: Answers about the state of the resource or the server, not about the payload (RFC 9110 15.5.10,
#: RFC 6585 4, RFC 9110 15.6.4).
_STATE_NOT_PAYLOAD = frozenset({409, 429, 503})


def _differential(
    pairs: list[tuple[Exchanged, Exchanged]], refused: list[str], success: str
) -> Verdict:
    broken = [e for e, _ in pairs if e.reply.status is None]
    if broken:
        return errored(
            f"{broken[0].label()}: {broken[0].reply.problem}",
            *[e.reply.exchange for e in broken[:3] if e.reply.exchange],
        )
    # a conflict with the resource's state (economy sold out, a trip booked already) or a
    # moment's unavailability refuses no payload: nothing to compare
    aside = [e for e, _ in pairs if e.reply.status in _STATE_NOT_PAYLOAD]
    pairs = [(e, base) for e, base in pairs if e.reply.status not in _STATE_NOT_PAYLOAD]
    wrong = [(e, base) for e, base in pairs if not e.reply.ok]
    if wrong:
        listed = "; ".join(
            f"{e.label()}: {_answered(e)}, though {base.description} was served"
            for e, base in wrong[:5]
        )
        return failed(
            f"{len(wrong)} of {len(pairs)}: {listed}",
            *[e.reply.exchange for e, _ in wrong[:3] if e.reply.exchange],
        )
    if not pairs:
        if aside:
            return skipped(
                Skip.INCONCLUSIVE,
                f"every payload to judge was answered {aside[0].reply.status}: the state of the"
                " resource or the server, not the payload",
                *[e.reply.exchange for e in aside[:3] if e.reply.exchange],
            )
        if refused:
            return skipped(
                Skip.INCONCLUSIVE,
                f"the payloads to compare with were refused ({', '.join(refused)}), so a refusal"
                " here would tell nothing",
            )
        return skipped(Skip.NOT_OBSERVED, "no such payload could be made from the templates")
    return passed(
        f"{success} ({len(pairs)} payloads)",
        *[e.reply.exchange for e, _ in pairs[:1] if e.reply.exchange],
    )


@check("SDSI-4.1-ABSENT-OPTIONAL-KEY-HANDLED")
async def sdsi_4_1_absent_optional_key_handled(target: Target) -> Verdict:
    """SDSI 4.1: a server handles the absence of an optional key: a payload of the REQUIRED keys
    only is refused, where the same template's payload with every key was served. A template with
    no optional key has nothing to leave out."""
    found = await server_session(target)
    optional = {
        s
        for s, t in found.valid_templates().items()
        if any(
            isinstance(k, dict) and k.get("required") is False and k.get("key_name") != "other"
            for k in t["keys"]
        )
    }
    if not optional:
        return not_applicable('no template has an optional key other than "other"')
    pairs, refused = _beside(found, "minimal", "full")
    return _differential(
        [(e, b) for e, b in pairs if e.scenario in optional],
        [s for s in refused if s in optional],
        "a payload without its optional keys was executed wherever the full one was",
    )


@check("SDSI-3.1-SESSION-STATE-OUTSIDE-PROTOCOL")
async def sdsi_3_1_session_state_outside_protocol(target: Target) -> Verdict:
    """SDSI 3.1: "stateless from the protocol perspective; any session state MUST be managed by the
    application layer or underlying transport protocol". A structured payload the server executed is
    sent twice more, each time on a fresh connection with the run's headers and cookies (what the
    application layer and HTTP keep): once after negotiating its template on that connection, once
    alone. Over HTTP a connection carries no session ("the relationship between connections and
    messages on them has no impact on the interpretation of those messages", RFC 9110, 3.3), so a
    payload executed after the negotiation but refused alone was judged by state the protocol's own
    earlier message left on the connection (E-SDSI-3.1-STATELESS-PROBE)."""
    found = await server_session(target)
    assert found.binding is not None  # else server_session decided
    accepted = next((e for e in found.exchanges if e.kind == "minimal" and e.reply.ok), None)
    if accepted is None:
        return skipped(
            Skip.NOT_OBSERVED,
            "no payload of REQUIRED keys was executed, so there is none to send again",
        )
    schema_id = found.valid_templates()[accepted.scenario]["schema_id"]
    async with target.client.fresh() as client:
        binding = found.binding.over(client)
        await binding.template(accepted.scenario)
        negotiated = await binding.with_headers(found.test_headers).execute(
            schema_id, accepted.payload, "agent-conformance"
        )
        # the cookies as the negotiation left them (a server may rotate its session id): the
        # state HTTP keeps, on a connection of its own
        async with client.fresh() as again:
            alone = (
                await found.binding.over(again)
                .with_headers(found.test_headers)
                .execute(schema_id, accepted.payload, "agent-conformance")
            )
    evidence = [e for e in (negotiated.exchange, alone.exchange) if e]
    if not negotiated.ok:
        return skipped(
            Skip.INCONCLUSIVE,
            "the payload, sent again after negotiating its template, was answered"
            f" {negotiated.status or negotiated.problem}: its answer depends on the application's"
            " state, so sending it alone would prove nothing",
            *evidence,
        )
    if alone.status is None:
        return errored(
            f"the payload sent alone on a fresh connection got no answer: {alone.problem}",
            *evidence,
        )
    if alone.ok:
        return passed(
            f"{accepted.scenario}: the payload was executed alone on a fresh connection"
            f" ({alone.status}), as after a negotiation on its connection",
            *evidence,
        )
    return failed(
        f"{accepted.scenario}: the payload was executed after a negotiation on its connection but"
        " refused alone on a fresh connection with the same headers and cookies"
        f" ({alone.status}{': ' + alone.problem if alone.problem else ''}): the server keeps"
        " session state on the connection, outside the application layer and HTTP",
        *evidence,
    )


@check("SDSI-3.1-SERVER-VALIDATES-PAYLOAD")
async def sdsi_3_1_server_validates_payload(target: Target) -> Verdict:
    """SDSI 3.1: a server validates "incoming structured payloads against the schema": a payload
    that breaks its template is rejected. A rejection says so only where the same template's
    conforming payload was served: one that refuses both rejects without validating."""
    served = _served(await server_session(target))
    return await judge_exchanges(
        target,
        ("missing-required", "wrong-type", "unknown-schema"),
        lambda e: None if e.reply.rejected else f"{_answered(e)}, not a 4xx rejection",
        "every payload that breaks its template was rejected with a 4xx",
        holds=lambda e: e.scenario in served,
        left_out="the rejections of a template whose conforming payloads were refused too (they"
        " say nothing of validation)",
    )


@check("SDSI-3.2-RESULT-STRUCTURED")
async def sdsi_3_2_result_structured(target: Target) -> Verdict:
    """SDSI 3.2: "The result itself SHOULD be structured according to a pre-negotiated response
    schema when applicable": where the execute operation has an outputs schema, a served result
    is a JSON object (refused payloads have no result)."""
    found = await server_session(target, watched=True)
    agent = (
        getattr(found.binding, "agent", None)
        if not found.observed
        else next(iter(sdsi_agents(target.fetched.document)), None)
    )
    if not isinstance(agent, dict) or not isinstance(
        selected_schema(agent, "execute", "outputs"), dict
    ):
        return not_applicable(
            "no response schema was negotiated beforehand (no outputs schema for execute)"
        )

    def judge(e: Exchanged) -> str | None:
        if not e.reply.ok or isinstance(e.reply.body, dict):
            return None
        return f"the result is a JSON {type(e.reply.body).__name__}, not an object"

    return await judge_exchanges(
        target,
        ("full", "observed"),
        judge,
        "the results are structured JSON objects",
        holds=lambda e: e.reply.ok,
        left_out="the refusals (a refusal has no result)",
    )


@check("SDSI-4.3-OTHER-ACCEPTED")
async def sdsi_4_3_other_accepted(target: Target) -> Verdict:
    """SDSI 4.3: "other" is accepted: a payload carrying it in any form is not refused where the
    same payload without it (the REQUIRED keys only) was served."""
    found = await server_session(target)
    pairs, refused = _beside(found, "other", "minimal")
    # a server error on an injection attempt is SDSI-7-OTHER-SANITIZED's, not a refusal of "other"
    pairs = [
        (e, b)
        for e, b in pairs
        if not (e.description in _INJECTED and (e.reply.status or 0) >= 500)
    ]
    return _differential(
        pairs, refused, 'every payload carrying "other" was served where the payload without it was'
    )


@check("SDSI-7-OTHER-SANITIZED")
async def sdsi_7_other_sanitized(target: Target) -> Verdict:
    """SDSI 7: "other" gets "the same input validation and sanitization practices as ... any natural
    language input": an injection attempt causes no server error, and is not given back unescaped in
    an answer a client renders as markup (text/html). Given back in JSON is
    SDSI-7-OTHER-NOT-REFLECTED's."""

    served = _served(await server_session(target), "minimal")

    def judge(e: Exchanged) -> str | None:
        if e.description not in _INJECTED:
            return None
        if e.reply.status is not None and e.reply.status >= 500:
            return f"the injection attempt caused a server error ({e.reply.status})"
        if e.reply.media_type == "text/html" and HTML_INJECTION in e.reply.raw.decode(
            "utf-8", "replace"
        ):
            return "the HTML injection is given back unescaped in an HTML answer"
        return None

    return await judge_exchanges(
        target,
        ("other",),
        judge,
        'injection attempts in "other" caused no error and no markup',
        # a refusal of an injection says nothing where the same payload without it was refused
        holds=lambda e: e.description in _INJECTED and (e.reply.ok or e.scenario in served),
        left_out='"other" without an injection, and the refusals of an injection where the payload'
        " without it was refused too (they say nothing of validation)",
    )


@check("SDSI-7-OTHER-NOT-REFLECTED")
async def sdsi_7_other_not_reflected(target: Target) -> Verdict:
    """The suite's reading of SDSI 7 (inferred): a server does not reflect the content of "other"
    unescaped in any answer, since a client may render it as markup."""

    def judge(e: Exchanged) -> str | None:
        if e.description in _INJECTED and HTML_INJECTION in json.dumps(
            e.reply.body, ensure_ascii=False
        ):
            return "the HTML injection is reflected unescaped in the answer"
        return None

    return await judge_exchanges(
        target,
        ("other",),
        judge,
        'injection attempts in "other" were not reflected unescaped',
        holds=lambda e: e.description in _INJECTED,
        left_out='"other" without an injection',
    )


@check("SDSI-3.2-SUGGESTION-WELL-FORMED")
async def sdsi_3_2_suggestion_well_formed(target: Target) -> Verdict:
    found = await server_session(target, watched=True)
    suggested = [
        (e, e.reply.body["schema_update_suggestion"])
        for e in found.exchanges
        if e.reply.ok
        and isinstance(e.reply.body, dict)
        and "schema_update_suggestion" in e.reply.body
        and not (
            isinstance(e.reply.body["schema_update_suggestion"], dict)
            and "patch_id" in e.reply.body["schema_update_suggestion"]
        )
    ]
    if not suggested and found.observed:
        raise NotObserved("no result with a schema_update_suggestion passed by")
    if not suggested:
        return not_applicable(
            "no result carried a schema_update_suggestion that is not a patch (patches are judged"
            " by SDSI 6.2)"
        )
    # the form, and 4.1's MUSTs of each new key; no SHOULD
    judged = {"SDSI-3.2-SUGGESTION-WELL-FORMED", *KEY_RULES}
    problems = [
        f"{e.label()}: {v}"
        for e, suggestion in suggested
        for v in validate_message("sdsi/schema-update-suggestion", suggestion)
        if v.requirement in judged
    ]
    evidence = tuple(e.reply.exchange for e, _ in suggested if e.reply.exchange)[:3]
    if problems:
        return failed("; ".join(problems[:5]), *evidence)
    return passed(f"{len(suggested)} suggestions, each well-formed", *evidence)


@check("SDSI-7-HTTPS")
async def sdsi_7_https(target: Target) -> Verdict:
    """The suite's reading of SDSI 7 (inferred): data is protected in transit "using mechanisms
    appropriate to their threat model"; over HTTP, the suite reads that as HTTPS."""
    endpoint, evidence, _ = await payload_endpoint(target)
    on_the_wire(target)
    if endpoint.startswith("https://"):
        return passed(f"payloads travel over HTTPS ({endpoint})", *evidence)
    if target.waives_plain_http(endpoint):
        return waived(
            f"plain HTTP on loopback ({endpoint}), waived by --allow-http-loopback", *evidence
        )
    return failed(f"payloads travel over plain HTTP ({endpoint})", *evidence)
