"""In-process honesty: an app certified with no socket is judged as it would be over one. Its own
exception is a 500 answer judged as such; checks of the connection itself are skips that say why."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI

from conformance.checks.preconditions import IN_PROCESS
from conformance.engine.runner import run
from conformance.harness.inprocess import IN_PROCESS_ORIGIN
from conformance.harness.inprocess import in_process
from conformance.harness.inprocess import lifespan
from conformance.report import Collect
from conformance.report import Result
from conformance.report import Status
from conformance.targeting import run_options
from examples import fastapi_host
from examples.fastapi_host import create_app
from mocks.reference.woa_host import create_app as reference_host


def _certify(app: Any, suites: tuple[str, ...]) -> dict[str, Result]:
    collect = Collect()

    async def certify() -> None:
        async with lifespan(app):  # the app's startup and shutdown, as under uvicorn
            await run(
                run_options(target=IN_PROCESS_ORIGIN, suites=suites, transport=in_process(app)),
                [collect],
            )

    asyncio.run(certify())
    return {r.requirement: r for r in collect.results}


def test_an_exception_in_the_app_is_a_500_answer_never_an_error_of_the_suite() -> None:
    app: FastAPI = create_app(IN_PROCESS_ORIGIN)

    @app.middleware("http")
    async def broken_translate(request: Any, call_next: Any) -> Any:
        if request.url.path == "/agents/translate/invoke":
            raise AttributeError("'NoneType' object has no attribute 'translate'")
        return await call_next(request)

    results = _certify(app, ("woa",))
    assert not [r for r in results.values() if r.status is Status.ERROR], [
        r.message for r in results.values() if r.status is Status.ERROR
    ]
    assert results["WOA-5.2-VALID-INPUT-ACCEPTED"].status is Status.FAIL
    assert "500" in results["WOA-5.2-VALID-INPUT-ACCEPTED"].message
    # translate answers 500 to a mismatch too: not served (so not WOA-5.2-AGENT-MISMATCH-400's), yet
    # not a 400
    assert results["WOA-5.2-AGENT-MISMATCH-400"].status is not Status.FAIL
    assert results["WOA-5.2-PLACEHOLDER-MISMATCH-400"].status is Status.FAIL


def test_checks_of_the_connection_are_skips_in_process_with_the_reason() -> None:
    results = _certify(reference_host(IN_PROCESS_ORIGIN), ("woa", "sdsi", "aci"))
    for requirement in (
        "WOA-8.1-HOST-USES-HTTPS",
        "WOA-8.1-TLS-1.3",
        "ACI-6-AGENTCONTEXT-CONFIDENTIALITY",
        "SDSI-7-HTTPS",
        "WOA-5.3-MCP-TOOL-INVOCATION",
    ):
        assert results[requirement].status is Status.SKIP, (
            requirement,
            results[requirement].message,
        )
        assert results[requirement].message == IN_PROCESS


def test_an_app_announcing_the_origin_it_is_reached_at_is_exercised_in_process() -> None:
    """`pytest --agent-app examples.fastapi_host:app`: the app as users start it, with no origin
    of its own, announces `https://agent.test` in-process, so its agents are invoked (an app that
    announced another origin would have every invocation skipped, not on the target's origin)."""
    results = _certify(fastapi_host.app, ("woa",))
    for requirement in ("WOA-5.2-VALID-INPUT-ACCEPTED", "WOA-5.2-SUCCESS-CONFORMS-OUTPUTS"):
        assert results[requirement].status is Status.PASS, results[requirement].message
    # a rule that does not apply says so in-process too, before any want of a connection
    assert results["WOA-5.3-MCP-TOOL-INVOCATION"].status is Status.NOT_APPLICABLE


def test_a_server_that_goes_away_is_an_error_never_a_failure() -> None:
    """A killed target answers nothing: a check that gets no answer cannot say the target broke
    its rule (SDSI-4.1-PREFERRED-LANGUAGE-TOLERATED failed on a connection error)."""
    import httpx

    app = reference_host(IN_PROCESS_ORIGIN)
    inner = in_process(app)

    class GoneForZhCn(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            if b"zh-CN" in request.content:
                raise httpx.ConnectError("All connection attempts failed", request=request)
            return await inner.handle_async_request(request)

    collect = Collect()

    async def certify() -> None:
        async with lifespan(app):
            await run(
                run_options(
                    target=IN_PROCESS_ORIGIN,
                    suites=("sdsi",),
                    requirements=("SDSI-4.1-PREFERRED-LANGUAGE-TOLERATED",),
                    transport=GoneForZhCn(),
                ),
                [collect],
            )

    asyncio.run(certify())
    (judged,) = [r for r in collect.results if r.status is not Status.SKIP]
    assert judged.status is Status.ERROR and "no answer came" in judged.message, judged
