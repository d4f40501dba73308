"""Bindings: how the suite talks to a target. A binding turns the drafts' abstract messages into
requests on one protocol (today WoA REST; JSON-RPC, MCP and A2A bindings plug in beside it), over
one HTTP client that enforces deadlines and size caps and keeps every exchange as evidence."""

from .http import ExchangeFailed
from .http import HttpClient
from .http import HttpResponse
from .http import Unreachable
from .woa_rest import DocumentFetch
from .woa_rest import WoaRestBinding

__all__ = [
    "BINDINGS",
    "DocumentFetch",
    "ExchangeFailed",
    "HttpClient",
    "HttpResponse",
    "Unreachable",
    "WoaRestBinding",
]

#: The bindings `--binding` names: WoA REST (every suite), SDSI's Appendix A JSON-RPC (the sdsi
#: suite) and A2A (the aci suite).
BINDINGS = {
    "woa-rest": "WoA REST: the document at /.well-known/woa.json, invocations by POST",
    "jsonrpc": "SDSI Appendix A: method/params requests and payload messages to one endpoint",
    "a2a": "A2A (a2a-sdk): ACI AgentContexts as data parts of A2A messages, for invoked agents",
}
