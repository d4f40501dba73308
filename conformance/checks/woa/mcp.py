"""The mcp transport (WoA sections 4.3.2 and 5.3): the suite calls each agent offered over mcp as
the draft says, with the official MCP SDK, and judges the result by the agent's outputs schema.

The tool name is the envelope's `tool_field` member; where the server lists it only under its
`tool_namespace` (as "ns.name", "ns/name" or "ns_name"), that name is used (see errata)."""

from __future__ import annotations

from typing import Any

from ...bindings.jsonparse import NotJson
from ...bindings.jsonparse import parse_json
from ...instances import Ungeneratable
from ...instances import valid_examples
from ...report.model import Status
from ...targeting import Target
from ...validation import validate_message
from ...validation.rules import selected_schema
from ...validation.target_schemas import Unjudgeable
from ..preconditions import document_read
from ..preconditions import on_the_wire
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import skipped

__all__ = ["MCP_ANSWERED", "tool_names"]


def tool_names(name: str, namespace: Any) -> list[str]:
    """The names the suite looks for: the envelope's, then the same under the tool namespace."""
    if not isinstance(namespace, str) or not namespace:
        return [name]
    return [name, f"{namespace}.{name}", f"{namespace}/{name}", f"{namespace}_{name}"]


def _config(target: Target) -> tuple[dict[str, Any] | None, list[dict[str, Any]], Verdict | None]:
    """The mcp configuration and its agents, or the skip that says why the suite cannot call its
    server."""
    document: dict[str, Any] = target.document
    agents = (
        [
            a
            for a in document.get("agents", [])
            if isinstance(a, dict) and "mcp" in (a.get("transports") or [])
        ]
        if isinstance(document.get("agents"), list)
        else []
    )
    transports = document.get("transports")
    config = transports.get("mcp") if isinstance(transports, dict) else None
    if not isinstance(config, dict):
        return (
            None,
            agents,
            skipped(
                Skip.DEPENDS_ON,
                "the mcp transport has no configuration object (WOA-4.3.2-MCP-CONFIG-OBJECT)",
            ),
        )
    server, field = config.get("server"), config.get("tool_field")
    if not isinstance(server, str) or not server.startswith(("https://", "http://")):
        return (
            None,
            agents,
            skipped(
                Skip.UNREACHABLE,
                f"the mcp server {server!r} is not an http(s) URL; the suite speaks streamable HTTP"
                " only",
            ),
        )
    if server.startswith("http://") and not target.waives_plain_http(server):
        return (
            None,
            agents,
            skipped(
                Skip.DEPENDS_ON,
                f"the mcp server {server} is plain HTTP; the suite does not call it"
                " (WOA-8.1-NO-PLAIN-HTTP)",
            ),
        )
    if not target.may_call(server):
        return (
            None,
            agents,
            skipped(
                Skip.NEEDS_INPUT,
                f"{server} is not on the target's origin; allow it with --allow-origin to call it",
            ),
        )
    if not isinstance(field, str):
        return (
            None,
            agents,
            skipped(
                Skip.DEPENDS_ON,
                "the mcp transport names no tool_field (WOA-4.3.2-MCP-TOOL-FIELD-REQUIRED)",
            ),
        )
    return config, agents, None


#: The tool calls each agent gets: the fewest arguments, every argument, a boundary value.
CALLS = 3


async def _judge(target: Target, config: dict[str, Any], agent: dict[str, Any]) -> Verdict | None:
    """A failing or erring verdict for `agent`, or None when each of its tool calls is right."""
    target.sends("an MCP tools/call")

    agent_id = agent.get("id")
    operations = (
        [o.get("name") for o in agent.get("operations", []) if isinstance(o, dict)]
        if isinstance(agent.get("operations"), list)
        else []
    )
    operation = operations[0] if operations and isinstance(operations[0], str) else None
    try:
        examples = valid_examples(selected_schema(agent, operation, "inputs"), limit=CALLS)
    except Ungeneratable as error:
        return skipped(Skip.UNREACHABLE, f"agent {agent_id!r}: no input could be made: {error}")
    envelope = {"agent": agent_id, "operation": operation}
    name = envelope.get(config["tool_field"])
    if not isinstance(name, str):
        return skipped(
            Skip.NOT_OBSERVED, f"the envelope member {config['tool_field']!r} holds no tool name"
        )
    refusals = []
    for example in examples:
        verdict = await _judge_call(target, config, agent_id, operation, name, example)
        if verdict is not None and verdict.skip is Skip.INCONCLUSIVE:
            refusals.append(verdict)
        elif verdict is not None:
            return verdict
    # a tool may refuse a schema-valid argument it finds meaningless (a sentence for a time zone):
    # that is its domain, not the envelope's translation (as WOA-5.2-VALID-INPUT-ACCEPTED reads a
    # refusal); only when it refused every call was nothing judged
    return refusals[0] if refusals and len(refusals) == len(examples) else None


async def _judge_call(
    target: Target,
    config: dict[str, Any],
    agent_id: Any,
    operation: str | None,
    name: str,
    example: Any,
) -> Verdict | None:
    """A failing or erring verdict for one tool call, or None when it is right."""
    from ...bindings.mcp import McpFailed  # the SDK takes half a second to import: only when needed
    from ...bindings.mcp import call_tool  # the SDK takes half a second to import: only when needed

    try:
        call = await call_tool(
            config["server"],
            tool_names(name, config.get("tool_namespace")),
            example,
            timeout=target.options.timeout,
            max_body=target.options.max_body,
            cacert=target.options.cacert,
            headers=target.options.headers,
            recorder=target.recorder,
            replay=target.replay,
        )
    except McpFailed as error:
        return errored(f"agent {agent_id!r}: {error}", error.exchange)
    if call.is_error:
        return skipped(
            Skip.INCONCLUSIVE,
            f"agent {agent_id!r}: tool {call.tool!r} refused every schema-valid call (isError:"
            f" {call.text[:300]}): a refusal is the tool's to make, and no result was left to"
            " judge",
            call.exchange,
        )
    output = call.structured
    if output is None:
        try:
            output = parse_json(call.text.encode())
        except NotJson as error:
            return failed(
                f"agent {agent_id!r}: the tool result has no structured content and its text is"
                f" {error}",
                call.exchange,
            )
    try:
        violations = validate_message(
            "woa/success-response",
            output,
            document=target.document,
            agent=agent_id,
            operation=operation,
        )
    except Unjudgeable as error:
        return errored(f"agent {agent_id!r}: cannot be judged: {error}", call.exchange)
    if violations:
        return failed(
            f"agent {agent_id!r}: the result of tool {call.tool!r} does not validate against the"
            " outputs schema: " + "; ".join(f"{v.path}: {v.message}" for v in violations),
            call.exchange,
        )
    return None


#: Where the check keeps, per agent offered over mcp, whether a call of its tool was answered with
#: a result (the coverage map reads it: a tool that refused every call was not exercised).
MCP_ANSWERED = "woa-mcp-answered"


@check("WOA-5.3-MCP-TOOL-INVOCATION", needs=(document_read,))
async def woa_5_3_mcp_tool_invocation(target: Target) -> Verdict:
    config, agents, unusable = _config(target)
    if not agents:
        return not_applicable("no agent is offered over the mcp transport")
    # the MCP SDK's client opens its own connections
    on_the_wire(target)
    if config is None:
        return unusable or errored("")
    verdicts = []
    answered: dict[str, bool] = target.cache.setdefault(MCP_ANSWERED, {})
    for agent in agents:
        verdict = await _judge(target, config, agent)
        # exercised: a call answered with a result, right or wrong (the rule judged it)
        answered[str(agent.get("id"))] = verdict is None or verdict.status is Status.FAIL
        verdicts.append(verdict)
    for status in ("fail", "error", "skip"):
        found = next((v for v in verdicts if v is not None and v.status.value == status), None)
        if found:
            return found
    return passed(
        f"{len(agents)} agent(s) answered each of up to {CALLS} tool calls (the fewest arguments,"
        " every argument, a boundary value) with a result that validates against the outputs"
        " schema"
    )
