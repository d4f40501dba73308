"""Named faults of the reference WoA client: each makes it break exactly one client rule.

A fault's name is its requirement's ID in lower case, as for the host's faults. The client takes
it from the environment variable WOA_CLIENT_FAULT (so that the suite's command template stays the
same) and looks it up by requirement ID. The project's tests drive the client with every fault and
expect its requirement, and only its requirement, to fail.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

__all__ = ["CLIENT_FAULTS", "ClientFault", "command_prefix"]

VARIABLE = "WOA_CLIENT_FAULT"
#: Set to 1, the reference client is the minimal conformer instead (mocks/minimal.py).
MINIMAL_VARIABLE = "WOA_CLIENT_MINIMAL"


@dataclass(frozen=True)
class ClientFault:
    requirement: str
    description: str

    @property
    def name(self) -> str:
        return self.requirement.lower()


CLIENT_FAULTS: dict[str, ClientFault] = {
    f.name: f
    for f in (
        ClientFault(
            "WOA-4.3.1-CLIENT-USES-POST", "invokes with GET (the envelope still in the body)"
        ),
        ClientFault("WOA-4.3.1-CLIENT-SENDS-JSON", "labels the JSON body text/plain"),
        ClientFault(
            "WOA-4.3.1-CLIENT-SUBSTITUTES-AGENT-ID", "leaves the {agent_id} placeholder in the path"
        ),
        ClientFault("WOA-5.1-ENVELOPE-AGENT-REQUIRED", "leaves agent out of the envelope"),
        ClientFault(
            "WOA-5.1-ENVELOPE-INPUT-REQUIRED", 'sends the input under "inputs" instead of "input"'
        ),
        ClientFault(
            "WOA-5.1-ENVELOPE-OPERATION-STRING", 'sends the operation as an object {"name": ...}'
        ),
        ClientFault(
            "WOA-5.1-OPERATION-MATCHES-INTENDED",
            "names the operation with its first letter in upper case",
        ),
        ClientFault(
            "WOA-5.1-INPUT-CONFORMS", "drops the first required input member, without validating"
        ),
        ClientFault(
            "WOA-5.2-AGENT-FIELD-MATCHES",
            'names another agent ("spare") in the envelope\'s agent field',
        ),
        ClientFault(
            "WOA-4.2-CLIENTS-IGNORE-UNKNOWN-FEATURES",
            "refuses an inputs schema with keywords it does not know",
        ),
        ClientFault("WOA-8.1-CLIENT-VALIDATES-CERTIFICATES", "skips certificate validation"),
        ClientFault(
            "WOA-8.2-NO-PRIVATE-RANGES",
            "calls a rest base on an IP address without checking its range",
        ),
        ClientFault(
            "WOA-8.2-VALIDATE-TRANSPORT-URLS", "calls a rest base on any host name, allowed or not"
        ),
        ClientFault(
            "WOA-8.2-REDIRECT-VALIDATED",
            "follows a redirect to an IP address without checking its range",
        ),
        ClientFault(
            "WOA-8.2-REDIRECT-CAUTION", "follows a redirect to any other host name, allowed or not"
        ),
        ClientFault(
            "WOA-7-CLIENT-HONORS-CACHING",
            "fetches the document afresh, unconditionally, every time",
        ),
        ClientFault(
            "WOA-4.1-DESCRIPTION-UNTRUSTED", "fetches a URL it finds in the agent's description"
        ),
        ClientFault(
            "WOA-8.3-LLM-FIELDS-UNTRUSTED",
            "invokes the agent an instruction in the agent's name asks for",
        ),
        ClientFault(
            "WOA-4.1-SAME-ID-NOT-SAME-AGENT",
            "remembers the invocation URL by agent id, whatever the origin",
        ),
    )
}


def command_prefix(fault: str | None = None, *, minimal: bool = False) -> str:
    """The variable a --client-command of the reference client sets first: the fault it breaks, or
    the minimal conformer."""
    if fault:
        return f"{VARIABLE}={shlex.quote(fault)} "
    return f"{MINIMAL_VARIABLE}=1 " if minimal else ""
