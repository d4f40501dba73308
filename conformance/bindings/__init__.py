"""Bindings: how the suite talks to a target. A binding turns the drafts' abstract messages into
requests on one protocol (today WoA REST; JSON-RPC, MCP and A2A bindings plug in beside it), over
one HTTP client that enforces deadlines and size caps and keeps every exchange as evidence."""

from .http import ExchangeFailed, HttpClient, HttpResponse, Unreachable
from .woa_rest import DocumentFetch, WoaRestBinding

__all__ = ["BINDINGS", "DocumentFetch", "ExchangeFailed", "HttpClient", "HttpResponse", "Unreachable", "WoaRestBinding"]

#: Every binding by the name `--binding` takes.
BINDINGS = {WoaRestBinding.name: WoaRestBinding}
