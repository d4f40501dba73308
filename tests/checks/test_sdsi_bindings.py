"""The SDSI bindings: JSON-RPC as in Appendix A against the reference server, framed or bare, and
the payloads the suite makes from a template's semantic descriptions."""

from __future__ import annotations

import json

import httpx
import pytest

from conformance.bindings import HttpClient
from conformance.bindings.sdsi import JsonRpcSdsi
from conformance.checks.sdsi.session import example_value
from conformance.checks.sdsi.session import payload_for
from conformance.report import Status
from conformance.targeting import DEFAULT_ROLES
from conformance.vectors.figures import sdsi_figure
from tests.checks.mutants import certify


def test_the_reference_server_passes_over_json_rpc() -> None:
    scenarios = ("flight_booking", "photo_retouch")
    results = certify(None, "sdsi", DEFAULT_ROLES, "jsonrpc", path="/sdsi/rpc", scenarios=scenarios)
    verdicts = {r.requirement: r.status for r in results}
    assert [r for r in results if r.status in (Status.FAIL, Status.ERROR)] == []
    assert (
        verdicts["SDSI-4.3-OTHER-ACCEPTED"] is Status.PASS
        and verdicts["SDSI-6.2.2-PATCH-ID"] is Status.PASS
    )


async def test_json_rpc_framing_is_accepted_when_the_target_uses_it() -> None:
    def framed(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body.get("method") == "get_schema_template":
            return httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "result": sdsi_figure(7)})
        return httpx.Response(
            200,
            json={
                "jsonrpc": "2.0",
                "id": 2,
                "error": {"code": -32602, "message": "unknown schema"},
            },
        )

    async with HttpClient(transport=httpx.MockTransport(framed)) as client:
        binding = JsonRpcSdsi(client, "https://rpc.test/sdsi", ("flight_booking",))
        template = await binding.template("flight_booking")
        rejected = await binding.execute("no-such-schema", {})
    assert template.ok and template.body == sdsi_figure(7)
    assert rejected.rejected and "unknown schema" in (rejected.problem or "")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("origin", "PEK"),
        ("destination", "SHA"),
        ("departure_date", "2026-05-04"),
        ("cabin_class", "business"),
        ("passenger_count", 2),
    ],
)
def test_example_values_come_from_the_semantic_descriptions(key: str, value: object) -> None:
    definition = next(k for k in sdsi_figure(2)["keys"] if k["key_name"] == key)
    assert example_value(definition) == value


def test_payloads_made_from_figure_2_keep_its_rules() -> None:
    from conformance.validation import validate_message

    template = sdsi_figure(2)
    for payload in (
        payload_for(template, full=False),
        payload_for(template, full=True, other=["window seat"]),
    ):
        assert (
            validate_message(
                "sdsi/payload-message",
                {"schema_id": template["schema_id"], "payload": payload},
                template=template,
            )
            == []
        )
