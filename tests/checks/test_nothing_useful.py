"""No pass over nothing judged (issue 36): every registered check, walked against targets that
answer nothing useful, gives no pass that something useful did not earn.

- A target that answers every request alike (404, an empty 200, a 200 `{}`) passes only the rules
  that judge that very response: WOA-1 (something answers 200 at the well-known path),
  WOA-8.1-NO-PLAIN-HTTP (the document's URL is not plain HTTP on the open Internet) and
  WOA-9.2-UTF8-JSON (the bytes are UTF-8 JSON).
- The reference host, its WoA document intact, whose every other answer (every invocation, SDSI
  exchange and template, ACI task) is a useless 200 (`{}`, or no body), passes nothing that the
  same host answering 404 does not, but the four rules a 200 or `{}` itself bears out
  (`WHAT_A_USELESS_200_SHOWS`): an answer that says nothing earns nothing.
- A WoA client whose command does nothing passes nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route

from conformance.checks import CHECKS
from conformance.engine.runner import run
from conformance.report import Collect
from conformance.report import Status
from conformance.requirements import catalogue
from conformance.targeting import run_options
from mocks.host import create_app
from mocks.serve import serve
from tests.command import agent_conformance

#: The rules that judge the response to the well-known GET itself, and so may pass on it alone.
JUDGE_THE_RESPONSE = {
    "WOA-1-WELL-KNOWN-LOCATION": "a 200 at the well-known path is the location's judgement",
    "WOA-8.1-NO-PLAIN-HTTP": "the document's own URL is judged (loopback, not the open Internet)",
    "WOA-9.2-UTF8-JSON": "the bytes are judged: {} is UTF-8 JSON",
}
USELESS = {
    "404": (404, b"not here", "text/plain"),
    "empty-200": (200, b"", "application/json"),
    "empty-object": (200, b"{}", "application/json"),
}
ROLES = ("host", "server", "master", "invoked", "any")


def _passes(url: str, **more: Any) -> dict[str, str]:
    collect = Collect()
    options = run_options(
        target=url,
        suites=("woa", "sdsi", "aci"),
        roles=ROLES,
        timeout=3,
        allow_http_loopback=True,
        **more,
    )
    asyncio.run(run(options, [collect]))
    # every check the suite makes by calling a target was walked
    walked = {r.requirement for r in collect.results if r.check is not None}
    calls = {c.requirement for c in CHECKS.values() if c.driver is None}
    assert {r for r in calls if catalogue()[r].role in ROLES} <= walked
    return {r.requirement: r.message for r in collect.results if r.status is Status.PASS}


def _alike(status: int, body: bytes, media: str) -> Any:
    async def answer(request: Any) -> Response:
        return Response(body, status_code=status, media_type=media)

    methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    return lambda base: Starlette(routes=[Route("/{path:path}", answer, methods=methods)])


@pytest.mark.parametrize("useless", USELESS, ids=str)
def test_a_target_that_answers_everything_alike_passes_only_its_own_response(useless: str) -> None:
    with serve(_alike(*USELESS[useless]), tls=False) as mock:
        passes = _passes(mock.url)
    assert passes.keys() <= JUDGE_THE_RESPONSE.keys(), passes


class _Posts:
    """The reference host with its WoA document intact and every other request (every
    invocation, SDSI exchange, template, ACI task and context reference) answered `status` with
    `body`."""

    def __init__(self, app: Any, status: int, body: bytes) -> None:
        self.app, self.status, self.body = app, status, body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] == "/.well-known/woa.json":
            await self.app(scope, receive, send)
            return
        await Response(self.body, self.status, media_type="application/json")(scope, receive, send)


def _posts_answered(status: int, body: bytes) -> dict[str, str]:
    with serve(lambda base: _Posts(create_app(base), status, body), tls=False) as mock:
        return _passes(mock.url)


#: The rules a useless 200 may pass because what they judge is there: the status, or `{}` itself.
WHAT_A_USELESS_200_SHOWS = {
    "WOA-5.2-VALID-INPUT-ACCEPTED": "the status is the rule: a 2xx accepts the input",
    "WOA-5.1-DEFAULT-OPERATION": "the status is the rule: a 2xx serves the envelope (no operation)",
    "WOA-5.2-SUCCESS-2XX": "{} conforms to the outputs schemas that ask nothing, and came with 2xx",
    "SDSI-4.1-TEMPLATE-OBJECT": "{} served as a template is a JSON object",
}


def test_useless_answers_earn_no_pass_that_no_answer_does_not() -> None:
    nothing = _posts_answered(404, b'{"title": "Not Found", "status": 404}')
    for body in (b"{}", b""):
        useless = _posts_answered(200, body)
        earned = {
            r: message
            for r, message in useless.items()
            if r not in nothing
            and r not in WHAT_A_USELESS_200_SHOWS
            and not message.startswith("warning")  # a MAY's finding: it never fails
        }
        assert not earned, (body, earned)


def test_a_client_that_does_nothing_passes_nothing(tmp_path: Path) -> None:
    done = agent_conformance(
        "run",
        "--suite",
        "woa",
        "--role",
        "client",
        "--client-command",
        "true",
        "--report-dir",
        str(tmp_path),
        "-q",
        cwd=tmp_path,
    )
    assert done.returncode != 0
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["results"]
    assert not [r["requirement"] for r in report["results"] if r["status"] == "pass"]
