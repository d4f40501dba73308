"""Recording and replay for the MCP SDK's client, which runs on httpx2 (httpx's API): the same
transports as transport.py's, imported only by a run that speaks MCP."""

from __future__ import annotations

import httpx2

from .transport import _Kept
from .transport import _Recording
from .transport import _Replaying
from .transport import _Stored

__all__ = ["McpRecordingTransport", "McpReplayTransport"]


class _McpKept(_Kept, httpx2.AsyncByteStream):
    pass


class _McpStored(_Stored, httpx2.AsyncByteStream):
    pass


class McpRecordingTransport(_Recording, httpx2.AsyncBaseTransport):
    module, kept = httpx2, _McpKept


class McpReplayTransport(_Replaying, httpx2.AsyncBaseTransport):
    module, stored = httpx2, _McpStored
