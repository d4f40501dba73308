"""Hostile WoA documents: each gives a clear fail or error with the reason, in time, and the suite
never calls an address the user did not allow nor fetches a remote $ref."""

from __future__ import annotations

import asyncio
import copy
import json
import time
from collections.abc import Callable
from typing import Any

import httpx

from conformance.engine.runner import run
from conformance.report import Result
from conformance.report import ResultRecorded
from conformance.report import Skip
from conformance.report import Status
from conformance.targeting import run_options
from mocks.reference.woa_host import woa_document as reference_document

TARGET = "https://host.test"


def woa_document(base: str) -> dict[str, Any]:
    """The reference document with its summarizer alone (this host fakes the summarizer only)."""
    document = reference_document(base)
    document["agents"] = document["agents"][:1]
    document["transports"].pop("mcp")
    document["agents"][0]["transports"] = ["rest"]
    return document


Route = Callable[[httpx.Request], httpx.Response]


class Host:
    """An in-process host (httpx.MockTransport) that records every URL the suite asks for."""

    def __init__(
        self,
        document: Any = None,
        routes: dict[str, Route] | None = None,
        summary: str = "a summary",
    ) -> None:
        self.document = woa_document(TARGET) if document is None else document
        self.routes = routes or {}
        self.summary = summary
        self.requested: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requested.append(str(request.url))
        if request.url.host != "host.test":
            raise AssertionError(f"the suite called {request.url}, which the user did not allow")
        route = self.routes.get(request.url.path)
        if route:
            return route(request)
        if request.url.path == "/.well-known/woa.json":
            return httpx.Response(
                200, json=self.document, headers={"content-type": "application/woa+json"}
            )
        if request.method == "POST":
            return httpx.Response(200, json={"summary": self.summary})
        return httpx.Response(
            404, json={"title": "not found"}, headers={"content-type": "application/problem+json"}
        )


def certify(host: Host, timeout: float = 5) -> dict[str, Result]:
    results: dict[str, Result] = {}

    class Collect:
        def handle(self, event: object) -> None:
            if isinstance(event, ResultRecorded):
                results[event.result.requirement] = event.result

    asyncio.run(
        run(
            run_options(
                target=TARGET, suites=("woa",), timeout=timeout, transport=httpx.MockTransport(host)
            ),
            [Collect()],
        )
    )
    return results


def _redirect(to: str) -> Route:
    return lambda request: httpx.Response(302, headers={"location": to})


def test_a_redirect_loop_is_spelled_out_where_the_document_was_needed() -> None:
    host = Host(
        routes={"/.well-known/woa.json": _redirect("/a"), "/a": _redirect("/.well-known/woa.json")}
    )
    results = certify(host)
    assert results["WOA-4-VERSION-1"].skip is Skip.DEPENDS_ON
    assert "redirect loop" in results["WOA-4-VERSION-1"].message


def test_a_redirect_to_the_metadata_address_is_never_followed() -> None:
    host = Host(
        routes={"/.well-known/woa.json": _redirect("http://169.254.169.254/latest/meta-data/")}
    )
    results = certify(host)
    assert all("169.254" not in url for url in host.requested)
    assert "not on an allowed origin" in results["WOA-4-VERSION-1"].message


def test_a_same_origin_redirect_is_followed() -> None:
    document = woa_document(TARGET)
    host = Host(
        routes={
            "/.well-known/woa.json": _redirect("/v1/woa.json"),
            "/v1/woa.json": lambda request: httpx.Response(
                200, json=document, headers={"content-type": "application/woa+json"}
            ),
        }
    )
    results = certify(host)
    assert results["WOA-4-VERSION-1"].status is Status.PASS
    assert results["WOA-1-WELL-KNOWN-LOCATION"].status is Status.PASS


def test_a_remote_ref_is_never_fetched() -> None:
    document = woa_document(TARGET)
    document["agents"][0]["inputs"] = {"$ref": "https://evil.example/schema.json"}
    host = Host(document)
    results = certify(host)
    assert all("evil.example" not in url for url in host.requested)
    # a remote $ref is valid 2020-12
    assert results["WOA-4.2-SCHEMAS-VALID-2020-12"].status is Status.PASS
    assert results["WOA-5.2-SUCCESS-2XX"].status is Status.SKIP
    assert "does not fetch" in results["WOA-5.2-SUCCESS-2XX"].message


def test_a_base_on_another_address_is_never_invoked() -> None:
    document = woa_document("https://169.254.169.254")
    host = Host(document)
    results = certify(host)
    assert all("169.254" not in url for url in host.requested)
    assert "not on the target's origin" in results["WOA-5.2-SUCCESS-2XX"].message


def test_a_pattern_built_to_backtrack_forever_does_not_hang_the_run() -> None:
    document = woa_document(TARGET)
    document["agents"][0]["outputs"]["properties"]["summary"]["pattern"] = "^(a|aa)+$"
    host = Host(document, summary="a" * 64 + "!")
    started = time.monotonic()
    results = certify(host)
    assert time.monotonic() - started < 20
    verdict = results["WOA-5.2-SUCCESS-CONFORMS-OUTPUTS"]
    assert verdict.status is Status.ERROR and "takes longer" in verdict.message


def test_a_document_of_20_mb_is_cut_off_at_the_cap() -> None:
    big = copy.deepcopy(woa_document(TARGET))
    big["padding"] = "x" * (20 * 1024 * 1024)
    body = json.dumps(big).encode()
    host = Host(routes={"/.well-known/woa.json": lambda request: httpx.Response(200, content=body)})
    results = certify(host)
    assert results["WOA-4-VERSION-1"].skip is Skip.DEPENDS_ON
    assert "exceeds the 10,485,760-byte cap" in results["WOA-4-VERSION-1"].message
