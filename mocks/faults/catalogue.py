"""Every named fault of the reference host: each makes it break exactly one rule, and is named after
it.

A fault's name is its requirement's ID in lower case (`woa-5.2-agent-mismatch-400` breaks
WOA-5.2-AGENT-MISMATCH-400). A fault either edits the document the host serves (`document`), wraps
the host in a middleware that breaks one rule of what it serves over HTTP (`wrap`,
mocks/faults/woa_host.py), runs one of its agents as a subclass that breaks one rule (`agent`,
mocks/faults/sdsi.py, aci.py), or changes how it is served (`plain_http`, `tls_maximum`). The
project's tests run the suite against every fault and expect its requirement, and only its
requirement, to fail.
"""

from __future__ import annotations

import copy
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from typing import TypeVar

from .aci import ACI_FAULTS
from .rate import AgentFault
from .sdsi import SDSI_FAULTS
from .woa_host import HTTP_FAULTS
from .woa_host import summary_as_abstract_tool

__all__ = ["FAULTS", "Fault"]

Edit = Callable[[dict[str, Any]], Any]
T = TypeVar("T")


@dataclass(frozen=True)
class Fault:
    requirement: str
    description: str
    document: Edit | None = None
    plain_http: bool = False
    tls_maximum: ssl.TLSVersion | None = None
    variant: str = ""  # a second way of breaking the same rule: its name carries it
    #: a named wrapper around the reference host that breaks the rule (mocks/faults/woa_host.py)
    wrap: Callable[[Any], Any] | None = None
    mcp_tool: Callable[..., Any] | None = None  # the function the host's MCP tool serves instead
    #: a subclass of a reference agent that breaks the rule (mocks/faults/sdsi.py)
    agent: type[AgentFault] | None = None
    announces_https: bool = False  # served over plain HTTP while the document names https URLs

    @property
    def name(self) -> str:
        return self.requirement.lower() + (f"-{self.variant}" if self.variant else "")

    @property
    def made_once(self) -> bool:
        """Whether the fault is made once rather than per request (a document edit, plain HTTP, a
        TLS version, the MCP tool's function, what an agent builds when it starts): it cannot be
        applied at a rate."""
        return bool(
            self.document
            or self.plain_http
            or self.tls_maximum
            or self.mcp_tool
            or (self.agent is not None and self.agent.made_once)
        )

    def agent_for(self, reference: type[T]) -> type[T]:
        """The class to run `reference`'s agent as: this fault's subclass of it, if it is one."""
        if self.agent is not None and issubclass(self.agent, reference):
            return self.agent
        return reference

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
    # -- the SDSI agents (SDSI 3 to 7): subclasses of the server and client (mocks/faults/sdsi.py)
    *(Fault(a.requirement, a.description, variant=a.variant, agent=a) for a in SDSI_FAULTS),
    Fault(
        "SDSI-7-HTTPS",
        "serves everything, SDSI payloads included, over plain HTTP",
        plain_http=True,
    ),
    # -- the ACI agents (ACI 2.1, 3, 4.2, 5, 6): subclasses of the invoked agents' executor, the
    # master and its context store (mocks/faults/aci.py) --
    *(Fault(a.requirement, a.description, variant=a.variant, agent=a) for a in ACI_FAULTS),
    Fault(
        "ACI-6-AGENTCONTEXT-CONFIDENTIALITY",
        "serves everything, AgentContexts included, over plain HTTP",
        plain_http=True,
    ),
]

FAULTS: dict[str, Fault] = {fault.name: fault for fault in _ALL}
