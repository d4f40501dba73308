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


@pytest.mark.parametrize(
    ("app", "status", "logged"),
    [
        (_defect, 500, (logging.ERROR, True)),  # a defect: its traceback in the log
        (_cut_by_shutdown, 503, (logging.WARNING, False)),  # the shutdown's cut: no defect
    ],
)
async def test_an_escaping_exception_is_problem_details_and_a_traceback_only_when_a_defect(
    app: object, status: int, logged: tuple[int, bool], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="conformance.harness"):
        response = await _answer(app)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"
    assert [(r.levelno, r.exc_info is not None) for r in caplog.records] == [logged]
