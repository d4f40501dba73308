"""Named faults: each makes the reference host break exactly one rule, and is named after it.

A fault's name is its requirement's ID in lower case (`woa-5.2-agent-mismatch-400` breaks
WOA-5.2-AGENT-MISMATCH-400). A fault either edits the document the host serves (`document`), or
changes one behaviour, which the host looks up by name (`behaviour`), or changes how it is served
(`plain_http`, `tls_maximum`). The project's tests run the suite against every fault and expect
its requirement, and only its requirement, to fail.
"""

from __future__ import annotations

import copy
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .woa_host import HTTP_FAULTS
from .woa_host import summary_as_abstract_tool

__all__ = ["FAULTS", "Fault"]

Edit = Callable[[dict[str, Any]], Any]


@dataclass(frozen=True)
class Fault:
    requirement: str
    description: str
    document: Edit | None = None
    plain_http: bool = False
    tls_maximum: ssl.TLSVersion | None = None
    variant: str = ""  # a second way of breaking the same rule: its name and key carry it
    #: a named wrapper around the reference host that breaks the rule (mocks/faults/woa_host.py)
    wrap: Callable[[Any], Any] | None = None
    mcp_tool: Callable[..., Any] | None = None  # the function the host's MCP tool serves instead
    announces_https: bool = False  # served over plain HTTP while the document names https URLs

    @property
    def name(self) -> str:
        return self.requirement.lower() + (f"-{self.variant}" if self.variant else "")

    @property
    def key(self) -> str:
        """What the host looks a behaviour up by: the requirement, and the variant after a slash."""
        return self.requirement + (f"/{self.variant}" if self.variant else "")

    def apply(self, document: dict[str, Any]) -> Any:
        """The document as this fault serves it: edited in place, or replaced by the list an edit
        returns."""
        if self.document is None:
            return document
        edited = copy.deepcopy(document)
        replacement = self.document(edited)
        return replacement if isinstance(replacement, list) else edited


def _agent(edit: Callable[[dict[str, Any]], Any]) -> Edit:
    def on_first_agent(d: dict[str, Any]) -> None:
        edit(d["agents"][0])

    return on_first_agent


def _extra_agent(**changes: Any) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        extra = copy.deepcopy(d["agents"][0]) | changes
        d["agents"].append({k: v for k, v in extra.items() if v is not None})

    return edit


def _set(mapping: dict[str, Any], key: str, value: Any) -> None:
    mapping[key] = value


_MCP = {"server": "https://127.0.0.1/mcp", "tool_namespace": "summarizer", "tool_field": "agent"}

_ALL = [
    # -- the document (WoA 4, 4.1, 4.2, 4.3) --
    Fault("WOA-4-DOCUMENT-OBJECT", "serves the document wrapped in an array", lambda d: [d]),
    Fault("WOA-4-VERSION-1", 'declares woa_version "1.0"', lambda d: _set(d, "woa_version", "1.0")),
    Fault(
        "WOA-4-AGENTS-ARRAY",
        "lists its agents as an object keyed by id",
        lambda d: _set(d, "agents", {a["id"]: a for a in d["agents"]}),
    ),
    Fault(
        "WOA-4-TRANSPORTS-OBJECT",
        "lists its transports as an array",
        lambda d: _set(d, "transports", list(d["transports"].values())),
    ),
    Fault(
        "WOA-4.1-AGENT-OBJECT",
        "lists an agent that is a bare string",
        lambda d: d["agents"].append("translator"),
    ),
    Fault("WOA-4.1-AGENT-ID-REQUIRED", "lists a second agent without an id", _extra_agent(id=None)),
    Fault("WOA-4.1-AGENT-ID-UNIQUE", "lists the summarizer twice", _extra_agent()),
    Fault(
        "WOA-4.1-AGENT-ID-ABNF",
        "lists a second agent whose id has a space",
        _extra_agent(id="doc summarizer"),
    ),
    Fault("WOA-4.1-AGENT-NAME-REQUIRED", "omits the agent's name", _agent(lambda a: a.pop("name"))),
    Fault(
        "WOA-4.1-AGENT-DESCRIPTION-REQUIRED",
        "omits the agent's description",
        _agent(lambda a: a.pop("description")),
    ),
    Fault(
        "WOA-4.1-AGENT-VERSION-STRING",
        "gives the agent's version as a number",
        _agent(lambda a: _set(a, "version", 1)),
    ),
    Fault(
        "WOA-4.1-AGENT-CAPABILITIES-STRINGS",
        "lists a capability that is a number",
        _agent(lambda a: a["capabilities"].append(42)),
    ),
    Fault(
        "WOA-4.1-AGENT-INPUTS-REQUIRED",
        "omits the agent's inputs schema",
        _agent(lambda a: a.pop("inputs")),
    ),
    Fault(
        "WOA-4.1-AGENT-OUTPUTS-REQUIRED",
        "omits the agent's outputs schema",
        _agent(lambda a: a.pop("outputs")),
    ),
    Fault(
        "WOA-4.1-AGENT-TRANSPORTS-REQUIRED",
        "omits the agent's transports",
        _agent(lambda a: a.pop("transports")),
    ),
    Fault(
        "WOA-2.1-AGENT-TRANSPORTS-NON-EMPTY",
        "lists the agent with an empty transports array",
        _agent(lambda a: _set(a, "transports", [])),
    ),
    Fault(
        "WOA-4.1-AGENT-TRANSPORTS-DEFINED",
        "names a transport com.example.grpc it does not configure",
        _agent(lambda a: a["transports"].append("com.example.grpc")),
    ),
    Fault(
        "WOA-4.1-AGENT-OPERATIONS-ARRAY",
        "gives operations as an object",
        _agent(lambda a: _set(a, "operations", {"default": "Summarize."})),
    ),
    Fault(
        "WOA-4.1-OPERATION-NAME-REQUIRED",
        "omits the operation's name",
        _agent(lambda a: a["operations"][0].pop("name")),
    ),
    Fault(
        "WOA-4.1-OPERATION-DESCRIPTION-REQUIRED",
        "omits the operation's description",
        _agent(lambda a: a["operations"][0].pop("description")),
    ),
    Fault(
        "WOA-4.1-OPERATION-INPUTS-OBJECT",
        "gives an operation inputs that is a string",
        _agent(lambda a: _set(a["operations"][0], "inputs", "text")),
    ),
    Fault(
        "WOA-4.1-OPERATION-OUTPUTS-OBJECT",
        "gives an operation outputs that is an array",
        _agent(lambda a: _set(a["operations"][0], "outputs", [])),
    ),
    Fault(
        "WOA-4.2-SCHEMAS-VALID-2020-12",
        "puts minProperties: -1 in the outputs schema",
        _agent(lambda a: _set(a["outputs"], "minProperties", -1)),
    ),
    Fault(
        "WOA-4.2-MINIMAL-SCHEMA-PROFILE",
        "types the inputs schema's root as an array",
        _agent(lambda a: a["inputs"].update(type="array")),
    ),
    Fault(
        "WOA-4.3.1-REST-CONFIG-OBJECT",
        "gives the rest configuration as a URL string",
        lambda d: _set(d["transports"], "rest", d["transports"]["rest"]["base"]),
    ),
    Fault(
        "WOA-4.3.1-REST-BASE-REQUIRED",
        "omits the rest base",
        lambda d: d["transports"]["rest"].pop("base"),
    ),
    Fault(
        "WOA-4.3.1-REST-BASE-HTTPS",
        "announces an http:// rest base",
        lambda d: _set(
            d["transports"]["rest"],
            "base",
            d["transports"]["rest"]["base"].replace("https://", "http://"),
        ),
    ),
    Fault(
        "WOA-4.3.1-REST-INVOKE-PATH-REQUIRED",
        "omits the invoke_path",
        lambda d: d["transports"]["rest"].pop("invoke_path"),
    ),
    Fault(
        "WOA-4.3.1-REST-INVOKE-PATH-ABSOLUTE",
        "gives an invoke_path without the leading /",
        lambda d: _set(d["transports"]["rest"], "invoke_path", "agents/{agent_id}/invoke"),
    ),
    Fault(
        "WOA-4.3.2-MCP-CONFIG-OBJECT",
        "configures mcp as an array",
        lambda d: _set(d["transports"], "mcp", [_MCP["server"]]),
    ),
    Fault(
        "WOA-4.3.2-MCP-SERVER-REQUIRED",
        "configures mcp without server",
        lambda d: _set(d["transports"], "mcp", {k: v for k, v in _MCP.items() if k != "server"}),
    ),
    Fault(
        "WOA-4.3.2-MCP-TOOL-NAMESPACE-REQUIRED",
        "configures mcp without tool_namespace",
        lambda d: _set(
            d["transports"], "mcp", {k: v for k, v in _MCP.items() if k != "tool_namespace"}
        ),
    ),
    Fault(
        "WOA-4.3.2-MCP-TOOL-FIELD-REQUIRED",
        "configures mcp without tool_field",
        lambda d: _set(
            d["transports"], "mcp", {k: v for k, v in _MCP.items() if k != "tool_field"}
        ),
    ),
    Fault(
        "WOA-4.3.3-PRIVATE-REVERSE-DNS",
        "names a private transport mytransport",
        lambda d: _set(d["transports"], "mytransport", {"endpoint": "https://127.0.0.1/x"}),
    ),
    Fault(
        "WOA-8.1-TRANSPORT-URLS-HTTPS",
        "configures an mcp server at an http:// URL",
        lambda d: _set(d["transports"], "mcp", {**_MCP, "server": "http://127.0.0.1:9/mcp"}),
    ),
    # -- how the document is served (WoA 1, 7, 8.1, 9.2) --
    Fault(
        "WOA-8.1-HOST-USES-HTTPS",
        "serves plain HTTP (while announcing an https base)",
        plain_http=True,
        announces_https=True,
    ),
    Fault("WOA-8.1-TLS-1.3", "offers TLS 1.2 at most", tls_maximum=ssl.TLSVersion.TLSv1_2),
    # -- how the document is served and invocations are answered (WoA 1, 4.3.1, 5, 7, 9.2), and the
    # SDSI server agent's connections and signatures (SDSI 3.1, 7): named wrappers of the host --
    *(Fault(wrap.requirement, wrap.description, wrap=wrap) for wrap in HTTP_FAULTS.values()),
    Fault(
        "WOA-5.3-MCP-TOOL-INVOCATION",
        'its MCP tool answers {"abstract": ...} where the outputs schema asks for summary',
        mcp_tool=summary_as_abstract_tool,
    ),
    # -- the SDSI server agent (SDSI 3 to 7); the flight_booking template or the seat_preference
    # patch --
    Fault("SDSI-4.1-TEMPLATE-OBJECT", "serves the flight_booking template as a bare array of keys"),
    Fault("SDSI-4.1-SCHEMA-ID-REQUIRED", "serves the flight_booking template without schema_id"),
    Fault("SDSI-4.1-SCENARIO-REQUIRED", "serves the flight_booking template without scenario"),
    Fault("SDSI-4.1-KEYS-REQUIRED", "serves the template's keys as an object keyed by name"),
    Fault(
        "SDSI-4.1-KEY-DEFINITION-OBJECT", 'lists a key definition that is the bare string "seat"'
    ),
    Fault("SDSI-4.1-KEY-NAME-REQUIRED", "lists a key definition without key_name"),
    Fault("SDSI-4.1-KEY-NAME-SNAKE-CASE", "names a key cabinClass"),
    Fault("SDSI-4.1-KEY-NAME-UNIQUE", "defines passenger_count twice"),
    Fault("SDSI-4.1-KEY-TYPE-REQUIRED", "defines cabin_class without key_type"),
    Fault("SDSI-4.1-KEY-TYPE-JSON-SCHEMA-TYPE", 'types cabin_class "enum"'),
    Fault(
        "SDSI-4.1-SEMANTIC-DESCRIPTION-REQUIRED", "defines destination without semantic_description"
    ),
    Fault(
        "SDSI-4.1-SEMANTIC-DESCRIPTION-NON-EMPTY", "gives destination an empty semantic_description"
    ),
    Fault("SDSI-4.1-REQUIRED-FLAG-REQUIRED", "defines cabin_class without the required flag"),
    Fault("SDSI-4.1-DEFAULT-VALUE-MATCHES-TYPE", 'defaults the integer passenger_count to "one"'),
    Fault("SDSI-4.1-DEFAULT-VALUE-ONLY-OPTIONAL-KEYS", "gives the REQUIRED origin a default"),
    Fault(
        "SDSI-4.1-PREFERRED-LANGUAGE-TOLERATED",
        "answers 400 to a template asked for in another language",
    ),
    Fault("SDSI-4.3-OTHER-DEFINED", 'leaves "other" out of the flight_booking template'),
    Fault("SDSI-4.3-OTHER-RESERVED", 'its patch adds a new key named "other"'),
    Fault("SDSI-4.3-OTHER-OPTIONAL", 'marks "other" required'),
    Fault("SDSI-4.3-OTHER-KEY-TYPE", 'types "other" as integer'),
    Fault(
        "SDSI-4.1-ABSENT-OPTIONAL-KEY-HANDLED",
        "rejects a payload that carries only its REQUIRED keys",
    ),
    Fault(
        "SDSI-3.1-SERVER-VALIDATES-PAYLOAD", "executes payloads whose values have the wrong type"
    ),
    Fault("SDSI-3.2-RESULT-STRUCTURED", "answers a full payload with a bare string"),
    Fault("SDSI-4.3-OTHER-ACCEPTED", 'rejects an "other" longer than 1,000 characters'),
    Fault("SDSI-7-OTHER-NOT-REFLECTED", 'echoes "other" back unescaped'),
    Fault("SDSI-7-OTHER-SANITIZED", 'fails with a 500 when "other" holds an SQL injection'),
    Fault("SDSI-3.2-SUGGESTION-WELL-FORMED", "suggests new_keys as an object"),
    Fault("SDSI-6.2.2-PATCH-ID", "serves its patch without patch_id"),
    Fault(
        "SDSI-6.2.2-PATCH-PARENT-SCHEMA-ID",
        "names flight_booking_v0, a schema it does not serve, as the patch's parent",
    ),
    Fault("SDSI-6.2.2-PATCH-TIMESTAMP", 'stamps its patch "yesterday"'),
    Fault("SDSI-6.2.2-PATCH-EXPIRATION", "its patch carries no expiration date"),
    Fault("SDSI-6.2.2-PATCH-EXPIRATION-FORMAT", "its patch expires before its timestamp"),
    Fault("SDSI-6.2.2-PATCH-TIMESTAMP-RFC3339", "its patch's timestamp has no time-zone offset"),
    Fault("SDSI-6.2.2-PATCH-KEYS", "serves a patch with neither new_keys nor modified_keys"),
    Fault("SDSI-6.2.3-EXPERIMENTAL-FLAG", "flags its new key experimental: false"),
    Fault("SDSI-6.2.3-DEPRECATED-GRACE-FLAG", 'flags its new key deprecated: "yes"'),
    Fault(
        "SDSI-6.2.3-DEPRECATED-GRACE-FLAG",
        "withdraws a deprecated key at once, with no grace period",
        variant="vanishes",
    ),
    Fault("SDSI-6.2.2-NO-KEY-COLLISION", "adds a new key named like the base key cabin_class"),
    Fault("SDSI-6.2.2-NO-DUPLICATE-KEY", "its patch adds the same new key twice"),
    Fault("SDSI-6.2.2-BASE-KEY-NOT-REMOVED", "removes the base key passenger_count in a patch"),
    Fault("SDSI-6.2.2-BASE-KEY-TYPE-UNCHANGED", "retypes the base key passenger_count as string"),
    Fault("SDSI-6.2.2-PATCH-ADDITIVE-ONLY", "makes the REQUIRED origin optional in a patch"),
    Fault("SDSI-6.2.3-CONVERGENCE-CAP", "keeps 11 experimental keys active for flight_booking"),
    Fault(
        "SDSI-7-UPDATES-AUTHENTICATED",
        "serves its payment_method patch to an unauthenticated client",
    ),
    # -- schema self-evolution over time (SDSI 6.2), seen through the test clock; the server keeps
    # declaring the reference configuration while it runs another
    # (mocks/reference/sdsi_evolution.py) --
    Fault(
        "SDSI-6.2.1-TRIGGER-DUAL-GATE",
        "fires on heat alone: one client and one occurrence pass the gate",
    ),
    Fault(
        "SDSI-6.2.1-FRAGMENT-ENCODED",
        "pools fragments by their raw strings: one wish in another case is another wish",
    ),
    Fault("SDSI-6.2.1-HEAT-DECAY", "never lets heat decay (a half-life of a billion hours)"),
    Fault("SDSI-6.2.1-HEAT-DECAY-EXPONENTIAL", "decays heat with twice the half-life it declares"),
    Fault("SDSI-6.2.1-HEAT-INCREMENT", "adds 1.2 heat units a fragment where it declares 1"),
    Fault(
        "SDSI-6.2.1-SIMILARITY-CLUSTERING",
        "puts every fragment in one cluster (similarity threshold -1)",
    ),
    Fault(
        "SDSI-6.2.2-DESCRIPTION-FROM-REAL-FRAGMENTS",
        "describes an induced key without quoting any fragment",
    ),
    Fault(
        "SDSI-6.2.2-COLLISION-MERGED",
        "adds cabin_class_2-style duplicates instead of refining the colliding base key",
    ),
    Fault(
        "SDSI-6.2.2-CLIENT-PATCH-ONLY-FOR-CLIENT",
        "serves one client's personal patch to every client",
    ),
    Fault(
        "SDSI-6.2.3-NEW-KEYS-START-EXPERIMENTAL",
        "ends a new key's trial after a quarter of an hour, not 7 days",
    ),
    Fault("SDSI-6.2.3-LONG-TERM-EVALUATION", "never evaluates a key: its trial never ends"),
    Fault(
        "SDSI-6.2.3-PROMOTION",
        "promotes only keys in half the payloads and deprecates the rest, so a key at 30% is"
        " deprecated",
    ),
    Fault("SDSI-6.2.3-DEPRECATION", "promotes the keys its rules say to deprecate"),
    Fault("SDSI-6.2.3-TRIGGERS-QUEUED", "drops a trigger that arrives with the cap reached"),
    Fault(
        "SDSI-6.2.3-WITHDRAWN-REMOVED",
        "keeps a deprecated key in its patches forever, marked withdrawn",
    ),
    Fault(
        "SDSI-6.2.3-WITHDRAWN-KEY-ACCEPTED",
        "refuses a withdrawn key at once, with no backward-compatibility window",
    ),
    Fault(
        "SDSI-7-HTTPS",
        "serves everything, SDSI payloads included, over plain HTTP",
        plain_http=True,
    ),
    # -- the SDSI client agent (SDSI 3.1, 3.2, 4.3, 6.1), driven through handle_user_request --
    Fault(
        "SDSI-3.2-NEGOTIATION-REQUEST", "sends its payload without asking for the template first"
    ),
    Fault(
        "SDSI-3.2-PAYLOAD-MESSAGE", "sends the keys beside schema_id, without the payload member"
    ),
    Fault("SDSI-3.2-PAYLOAD-REQUIRED-KEYS", "leaves the REQUIRED departure_date out"),
    Fault("SDSI-3.1-CLIENT-PAYLOAD-MATCHES-TEMPLATE", 'sends passenger_count as the string "1"'),
    Fault("SDSI-4.3-OTHER-VALUE-STRING-OR-ARRAY", 'sends "other" as an object'),
    Fault("SDSI-4.3-OTHER-MINIMIZED", 'puts "business class" in "other" instead of cabin_class'),
    Fault(
        "SDSI-6.1-LOW-CONFIDENCE-TO-OTHER", 'drops "window seat" instead of putting it in "other"'
    ),
    Fault(
        "SDSI-3.2-NO-SERVER-REPORTED",
        "claims success for a request no server serves, reporting nothing",
    ),
    # -- the ACI invoked agents (ACI 2.1, 5.2, 5.3, 6), over WoA REST and A2A --
    Fault("ACI-2.1-RETURNS-OWN-AGENTCONTEXT", "returns its AgentContext under another SubTaskID"),
    Fault("ACI-5.2-AGENTCONTEXT-MEMBERS", "returns its AgentContext without AgentName"),
    Fault("ACI-5.2-TODO-ITEMS", "returns todoItems without their descriptions"),
    Fault("ACI-5.2-ITEM-STATE-BINARY", "marks a completed item with state 2"),
    Fault("ACI-5.2-ITEM-STATE-PER-ITEM", "leaves the first todo item without a state"),
    Fault("ACI-5.2-ITEM-STATE-ONE-EACH", "gives the first todo item two states"),
    Fault(
        "ACI-5.2-KEY-INFORMATION-PER-ITEM", "gives no outputabstract for its last completed item"
    ),
    Fault("ACI-5.2-LAST-UPDATED-TIMESTAMP", "stamps LastUpdated as a number"),
    Fault("ACI-5.2-LAST-UPDATED-RFC3339", 'stamps LastUpdated "last tuesday"'),
    Fault("ACI-5.2-DEPENDENCIES-PRESERVED", "returns Dependencies emptied"),
    Fault(
        "ACI-5.3-RETURNS-STATE-AND-KEY-INFORMATION",
        "returns ItemstateUpdates and KeyInformation as they were sent",
    ),
    Fault(
        "ACI-5.2-CONTEXT-URI-RESOLVED", "never fetches a ContextURI and works without the context"
    ),
    Fault(
        "ACI-5.2-NO-COMPLETION-WITHOUT-CONTEXT",
        "carries on, items completed, when the store refuses a ContextURI",
    ),
    Fault("ACI-6-EXPIRED-REFERENCE-NOT-USED", "uses a ContextURI whose expiry has passed"),
    Fault(
        "ACI-6-AGENTCONTEXT-CONFIDENTIALITY",
        "serves everything, AgentContexts included, over plain HTTP",
        plain_http=True,
    ),
    # -- the ACI master (ACI 2.1, 3, 4.2, 5, 6), run against the suite's spy agents --
    Fault("ACI-2.1-TASKCONTEXT-MASTER-ONLY", "sends the TaskContext inside each AgentContext"),
    Fault(
        "ACI-2.1-ONLY-TARGET-AGENTCONTEXT-DELIVERED",
        "swaps the hotel and flight subtasks' AgentContexts",
    ),
    Fault(
        "ACI-2.1-ONLY-TARGET-AGENTCONTEXT-DELIVERED",
        "pastes the other tour subtasks' AgentContexts into Context as JSON text",
        variant="as-text",
    ),
    Fault(
        "ACI-2.1-TASKCONTEXT-MASTER-ONLY",
        "pastes the TaskContext into each AgentContext's Context as JSON text",
        variant="as-text",
    ),
    Fault(
        "ACI-3-NO-DISPATCH-PAST-UNFINISHED",
        "carries on down the doctor-visit chain after the diagnosis failed",
    ),
    Fault(
        "ACI-3-COLLABORATIVE-WAITS",
        "sends the doctor visit's subtasks 20 ms apart without waiting for answers",
    ),
    Fault(
        "ACI-3-COLLABORATIVE-ORDER",
        "runs the doctor visit backwards: medicine, prescription, diagnosis",
    ),
    Fault(
        "ACI-3-COLLABORATIVE-INPUT-FROM-PREVIOUS",
        "never passes a subtask's result to the subtask that needs it",
    ),
    Fault("ACI-3-INDEPENDENT-SUBTASKS-DISTRIBUTED", "never sends the weather check"),
    Fault(
        "ACI-4.2-CONTEXT-ISOLATION",
        "passes every earlier result and working context to each later subtask",
    ),
    Fault("ACI-5.3-FIGURE-4-MEMBERS-ONLY", "adds the whole UserQuery to each AgentContext"),
    Fault("ACI-5.1-TASKCONTEXT-MEMBERS", "returns a TaskContext without TaskName"),
    Fault("ACI-5.1-GOAL-STATUS", "returns GoalStatus as an object from goal to status"),
    Fault("ACI-5.1-OVERALL-STATUS-DERIVED", "reads OverallStatus completed whatever its goals say"),
    Fault(
        "ACI-5.3-TASKCONTEXT-UPDATED", "returns the TaskContext as it stood before any subtask ran"
    ),
    Fault(
        "ACI-5.2-TWO-PHASE-UNFINISHED",
        "takes an item in state 0 as done when its abstract reads well",
    ),
    Fault(
        "ACI-5.2-TWO-PHASE-VERIFIED",
        "takes an item in state 1 as done without reading its abstract",
    ),
    Fault(
        "ACI-6-STORAGE-ACCESS-AUTHENTICATED",
        "serves offloaded context to a request without the reference's credential",
    ),
    Fault("ACI-6-CONTEXT-URI-SIGNED", "accepts any signature on a context reference"),
    Fault("ACI-6-STORAGE-TTL", "hands out context references that expire in ten years"),
    Fault(
        "ACI-6-MASTER-TRUSTS-STORAGE",
        "offloads context to a store that rewrites an entry each time it is read",
    ),
]

FAULTS: dict[str, Fault] = {fault.name: fault for fault in _ALL}
