"""SDSI client checks (SDSI 3.1, 3.2, 4.3, 6.1): the suite plays the server with a spy on loopback,
drives the client under test through its WoA operation handle_user_request ({utterance, server}),
and judges what the spy received. The utterances are the draft's (sections 5.1 and 5.2) and one
no server can serve.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from ...bindings import ExchangeFailed
from ...bindings import Unreachable
from ...bindings.jsonparse import NotJson
from ...bindings.jsonparse import parse_json
from ...bindings.observed import NotObserved
from ...bindings.observed import carried
from ...bindings.reply import operation_names
from ...harness.hosting import hosted
from ...harness.sdsi_spy import Recorded
from ...report.model import Exchange
from ...targeting import Target
from ...validation import validate_message
from ...validation.rules import is_done
from ..preconditions import document_read
from ..preconditions import watching
from ..registry import Decided
from ..registry import Skip
from ..registry import Unmet
from ..registry import Verdict
from ..registry import check
from ..registry import checks_of_table
from ..registry import errored
from ..registry import failed
from ..registry import passed
from ..registry import skipped

__all__ = ["UTTERANCES"]

UTTERANCES = {
    "flight_booking": (
        "Book me a flight from Beijing to Shanghai next Monday, business class, and I prefer a"
        " window seat."
    ),
    "photo_retouch": (
        "Please retouch this photo: smooth the skin, whiten teeth, make the background blurry, and"
        " add a vintage filter. Also, I want my eyes to look bigger."
    ),
    None: "Order me a large iced latte with oat milk.",
}
#: Words of the draft's utterances that a key of the template covers: they must not land in "other"
#: (SDSI 4.3).
MAPPABLE = ("beijing", "shanghai", "monday", "business", "vintage", "teeth", "blur", "skin")


@dataclass
class Drive:
    scenario: str | None
    utterance: str
    status: int | None = None
    answer: Any = None
    exchange: Exchange | None = None
    problem: str | None = None
    records: list[Any] = field(default_factory=list)

    def payloads(self) -> list[Any]:
        return [r.input for r in self.records if r.operation == "execute"]


@dataclass
class ClientSession:
    unmet: Unmet | None = None
    drives: list[Drive] = field(default_factory=list)
    templates: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: what passed by in a run that watches: one drive per schema_id, no utterance
    observed: bool = False


def _observed(target: Target) -> ClientSession:
    """In a run that watches: the payload messages that passed by (wherever they travelled), one
    drive per schema_id, beside the templates that passed by."""
    assert target.observed is not None
    found, drives = ClientSession(observed=True), dict[str, Drive]()
    for observed in target.observed.calls():
        for template in carried(observed.response_json(), "schema_id", "keys"):
            if isinstance(template["schema_id"], str):
                found.templates.setdefault(template["schema_id"], template)
        for message in carried(observed.request_json(), "schema_id", "payload"):
            if not isinstance(message["schema_id"], str):
                continue
            drive = drives.setdefault(
                str(message["schema_id"]),
                Drive(str(message["schema_id"]), "(a payload that passed by)"),
            )
            drive.records.append(Recorded("execute", message))
            drive.exchange = drive.exchange or observed.exchange()
    found.drives = list(drives.values())
    return found


def _client_agent(document: Any) -> dict[str, Any] | None:
    agents: list[Any] = (
        document["agents"]
        if isinstance(document, dict) and isinstance(document.get("agents"), list)
        else []
    )
    return next(
        (a for a in agents if isinstance(a, dict) and "handle_user_request" in operation_names(a)),
        None,
    )


async def _gather(target: Target) -> ClientSession:
    target.sends("utterances to the client, and the suite's spy server")
    from ...harness.sdsi_spy import Spy
    from ...harness.sdsi_spy import spy_app

    agent = _client_agent(target.document)
    if agent is None:
        return ClientSession(
            Unmet("the target offers no agent with a handle_user_request operation", absent=True)
        )
    url, reason = target.invoke_url(agent["id"])
    if url is None:
        return ClientSession(Unmet(reason or ""))
    spy, found = Spy(), ClientSession(templates=Spy().templates)
    async with hosted(
        "sdsi-spy",
        lambda base: spy_app(base, spy),
        recorder=target.recorder,
        replay=target.replay,
        threaded=target.options.in_process,
    ) as base:
        for scenario, utterance in UTTERANCES.items():
            drive, start = Drive(scenario, utterance), len(spy.records)
            envelope = {
                "agent": agent["id"],
                "operation": "handle_user_request",
                "input": {"utterance": utterance, "server": base + "/.well-known/woa.json"},
            }
            try:
                response = await target.client.request(
                    "POST", url, json=envelope, headers={"accept": "application/json"}
                )
                drive.status, drive.exchange, drive.answer = (
                    response.status,
                    response.exchange,
                    response.body,
                )
            except (ExchangeFailed, Unreachable) as error:
                drive.problem = str(error)
            await asyncio.sleep(0)
            drive.records = spy.since(start)
            found.drives.append(drive)
    return found


async def _session(target: Target, *, watched: bool = False) -> ClientSession:
    """The client session; `Decided` when there is nothing to judge. In a run that watches,
    only a check that judges payloads as they pass by (`watched`) gets one: the others judge what
    the client does with the suite's utterances."""
    judges = "what the client does with the suite's utterances"
    if watching(target, watched=watched, judges=judges):
        found = await target.memo(
            "sdsi-client-session", lambda: asyncio.sleep(0, _observed(target))
        )
        if not found.drives:
            raise NotObserved("no SDSI payload passed by")
        return found
    document_read(target)
    found = await target.memo("sdsi-client-session", lambda: _gather(target))
    if found.unmet:
        raise Decided(found.unmet.verdict())
    broken = [d for d in found.drives if d.problem]
    if broken:
        why = f"driving the client with {broken[0].utterance!r} failed: {broken[0].problem}"
        raise Decided(errored(why))
    return found


def _verdict(found: ClientSession, problems: list[str], success: str) -> Verdict:
    evidence = tuple(d.exchange for d in found.drives if d.exchange)[:3]
    return failed("; ".join(problems[:5]), *evidence) if problems else passed(success, *evidence)


def _mapped(found: ClientSession) -> list[Drive]:
    return [d for d in found.drives if d.scenario is not None]


@check("SDSI-3.2-NEGOTIATION-REQUEST")
async def sdsi_3_2_negotiation_request(target: Target) -> Verdict:
    found = await _session(target)
    problems = []
    for drive in _mapped(found):
        operations = [r.operation for r in drive.records]
        first_payload = operations.index("execute") if "execute" in operations else len(operations)
        asked = [
            r
            for r in drive.records[:first_payload]
            if r.operation == "get_schema_template"
            and isinstance(r.input, dict)
            and isinstance(r.input.get("scenario"), str)
        ]
        if drive.payloads() and not asked:
            problems.append(
                f"{drive.scenario}: a payload was sent without first asking for the scenario's"
                " template"
            )
    return _verdict(
        found, problems, "the client asked for the template of the scenario before every payload"
    )


#: The payload rules that judge a payload against its template: with none at hand, nothing to judge.
_NEEDS_TEMPLATE = frozenset(
    {"SDSI-3.2-PAYLOAD-REQUIRED-KEYS", "SDSI-3.1-CLIENT-PAYLOAD-MATCHES-TEMPLATE"}
)


#: The rules each payload the client sent is judged on, with what a pass says.
_PAYLOAD_RULES = {
    "SDSI-3.2-PAYLOAD-MESSAGE": (
        "every payload message names its schema_id and carries a payload object"
    ),
    "SDSI-3.2-PAYLOAD-REQUIRED-KEYS": "every payload carries all REQUIRED keys",
    "SDSI-3.1-CLIENT-PAYLOAD-MATCHES-TEMPLATE": (
        "every payload uses the template's keys, each with a value of its key_type"
    ),
    "SDSI-4.3-OTHER-VALUE-STRING-OR-ARRAY": '"other" is always a string or an array of strings',
}


async def _payload_rule(target: Target, requirement: str) -> Verdict:
    found = await _session(target, watched=True)
    by_schema = {
        t["schema_id"]: t
        for t in found.templates.values()
        if isinstance(t, dict) and isinstance(t.get("schema_id"), str)
    }

    def template_of(drive: Drive, payload: Any) -> Any:
        """The template the payload names (its schema_id), else its utterance's scenario's:
        a payload for an utterance no scenario fits is judged by the one it names."""
        named = payload.get("schema_id") if isinstance(payload, dict) else None
        return (
            by_schema.get(named)
            if isinstance(named, str) and named in by_schema
            else (found.templates.get(drive.scenario or ""))
        )

    sent = [
        (d, p, template_of(d, p))
        for d in found.drives
        for p in d.payloads()
        if requirement not in _NEEDS_TEMPLATE or template_of(d, p) is not None
    ]
    if not sent and found.observed:
        raise NotObserved("no payload passed by whose template passed by too")
    if not sent:
        return skipped(Skip.NOT_OBSERVED, "the client sent no payload for the draft's utterances")
    problems = [
        f"{d.scenario or repr(d.utterance[:40])}: {v.path}: {v.message}"
        for d, p, template in sent
        for v in validate_message("sdsi/payload-message", p, template=template)
        if v.requirement == requirement
    ]
    return _verdict(found, problems, _PAYLOAD_RULES[requirement])


checks_of_table(_PAYLOAD_RULES, _payload_rule)


def _other_text(payload: Any) -> str:
    inner = payload.get("payload") if isinstance(payload, dict) else None
    other = inner.get("other") if isinstance(inner, dict) else None
    return " ".join(other) if isinstance(other, list) else other if isinstance(other, str) else ""


@check("SDSI-4.3-OTHER-MINIMIZED")
async def sdsi_4_3_other_minimized(target: Target) -> Verdict:
    found = await _session(target)
    problems = [
        f'{d.scenario}: "other" holds {word!r}, which a key of the template covers'
        for d in _mapped(found)
        for p in d.payloads()
        for word in MAPPABLE
        if word in _other_text(p).lower()
    ]
    return _verdict(found, problems, 'fragments the template\'s keys cover were not put in "other"')


@check("SDSI-6.1-LOW-CONFIDENCE-TO-OTHER")
async def sdsi_6_1_low_confidence_to_other(target: Target) -> Verdict:
    found = await _session(target)
    flights = [
        p
        for d in _mapped(found)
        if d.scenario == "flight_booking"
        for p in d.payloads()
        if isinstance(p, dict)
        and isinstance(p.get("payload"), dict)
        and isinstance(p["payload"].get("other", ""), str | list)
    ]  # other shapes are judged by their own rules
    if not flights:
        return skipped(
            Skip.NOT_OBSERVED,
            "the client sent no well-formed payload for the flight-booking utterance",
        )
    problems = (
        []
        if any("window" in _other_text(p).lower() for p in flights)
        else ['"window seat", which no key of Figure 2 covers, did not reach "other"']
    )
    return _verdict(found, problems, 'the fragment no key covers ("window seat") went to "other"')


@check("SDSI-3.2-NO-SERVER-REPORTED")
async def sdsi_3_2_no_server_reported(target: Target) -> Verdict:
    found = await _session(target)
    drive = next(d for d in found.drives if d.scenario is None)
    evidence = (drive.exchange,) if drive.exchange else ()
    if drive.payloads():
        return failed(
            f"for {drive.utterance!r}, which the server cannot serve, the client sent a payload"
            " anyway",
            *evidence,
        )
    if drive.status is None:
        return errored(f"for {drive.utterance!r} the client gave no answer", *evidence)
    if 200 <= drive.status < 300 and _claims_success(drive.answer):
        return failed(
            f"for {drive.utterance!r}, which no server can serve, the client reported success:"
            f" {str(drive.answer)[:200]}",
            *evidence,
        )
    return passed(
        f"for a request no server serves, the client answered {drive.status} without sending a"
        " payload or claiming success",
        *evidence,
    )


def _claims_success(body: Any) -> bool:
    """Whether a client's answer says the request was served: a status that reads done, or a
    result with no error."""
    try:
        answer = parse_json(body) if isinstance(body, bytes) else body
    except NotJson:
        return False
    if not isinstance(answer, dict):
        return False
    if any(k in answer for k in ("error", "errors", "problem")):
        return False
    return is_done(answer.get("status")) or "result" in answer
