"""ProblemDetailsOnly: an exception that escapes the app is a 500 in problem details, unless the
server's shutdown cut the request short, which is no defect and prints no traceback."""

from __future__ import annotations

import logging

import anyio
import httpx
import pytest
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from conformance.harness import ProblemDetailsOnly


async def _defect(scope: Scope, receive: Receive, send: Send) -> None:
    raise KeyError("a defect")


async def _cut_by_shutdown(scope: Scope, receive: Receive, send: Send) -> None:
    """As the MCP SDK does when the server's streams close under a request: it catches the closed
    stream and then fails to answer on a connection the server already finished."""
    try:
        raise anyio.ClosedResourceError
    except anyio.ClosedResourceError:
        # chained implicitly, as the SDK's error is
        raise RuntimeError("Unexpected ASGI message sent, after response already completed.")  # noqa: B904


async def _answer(app: object) -> httpx.Response:
    transport = httpx.ASGITransport(app=ProblemDetailsOnly(app))  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://app.test") as client:
        return await client.get("/")


async def test_an_escaping_exception_is_a_500_in_problem_details_and_logged_as_a_defect(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="conformance.harness"):
        response = await _answer(_defect)
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/problem+json"
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
    assert caplog.records[0].exc_info is not None


async def test_an_error_raised_while_the_shutdown_closed_the_streams_is_no_defect(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="conformance.harness"):
        response = await _answer(_cut_by_shutdown)
    assert response.status_code == 503
    assert [(r.levelno, r.exc_info) for r in caplog.records] == [(logging.WARNING, None)]
