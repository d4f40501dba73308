"""RFC 9457 problem details responses, the mocks' only way of saying no."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

__all__ = ["PROBLEM_JSON", "problem"]

PROBLEM_JSON = "application/problem+json"


def problem(status: int, title: str, detail: str, **extensions: Any) -> JSONResponse:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, **extensions}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON)
