"""Servers the suite itself runs on loopback: spies that play the other side and record every
request they get (an SDSI server for SDSI clients, ACI invoked agents for ACI masters), and a
context store for ACI invoked agents. They read bodies capped and say no with problem details."""

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

__all__ = ["PROBLEM_JSON", "TooLarge", "problem", "read_capped"]

PROBLEM_JSON = "application/problem+json"


def problem(status: int, title: str, detail: str = "", **extensions: Any) -> JSONResponse:
    """RFC 9457 problem details: how the suite's servers, and the mocks, say no."""
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, **extensions}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)


class TooLarge(Exception):
    """A request body over the cap."""


async def read_capped(request: Request, limit: int = 1024 * 1024) -> bytes:
    """The request body, refusing more than `limit` bytes whatever Content-Length claims."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the body exceeds {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise TooLarge(f"the body exceeds {limit} bytes")
    return bytes(body)
