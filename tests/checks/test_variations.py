"""Conformant variations (issue 38): the reference's answers changed in ways the drafts allow, each
of which the suite must pass at the level the text gives. A variation that fails is an
over-assertion of the check that fails it."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from conformance.engine.runner import run
from conformance.oracle.engine import Oracle
from conformance.oracle.engine import OracleConfig
from conformance.report import Collect
from conformance.report import Status
from conformance.target import run_options
from mocks.host import create_app
from mocks.reference import woa_host
from mocks.reference.sdsi_evolution import Evolution
from mocks.reference.sdsi_server import SdsiServer
from mocks.serve import serve


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


class _Changes:
    """The reference host whose agents run as the given subclasses (a conformant variation, as a
    fault is a subclass that breaks a rule)."""

    mcp_tool = None

    def __init__(self, *agents: type) -> None:
        self.agents = agents

    def apply(self, document: dict[str, Any]) -> Any:
        return document

    def agent_for(self, reference: type) -> type:
        return next((a for a in self.agents if issubclass(a, reference)), reference)


class _ShowsPromotedFalse(SdsiServer):
    """Its seeded patch's key shown as a promoted key may be: "experimental": false."""

    def seat_patch(self) -> dict[str, Any]:
        patch = super().seat_patch()
        for key in patch["new_keys"]:
            key["experimental"] = False
        return patch


def test_a_key_shown_experimental_false_may_have_been_promoted() -> None:
    """6.2.3 removes the flag of a promoted key; outside the test clock the suite cannot tell a
    promoted key from a new one, so false there is no failure (it was, at MUST). Where the clock
    shows the key is new (right after the trigger) the flag is judged: the fault
    sdsi-6.2.3-experimental-flag fails it."""
    collect = Collect()
    changes = _Changes(_ShowsPromotedFalse)
    with serve(lambda base: woa_host.create_app(base, changes=changes)) as host:
        options = run_options(
            target=host.url, suites=("sdsi",), roles=("server",), cacert=host.cacert, timeout=5
        )
        asyncio.run(run(options, [collect]))
    statuses = {r.requirement: r for r in collect.results}
    assert statuses["SDSI-6.2.3-EXPERIMENTAL-FLAG"].status is Status.PASS, statuses[
        "SDSI-6.2.3-EXPERIMENTAL-FLAG"
    ]
    assert [r.requirement for r in collect.results if r.status is Status.FAIL] == []


class _CaseSensitive:
    """Words and their trigrams hashed as written: "Window" and "window" are other words."""

    name = "case-sensitive"

    def encode(self, texts: list[str]) -> Any:
        import re
        import zlib

        import numpy as np

        from conformance.oracle.encoders import DIMENSION

        vectors = np.zeros((len(texts), DIMENSION), np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text):
                for gram in [word] + [f"#{word}#"[i : i + 3] for i in range(len(word))]:
                    vectors[row, zlib.crc32(gram.encode()) % DIMENSION] += 1.0
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.divide(vectors, norms, out=vectors, where=norms > 0)


class _EncodesCaseSensitively(Evolution):
    def oracle(self, config: OracleConfig) -> Oracle:
        return Oracle(replace(config, similarity_threshold=0.95), _CaseSensitive())


class _CaseSensitiveServer(SdsiServer):
    evolution_class = _EncodesCaseSensitively


def _case_sensitive_host(base: str) -> Any:
    return woa_host.create_app(base, changes=_Changes(_CaseSensitiveServer))


def test_a_case_sensitive_encoder_at_a_strict_threshold_still_encodes() -> None:
    """6.2.1's MUST is that fragments are encoded, which no exchange shows; the suite's reading
    (one wish in five spellings is one wish) fails such an encoder, so it is a SHOULD, MUST only
    under --strict (E-SDSI-6.2.1-FRAGMENT-ENCODED). It failed at MUST."""
    for strict, level in ((False, "SHOULD"), (True, "MUST")):
        collect = Collect()
        with serve(_case_sensitive_host) as host:
            options = run_options(
                target=host.url,
                suites=("sdsi",),
                roles=("server",),
                cacert=host.cacert,
                timeout=5,
                strict=strict,
            )
            asyncio.run(run(options, [collect]))
        failing = {(r.requirement, r.level) for r in collect.results if r.status is Status.FAIL}
        assert failing == {("SDSI-6.2.1-FRAGMENT-ENCODED", level)}
