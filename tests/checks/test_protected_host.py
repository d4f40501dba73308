"""A host that protects its invocation endpoint (WoA 6: a MAY) is not failed for it: without
credentials the invocation checks are skips that say why; with --header they are judged."""

from __future__ import annotations

import asyncio

import httpx
from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

from conformance.engine.runner import run
from conformance.report import Result
from conformance.report import Status
from conformance.targeting import run_options
from mocks.reference.woa_host import create_app
from tests.checks.mutants import Collect

TARGET = "https://agent.test"


def protected(app: ASGIApp) -> ASGIApp:
    async def guard(scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        if (
            scope["type"] == "http"
            and scope["path"].endswith("/invoke")
            and headers.get(b"authorization") != b"Bearer s3cret"
        ):
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/problem+json"),
                        (b"www-authenticate", b"Bearer"),
                    ],
                }
            )
            await send(
                {"type": "http.response.body", "body": b'{"title": "Unauthorized", "status": 401}'}
            )
            return
        await app(scope, receive, send)

    return guard


def certify(headers: tuple[tuple[str, str], ...] = ()) -> dict[str, Result]:
    collect = Collect()
    transport = httpx.ASGITransport(app=protected(create_app(TARGET)))
    asyncio.run(
        run(
            run_options(
                target=TARGET, suites=("woa",), transport=transport, timeout=5, headers=headers
            ),
            [collect],
        )
    )
    return {r.requirement: r for r in collect.results}


def test_without_credentials_the_invocation_checks_are_skips_that_say_why() -> None:
    results = certify()
    assert results["WOA-5.2-SUCCESS-2XX"].status is Status.SKIP
    assert "requires authorization" in results["WOA-5.2-SUCCESS-2XX"].message
    assert not [r for r in results.values() if r.status is Status.FAIL]


def test_with_a_header_the_invocations_are_judged() -> None:
    results = certify((("Authorization", "Bearer s3cret"),))
    assert results["WOA-5.2-SUCCESS-2XX"].status is Status.PASS
