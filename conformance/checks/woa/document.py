"""Checks of the WoA document itself (WoA sections 4, 4.1, 4.2, 4.3): one per requirement.

Each judges the document the probe fetched with the suite's message validation (the schema in
schemas/woa/ and the rules in validation/rules.py), keeping only the violations of its own
requirement. `APPLIES` says when a requirement has something to judge: a document without an mcp
transport makes the mcp rules not-applicable, never passed.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

from ...schemas import schemas_by_requirement
from ...targeting import Target
from ...validation import TRUNCATED
from ...validation import Violation
from ...validation import validate_message
from ..preconditions import document_read
from ..preconditions import no_document
from ..registry import Verdict
from ..registry import check
from ..registry import checks_of_table
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import waived

__all__ = ["APPLIES", "document_violations"]

REGISTERED = ("rest", "mcp")
NotApplicable = Callable[[dict[str, Any]], str | None]


def _each_agent(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The agent objects of `document`, one at a time (a question about one need not list
    80,000)."""
    agents = document.get("agents")
    return (a for a in agents if isinstance(a, dict)) if isinstance(agents, list) else iter(())


def _operations(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        o
        for a in _each_agent(document)
        if isinstance(a.get("operations"), list)
        for o in a["operations"]
        if isinstance(o, dict)
    ]


def _transports(document: dict[str, Any]) -> dict[str, Any]:
    transports = document.get("transports")
    return transports if isinstance(transports, dict) else {}


def needs_agents(document: dict[str, Any]) -> str | None:
    return (
        None if any(True for _ in _each_agent(document)) else "the document lists no agent objects"
    )


def needs_entries(document: dict[str, Any]) -> str | None:
    listed = document.get("agents")
    return None if isinstance(listed, list) and listed else "the document lists no agents"


def needs_agent_member(member: str) -> NotApplicable:
    def when(document: dict[str, Any]) -> str | None:
        return None if any(member in a for a in _each_agent(document)) else f"no agent has {member}"

    return when


def needs_operation_member(member: str | None) -> NotApplicable:
    def when(document: dict[str, Any]) -> str | None:
        operations = _operations(document)
        if member is None:
            return None if operations else "no agent defines operations"
        return None if any(member in o for o in operations) else f"no operation has {member}"

    return when


def needs_transport(name: str) -> NotApplicable:
    def when(document: dict[str, Any]) -> str | None:
        return None if name in _transports(document) else f"the document offers no {name} transport"

    return when


def needs_private_transport(document: dict[str, Any]) -> str | None:
    return (
        None
        if set(_transports(document)) - set(REGISTERED)
        else "the document names no private transport"
    )


def needs_member(member: str) -> NotApplicable:
    """A rule on the value of a top-level member: nothing to judge without it (its absence is
    WOA-4-DOCUMENT-OBJECT's failure)."""

    def when(document: dict[str, Any]) -> str | None:
        return (
            None
            if member in document
            else f"the document has no {member} (WOA-4-DOCUMENT-OBJECT judges that)"
        )

    return when


def needs_transports_object(document: dict[str, Any]) -> str | None:
    return (
        None
        if isinstance(document.get("transports"), dict)
        else "the document has no transports object (WOA-4-TRANSPORTS-OBJECT judges that)"
    )


def needs_both(first: NotApplicable, second: NotApplicable) -> NotApplicable:
    def when(document: dict[str, Any]) -> str | None:
        return first(document) or second(document)

    return when


#: Every requirement judged on the document alone, and when it has nothing to judge.
APPLIES: dict[str, NotApplicable] = {
    "WOA-4-VERSION-1": needs_member("woa_version"),
    "WOA-4-AGENTS-ARRAY": needs_member("agents"),
    "WOA-4-TRANSPORTS-OBJECT": needs_member("transports"),
    "WOA-4.1-AGENT-OBJECT": needs_entries,
    "WOA-4.1-AGENT-ID-REQUIRED": needs_agents,
    "WOA-4.1-AGENT-ID-UNIQUE": needs_agents,
    "WOA-4.1-AGENT-ID-ABNF": needs_agents,
    "WOA-4.1-AGENT-NAME-REQUIRED": needs_agents,
    "WOA-4.1-AGENT-DESCRIPTION-REQUIRED": needs_agents,
    "WOA-4.1-AGENT-VERSION-STRING": needs_agent_member("version"),
    "WOA-4.1-AGENT-CAPABILITIES-STRINGS": needs_agent_member("capabilities"),
    "WOA-4.1-AGENT-INPUTS-REQUIRED": needs_agents,
    "WOA-4.1-AGENT-OUTPUTS-REQUIRED": needs_agents,
    "WOA-4.1-AGENT-TRANSPORTS-REQUIRED": needs_agents,
    "WOA-4.1-AGENT-TRANSPORTS-DEFINED": needs_both(needs_agents, needs_transports_object),
    "WOA-2.1-AGENT-TRANSPORTS-NON-EMPTY": needs_agents,
    "WOA-4.1-AGENT-OPERATIONS-ARRAY": needs_agent_member("operations"),
    "WOA-4.1-OPERATION-NAME-REQUIRED": needs_operation_member(None),
    "WOA-4.1-OPERATION-DESCRIPTION-REQUIRED": needs_operation_member(None),
    "WOA-4.1-OPERATION-INPUTS-OBJECT": needs_operation_member("inputs"),
    "WOA-4.1-OPERATION-OUTPUTS-OBJECT": needs_operation_member("outputs"),
    "WOA-4.2-SCHEMAS-VALID-2020-12": needs_agents,
    "WOA-4.2-MINIMAL-SCHEMA-PROFILE": needs_agents,
    "WOA-4.3.1-REST-CONFIG-OBJECT": needs_transport("rest"),
    "WOA-4.3.1-REST-BASE-REQUIRED": needs_transport("rest"),
    "WOA-4.3.1-REST-BASE-HTTPS": needs_transport("rest"),
    "WOA-4.3.1-REST-INVOKE-PATH-REQUIRED": needs_transport("rest"),
    "WOA-4.3.1-REST-INVOKE-PATH-ABSOLUTE": needs_transport("rest"),
    "WOA-4.3.2-MCP-CONFIG-OBJECT": needs_transport("mcp"),
    "WOA-4.3.2-MCP-SERVER-REQUIRED": needs_transport("mcp"),
    "WOA-4.3.2-MCP-TOOL-NAMESPACE-REQUIRED": needs_transport("mcp"),
    "WOA-4.3.2-MCP-TOOL-FIELD-REQUIRED": needs_transport("mcp"),
    "WOA-4.3.3-PRIVATE-REVERSE-DNS": needs_private_transport,
}


def document_violations(target: Target) -> list[Violation]:
    """The violations of the fetched document, computed once per run."""
    key = "woa-document-violations"
    if key not in target.cache:
        target.cache[key] = validate_message("woa/document", target.document)
    violations: list[Violation] = target.cache[key]
    return violations


def _schema_judged(requirement: str) -> bool:
    """Whether a WoA schema judges `requirement` (its x-requirements name it)."""
    return any(n.startswith("woa/") for n in schemas_by_requirement().get(requirement, ()))


def _unreadable(target: Target) -> Verdict | None:
    discovery = target.discovery
    if discovery.problem is None:
        return None
    evidence = (discovery.response.exchange,) if discovery.response else ()
    return no_document(discovery.problem, *evidence)


def _judge(requirement: str, applies: NotApplicable, target: Target) -> Verdict:
    evidence = target.discovery.response.exchange  # type: ignore[union-attr]
    document = target.document
    reason = applies(document)
    if reason:
        return not_applicable(reason)
    violations = document_violations(target)
    found = [v for v in violations if v.requirement == requirement]
    cut = next((v for v in violations if v.requirement == TRUNCATED), None)
    if not found and cut is not None and _schema_judged(requirement):
        # this rule's breach may be among the schema errors not looked for (a rule of its own
        # always runs whole)
        return errored(f"not judged: the document has {cut.message}", evidence)
    if not found:
        return passed("the document keeps this rule", evidence)
    message = "; ".join(f"{v.path}: {v.message}" for v in found)
    if requirement == "WOA-4.3.1-REST-BASE-HTTPS":
        base = _transports(document).get("rest", {}).get("base", "")
        if isinstance(base, str) and target.waives_plain_http(base):
            return waived(
                f"plain HTTP on loopback, waived by --allow-http-loopback: {message}", evidence
            )
    return failed(message, evidence)


async def _judged(target: Target, requirement: str) -> Verdict:
    return _judge(requirement, APPLIES[requirement], target)


checks_of_table(APPLIES, _judged, needs=(document_read,))


@check("WOA-4-DOCUMENT-OBJECT")
async def woa_4_document_object(target: Target) -> Verdict:
    """WoA 4: "A WoA document is a single JSON object with the following top level fields": an
    object, with woa_version, agents and transports (their values are judged by their own
    requirements). A body that is not UTF-8 is WOA-9.2-UTF8-JSON's to fail; here it cannot be
    judged."""
    discovery = target.discovery
    if discovery.cause == "not-json" and discovery.beyond_limit:
        # RFC 8259 section 9 lets a parser limit nesting and numbers: not the document's defect
        return errored(
            f"not judged: {discovery.problem}, beyond the limits of the suite's JSON parser",
            discovery.response.exchange,  # type: ignore[union-attr]
        )
    if discovery.cause == "not-json" and not discovery.not_utf8:
        return failed(discovery.problem or "", discovery.response.exchange)  # type: ignore[union-attr]
    unreadable = _unreadable(target)
    if unreadable:
        return unreadable
    evidence = discovery.response.exchange  # type: ignore[union-attr]
    if not isinstance(target.document, dict):
        return failed(
            f"the document is a JSON {type(target.document).__name__}, not an object", evidence
        )
    missing = [
        f"{v.path}: {v.message}"
        for v in document_violations(target)
        if v.requirement == "WOA-4-DOCUMENT-OBJECT"
    ]
    if missing:
        return failed("; ".join(missing), evidence)
    return passed(
        "the document is a single JSON object with woa_version, agents and transports", evidence
    )
