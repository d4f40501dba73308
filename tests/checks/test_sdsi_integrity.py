"""SDSI 7's integrity, as the text gives it (issue 38): "Schema negotiation and update messages
MUST be integrity-protected". TLS protects them; over plain HTTP only a signature can. The suite's
signing convention (a detached JWS at the agent's keys) is SDSI-7-SIGNATURES-VERIFY, a SHOULD: a
host that signs another valid way, with keys of its own, passes both."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from joserfc import jws
from joserfc.jwk import ECKey
from joserfc.jwk import KeySet

from conformance.engine.runner import run
from conformance.harness.inprocess import in_process
from conformance.report import Result
from conformance.report import Status
from conformance.targeting import run_options
from mocks.reference import woa_host
from mocks.serve import serve
from tests.checks.mutants import Changed
from tests.checks.mutants import Collect

PUBLIC = "http://agents.example.com"


def _without_keys(document: dict[str, Any]) -> None:
    for agent in document["agents"]:
        agent.pop("jwks_uri", None)


def _results(target: str, app: Any, **options: Any) -> dict[str, Result]:
    collect = Collect()
    asyncio.run(run(run_options(target=target, suites=("sdsi",), **options), [collect]))
    return {r.requirement: r for r in collect.results}


def test_plain_http_on_the_open_internet_with_nothing_to_verify_fails() -> None:
    """The proof that SDSI-7-NEGOTIATION-INTEGRITY can fail (no fault can serve a public name): an
    SDSI server on plain HTTP that publishes no key. It was a skip."""
    app = woa_host.create_app(PUBLIC, changes=Changed(document=_without_keys))
    results = _results(PUBLIC, app, transport=in_process(app))
    verdict = results["SDSI-7-NEGOTIATION-INTEGRITY"]
    assert verdict.status is Status.FAIL and verdict.level == "MUST", verdict
    assert "plain HTTP" in verdict.message
    # with keys published, the suite (which sends nothing there) cannot tell: a skip that says so
    app = woa_host.create_app(PUBLIC)
    verdict = _results(PUBLIC, app, transport=in_process(app))["SDSI-7-NEGOTIATION-INTEGRITY"]
    assert verdict.status is Status.SKIP and "jwks_uri" in verdict.message, verdict


class _SignsUnencoded:
    """The reference host signing with a key of its own, as an RFC 7797 unencoded detached JWS
    (`b64: false`), and publishing that key at the same jwks_uri."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.key = ECKey.generate_key("P-256", parameters={"kid": "own-1", "alg": "ES256"})

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] == "/sdsi/jwks.json":
            body = json.dumps(KeySet([self.key]).as_dict(private=False)).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [(b"content-type", b"application/jwk-set+json")],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def resign(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = b"".join(chunks)
            headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            if any(k.lower() == b"jws-signature" for k, _ in headers):
                compact = jws.serialize_compact(
                    {"alg": "ES256", "kid": "own-1", "b64": False, "crit": ["b64"]}, body, self.key
                )
                header, _, signature = compact.split(".")
                headers = [(k, v) for k, v in headers if k.lower() != b"jws-signature"]
                headers.append((b"jws-signature", f"{header}..{signature}".encode()))
            headers.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, resign)


def test_an_unencoded_detached_signature_with_keys_of_its_own_verifies() -> None:
    with serve(lambda base: _SignsUnencoded(woa_host.create_app(base))) as host:
        results = _results(host.url, None, cacert=host.cacert, timeout=5)
    for requirement in ("SDSI-7-SIGNATURES-VERIFY", "SDSI-7-NEGOTIATION-INTEGRITY"):
        assert results[requirement].status is Status.PASS, results[requirement]
    assert "verify" in results["SDSI-7-SIGNATURES-VERIFY"].message
