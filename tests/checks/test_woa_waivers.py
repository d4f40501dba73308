"""Plain HTTP is a MUST failure; on loopback, --allow-http-loopback reports it as waived, never
as pass."""

from __future__ import annotations

import asyncio

import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from conformance.engine.runner import run
from conformance.harness.inprocess import in_process
from conformance.report import Status
from conformance.targeting import on_the_open_internet
from conformance.targeting import run_options
from mocks.serve import serve
from mocks.serve import serve_host
from tests.checks.mutants import Collect

# the rest base and the mcp server
HTTPS_RULES = {
    "WOA-8.1-HOST-USES-HTTPS",
    "WOA-4.3.1-REST-BASE-HTTPS",
    "WOA-8.1-TRANSPORT-URLS-HTTPS",
}


@pytest.mark.parametrize(("allow", "expected"), [(False, Status.FAIL), (True, Status.WAIVED)])
def test_plain_http_on_loopback(allow: bool, expected: Status) -> None:
    collect = Collect()
    with serve_host(tls=False) as host:
        summary = asyncio.run(
            run(run_options(target=host.url, suites=("woa",), allow_http_loopback=allow), [collect])
        )
    verdicts = {r.requirement: r.status for r in collect.results}
    assert {verdicts[r] for r in HTTPS_RULES} == {expected}
    assert {r.requirement for r in collect.results if r.status is Status.FAIL} == (
        set() if allow else HTTPS_RULES
    )
    assert summary.waived == (len(HTTPS_RULES) if allow else 0)
    assert verdicts["WOA-8.1-NO-PLAIN-HTTP"] is Status.PASS  # loopback is not the open Internet
    invoked = next(r for r in collect.results if r.requirement == "WOA-5.2-SUCCESS-2XX")
    if allow:
        assert invoked.status is Status.PASS
    else:  # the suite does not send invocations over plain HTTP unless waived
        assert invoked.status is Status.SKIP and "plain HTTP" in invoked.message


def test_plain_http_on_the_open_internet_fails_no_plain_http() -> None:
    """WOA-8.1-NO-PLAIN-HTTP has no fault of its own: what breaks it breaks
    WOA-8.1-HOST-USES-HTTPS and WOA-4.3.1-REST-BASE-HTTPS too. Here a host on a public name,
    served in-process, breaks all three."""
    document = {
        "woa_version": "1",
        "transports": {
            "rest": {
                "base": "http://agents.example.com",
                "invoke_path": "/agents/{agent_id}/invoke",
            }
        },
        "agents": [
            {
                "id": "echo",
                "name": "Echo",
                "description": "Echoes.",
                "inputs": {"type": "object"},
                "outputs": {"type": "object"},
                "transports": ["rest"],
            }
        ],
    }
    app = Starlette(
        routes=[
            Route(
                "/.well-known/woa.json",
                lambda _: JSONResponse(document, media_type="application/woa+json"),
            )
        ]
    )
    collect = Collect()
    asyncio.run(
        run(
            run_options(
                target="http://agents.example.com", suites=("woa",), transport=in_process(app)
            ),
            [collect],
        )
    )
    verdicts = {r.requirement: r for r in collect.results}
    assert verdicts["WOA-8.1-NO-PLAIN-HTTP"].status is Status.FAIL, verdicts[
        "WOA-8.1-NO-PLAIN-HTTP"
    ].message
    assert "the rest base at http://agents.example.com" in verdicts["WOA-8.1-NO-PLAIN-HTTP"].message


@pytest.mark.parametrize(
    ("url", "public"),
    [
        ("http://agents.example.com/", True),
        ("http://8.8.8.8/", True),
        ("http://127.0.0.1:8/", False),
        ("http://10.1.2.3/", False),
        ("http://[fd00::1]/", False),
        ("http://localhost:80/", False),
        ("http://printer.local/", False),
        ("http://intranet/", False),
        ("http://svc.internal/", False),
    ],
)
def test_the_open_internet(url: str, public: bool) -> None:
    assert on_the_open_internet(url) is public


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        # nothing served: whether the host implements REST is a document's to say
        (JSONResponse({"detail": "not found"}, status_code=404), Status.SKIP),
        (JSONResponse({"woa_version": "1", "agents": [], "transports": {}}), Status.NOT_APPLICABLE),
    ],
    ids=["no-document", "no-rest-transport"],
)
def test_plain_http_breaks_8_1_only_for_a_host_whose_document_offers_rest(
    answer: JSONResponse, expected: Status
) -> None:
    """WoA 8.1 binds "hosts that serve WoA documents and implement REST transports": a plain-HTTP
    URL that serves no document breaks it no more than a document without a rest transport does
    (it had failed the first and not the second)."""
    app = Starlette(routes=[Route("/.well-known/woa.json", lambda _: answer)])
    collect = Collect()
    with serve(lambda _: app, tls=False) as host:  # on the wire: in-process, 8.1 is a skip
        asyncio.run(run(run_options(target=host.url, suites=("woa",)), [collect]))
    verdicts = {r.requirement: r for r in collect.results}
    assert verdicts["WOA-8.1-HOST-USES-HTTPS"].status is expected, verdicts
