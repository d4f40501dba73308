"""Structured exchange checks (SDSI 3.1, 3.2, 4.1, 4.3, 7): payloads made from each template,
valid, broken one way, and with "other" in every form; each check judges the answers of its kind."""

from __future__ import annotations

import json

from ...bindings.sdsi import sdsi_agents
from ...report.model import Exchange
from ...target import Target, rest_config
from ...validation import validate_message
from ..registry import Verdict, check, errored, failed, not_applicable, passed, waived
from .common import judge_exchanges, unavailable
from .session import HTML_INJECTION, INJECTIONS, Exchanged

__all__: list[str] = []


def _answered(e: Exchanged) -> str:
    return f"answered {e.reply.status}" + (f" ({e.reply.problem})" if e.reply.problem else "")


@check("SDSI-4.1-ABSENT-OPTIONAL-KEY-HANDLED")
async def sdsi_4_1_absent_optional_key_handled(target: Target) -> Verdict:
    return await judge_exchanges(target, ("minimal",), lambda e: None if e.reply.ok else _answered(e),
                                 "a payload without its optional keys was executed")


@check("SDSI-3.1-SERVER-VALIDATES-PAYLOAD")
async def sdsi_3_1_server_validates_payload(target: Target) -> Verdict:
    return await judge_exchanges(target, ("missing-required", "wrong-type", "unknown-schema"),
                                 lambda e: None if e.reply.rejected else f"{_answered(e)}, not a 4xx rejection",
                                 "every payload that breaks its template was rejected with a 4xx")


@check("SDSI-3.2-RESULT-STRUCTURED")
async def sdsi_3_2_result_structured(target: Target) -> Verdict:
    def judge(e: Exchanged) -> str | None:
        if not e.reply.ok:
            return _answered(e)
        return None if isinstance(e.reply.body, dict) else f"the result is a JSON {type(e.reply.body).__name__}, not an object"
    return await judge_exchanges(target, ("full",), judge, "the results are structured JSON objects")


@check("SDSI-4.3-OTHER-ACCEPTED")
async def sdsi_4_3_other_accepted(target: Target) -> Verdict:
    return await judge_exchanges(target, ("other",), lambda e: None if e.reply.ok else _answered(e),
                                 'every payload carrying "other" was accepted')


@check("SDSI-7-OTHER-SANITIZED")
async def sdsi_7_other_sanitized(target: Target) -> Verdict:
    injected = {f'"other" as {name}' for name in INJECTIONS}

    def judge(e: Exchanged) -> str | None:
        if e.description not in injected:
            return None
        if e.reply.status is not None and e.reply.status >= 500:
            return f"the injection attempt caused a server error ({e.reply.status})"
        if HTML_INJECTION in json.dumps(e.reply.body, ensure_ascii=False):
            return "the HTML injection is reflected unescaped in the answer"
        return None
    return await judge_exchanges(target, ("other",), judge, "injection attempts in \"other\" caused no error and were not reflected unescaped")


@check("SDSI-3.2-SUGGESTION-WELL-FORMED")
async def sdsi_3_2_suggestion_well_formed(target: Target) -> Verdict:
    found, verdict = await unavailable(target)
    if verdict or found is None:
        return verdict or errored("")
    suggested = [(e, e.reply.body["schema_update_suggestion"]) for e in found.exchanges
                 if e.reply.ok and isinstance(e.reply.body, dict) and "schema_update_suggestion" in e.reply.body
                 and not (isinstance(e.reply.body["schema_update_suggestion"], dict) and "patch_id" in e.reply.body["schema_update_suggestion"])]
    if not suggested:
        return not_applicable("no result carried a schema_update_suggestion that is not a patch (patches are judged by SDSI 6.2)")
    problems = [f"{e.label()}: {v}" for e, suggestion in suggested
                for v in validate_message("sdsi/schema-update-suggestion", suggestion) if not v.requirement.startswith("SDSI-6.2")]
    evidence = tuple(e.reply.exchange for e, _ in suggested if e.reply.exchange)[:3]
    if problems:
        return failed("; ".join(problems[:5]), *evidence)
    return passed(f"{len(suggested)} suggestions, each well-formed", *evidence)


@check("SDSI-7-DATA-PROTECTED-IN-TRANSIT", wire=True)
async def sdsi_7_data_protected_in_transit(target: Target) -> Verdict:
    found, verdict = await unavailable(target)
    evidence: tuple[Exchange, ...] = ()
    if found is None or found.binding is None:
        rest = rest_config(target.document)
        base = rest.get("base") if isinstance(rest, dict) else None
        if not (isinstance(base, str) and base.startswith("http://") and sdsi_agents(target.document)):
            return verdict or errored("")
        endpoint = base  # the suite does not send payloads over plain HTTP, but the document says where they would go
    else:
        endpoint = found.binding.endpoint
        evidence = tuple(e.reply.exchange for e in found.exchanges[:1] if e.reply.exchange)
    if endpoint.startswith("https://"):
        return passed(f"payloads travel over HTTPS ({endpoint})", *evidence)
    if target.waives_plain_http(endpoint):
        return waived(f"plain HTTP on loopback ({endpoint}), waived by --allow-http-loopback", *evidence)
    return failed(f"payloads travel over plain HTTP ({endpoint})", *evidence)
