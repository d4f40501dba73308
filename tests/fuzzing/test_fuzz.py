"""API fuzzing: a planted 500 is found within the default budget, with a curl command; the
reference host is clean; the same seed sends the same requests."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from conformance.cli import app
from conformance.fuzzing.engine import fuzz
from conformance.fuzzing.openapi import openapi_from_woa
from mocks.serve import serve, serve_host
from mocks.reference.woa_host import woa_document
from tests import hostile

runner = CliRunner()


def test_fuzz_finds_a_planted_500_with_its_default_budget(tmp_path: Path) -> None:
    with serve(hostile.planted_500) as host:
        result = runner.invoke(app, ["fuzz", "--target", host.url, "--cacert", str(host.cacert), "--report-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output  # a 5xx is a robustness failure, not a MUST
    report = json.loads((tmp_path / "report.json").read_text())
    found = [r for r in report["results"] if r["status"] == "fail" and r["requirement"] == "ROBUSTNESS"]
    assert found and "curl -X POST" in found[0]["message"] and '"max_words": 500' in found[0]["message"]
    assert report["header"]["binding"] == "fuzz"


def test_the_reference_host_is_clean_under_fuzzing(tmp_path: Path) -> None:
    with serve_host() as host:
        result = runner.invoke(app, ["fuzz", "--target", host.url, "--cacert", str(host.cacert), "--report-dir", str(tmp_path),
                                     "--max-examples", "30"])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "report.json").read_text())
    assert {r["status"] for r in report["results"]} == {"pass"}


def test_the_same_seed_finds_the_same_failures_in_process() -> None:
    plan = openapi_from_woa(woa_document("https://127.0.0.1:1"))
    planted = hostile.planted_500("http://testserver")
    runs = [fuzz(plan.openapi, plan.base, app=planted, max_examples=25, seed=7) for _ in range(2)]
    assert [(f.check, f.curl) for f in runs[0].failures] == [(f.check, f.curl) for f in runs[1].failures]
    assert runs[0].cases == runs[1].cases and runs[0].failures


def test_the_openapi_document_follows_the_envelope_rules() -> None:
    plan = openapi_from_woa(woa_document("https://api.example.com/v1"))
    assert plan.base == "https://api.example.com/v1"
    body = plan.openapi["paths"]["/agents/summarizer/invoke"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["input"]  # agent may come from the URL (5.2), operation defaults (5.1)
    assert "$schema" not in body["properties"]["input"]


def test_an_agent_whose_schema_holds_a_ref_is_left_out() -> None:
    document = woa_document("https://api.example.com")
    document["agents"][0]["inputs"] = {"$ref": "https://evil.example/schema.json"}
    plan = openapi_from_woa(document)
    assert "/agents/summarizer/invoke" not in plan.openapi["paths"]
    assert plan.left_out == ["agent 'summarizer': a schema is missing or holds a $ref"]

