"""Each fix the second, independent reading of the checks asked for (docs/check-review.json,
`second_reading`), proven on the input that showed the check wrong: an over-assertion now passes
(or is not judged), an under-assertion now fails."""

from __future__ import annotations

import asyncio
import copy
import json
import uuid
from types import SimpleNamespace
from typing import Any
from typing import ClassVar

import pytest
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

from conformance.bindings import DocumentFetch
from conformance.bindings.sdsi import CAPABILITY as SDSI_CAPABILITY
from conformance.checks import CHECKS
from conformance.checks.aci.master import _without_query
from conformance.checks.registry import Verdict
from conformance.checks.sdsi.patches import security_relevant
from conformance.checks.sdsi.templates import _schema_ids_shared
from conformance.checks.woa.client_session import ClientSession
from conformance.checks.woa.client_session import ScenarioRecord
from conformance.driver import Outcome
from conformance.engine.runner import run
from conformance.harness.inprocess import in_process
from conformance.report import Collect
from conformance.report import Status
from conformance.requirements import catalogue
from conformance.spy import SCENARIOS
from conformance.spy import ProxyAttempt
from conformance.spy import SpyRequest
from conformance.spy.scenarios import LINK_LOCAL
from conformance.targeting import on_the_open_internet
from conformance.targeting import run_options
from conformance.validation import validate_message
from conformance.vectors.figures import sdsi_figure
from mocks.variants import seat_patch_edited
from tests.checks.mutants import Changed
from tests.checks.mutants import certify_changed

AGENT: dict[str, Any] = {
    "id": "echo",
    "name": "Echo",
    "description": "Echoes.",
    "inputs": {"type": "object", "properties": {}},
    "outputs": {"type": "object", "properties": {}},
    "transports": ["rest"],
}
DOCUMENT: dict[str, Any] = {
    "woa_version": "1",
    "agents": [AGENT],
    "transports": {
        "rest": {"base": "https://h.example", "invoke_path": "/agents/{agent_id}/invoke"}
    },
}


def _judged(check: str, document: Any, origin: str = "https://h.example") -> Verdict:
    """A document check on `document`, as fetched from `origin`."""
    answered: Any = SimpleNamespace(exchange=None)
    fetched = DocumentFetch(f"{origin}/.well-known/woa.json", answered, document)
    target: Any = SimpleNamespace(
        discovery=fetched, document=document, cache={}, waives_plain_http=lambda url: False
    )
    verdict: Verdict = asyncio.run(CHECKS[check].function(target))  # type: ignore[arg-type]
    return verdict


# -- WoA documents --


def test_a_duplicate_id_is_judged_past_a_thousand_schema_errors() -> None:
    """The cut-off on schema errors left AGENT-ID-UNIQUE an error, though its rule reads the
    whole document always."""
    document = copy.deepcopy(DOCUMENT)
    document["agents"][0]["capabilities"] = [1] * 1001
    verdict = _judged("woa_4_1_agent_id_unique", document)
    assert verdict.status is Status.PASS, verdict
    document["agents"].append(copy.deepcopy(document["agents"][0]))
    assert _judged("woa_4_1_agent_id_unique", document).status is Status.FAIL


def test_agents_transports_are_not_judged_without_the_transports_object() -> None:
    """An agent naming rest in a document with no transports object passed ("the document keeps
    this rule"); WOA-4-DOCUMENT-OBJECT fails that document."""
    document = {k: v for k, v in DOCUMENT.items() if k != "transports"}
    verdict = _judged("woa_4_1_agent_transports_defined", document)
    assert verdict.status is Status.NOT_APPLICABLE, verdict


def test_a_rest_base_has_no_fragment_and_an_invoke_path_no_stray_characters() -> None:
    def broken(base: str, invoke_path: str) -> set[str]:
        document = copy.deepcopy(DOCUMENT)
        document["transports"]["rest"] = {"base": base, "invoke_path": invoke_path}
        return {v.requirement for v in validate_message("woa/document", document)}

    assert broken("https://h.example#f", "/agents/{agent_id}/invoke") == {
        "WOA-4.3.1-REST-BASE-HTTPS"
    }
    for path in ("/a b", "/\n", "/x#frag"):
        assert broken("https://h.example", path) == {"WOA-4.3.1-REST-INVOKE-PATH-ABSOLUTE"}, path
    for path in ("/agents/{agent_id}/invoke", "/v1/invoke?agent={agent_id}", "/x%20y/{agent_id}"):
        assert broken("https://h.example/api", path) == set(), path


def test_a_document_host_that_implements_no_rest_transport_is_not_bound_to_https() -> None:
    """ "Hosts that serve WoA documents and implement REST transports MUST use HTTPS": a document
    on a private address whose REST endpoints are another host's failed."""
    document = copy.deepcopy(DOCUMENT)
    document["transports"]["rest"]["base"] = "https://api.example.com"
    verdict = _judged("woa_8_1_host_uses_https", document, "http://192.168.1.10")
    assert verdict.status is Status.NOT_APPLICABLE, verdict


def test_a_redirected_invocation_is_not_judged_as_a_body() -> None:
    """WoA 8.2 expects invocations to be redirected; a 307 carries no content. It failed
    WOA-4.3.1-HOST-RESPONDS-JSON ("as no media type, not JSON")."""

    async def redirect(request: Any) -> Response:
        return Response(status_code=307, headers={"location": "https://h.example/v2/invoke"})

    app = Starlette(
        routes=[
            Route(
                "/.well-known/woa.json",
                lambda _: Response(json.dumps(DOCUMENT), media_type="application/woa+json"),
            ),
            Route("/agents/{agent}/invoke", redirect, methods=["POST"]),
        ]
    )
    collect = Collect()
    options = run_options(target="https://h.example", suites=("woa",), transport=in_process(app))
    asyncio.run(run(options, [collect]))
    verdict = next(r for r in collect.results if r.requirement == "WOA-4.3.1-HOST-RESPONDS-JSON")
    assert verdict.status is Status.SKIP, verdict


def test_a_document_beyond_the_parsers_limits_is_not_judged() -> None:
    """1,000 levels of nesting inside an extension member is JSON; RFC 8259 section 9 lets a
    parser limit it. WOA-4-DOCUMENT-OBJECT failed the host for the suite's limit."""
    body = json.dumps(DOCUMENT)[:-1] + ', "x-ext": ' + "[" * 1000 + "]" * 1000 + "}"
    app = Starlette(
        routes=[
            Route(
                "/.well-known/woa.json", lambda _: Response(body, media_type="application/woa+json")
            )
        ]
    )
    collect = Collect()
    options = run_options(target="https://h.example", suites=("woa",), transport=in_process(app))
    asyncio.run(run(options, [collect]))
    verdict = next(r for r in collect.results if r.requirement == "WOA-4-DOCUMENT-OBJECT")
    assert verdict.status is Status.ERROR and "limits" in verdict.message, verdict


# -- WoA clients --

_SCENARIOS = {s.name: s for s in SCENARIOS}


def _request(host: str, method: str, path: str, body: Any = None) -> SpyRequest:
    raw = json.dumps(body).encode() if body is not None else b""
    headers = {"content-type": "application/json"} if body is not None else {}
    return SpyRequest("trusted", host, method, path, headers, raw, 1.0, status=200)


def _session(
    sent: dict[str, list[tuple[str, str, Any]]], reached: tuple[str, ...] = ()
) -> ClientSession:
    """Each scenario named in `sent` with its requests (method, path, body) after the document
    fetch, every other without a request; in every scenario the client also asked the proxy for
    the hosts `reached`."""
    records = {}
    for scenario in SCENARIOS:
        requests = (
            [_request(scenario.host, "GET", "/.well-known/woa.json")]
            + [_request(scenario.host, m, p, b) for m, p, b in sent[scenario.name]]
            if scenario.name in sent
            else []
        )
        outcomes = [Outcome("client", 0, "", "", 0.1) for _ in scenario.runs]
        attempts = [
            ProxyAttempt("CONNECT", host, 443, True, 0.0) for host in (scenario.host, *reached)
        ]
        records[scenario.name] = ScenarioRecord(scenario, outcomes, requests, attempts)
    return ClientSession(records)


def _plain_session(*requests: tuple[str, str, Any]) -> ClientSession:
    return _session({"plain": list(requests)})


def _client_verdict(check: str, session: ClientSession) -> Verdict:
    class Driven:
        observed = recorder = replay = None
        options = SimpleNamespace(client_command="client {url}", timeout=10)

        async def memo(self, key: str, work: Any) -> ClientSession:
            return session

    return asyncio.run(CHECKS[check].function(Driven()))  # type: ignore[arg-type]


_ECHO = {"agent": "echo", "input": {"text": "hello"}}


def test_a_request_for_robots_txt_is_no_invocation() -> None:
    session = _plain_session(("GET", "/robots.txt", None), ("POST", "/agents/echo/invoke", _ECHO))
    for check in (
        "woa_4_3_1_client_invokes_with_post",
        "woa_4_3_1_client_sends_json",
        "woa_5_1_client_envelope_has_agent",
        "woa_5_1_client_envelope_has_input",
    ):
        assert _client_verdict(check, session).status is Status.PASS, check
    # an invocation path asked with GET is still an invocation
    session = _plain_session(("GET", "/agents/echo/invoke", None))
    verdict = _client_verdict("woa_4_3_1_client_invokes_with_post", session)
    assert verdict.status is Status.FAIL


def test_the_agent_the_client_was_asked_for_is_the_one_to_invoke() -> None:
    """Asked for echo, a client that invokes spare (in the URL, or in the URL and the envelope)
    passed both rules."""
    in_path = _plain_session(("POST", "/agents/spare/invoke", _ECHO))
    verdict = _client_verdict("woa_4_3_1_client_substitutes_agent_id", in_path)
    assert verdict.status is Status.FAIL
    assert _client_verdict("woa_5_2_client_agent_field_matches", in_path).status is Status.PASS
    both = _plain_session(("POST", "/agents/spare/invoke", {**_ECHO, "agent": "spare"}))
    assert _client_verdict("woa_5_2_client_agent_field_matches", both).status is Status.FAIL


def test_a_null_operation_is_not_a_string() -> None:
    session = _plain_session(("POST", "/agents/echo/invoke", {**_ECHO, "operation": None}))
    verdict = _client_verdict("woa_5_1_client_envelope_names_operation", session)
    assert verdict.status is Status.FAIL


def test_an_operation_an_agent_without_operations_lacks_selects_its_inputs() -> None:
    """Appendix A sends operation "default" to an agent with no operations: the input is judged
    by the agent's inputs (it was not judged at all)."""
    wrong = {"agent": "echo", "operation": "default", "input": {"txt": "hello"}}
    session = _plain_session(("POST", "/agents/echo/invoke", wrong))
    verdict = _client_verdict("woa_5_1_client_input_conforms", session)
    assert verdict.status is Status.FAIL, verdict


def test_a_connection_made_in_every_scenario_is_not_the_descriptions_doing() -> None:
    """A client on a cloud VM asks the metadata service for credentials in every scenario; only a
    connection the injection scenario alone shows is the description's doing."""
    invokes = [("POST", "/agents/echo/invoke", _ECHO)]
    everywhere = _session({"plain": invokes, "injection": invokes}, reached=(LINK_LOCAL,))
    verdict = _client_verdict("woa_4_1_client_treats_description_as_untrusted", everywhere)
    assert verdict.status is Status.PASS, verdict
    obeyed = _session({"plain": invokes, "injection": invokes})
    obeyed["injection"].attempts.append(ProxyAttempt("CONNECT", LINK_LOCAL, 80, True, 0.0))
    verdict = _client_verdict("woa_4_1_client_treats_description_as_untrusted", obeyed)
    assert verdict.status is Status.FAIL


def test_a_second_run_that_sent_nothing_reused_nothing() -> None:
    """Run 1 invoked echo on origin A; run 2 ended before it fetched B's document: it failed as
    having "reused what it knew of echo". Two invocations on A with B never fetched still fail."""
    echo_on_a = ("POST", "/a/echo", _ECHO)
    crashed = _session({"same-id": [echo_on_a]})
    verdict = _client_verdict("woa_4_1_client_tells_same_ids_apart", crashed)
    assert verdict.status is Status.ERROR, verdict
    reused = _session({"same-id": [echo_on_a, echo_on_a]})
    verdict = _client_verdict("woa_4_1_client_tells_same_ids_apart", reused)
    assert verdict.status is Status.FAIL, verdict


def test_names_no_public_registry_delegates_are_not_on_the_open_internet() -> None:
    for private in ("http://agents.corp", "http://agents.intranet", "http://box.localdomain"):
        assert not on_the_open_internet(private), private
    # a name under a public domain is, whatever a company's resolver says of it
    assert on_the_open_internet("http://woa.corp.example.com")


def test_core_keywords_hold_uris() -> None:
    """JSON Schema core: "$schema" MUST be a URI, "$id" and "$ref" URI-references; the
    meta-schema's formats are annotations, so these passed."""
    for schema in (
        {"$schema": "not a uri", "type": "object", "properties": {}},
        {"$id": "http://exa mple.com/s", "type": "object"},
        {"type": "object", "properties": {"a": {"$ref": "<<>>"}}},
    ):
        document = copy.deepcopy(DOCUMENT)
        document["agents"][0]["inputs"] = schema
        verdict = _judged("woa_4_2_schemas_valid_2020_12", document)
        assert verdict.status is Status.FAIL, schema


def test_an_inputs_root_that_admits_no_object_is_a_reading() -> None:
    """The sentence asks implementations to support object roots; that a host's inputs admit an
    object is the suite's reading (E-WOA-4.2-OBJECT-ROOT): it decided MUST compliance."""
    document = copy.deepcopy(DOCUMENT)
    document["agents"][0]["inputs"] = {"type": "array", "items": {"type": "string"}}
    assert _judged("woa_4_2_minimal_schema_profile", document).status is Status.FAIL
    rule = catalogue()["WOA-4.2-MINIMAL-SCHEMA-PROFILE"]
    assert (rule.level, rule.level_in(True), rule.basis) == ("SHOULD", "MUST", "inferred")


# -- SDSI --


def test_security_relevant_keys_by_their_words() -> None:
    for ordinary in ("photo_credit", "wallet_size_print", "passport_photo", "lounge_access"):
        assert not security_relevant(ordinary), ordinary
    for relevant in ("social_security_number", "government_id", "card_cvc", "payment_method"):
        assert security_relevant(relevant), relevant


def test_an_empty_scenario_is_a_scenario() -> None:
    """A template with "scenario": "" failed SDSI-4.1-SCENARIO-REQUIRED (MUST): it is present."""
    template = copy.deepcopy(sdsi_figure(2))
    template["scenario"] = ""
    violations = validate_message("sdsi/schema-template", template)
    assert "SDSI-4.1-SCENARIO-REQUIRED" not in {v.requirement for v in violations}


def test_aliases_of_one_schema_may_list_its_keys_in_another_order() -> None:
    template = sdsi_figure(2)
    alias = copy.deepcopy(template)
    alias["keys"] = [
        {m: v for m, v in k.items() if not (m == "default_value" and v is None)}
        for k in reversed(alias["keys"])
    ]
    assert _schema_ids_shared([("flight_booking", template), ("flight", alias)]) == []
    alias["keys"] = alias["keys"][1:]
    assert _schema_ids_shared([("flight_booking", template), ("flight", alias)]) != []


def test_a_suggestion_without_a_patch_id_may_not_add_other() -> None:
    added = {"key_name": "other", "key_type": "string", "required": False}
    result = {"status": "success", "schema_update_suggestion": {"new_keys": [added]}}
    violations = validate_message("sdsi/execution-result", result)
    assert "SDSI-4.3-OTHER-RESERVED" in {v.requirement for v in violations}


def _client_checked(check: str, latte_payload: Any) -> Verdict:
    """An SDSI client check on a session whose client mapped the two scenarios' utterances well,
    and sent `latte_payload` for the utterance no scenario fits."""
    from conformance.checks.sdsi.client import UTTERANCES
    from conformance.checks.sdsi.client import ClientSession as SdsiSession
    from conformance.checks.sdsi.client import Drive

    flight = sdsi_figure(2)
    session = SdsiSession(templates={"flight_booking": flight})

    def executed(payload: Any) -> list[Any]:
        return [SimpleNamespace(operation="execute", input=payload)]

    session.drives = [
        Drive(
            "flight_booking", str(UTTERANCES["flight_booking"]), records=executed(sdsi_figure(4))
        ),
        Drive(None, UTTERANCES[None], records=executed(latte_payload)),
    ]

    class Driven:
        observed = None
        document: ClassVar[dict[str, Any]] = {}

        async def memo(self, key: str, work: Any) -> Any:
            return session

    verdict: Verdict = asyncio.run(CHECKS[check].function(Driven()))  # type: ignore[arg-type]
    return verdict


def test_a_payload_for_an_utterance_no_scenario_fits_is_judged_by_its_schema() -> None:
    """Asked for a latte, a client sent flight_booking's schema_id with no required key and an
    object in "other": both rules passed (only mapped utterances were judged)."""
    latte = {"schema_id": "flight_booking_v1", "payload": {"other": {"drink": "latte"}}}
    for check in ("sdsi_3_2_payload_required_keys", "sdsi_4_3_other_value_string_or_array"):
        assert _client_checked(check, latte).status is Status.FAIL, check
    flat_null = {"schema_id": "flight_booking_v1", "other": None}
    verdict = _client_checked("sdsi_4_3_other_value_string_or_array", flat_null)
    assert verdict.status is Status.FAIL


def _cookie_session_server() -> Starlette:
    """An SDSI server over WoA REST that keeps what a client negotiated in a cookie session and
    gives the session a new id at every negotiation (the old id stops working)."""
    templates = {t["scenario"]: t for t in (sdsi_figure(2), sdsi_figure(10))}
    sessions: dict[str, set[str]] = {}
    operation = {"description": "-", "inputs": {"type": "object"}, "outputs": {"type": "object"}}
    document = {
        "woa_version": "1",
        "transports": {
            "rest": {"base": "https://h.example", "invoke_path": "/agents/{agent_id}/invoke"}
        },
        "agents": [
            {
                **AGENT,
                "id": "srv",
                "capabilities": [SDSI_CAPABILITY],
                "operations": [
                    {
                        **operation,
                        "name": "get_schema_template",
                        "inputs": {
                            "type": "object",
                            "properties": {"scenario": {"enum": list(templates)}},
                        },
                    },
                    {**operation, "name": "execute"},
                ],
            }
        ],
    }

    async def invoke(request: Any) -> Response:
        envelope = json.loads(await request.body())
        given = envelope.get("input") or {}
        known = sessions.pop(request.cookies.get("sdsi_session", ""), set())
        if envelope.get("operation") == "get_schema_template":
            template = templates[given["scenario"]]
            session = uuid.uuid4().hex
            sessions[session] = {*known, template["schema_id"]}
            answer = Response(json.dumps(template), media_type="application/json")
            answer.set_cookie("sdsi_session", session)
            return answer
        sessions[request.cookies.get("sdsi_session", "")] = known
        if given.get("schema_id") not in known:
            return Response(
                json.dumps({"title": "negotiate first", "status": 409}),
                status_code=409,
                media_type="application/problem+json",
            )
        return Response(json.dumps({"status": "confirmed"}), media_type="application/json")

    return Starlette(
        routes=[
            Route(
                "/.well-known/woa.json",
                lambda _: Response(json.dumps(document), media_type="application/woa+json"),
            ),
            Route("/agents/{agent_id}/invoke", invoke, methods=["POST"]),
        ]
    )


def test_a_session_kept_in_a_rotating_cookie_is_the_application_layers() -> None:
    """The payload sent alone carried the run's first cookie, which the negotiation on the fresh
    connection had retired: the server failed as keeping state on the connection."""
    app = _cookie_session_server()
    collect = Collect()
    options = run_options(
        target="https://h.example", suites=("sdsi",), roles=("server",), transport=in_process(app)
    )
    asyncio.run(run(options, [collect]))
    verdict = next(
        r for r in collect.results if r.requirement == "SDSI-3.1-SESSION-STATE-OUTSIDE-PROTOCOL"
    )
    assert verdict.status is Status.PASS, verdict


def test_patches_without_new_keys_leave_their_definitions_unjudged() -> None:
    """SDSI-6.2.2-PATCH-KEY-DEFINITIONS judges new keys: patches that only refine keys give it
    nothing to judge, which is no pass."""
    seat = {"key_name": "cabin_class", "semantic_description": "Cabin. 'window seat' -> 'window'."}
    refines_only = seat_patch_edited(lambda p: (p.pop("new_keys"), p.update(modified_keys=[seat])))
    certified = certify_changed(Changed(refines_only), "sdsi", ("server",))
    verdict = next(r for r in certified if r.requirement == "SDSI-6.2.2-PATCH-KEY-DEFINITIONS")
    assert verdict.status is Status.SKIP, verdict


@pytest.mark.parametrize(
    ("edit", "requirement"),
    [
        (lambda p: p.update(remove_keys=["passenger_count"]), "SDSI-6.2.2-BASE-KEY-NOT-REMOVED"),
        (
            lambda p: (
                p.pop("parent_schema_id"),
                p.update(modified_keys=[{"key_name": "passenger_count", "key_type": "string"}]),
            ),
            "SDSI-6.2.2-BASE-KEY-TYPE-UNCHANGED",
        ),
        (
            lambda p: (
                p.pop("parent_schema_id"),
                p["new_keys"].append({**p["new_keys"][0], "key_name": "cabin_class"}),
            ),
            "SDSI-6.2.2-NO-KEY-COLLISION",
        ),
    ],
)
def test_a_patch_that_breaks_its_base_fails_however_it_says_so(edit: Any, requirement: str) -> None:
    """A remove_keys member, and a patch polled for a schema without naming it its parent, passed
    the rules on the base (only three removal members were read, and the base was found only
    through parent_schema_id)."""
    certified = certify_changed(Changed(seat_patch_edited(edit)), "sdsi", ("server",))
    verdict = next(r for r in certified if r.requirement == requirement)
    assert verdict.status is Status.FAIL, verdict


# -- ACI --


def _rebased(document: dict[str, Any]) -> None:
    """The rest base moved to a private name."""
    document["transports"]["rest"]["base"] = "http://hotel.agents.svc.cluster.local:8080"


def test_plain_http_inside_a_private_network_may_be_secured_out_of_sight() -> None:
    """ "such as TLS-protected channels": a mesh's sidecars or a VPN secure a cluster-local hop,
    which the suite cannot see. It failed; loopback is still judged (waived on demand)."""
    certified = certify_changed(Changed(document=_rebased), "aci", ("invoked",))
    verdict = next(r for r in certified if r.requirement == "ACI-6-AGENTCONTEXT-CONFIDENTIALITY")
    assert verdict.status is Status.SKIP and "private network" in verdict.message, verdict


def test_a_long_random_path_segment_may_be_the_credential() -> None:
    """A nanoid of 21 characters in the path (126 bits) is a credential the suite cannot take
    away by dropping the query: no judgement, where the store failed."""
    uri = "https://store.example/aci/contexts/V1StGXR8_Z5jdHi6B-myT?format=text"
    assert _without_query(uri) is None
    assert _without_query("https://store.example/aci/contexts/42?format=text") is not None


def _context(**members: Any) -> dict[str, Any]:
    context = {
        "AgentID": "hotel",
        "AgentName": "Hotel",
        "SubTaskID": "t1/hotel",
        "SubTaskName": "Book a hotel",
        "Dependencies": [],
        "todoItems": [
            {"itemId": "h1", "description": "find"},
            {"itemId": "h2", "description": "book"},
        ],
        "ItemstateUpdates": [{"itemId": "h1", "state": 0}, {"itemId": "h2", "state": 0}],
        "KeyInformation": [],
        "Context": "",
    }
    return {"AgentContext": {**context, **members}}


def test_an_agent_that_did_nothing_still_explains_each_item() -> None:
    """A reply with every item unfinished and no abstract passed: the exemption was for a
    master's delivery, before any work."""
    sent = _context(ItemstateUpdates=[])["AgentContext"]
    violations = validate_message("aci/agent-context", _context(), sent=sent)
    assert {v.requirement for v in violations} == {"ACI-5.2-KEY-INFORMATION-PER-ITEM"}
    # a master's delivery before any work keeps the exemption
    assert validate_message("aci/agent-context", _context()) == []


def test_a_goal_status_of_1_is_a_reading_not_the_figure() -> None:
    """5.2's own 0/1 completion code as a goal's Status failed ACI-5.1-GOAL-STATUS (MUST)."""
    task = {
        "TaskContext": {
            "TaskID": "t1",
            "UserQuery": "a tour",
            "TaskName": "tour",
            "TaskDescription": "plan a tour",
            "GoalStatus": [{"Goal": "hotel booked", "Status": 1}],
            "OverallStatus": "completed",
        }
    }
    requirements = {v.requirement for v in validate_message("aci/task-context", task)}
    assert requirements == {"ACI-5.1-TASKCONTEXT-MEMBER-TYPES"}


def test_integer_ids_are_a_reading_not_the_figure() -> None:
    """An itemId or SubTaskID of 1 failed ACI-5.2-TODO-ITEMS and ACI-5.2-AGENTCONTEXT-MEMBERS
    (MUST); that they are strings is ACI-5.2-AGENTCONTEXT-MEMBER-TYPES (SHOULD, inferred)."""
    numbered = _context(
        SubTaskID=1,
        todoItems=[{"itemId": 1, "description": "find"}],
        ItemstateUpdates=[{"itemId": 1, "state": 1}],
        KeyInformation=[{"itemId": 1, "outputabstract": "found"}],
    )
    requirements = {v.requirement for v in validate_message("aci/agent-context", numbered)}
    assert requirements == {"ACI-5.2-AGENTCONTEXT-MEMBER-TYPES"}
