"""A target that cannot be reached, hangs, or answers junk ends the run in time, with a clear
verdict."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from conformance.bindings.jsonparse import NotJson
from conformance.bindings.jsonparse import parse_json
from conformance.engine.runner import TargetUnreachable
from conformance.engine.runner import run
from conformance.report import Status
from conformance.report.outcome import told
from conformance.report.writers import writers_for
from conformance.report.writers.jsonl import read_events
from conformance.targeting import run_options
from mocks.serve import serve
from tests import hostile


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def test_a_refused_connection_is_unreachable() -> None:
    started = time.monotonic()
    with pytest.raises(TargetUnreachable, match="cannot connect"):
        await run(run_options(target=f"https://127.0.0.1:{_closed_port()}", timeout=2))
    assert time.monotonic() - started < 5


async def test_a_name_that_does_not_resolve_is_unreachable() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno -2] Name or service not known", request=request)

    with pytest.raises(TargetUnreachable, match="Name or service not known"):
        await run(
            run_options(
                target="https://no-such-host.invalid", transport=httpx.MockTransport(refuse)
            )
        )


@pytest.mark.parametrize(
    ("app", "reason"),
    [
        (hostile.answers_html, "not JSON"),
        (hostile.answers_nested, "nests too deeply"),
        (hostile.answers_50_mb, "exceeds the 10,485,760-byte cap"),
        (hostile.never_answers, "no complete answer within 1 s"),
    ],
)
async def test_a_misbehaving_target_gets_its_reason_on_every_document_rule(  # type: ignore[no-untyped-def]
    app, reason: str, tmp_path: Path
) -> None:
    started = time.monotonic()
    with serve(app, tls=False) as target:
        summary = await run(
            run_options(target=target.url, suites=("woa",), timeout=1), writers_for(tmp_path)
        )
    assert time.monotonic() - started < 10
    _, results, footer = read_events(tmp_path / "events.jsonl")
    # the rule that judges the document fails or errs; every rule that starts from it is a skip
    # naming that rule (one defect, one failure) and the reason
    about_document = [
        r
        for r in results
        if r["requirement"].startswith("WOA-4")
        and (r["status"] != Status.SKIP or r.get("skip") == "depends-on")
        and r["status"] != Status.NOT_APPLICABLE
    ]
    assert about_document and all(reason in r["message"] for r in about_document)
    assert all(
        r["status"] in (Status.ERROR, Status.FAIL)
        or "WOA-4-DOCUMENT-OBJECT judge it" in r["message"]
        for r in about_document
    )
    assert not [
        r for r in results if r["status"] == Status.PASS and r["requirement"].startswith("WOA-4")
    ]
    # the document rule failed (1), nothing was certified (2), or the document rule erred (4:
    # nested past the parser's depth): never a pass
    assert footer is not None and told(summary).code in (1, 2, 4)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"\xff\xfe{}", "not UTF-8"),
        (b"\xef\xbb\xbf{}", "byte order mark"),
        (b'{"a": NaN}', "NaN is not JSON"),
        (b"{" * 3 + b"}", "not JSON"),
        (b"1" * 5000, "not usable JSON"),
    ],
)
def test_strict_json_parsing(body: bytes, reason: str) -> None:
    with pytest.raises(NotJson, match=reason):
        parse_json(body)
