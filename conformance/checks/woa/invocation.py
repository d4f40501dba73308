"""Invocation checks (WoA sections 4.3.1, 5.1, 5.2): each judges the answers of the run's
invocation session (invocation_session.py) that concern its requirement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...bindings import HttpResponse
from ...bindings.jsonparse import NotJson
from ...bindings.jsonparse import parse_json
from ...bindings.observed import NotObserved
from ...targeting import Target
from ...targeting import rest_config
from ...validation import validate_message
from ...validation.rules import agent_of
from ...validation.rules import selected_schema
from ...validation.target_schemas import Unjudgeable
from ...validation.target_schemas import target_validator
from ..preconditions import document_read
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import skipped
from .invocation_session import JUDGED_ON
from .invocation_session import Probe
from .invocation_session import plan

PROBLEM_JSON = "application/problem+json"


def _json_body(response: HttpResponse) -> tuple[Any, str | None]:
    try:
        return parse_json(response.body), None
    except NotJson as error:
        return None, str(error)


def _is_json_media_type(media_type: str) -> bool:
    return media_type == "application/json" or media_type.endswith("+json")


def _problem_defect(response: HttpResponse) -> str | None:
    if response.media_type != PROBLEM_JSON:
        return f"answered as {response.media_type or 'no media type'}, not {PROBLEM_JSON}"
    body, error = _json_body(response)
    if error:
        return f"the problem body is {error}"
    violations = validate_message("common/problem-details", body)
    return "; ".join(map(str, violations)) or None


class _Aside:
    """What a judge says of an answer that is not its rule's to judge (an error status for a rule
    on successes): counted neither right nor wrong."""

    def __init__(self, why: str) -> None:
        self.why = why


#: What is wrong with one answer, None when it is right, or `_Aside` when the rule does not judge
#: it.
Judge = Callable[[Probe], "str | _Aside | None"]


async def _verdict(
    target: Target,
    kinds: tuple[str, ...],
    judge: Judge,
    success: str,
    *,
    absent: Verdict | None = None,
) -> Verdict:
    """Judge every probe of `kinds`: fail listing the wrong answers, pass when every one is right.
    With no such probe: not-applicable when no agent is on rest, else `absent`, else a skip with
    the reasons. A 401 or 403 answer is left out (the suite sent no credentials)."""
    run = await plan(target)
    probes = [p for p in run.probes if p.kind in kinds]
    refused = [p for p in probes if p.response is not None and p.response.status in (401, 403)]
    if refused and len(refused) == len(probes):
        return skipped(
            Skip.NEEDS_INPUT,
            f"the host answered {_status(refused[0])} to every invocation: it requires"
            " authorization (WoA 6 lets it), and the suite sent none; give credentials with"
            " --header"
            " (E-WOA-6-UNAUTHORIZED-ANSWER)",
            *[p.exchange for p in refused[:1] if p.exchange],
        )
    probes = [p for p in probes if p not in refused]
    if not probes:
        if run.rest_agents == 0:
            return not_applicable("no agent is offered over the rest transport")
        if target.observed is not None:
            raise NotObserved(
                f"no invocation of the kind this rule judges ({', '.join(kinds)}) passed by"
            )
        reasons = _grouped(run.unreachable, run.ungenerated)
        return absent or skipped(
            Skip.UNREACHABLE, "nothing to invoke" + (f": {'; '.join(reasons)}" if reasons else "")
        )
    broken = [p for p in probes if p.failure]
    if broken:
        return errored(
            f"{len(broken)} of {len(probes)} exchanges broke: {broken[0].label()}:"
            f" {broken[0].failure}",
            *[p.exchange for p in broken[:3] if p.exchange],
        )
    try:
        said = [(p, judge(p)) for p in probes]
    except Unjudgeable as error:
        return errored(
            f"cannot be judged: {error}", *[p.exchange for p in probes[:1] if p.exchange]
        )
    aside = [(p, why) for p, why in said if isinstance(why, _Aside)]
    if len(aside) == len(probes):
        # nothing judged is no pass: every answer was another rule's
        return skipped(
            Skip.NOT_OBSERVED,
            f"none of the {len(probes)} answers was one this rule judges: {aside[0][1].why}",
            *[p.exchange for p in probes[:1] if p.exchange],
        )
    probes = [p for p, why in said if not isinstance(why, _Aside)]
    wrong = [(p, problem) for p, problem in said if isinstance(problem, str)]
    if wrong:
        listed = "; ".join(f"{p.label()}: {problem}" for p, problem in wrong[:5])
        more = f" (and {len(wrong) - 5} more)" if len(wrong) > 5 else ""
        return failed(
            f"{len(wrong)} of {len(probes)} answers: {listed}{more}{run.left_out_note()}",
            *[p.exchange for p, _ in wrong[:3] if p.exchange],
        )
    return passed(
        f"{success} ({len(probes)} invocations{run.left_out_note()})",
        *[p.exchange for p in probes[:1] if p.exchange],
    )


def _grouped(*reasons: dict[str, list[str]], named: int = 3) -> list[str]:
    """Each reason once, with the first `named` agents it stands for and how many more: 80,000
    agents not invoked for one reason are one line, not 80,000."""
    agents: dict[str, list[str]] = {}
    for by_why in reasons:
        for why, who in by_why.items():
            agents.setdefault(why, []).extend(who)
    said = []
    for why, who in agents.items():
        listed = [w for w in who if w]
        if len(listed) <= 1:
            said.append(f"agent {listed[0]}: {why}" if listed else why)
            continue
        more = f" and {len(listed) - named:,} more" if len(listed) > named else ""
        said.append(f"agents {', '.join(listed[:named])}{more}: {why}")
    return said


def _status(probe: Probe) -> int | None:
    return probe.response.status if probe.response is not None else None


def _no_placeholder(target: Target) -> Verdict | None:
    rest = rest_config(target.document)
    if isinstance(rest, dict) and "{agent_id}" not in str(rest.get("invoke_path", "")):
        return not_applicable(
            "the invoke_path has no {agent_id} placeholder, so the host cannot infer the agent from"
            " the URL"
        )
    return None


def _status_2xx(probe: Probe) -> str | None:
    assert probe.response is not None
    return None if 200 <= probe.response.status < 300 else f"answered {probe.response.status}"


def _succeeded_elsewhere(probe: Probe, document: dict[str, Any]) -> bool:
    """Whether an answer is a success under another status than 2xx: neither 2xx nor an error
    status (4xx, 5xx: the host says it failed, whatever the body), with a JSON body, not problem
    details, that conforms to the outputs schema."""
    response = probe.response
    assert response is not None
    if (
        200 <= response.status < 300
        or response.status >= 400
        or response.media_type == PROBLEM_JSON
    ):
        return False
    if 300 <= response.status < 400 and "location" in response.headers:
        return False  # a redirect, not a success (the suite follows none)
    body, error = _json_body(response)
    agent = agent_of(document, probe.agent)
    outputs = selected_schema(agent, probe.operation, "outputs") if agent else None
    if error or not isinstance(outputs, dict):
        return False
    try:
        takes_anything = not any(True for _ in target_validator(outputs).iter_errors({}))
    except Unjudgeable:
        return False
    if takes_anything:
        # outputs that take any object: a 300's list of choices conforms too, and says nothing
        return False
    return not validate_message(
        "woa/success-response",
        body,
        document=document,
        agent=probe.agent,
        operation=probe.operation,
    )


def _carries_output(probe: Probe, document: dict[str, Any]) -> bool:
    """Whether the answer's body is JSON that conforms to the outputs schema."""
    assert probe.response is not None
    body, error = _json_body(probe.response)
    operation = "default" if probe.kind == "implied" else probe.operation
    return not error and not validate_message(
        "woa/success-response", body, document=document, agent=probe.agent, operation=operation
    )


@check("WOA-5.2-SUCCESS-2XX", needs=(document_read,))
async def woa_5_2_success_2xx(target: Target) -> Verdict:
    """WoA 5.2: "On success, the host MUST return a 2xx status code": an answer that carries the
    agent's output (it conforms to the outputs schema and is not problem details) comes with 2xx,
    not with a status that is neither success nor error (1xx, 3xx); a 4xx or 5xx is the host's
    own error. Whether a schema-valid input must succeed at all the draft does not say
    (WOA-5.2-VALID-INPUT-ACCEPTED)."""
    document = target.document

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if _succeeded_elsewhere(probe, document):
            return (
                f"answered {probe.response.status} with a body that conforms to the outputs schema"
                " (a success)"
            )
        if 200 <= probe.response.status < 300 and _carries_output(probe, document):
            return None
        return _Aside(
            "no answer carried the agent's output, so no success could be seen (an answer"
            " that does not conform to the outputs schema is WOA-5.2-SUCCESS-CONFORMS-OUTPUTS's;"
            " a refusal WOA-5.2-VALID-INPUT-ACCEPTED's)"
        )

    return await _verdict(
        target, JUDGED_ON["WOA-5.2-SUCCESS-2XX"], judge, "every success was answered 2xx"
    )


@check("WOA-5.2-VALID-INPUT-ACCEPTED", needs=(document_read,))
async def woa_5_2_valid_input_accepted(target: Target) -> Verdict:
    """The suite's reading of WoA 5.2 (inferred, E-WOA-5.2-SUCCESS-ON-VALID-INPUT): an input that
    the selected inputs schema accepts, addressed to a listed agent, is served with 2xx."""
    document = target.document

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if 200 <= probe.response.status < 300 or _succeeded_elsewhere(probe, document):
            return None  # a success under another status is WOA-5.2-SUCCESS-2XX's
        if probe.response.status in (409, 429, 503):
            # temporarily unable, as the erratum's proposal lets a host say, or a conflict with
            # the state of what the input asks (a trip booked already, a class sold out)
            return _Aside(
                f"the host answered {probe.response.status}: the state of the resource or the"
                " server, not the input"
            )
        return f"refused a schema-valid input with {probe.response.status}"

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-VALID-INPUT-ACCEPTED"],
        judge,
        "every schema-valid invocation was served 2xx",
    )


@check("WOA-5.2-SUCCESS-CONFORMS-OUTPUTS", needs=(document_read,))
async def woa_5_2_success_conforms_outputs(target: Target) -> Verdict:
    document = target.document

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if not 200 <= probe.response.status < 300:
            return _Aside("no invocation was answered 2xx (WOA-5.2-VALID-INPUT-ACCEPTED)")
        body, error = _json_body(probe.response)
        if error:
            return f"the body is {error}"
        agent = agent_of(document, probe.agent)
        # WoA 5.1: no operation is the default one
        operation = "default" if probe.kind == "implied" else probe.operation
        if agent is None or not isinstance(selected_schema(agent, operation, "outputs"), dict):
            # no outputs schema to judge by (WOA-4.1-AGENT-OUTPUTS-REQUIRED)
            return _Aside("no outputs schema to judge by (WOA-4.1-AGENT-OUTPUTS-REQUIRED)")
        violations = validate_message(
            "woa/success-response", body, document=document, agent=probe.agent, operation=operation
        )
        return "; ".join(f"{v.path}: {v.message}" for v in violations) or None

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-SUCCESS-CONFORMS-OUTPUTS"],
        judge,
        "every 2xx body validates against the outputs schema",
    )


@check("WOA-4.3.1-HOST-RESPONDS-JSON", needs=(document_read,))
async def woa_4_3_1_host_responds_json(target: Target) -> Verdict:
    """WoA 4.3.1: the host responds with a JSON body: every answer to an invocation but a redirect
    (8.2 lets invocations be redirected; it carries no content) and a 401 or 403 to the suite,
    which sent no credentials (E-WOA-6-UNAUTHORIZED-ANSWER)."""

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if 300 <= probe.response.status < 400 and "location" in probe.response.headers:
            return _Aside(f"answered {probe.response.status}, a redirect (WoA 8.2)")
        if not _is_json_media_type(probe.response.media_type):
            return (
                f"answered {probe.response.status} as"
                f" {probe.response.media_type or 'no media type'}, not JSON"
            )
        _, error = _json_body(probe.response)
        return f"answered {probe.response.status} with a body that is {error}" if error else None

    return await _verdict(
        target,
        JUDGED_ON["WOA-4.3.1-HOST-RESPONDS-JSON"],
        judge,
        "every answer to an invocation was JSON",
    )


@check("WOA-5.2-AGENT-MISMATCH-400", needs=(document_read,))
async def woa_5_2_agent_mismatch_400(target: Target) -> Verdict:
    """WoA 5.2: "If the host derives an agent identifier from the URL and the envelope contains an
    agent field with a different value, the host MUST reject the request with HTTP status 400".
    Serving the mismatched envelope (2xx) shows the agent was taken from the URL and the request not
    rejected; 400 keeps the rule; another refusal does not show where the host took the agent from
    (WOA-5.2-PLACEHOLDER-MISMATCH-400 asks for the 400 wherever invoke_path holds the placeholder).
    """

    def judge(probe: Probe) -> str | None:
        assert probe.response is not None
        if 200 <= probe.response.status < 300:
            return (
                f"served the envelope naming another agent with {probe.response.status} instead of"
                " rejecting it with 400"
            )
        return None

    verdict = await _verdict(
        target,
        JUDGED_ON["WOA-5.2-AGENT-MISMATCH-400"],
        judge,
        "every mismatched envelope was rejected with 400",
        absent=_no_placeholder(target),
    )
    if verdict.status.value == "pass":
        run = await plan(target)
        others = sorted(
            {
                p.response.status
                for p in run.of("mismatch")
                if p.response is not None and p.response.status != 400
            }
        )
        if others and not any(
            p.response is not None and p.response.status == 400 for p in run.of("mismatch")
        ):
            return skipped(
                Skip.INCONCLUSIVE,
                f"every mismatched envelope was refused with {', '.join(map(str, others))}, not"
                " 400: whether the host took the agent from the URL cannot be told"
                " (WOA-5.2-PLACEHOLDER-MISMATCH-400 judges the status)",
                *verdict.evidence,
            )
    return verdict


@check("WOA-5.2-PLACEHOLDER-MISMATCH-400", needs=(document_read,))
async def woa_5_2_placeholder_mismatch_400(target: Target) -> Verdict:
    """The suite's reading of WoA 5.2 (inferred, E-WOA-5.2-MISMATCH-DERIVED): where invoke_path
    holds {agent_id}, a host refuses an envelope naming another agent with 400, not another
    status."""

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        status = probe.response.status
        if 200 <= status < 300:
            return _Aside("every mismatch was served (WOA-5.2-AGENT-MISMATCH-400 fails that)")
        if status == 400:
            return None
        return f"refused with {status}, not 400"

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-PLACEHOLDER-MISMATCH-400"],
        judge,
        "every mismatched envelope was refused with 400",
        absent=_no_placeholder(target),
    )


@check("WOA-5.2-AGENT-MISMATCH-PROBLEM", needs=(document_read,))
async def woa_5_2_agent_mismatch_problem(target: Target) -> Verdict:
    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if probe.response.status != 400:
            return _Aside("no mismatch was refused with 400 (WOA-5.2-AGENT-MISMATCH-400)")
        return _problem_defect(probe.response)

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-AGENT-MISMATCH-PROBLEM"],
        judge,
        "every mismatch was explained with problem details",
        absent=_no_placeholder(target),
    )


@check("WOA-5.2-ERROR-PROBLEM-DETAILS", needs=(document_read,))
async def woa_5_2_error_problem_details(target: Target) -> Verdict:
    """WoA 5.2: "On error, the host SHOULD return a 4xx or 5xx status code and a response body
    using the problem details format": every error answer (4xx, 5xx) to an invalid input is
    problem details. Whether an invalid input is an error at all is
    WOA-5.2-INVALID-INPUT-REJECTED's."""

    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if probe.response.status < 400:
            return _Aside("no invalid input was answered with an error (4xx, 5xx)")
        return _problem_defect(probe.response)

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-ERROR-PROBLEM-DETAILS"],
        judge,
        "every error answer was problem details",
    )


@check("WOA-5.2-INVALID-INPUT-REJECTED", needs=(document_read,))
async def woa_5_2_invalid_input_rejected(target: Target) -> Verdict:
    """The suite's reading of WoA 5.2 (inferred, E-WOA-5.2-INPUT-VALIDATION): an input that does not
    conform to the selected inputs schema is refused with a 4xx."""

    def judge(probe: Probe) -> str | None:
        assert probe.response is not None
        return (
            None
            if 400 <= probe.response.status < 500
            else f"answered {probe.response.status}, not 4xx"
        )

    return await _verdict(
        target,
        JUDGED_ON["WOA-5.2-INVALID-INPUT-REJECTED"],
        judge,
        "every input that breaks the inputs schema was refused with a 4xx",
    )


@check("WOA-4.3.1-ERRORS-PROBLEM-JSON", needs=(document_read,))
async def woa_4_3_1_errors_problem_json(target: Target) -> Verdict:
    def judge(probe: Probe) -> str | _Aside | None:
        assert probe.response is not None
        if probe.response.status < 400:
            # a body that is not JSON served is no error of this rule
            return _Aside("no malformed body was answered with an error (4xx, 5xx)")
        media_type = probe.response.media_type
        return (
            None
            if media_type == PROBLEM_JSON
            else (
                f"the {probe.response.status} error is {media_type or 'untyped'}, not"
                f" {PROBLEM_JSON}"
            )
        )

    return await _verdict(
        target,
        JUDGED_ON["WOA-4.3.1-ERRORS-PROBLEM-JSON"],
        judge,
        f"errors were answered as {PROBLEM_JSON}",
    )


@check("WOA-5.1-DEFAULT-OPERATION", needs=(document_read,))
async def woa_5_1_default_operation(target: Target) -> Verdict:
    return await _verdict(
        target,
        JUDGED_ON["WOA-5.1-DEFAULT-OPERATION"],
        _status_2xx,
        "an envelope without operation was served as the default operation",
        absent=not_applicable("no agent defines an operation named default"),
    )
