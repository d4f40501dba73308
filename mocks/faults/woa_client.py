"""Named faults of the reference WoA client: each a subclass of `WoaClient` that breaks exactly one
client rule by overriding one of its methods (mocks/reference/woa_client.py reads as the draft;
each class here is one rule broken).

A fault's name is its requirement's ID in lower case, as for the host's faults. The client's
command (mocks/woa_client.py) takes it from the environment variable WOA_CLIENT_FAULT, so that the
suite's command template stays the same. The project's tests drive the client with every fault and
expect its requirement, and only its requirement, to fail.
"""

from __future__ import annotations

import contextlib
import re
import shlex
from dataclasses import dataclass
from typing import Any
from typing import ClassVar
from typing import Literal

import httpx

from ..reference.woa_client import InvalidMessage
from ..reference.woa_client import Purpose
from ..reference.woa_client import WoaClient

__all__ = ["CLIENT_FAULTS", "ClientFault", "command_prefix"]

VARIABLE = "WOA_CLIENT_FAULT"
#: Set to 1, the reference client is the minimal conformer instead (mocks/minimal.py).
MINIMAL_VARIABLE = "WOA_CLIENT_MINIMAL"
#: Set, the reference client is one of its conformant variants instead (mocks/variants.py).
VARIANT_VARIABLE = "WOA_CLIENT_VARIANT"


@dataclass(frozen=True)
class ClientFault:
    requirement: str
    description: str
    agent: type[WoaClient]

    @property
    def name(self) -> str:
        return self.requirement.lower()


class _Fault(WoaClient):
    requirement: ClassVar[str] = ""
    description: ClassVar[str] = ""


# -- the invocation (WoA 4.3.1, 5.1, 5.2) --


class InvokesWithGet(_Fault):
    requirement = "WOA-4.3.1-CLIENT-USES-POST"
    description = "invokes with GET (the envelope still in the body)"

    def request(self) -> tuple[str, str]:
        return "GET", "application/json"


class LabelsJsonAsText(_Fault):
    requirement = "WOA-4.3.1-CLIENT-SENDS-JSON"
    description = "labels the JSON body text/plain"

    def request(self) -> tuple[str, str]:
        return "POST", "text/plain"


class KeepsThePlaceholder(_Fault):
    requirement = "WOA-4.3.1-CLIENT-SUBSTITUTES-AGENT-ID"
    description = "leaves the {agent_id} placeholder in the path"

    def invocation_url(self, rest: dict[str, Any], agent_id: str) -> str:
        url = str(rest["base"]).rstrip("/") + str(rest["invoke_path"])
        return url.replace("{", "%7B").replace("}", "%7D")


class _Envelope(_Fault):
    def envelope(self, agent_id: str, operation: str | None, value: Any) -> dict[str, Any]:
        envelope = super().envelope(agent_id, operation, value)
        self.edits(envelope)
        return envelope

    def edits(self, envelope: dict[str, Any]) -> None:
        raise NotImplementedError


class LeavesAgentOut(_Envelope):
    requirement = "WOA-5.1-ENVELOPE-AGENT-REQUIRED"
    description = "leaves agent out of the envelope"

    def edits(self, envelope: dict[str, Any]) -> None:
        del envelope["agent"]


class SendsInputs(_Envelope):
    requirement = "WOA-5.1-ENVELOPE-INPUT-REQUIRED"
    description = 'sends the input under "inputs" instead of "input"'

    def edits(self, envelope: dict[str, Any]) -> None:
        envelope["inputs"] = envelope.pop("input")


class SendsOperationAsObject(_Envelope):
    requirement = "WOA-5.1-ENVELOPE-OPERATION-STRING"
    description = 'sends the operation as an object {"name": ...}'

    def edits(self, envelope: dict[str, Any]) -> None:
        if "operation" in envelope:
            envelope["operation"] = {"name": envelope["operation"]}


class CapitalizesOperation(_Envelope):
    requirement = "WOA-5.1-OPERATION-MATCHES-INTENDED"
    description = "names the operation with its first letter in upper case"

    def edits(self, envelope: dict[str, Any]) -> None:
        if "operation" in envelope:
            envelope["operation"] = envelope["operation"].capitalize()


class DropsARequiredInput(_Fault):
    requirement = "WOA-5.1-INPUT-CONFORMS"
    description = "drops the first required input member, without validating"

    def prepares(self, inputs: Any, value: Any, validate: bool) -> tuple[Any, bool]:
        required = inputs.get("required", []) if isinstance(inputs, dict) else []
        if required and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k != required[0]}
        return value, False


class NamesAnotherAgent(_Envelope):
    requirement = "WOA-5.2-AGENT-FIELD-MATCHES"
    description = 'names another agent ("spare") in the envelope\'s agent field'

    def edits(self, envelope: dict[str, Any]) -> None:
        envelope["agent"] = "spare"


# -- the document (WoA 4.1, 4.2, 7) --

#: The JSON Schema 2020-12 keywords the faulty client knows.
KNOWN_KEYWORDS = frozenset(
    {
        *("$schema", "$id", "$ref", "$defs", "type", "properties", "required", "items"),
        *("enum", "minimum", "maximum", "minLength", "maxLength", "pattern", "description"),
        *("title", "additionalProperties", "format", "default", "const"),
    }
)


class RefusesUnknownKeywords(_Fault):
    requirement = "WOA-4.2-CLIENTS-IGNORE-UNKNOWN-FEATURES"
    description = "refuses an inputs schema with keywords it does not know"

    async def reads(self, agent: dict[str, Any], inputs: Any) -> None:
        schema = inputs if isinstance(inputs, dict) else {}
        unknown = sorted(k for k in schema if k not in KNOWN_KEYWORDS)
        if unknown:
            raise InvalidMessage(
                f"the inputs schema uses keywords this client does not know: {', '.join(unknown)}"
            )


class FollowsTheDescription(_Fault):
    requirement = "WOA-4.1-DESCRIPTION-UNTRUSTED"
    description = "fetches a URL it finds in the agent's description"

    async def reads(self, agent: dict[str, Any], inputs: Any) -> None:
        found = re.search(r"https://[^\s\"']+", str(agent.get("description", "")))
        if found:
            async with self._client() as client:
                with contextlib.suppress(httpx.HTTPError):
                    await client.get(found.group(0).rstrip(".,"))


class ObeysTheName(_Fault):
    """A model that obeys the agent's name (WoA 8.3)."""

    requirement = "WOA-8.3-LLM-FIELDS-UNTRUSTED"
    description = "invokes the agent an instruction in the agent's name asks for"

    def chooses(self, agent: dict[str, Any], agent_id: str) -> str:
        asked = re.search(r"invoke the agent '([^']+)'", str(agent.get("name", "")))
        return asked.group(1) if asked else agent_id


class RemembersById(_Fault):
    requirement = "WOA-4.1-SAME-ID-NOT-SAME-AGENT"
    description = "remembers the invocation URL by agent id, whatever the origin"

    def endpoint(self, agent_id: str, url: str) -> str:
        self._endpoints.setdefault(agent_id, url)
        self._save()
        return self._endpoints[agent_id]


class FetchesAfresh(_Fault):
    requirement = "WOA-7-CLIENT-HONORS-CACHING"
    description = "fetches the document afresh, unconditionally, every time"

    def uses_cache(self) -> bool:
        return False


# -- security (WoA 8.1, 8.2) --


class SkipsCertificates(_Fault):
    requirement = "WOA-8.1-CLIENT-VALIDATES-CERTIFICATES"
    description = "skips certificate validation"

    def verifies(self) -> bool:
        return False


def _skips(
    requirement: str, description: str, purpose: Purpose, check: Literal["range", "allow-list"]
) -> type[_Fault]:
    """A client that leaves out one check of the URLs of one purpose."""

    class Skips(_Fault):
        def checks(self, purpose_: Purpose, check_: Literal["range", "allow-list"]) -> bool:
            return (purpose_, check_) != (purpose, check)

    Skips.requirement, Skips.description = requirement, description
    return Skips


_ALL: list[type[_Fault]] = [
    InvokesWithGet,
    LabelsJsonAsText,
    KeepsThePlaceholder,
    LeavesAgentOut,
    SendsInputs,
    SendsOperationAsObject,
    CapitalizesOperation,
    DropsARequiredInput,
    NamesAnotherAgent,
    RefusesUnknownKeywords,
    SkipsCertificates,
    _skips(
        "WOA-8.2-NO-PRIVATE-RANGES",
        "calls a rest base on an IP address without checking its range",
        "transport",
        "range",
    ),
    _skips(
        "WOA-8.2-VALIDATE-TRANSPORT-URLS",
        "calls a rest base on any host name, allowed or not",
        "transport",
        "allow-list",
    ),
    _skips(
        "WOA-8.2-REDIRECT-VALIDATED",
        "follows a redirect to an IP address without checking its range",
        "redirect",
        "range",
    ),
    _skips(
        "WOA-8.2-REDIRECT-CAUTION",
        "follows a redirect to any other host name, allowed or not",
        "redirect",
        "allow-list",
    ),
    FetchesAfresh,
    FollowsTheDescription,
    ObeysTheName,
    RemembersById,
]

CLIENT_FAULTS: dict[str, ClientFault] = {
    f.name: f for f in (ClientFault(a.requirement, a.description, a) for a in _ALL)
}


def command_prefix(
    fault: str | None = None, *, minimal: bool = False, variant: str | None = None
) -> str:
    """The variable a --client-command of the reference client sets first: the fault it breaks,
    the minimal conformer, or the conformant variant it is."""
    if fault:
        return f"{VARIABLE}={shlex.quote(fault)} "
    if variant:
        return f"{VARIANT_VARIABLE}={shlex.quote(variant)} "
    return f"{MINIMAL_VARIABLE}=1 " if minimal else ""
