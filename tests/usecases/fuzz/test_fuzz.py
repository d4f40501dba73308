"""API fuzzing: what the fuzzer sends is judged by run's checks; a planted 500 is found within the
default budget, with a curl command that sends it again; the reference host is clean; the same seed
sends the same requests."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from typer.testing import CliRunner
from typer.testing import Result

from conformance.cli import app
from conformance.usecases.fuzz.engine import fuzz
from conformance.usecases.fuzz.openapi import openapi_from_woa
from mocks.reference.woa_host import woa_document
from mocks.serve import serve
from mocks.serve import serve_host
from tests import hostile
from tests.command import against

runner = CliRunner()


def _fuzzed(url: str, cacert: Path | None, reports: Path, *more: str) -> Result:
    """`fuzz` against `url`, 30 examples an operation, its reports in `reports`."""
    return runner.invoke(
        app,
        [
            *("fuzz", "--target", url, "--cacert", str(cacert)),
            *("--report-dir", str(reports), "--max-examples", "30", *more),
        ],
    )


def test_fuzz_finds_a_planted_500_with_its_default_budget_and_its_curl_reproduces_it(
    tmp_path: Path,
) -> None:
    with serve(hostile.planted_500) as host:
        result = runner.invoke(
            app, ["fuzz", *against(host), "--report-dir", str(tmp_path), "--strict"]
        )
        # a 5xx to a valid input fails WOA-5.2-VALID-INPUT-ACCEPTED, as run judges it: basis
        # inferred, MUST only under --strict
        assert result.exit_code == 1, result.output
        report = json.loads((tmp_path / "report.json").read_text())
        found = next(
            r
            for r in report["results"]
            if r["status"] == "fail" and r["requirement"] == "WOA-5.2-VALID-INPUT-ACCEPTED"
        )
        assert "refused a schema-valid input with 500" in found["message"]
        planted = next(e for e in found["evidence"] if e["status"] == 500)
        assert '"max_words": 500' in planted["request_body"].replace(
            '"max_words":500', '"max_words": 500'
        )
        curl = planted["curl"]
        assert (
            curl.startswith(f"curl -sS -i -X POST --cacert {host.cacert}")
            and f"reproduce: {curl}" in result.output
        )
        replayed = subprocess.run(
            curl + " -o /dev/null -w '%{http_code}'",
            shell=True,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert replayed.stdout == "500", replayed.stderr  # works as printed
    assert report["header"]["binding"] == "fuzz"
    assert report["header"]["options"]["fuzzed_agents"] and "Fuzzed: summarizer" in result.output


def test_fuzz_agrees_with_run_on_a_host_that_answers_valid_inputs_5xx(tmp_path: Path) -> None:
    with serve_host("woa-5.2-valid-input-accepted") as host:
        result = _fuzzed(host.url, host.cacert, tmp_path)
    # the draft never says a valid input must succeed: a SHOULD, inferred
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report.json").read_text())
    failing = {r["requirement"]: r["level"] for r in report["results"] if r["status"] == "fail"}
    assert failing["WOA-5.2-VALID-INPUT-ACCEPTED"] == "SHOULD"


def test_the_reference_host_is_clean_under_fuzzing(tmp_path: Path) -> None:
    with serve_host() as host:
        result = _fuzzed(host.url, host.cacert, tmp_path, "--quiet")
    assert result.exit_code == 0, result.output
    # --quiet: the verdict line alone
    assert result.output.splitlines() == [f"Fuzzing: SHOULD-compliant; reports in {tmp_path}"]
    report = json.loads((tmp_path / "report.json").read_text())
    statuses = {r["requirement"]: r["status"] for r in report["results"]}
    assert not {s for s in statuses.values()} & {"fail", "error"}
    # what the fuzzer sent was judged by run's checks: valid inputs, inputs that break the schema,
    # envelopes that break 5.1
    for judged in (
        "WOA-5.2-SUCCESS-CONFORMS-OUTPUTS",
        "WOA-5.2-INVALID-INPUT-REJECTED",
        "WOA-4.3.1-HOST-RESPONDS-JSON",
        "WOA-4-VERSION-1",
    ):
        assert statuses[judged] == "pass", judged


def test_the_same_seed_sends_the_same_requests_in_process() -> None:
    plan = openapi_from_woa(woa_document("https://127.0.0.1:1"))
    planted = hostile.planted_500("http://testserver")
    assert plan.base is not None
    runs = [fuzz(plan.openapi, plan.base, app=planted, max_examples=25, seed=7) for _ in range(2)]
    sent = [[(e.method, e.path, e.request_body, e.status) for e in run.exchanges] for run in runs]
    assert sent[0] == sent[1] and 500 in {status for *_, status in sent[0]}
    assert runs[0].cases == runs[1].cases


def test_the_openapi_document_follows_the_envelope_rules() -> None:
    plan = openapi_from_woa(woa_document("https://api.example.com/v1"))
    assert plan.base == "https://api.example.com/v1"
    body = plan.openapi["paths"]["/agents/summarizer/invoke"]["post"]["requestBody"]["content"][
        "application/json"
    ]["schema"]
    # agent may come from the URL (5.2), operation defaults (5.1)
    assert body["required"] == ["input"]
    assert "$schema" not in body["properties"]["input"]


def test_an_agent_whose_schema_holds_a_remote_ref_is_left_out() -> None:
    document = woa_document("https://api.example.com")
    document["agents"][0]["inputs"] = {"$ref": "https://evil.example/schema.json"}
    plan = openapi_from_woa(document)
    assert "/agents/summarizer/invoke" not in plan.openapi["paths"]
    assert plan.left_out == [
        "agent 'summarizer': a schema holds a reference 'https://evil.example/schema.json' "
        "that is not a JSON pointer into the schema"
    ]


def test_local_refs_are_placed_inside_the_component_that_holds_them() -> None:
    document = woa_document("https://api.example.com")
    document["agents"][0]["inputs"] = {
        "type": "object",
        "required": ["lang"],
        "properties": {"lang": {"$ref": "#/$defs/Lang"}, "tree": {"$ref": "#"}},
        "$defs": {"Lang": {"enum": ["en", "fr"]}},
    }
    plan = openapi_from_woa(document)
    component = plan.openapi["components"]["schemas"]["summarizer.default.inputs"]
    assert component["properties"]["lang"] == {
        "$ref": "#/components/schemas/summarizer.default.inputs/$defs/Lang"
    }
    assert component["properties"]["tree"] == {
        "$ref": "#/components/schemas/summarizer.default.inputs"
    }
    assert plan.left_out == []


def _surrogate_500() -> Any:
    """The reference document's summarizer, behind a host that stores the text as UTF-8 first:
    a lone surrogate (valid JSON, RFC 8259 7) breaks it with a 500, a defect schemathesis alone
    never finds (it draws only what UTF-8 can encode)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def invoke(request: Request) -> JSONResponse:
        envelope = json.loads(await request.body())
        text = envelope.get("input", {}).get("text") if isinstance(envelope, dict) else None
        if not isinstance(text, str):
            return JSONResponse({"title": "Bad input", "status": 422}, 422)
        text.encode("utf-8")  # a lone surrogate raises here: the 500 of a careless host
        return JSONResponse({"summary": text[:10]})

    return Starlette(routes=[Route("/agents/{agent_id}/invoke", invoke, methods=["POST"])])


def test_fuzz_sends_the_strings_schemathesis_cannot_draw() -> None:
    plan = openapi_from_woa(woa_document("https://127.0.0.1:1"))
    assert plan.base is not None
    held = {what.split(" holding ")[-1] for _, what, _ in plan.edges}
    assert {"a lone high surrogate", "a lone low surrogate", "a NUL", "noncharacters"} <= held
    assert any("nested" in what for _, what, _ in plan.edges)
    outcome = fuzz(
        plan.openapi, plan.base, app=_surrogate_500(), max_examples=5, seed=1, edges=plan.edges
    )
    broken = [e.request_body for e in outcome.exchanges if e.status == 500]
    # the surrogates break it (and so does the nesting, which json.loads cannot take)
    assert any(b'"text": "\\ud800"' in body for body in broken), broken[:3]
    assert any(b'"text": "\\udfff"' in body for body in broken)


def test_an_edge_answered_without_end_is_cut_off_within_the_timeout() -> None:
    """fuzz's own requests (the edge strings) read at most 10 MiB of an answer, within the run's
    timeout in all: a host that streams forever is cut off, and the exchange says why."""
    import time

    from starlette.applications import Starlette
    from starlette.responses import StreamingResponse
    from starlette.routing import Route

    from conformance.usecases.fuzz.engine import _sent
    from mocks.serve import serve

    async def endless(request: Any) -> StreamingResponse:
        async def chunks() -> Any:
            # 64 MiB, past the cap and the timeout: endless to the client; bounded, and ended
            # when it has gone, so that the server thread ends too (writing on to a closed
            # socket, uvicorn spun at 100% CPU and the test never left `serve`)
            for _ in range(1024):
                if await request.is_disconnected():
                    return
                yield b" " * 65_536

        return StreamingResponse(chunks(), media_type="application/json")

    app = Starlette(routes=[Route("/invoke", endless, methods=["POST"])])
    with serve(lambda base: app, tls=False) as host:
        started = time.monotonic()
        (made,) = _sent([("/invoke", "x", b"{}")], host.url, app=None, timeout=1.0, cacert=None)
    assert time.monotonic() - started < 10
    assert made.status is None or len(made.response_body) <= 10 * 1024 * 1024
    assert made.error is None or "longer than" in made.error


def test_the_codec_tables_handed_to_hypothesis_are_the_ones_it_computes() -> None:
    """Each codec table the fuzzer writes into Hypothesis's folder (so that no fuzzing computes it
    again, at 1.3 s and a 180 MB peak) is what Hypothesis computes, character by character; the
    folder is gone afterwards and Hypothesis's own folder is as it was."""
    from hypothesis.configuration import storage_directory
    from hypothesis.internal.charmap import intervals_from_codec

    from conformance.usecases.fuzz.engine import CODEC_TABLES
    from conformance.usecases.fuzz.engine import hypothesis_storage

    before = storage_directory(intent_to_write=False).home_directory
    with hypothesis_storage() as storage:
        assert storage_directory(intent_to_write=False).home_directory == storage
        for codec, (encoded, not_back) in CODEC_TABLES.items():
            computed, roundtrip_broken = intervals_from_codec.__wrapped__(codec)
            assert [list(pair) for pair in computed.intervals] == encoded, codec
            assert [list(pair) for pair in roundtrip_broken.intervals] == not_back, codec
    assert not storage.exists()
    assert storage_directory(intent_to_write=False).home_directory == before
