"""Conformant variations (issue 38): the reference's answers changed in ways the drafts allow, each
of which the suite must pass at the level the text gives. A variation that fails is an
over-assertion of the check that fails it."""

from __future__ import annotations

import asyncio
from typing import Any

from conformance.engine.runner import run
from conformance.report import Collect
from conformance.report import Status
from conformance.targeting import run_options
from mocks.host import create_app
from mocks.serve import serve
from mocks.variants import VARIANTS
from tests.checks.mutants import certify_changed


class _Relabelled:
    """The reference host with its WoA document's Content-Type set to `media_type`."""

    def __init__(self, app: Any, media_type: str) -> None:
        self.app, self.media_type = app, media_type

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != "/.well-known/woa.json":
            await self.app(scope, receive, send)
            return

        async def relabelled(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message["headers"] if k.lower() != b"content-type"]
                message = {
                    **message,
                    "headers": [*headers, (b"content-type", self.media_type.encode())],
                }
            await send(message)

        await self.app(scope, receive, relabelled)


def _failing(media_type: str) -> dict[str, str]:
    collect = Collect()
    with serve(lambda base: _Relabelled(create_app(base), media_type)) as host:
        options = run_options(target=host.url, suites=("woa",), cacert=host.cacert, timeout=5)
        asyncio.run(run(options, [collect]))
    statuses = {r.requirement: r for r in collect.results}
    assert statuses["WOA-9.2-UTF8-JSON"].status is Status.PASS, statuses["WOA-9.2-UTF8-JSON"]
    return {r.requirement: r.message for r in collect.results if r.status is Status.FAIL}


def test_an_ascii_document_labelled_iso_8859_1_is_utf_8() -> None:
    """A servlet container's default label on an ASCII document: the bytes are UTF-8, and RFC 8259
    11 says a charset parameter has no effect (E-WOA-9.2-CHARSET-LABEL); it failed at MUST."""
    assert _failing("application/woa+json; charset=ISO-8859-1") == {}
    assert _failing('application/woa+json; charset="utf-8"; profile=x') == {}


def _sdsi_results(variant: str, strict: bool = False) -> list[Any]:
    return certify_changed(VARIANTS[variant], "sdsi", ("server",), strict=strict)


def test_a_key_shown_experimental_false_may_have_been_promoted() -> None:
    """6.2.3 removes the flag of a promoted key; outside the test clock the suite cannot tell a
    promoted key from a new one, so false there is no failure (it was, at MUST). Where the clock
    shows the key is new (right after the trigger) the flag is judged: the fault
    sdsi-6.2.3-experimental-flag fails it."""
    results = _sdsi_results("promoted-flag-false")
    flag = next(r for r in results if r.requirement == "SDSI-6.2.3-EXPERIMENTAL-FLAG")
    assert flag.status is Status.PASS, flag
    assert [r.requirement for r in results if r.status is Status.FAIL] == []


def test_a_case_sensitive_encoder_at_a_strict_threshold_still_encodes() -> None:
    """6.2.1's MUST is that fragments are encoded, which no exchange shows; the suite's reading
    (one wish in five spellings is one wish) fails such an encoder, so it is a SHOULD, MUST only
    under --strict (E-SDSI-6.2.1-FRAGMENT-ENCODED). It failed at MUST."""
    for strict, level in ((False, "SHOULD"), (True, "MUST")):
        results = _sdsi_results("case-sensitive-encoder", strict)
        failing = {(r.requirement, r.level) for r in results if r.status is Status.FAIL}
        assert failing == {("SDSI-6.2.1-FRAGMENT-ENCODED", level)}
