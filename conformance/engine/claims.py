"""Claims against behaviour: what a host's WoA document says its agents offer, next to what the run
saw.

Per agent: each transport it names, each operation, each capability, and what the suite verified:

    pass            invoked over it (or with it) and answered as the draft asks
    fail            invoked, and answered wrongly: the requirement that failed says how
    untested        claimed, but the run did not exercise it (the probe cap, no input made, ...)
    not verifiable  the drafts give it no checkable behaviour (a capability URI, private transport)

A claimed transport or operation that fails is already a failure of its requirements; this table
shows it from the implementer's side. What the document does not claim (an mcp transport, an
operation) is not-applicable in the requirement results, never a failure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..bindings.jsonparse import NotJson
from ..bindings.jsonparse import parse_json
from ..report import Result
from ..report import Status
from ..validation import validate_message
from ..validation.target_schemas import Unjudgeable

__all__ = ["AgentCoverage", "Claim", "claims_of", "coverage_of"]


@dataclass(frozen=True)
class Claim:
    agent: str
    kind: str  # transport, operation or capability
    name: str
    verified: str  # pass, fail, untested, not verifiable
    detail: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def _outputs_problem(probe: Any, document: Any) -> str | None:
    try:
        body = parse_json(probe.response.body)
    except NotJson as error:
        return f"an answer is {error}"
    try:
        violations = validate_message(
            "woa/success-response",
            body,
            document=document,
            agent=probe.agent,
            operation=probe.operation,
        )
    except Unjudgeable as error:  # a hostile schema: WOA-5.2-SUCCESS-CONFORMS-OUTPUTS says so too
        return f"an answer cannot be judged against its outputs schema: {error}"
    return f"an answer breaks its outputs schema: {violations[0].message}" if violations else None


def _verdict(probes: list[Any], document: Any) -> tuple[str, str]:
    """What the valid invocations of `probes` showed (as WOA-5.2-SUCCESS-2XX and
    -CONFORMS-OUTPUTS judge them)."""
    valid = [p for p in probes if p.kind == "valid"]
    if not valid:
        return "untested", "no valid invocation was sent"
    answered = [p for p in valid if p.response is not None]
    wrong = [p for p in answered if not 200 <= p.response.status < 300]
    if wrong:
        return (
            "fail",
            f"{len(wrong)} of {len(valid)} valid invocations answered {wrong[0].response.status}",
        )
    if len(answered) < len(valid):
        return (
            "fail",
            f"{len(valid) - len(answered)} of {len(valid)} valid invocations got no answer",
        )
    problem = next((found for p in answered if (found := _outputs_problem(p, document))), None)
    if problem:
        return "fail", problem
    return "pass", f"{len(valid)} valid invocations answered 2xx with outputs that conform"


def _failed_on(probes: list[Any], results: list[Result]) -> Result | None:
    """A failing MUST or SHOULD result whose evidence is one of these probes' exchanges: what the
    agent's own answers broke (a mismatched envelope answered 200, an error without problem
    details, ...)."""
    mine = {(e.method, e.url, e.request_body) for p in probes if (e := p.exchange) is not None}
    return next(
        (
            r
            for r in results
            if r.status is Status.FAIL
            and r.level != "MAY"
            and any((e.method, e.url, e.request_body) in mine for e in r.evidence)
        ),
        None,
    )


def claims_of(document: Any, plan: Any, results: list[Result]) -> list[Claim]:
    """The claims of `document`'s agents, judged by the run's invocation `plan` (None: never
    made) and `results`: a transport or operation whose valid invocations were answered right
    still fails when a requirement failed on that agent's answers (the claim agrees with the
    agent's verdicts)."""
    agents = (
        [a for a in document.get("agents", []) if isinstance(a, dict)]
        if isinstance(document, dict)
        else []
    )
    mcp = next((r for r in results if r.requirement == "WOA-5.3-MCP-TOOL-INVOCATION"), None)
    probes = list(getattr(plan, "probes", []))
    claims: list[Claim] = []
    for agent in agents[:1000]:
        agent_id = str(agent.get("id"))
        mine = [p for p in probes if p.agent == agent_id]
        for transport in [t for t in agent.get("transports", []) if isinstance(t, str)][:32]:
            if transport == "rest":
                verified, detail = (
                    _verdict(mine, document)
                    if plan is not None
                    else ("untested", "the run made no invocation")
                )
                if verified == "pass" and (broken := _failed_on(mine, results)) is not None:
                    verified, detail = (
                        "fail",
                        (
                            f"its answers fail {broken.requirement} ({broken.level}):"
                            f" {broken.message[:200]}"
                        ),
                    )
            elif transport == "mcp":
                status = mcp.status if mcp is not None else None
                verified = (
                    {Status.PASS: "pass", Status.FAIL: "fail", Status.ERROR: "fail"}.get(
                        status, "untested"
                    )
                    if status
                    else "untested"
                )
                detail = mcp.message if mcp is not None else "not judged"
            else:
                verified, detail = (
                    "not verifiable",
                    "a private transport: the drafts define no behaviour for it",
                )
            claims.append(Claim(agent_id, "transport", transport, verified, detail))
        operations = (
            [o for o in agent.get("operations", []) if isinstance(o, dict)]
            if isinstance(agent.get("operations"), list)
            else []
        )
        for operation in operations[:64]:
            name = str(operation.get("name"))
            verified, detail = (
                _verdict([p for p in mine if p.operation == name], document)
                if "rest" in agent.get("transports", [])
                else (
                    "untested",
                    "the agent is not offered over rest, where the suite invokes operations",
                )
            )
            if (
                verified == "pass"
                and (broken := _failed_on([p for p in mine if p.operation == name], results))
                is not None
            ):
                verified, detail = (
                    "fail",
                    (
                        f"its answers fail {broken.requirement} ({broken.level}):"
                        f" {broken.message[:200]}"
                    ),
                )
            claims.append(Claim(agent_id, "operation", name, verified, detail))
        for capability in (
            [c for c in agent.get("capabilities", []) if isinstance(c, str)][:64]
            if isinstance(agent.get("capabilities"), list)
            else []
        ):
            claims.append(
                Claim(
                    agent_id,
                    "capability",
                    capability,
                    "not verifiable",
                    "WoA gives capability identifiers no behaviour",
                )
            )
    return claims


@dataclass(frozen=True)
class AgentCoverage:
    """One advertised agent: whether the run exercised it (a valid invocation sent and answered),
    the requirements judged on what it answered, and why it was not exercised."""

    id: str
    exercised: bool
    requirements: tuple[str, ...]
    why: str | None = None

    def as_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "id": self.id,
            "exercised": self.exercised,
            "requirements": list(self.requirements),
        }
        if self.why is not None:
            entry["why"] = self.why
        return entry


def _rest_coverage(
    agent_id: str,
    probes: list[Any],
    plan: Any,
    judged: dict[str, Status],
    judged_by: Mapping[str, tuple[str, ...]],
) -> AgentCoverage:
    if not probes:  # most agents of a large document: said at once
        why = getattr(plan, "why", {}).get(agent_id)
        return AgentCoverage(
            agent_id, False, (), why if why is not None else "no valid invocation was sent"
        )
    answered = [p for p in probes if p.response is not None]
    requirements = sorted(
        {
            r
            for p in answered
            for r in judged_by.get(p.kind, ())
            if (status := judged.get(r)) is not None and status.judged
        }
    )
    # a valid invocation, with its operation named or implied (WoA 5.1: an agent's default)
    valid = [p for p in answered if p.kind in ("valid", "implied")]
    redirected = [
        p for p in valid if 300 <= p.response.status < 400 and "location" in p.response.headers
    ]
    if len(redirected) < len(valid):
        return AgentCoverage(agent_id, True, tuple(requirements))
    if redirected:
        # the suite follows no redirect (WoA 8.2): nothing the agent answers was seen
        where = redirected[0].response.headers.get("location", "")
        return AgentCoverage(
            agent_id,
            False,
            tuple(requirements),
            f"every invocation was redirected ({redirected[0].response.status} to {where[:80]}),"
            " and the suite follows no redirect",
        )
    why = getattr(plan, "why", {}).get(agent_id)
    if why is None:
        broken = next((p for p in probes if p.failure is not None), None)
        why = (
            f"no answer to its invocations: {broken.failure}"
            if broken is not None
            else "no valid invocation was sent"
        )
    return AgentCoverage(agent_id, False, tuple(requirements), why)


def coverage_of(
    document: Any,
    plan: Any,
    results: list[Result],
    judged_by: Mapping[str, tuple[str, ...]],
    mcp_answered: Mapping[str, bool] = MappingProxyType({}),
) -> list[AgentCoverage]:
    """Every agent `document` advertises, exercised or not and why, from the run's invocation `plan`
    (None: the run made none) and its `results`; `judged_by` names the requirements each kind of
    probe serves; `mcp_answered`, per agent offered over mcp, whether a tool call of it was
    answered with a result (a tool that refused every call exercised nothing)."""
    agents = (
        [a for a in document.get("agents", []) if isinstance(a, dict)]
        if isinstance(document, dict)
        else []
    )
    judged = {r.requirement: r.status for r in results}
    mcp = judged.get("WOA-5.3-MCP-TOOL-INVOCATION")
    mcp_result = next((r for r in results if r.requirement == "WOA-5.3-MCP-TOOL-INVOCATION"), None)
    by_agent: dict[str, list[Any]] = {}
    for probe in getattr(plan, "probes", []):
        by_agent.setdefault(probe.agent, []).append(probe)
    coverage: list[AgentCoverage] = []
    for agent in agents:
        agent_id = str(agent.get("id"))
        transports = (
            [t for t in agent.get("transports", []) if isinstance(t, str)]
            if isinstance(agent.get("transports"), list)
            else []
        )
        found = AgentCoverage(
            agent_id, False, (), "it names no transport the suite speaks (rest or mcp)"
        )
        if "rest" in transports:
            found = (
                _rest_coverage(agent_id, by_agent.get(agent_id, []), plan, judged, judged_by)
                if plan is not None
                else AgentCoverage(
                    agent_id,
                    False,
                    (),
                    "the run judged no invocation requirement (not selected, or cut short)",
                )
            )
        if not found.exercised and "mcp" in transports:
            answered = mcp_answered.get(agent_id)
            if mcp in (Status.PASS, Status.FAIL) if answered is None else answered:
                found = AgentCoverage(
                    agent_id,
                    True,
                    tuple(sorted({*found.requirements, "WOA-5.3-MCP-TOOL-INVOCATION"})),
                )
            else:
                why = (
                    f"over mcp: {mcp_result.message}"
                    if mcp_result is not None
                    else "over mcp: not judged"
                )
                found = AgentCoverage(
                    agent_id,
                    False,
                    found.requirements,
                    why if "rest" not in transports else f"{found.why}; {why}",
                )
        coverage.append(found)
    return coverage
