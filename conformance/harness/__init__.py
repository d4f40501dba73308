"""Servers the suite itself runs on loopback, to certify clients: spies that play the server side
and record every request they get."""

from starlette.requests import Request

__all__ = ["TooLarge", "read_capped"]


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
