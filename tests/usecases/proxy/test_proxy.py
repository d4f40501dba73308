"""The passive proxy between the reference WoA client and host: clean traffic passes, a fault on
either side is caught on its requirement and attributed to that side, untouched requirements are
skips, and the command writes its reports at SIGINT."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import ssl
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import pytest
import trustme

from conformance.bindings.observed import Observed
from conformance.bindings.observed import Traffic
from conformance.harness.loop_server import start_server
from conformance.report import Result
from conformance.report import Status
from conformance.requirements import catalogue
from conformance.usecases.proxy import forwarding_app
from conformance.usecases.proxy import judge
from mocks.faults.woa_client import CLIENT_FAULTS
from mocks.reference.woa_client import ClientPolicy
from mocks.reference.woa_client import InvalidMessage
from mocks.reference.woa_client import WoaClient
from mocks.serve import serve_host

CLI = [sys.executable, "-m", "conformance.cli"]
TEXT = {
    "text": (
        "The IETF is an open international community of network designers, operators, vendors and"
        " researchers."
    )
}


async def _through_proxy(upstream: str, upstream_ca: Path, client_fault: str | None) -> Traffic:
    traffic = Traffic()
    with tempfile.TemporaryDirectory() as folder:
        authority = trustme.CA()
        leaf = authority.issue_cert("127.0.0.1")
        ca, chain, key = (
            Path(folder) / "ca.pem",
            Path(folder) / "chain.pem",
            Path(folder) / "key.pem",
        )
        authority.cert_pem.write_to_path(str(ca))
        leaf.cert_chain_pems[0].write_to_path(str(chain))
        leaf.private_key_pem.write_to_path(str(key))
        async with httpx.AsyncClient(
            verify=ssl.create_default_context(cafile=str(upstream_ca)), trust_env=False
        ) as forwarder:
            server, task, port = await start_server(
                lambda bound: forwarding_app(
                    upstream, forwarder, traffic, f"https://127.0.0.1:{bound}"
                ),
                certfile=chain,
                keyfile=key,
            )
            try:
                client_class = (
                    CLIENT_FAULTS[client_fault.lower()].agent if client_fault else WoaClient
                )
                client = client_class(ClientPolicy(allow_private=True), cacert=ca)
                # twice: the document has gone stale in between, so the client polls again
                for _ in range(2):
                    for entry in client._cache.values():
                        entry.fresh_until = 0
                    # a faulty side: what passed through is what is judged
                    with contextlib.suppress(InvalidMessage):
                        await client.invoke(
                            f"https://127.0.0.1:{port}", "summarizer", TEXT, "default"
                        )
            finally:
                await server.stop(task)
    return traffic


def observe(
    host_fault: str | None = None, client_fault: str | None = None
) -> tuple[Traffic, list[Result]]:
    with serve_host(host_fault) as host:
        assert host.cacert is not None
        traffic = asyncio.run(_through_proxy(host.url, host.cacert, client_fault))
    return traffic, judge(traffic, ("woa",))


def failures(results: list[Result]) -> dict[str, str]:
    return {
        r.requirement: catalogue()[r.requirement].role for r in results if r.status is Status.FAIL
    }


def test_clean_traffic_passes_both_sides_and_untouched_requirements_are_skips() -> None:
    traffic, results = observe()
    assert len(traffic.exchanges) == 4 and traffic.exchanges[1].url.startswith("https://127.0.0.1")
    assert failures(results) == {}
    by_id = {r.requirement: r for r in results}
    for host_side in (
        "WOA-4-VERSION-1",
        "WOA-5.2-SUCCESS-CONFORMS-OUTPUTS",
        "WOA-4.3.1-HOST-RESPONDS-JSON",
        "WOA-7-CONDITIONAL-GET",
    ):
        assert by_id[host_side].status is Status.PASS, by_id[host_side].message
    for client_side in (
        "WOA-4.3.1-CLIENT-USES-POST",
        "WOA-5.1-INPUT-CONFORMS",
        "WOA-7-CLIENT-HONORS-CACHING",
    ):
        assert by_id[client_side].status is Status.PASS, by_id[client_side].message
    # no exchange named another agent
    assert by_id["WOA-5.2-AGENT-MISMATCH-400"].status is Status.SKIP
    # the document has no private transport: the same check as run says so (the proxy once said
    # skip)
    assert by_id["WOA-4.3.3-PRIVATE-REVERSE-DNS"].status is Status.NOT_APPLICABLE


@pytest.mark.parametrize(
    ("host_fault", "client_fault", "caught"),
    [
        ("woa-5.2-success-conforms-outputs", None, {"WOA-5.2-SUCCESS-CONFORMS-OUTPUTS": "host"}),
        ("woa-4-version-1", None, {"WOA-4-VERSION-1": "host"}),
        (None, "WOA-4.3.1-CLIENT-SENDS-JSON", {"WOA-4.3.1-CLIENT-SENDS-JSON": "client"}),
        (None, "WOA-5.1-ENVELOPE-INPUT-REQUIRED", {"WOA-5.1-ENVELOPE-INPUT-REQUIRED": "client"}),
        (None, "WOA-7-CLIENT-HONORS-CACHING", {"WOA-7-CLIENT-HONORS-CACHING": "client"}),
    ],
)
def test_a_fault_on_either_side_is_caught_and_attributed_to_that_side(
    host_fault: str | None, client_fault: str | None, caught: dict[str, str]
) -> None:
    _, results = observe(host_fault, client_fault)
    assert failures(results) == caught


def test_the_command_forwards_until_sigint_then_writes_the_reports(tmp_path: Path) -> None:
    with serve_host() as host:
        proxy = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "conformance.cli",
                "proxy",
                "--upstream",
                host.url,
                "--cacert",
                str(host.cacert),
                "--listen",
                "127.0.0.1:0",
                "--suite",
                "woa",
                "--report-dir",
                str(tmp_path),
                "--record",
                str(tmp_path / "recording"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proxy.stdout is not None
        url = proxy.stdout.readline().split(" listening at ")[1].split()[0]
        client = WoaClient(ClientPolicy(allow_private=True), cacert=tmp_path / "proxy-ca.pem")
        assert asyncio.run(client.invoke(url, "summarizer", TEXT, "default"))["summary"]
        # the proxy calls the upstream whatever Host the client names
        document = httpx.get(
            url + "/.well-known/woa.json",
            headers={"host": "elsewhere.example"},
            verify=ssl.create_default_context(cafile=str(tmp_path / "proxy-ca.pem")),
        )
        upstream = httpx.get(
            host.url + "/.well-known/woa.json",
            verify=ssl.create_default_context(cafile=str(host.cacert)),
        )
        proxy.send_signal(signal.SIGINT)
        out, err = proxy.communicate(timeout=30)
    report = json.loads((tmp_path / "report.json").read_text())
    assert proxy.returncode == 0, err
    assert report["header"]["binding"] == "proxy" and report["header"]["options"]["exchanges"] == 3
    assert all(
        e["url"].startswith(host.url) for r in report["results"] for e in r.get("evidence", [])
    )
    assert "3 exchanges judged" in out
    # the upstream's answer handed on: its own Date and Server once each (the proxy adds none)
    assert [len(document.headers.get_list(h)) for h in ("date", "server")] == [1, 1]
    assert document.headers["etag"] == upstream.headers["etag"]
    recorded = [
        json.loads(line)
        for line in (tmp_path / "recording" / "exchanges.jsonl").read_text().splitlines()
    ]
    assert [(r["method"], r["status"]) for r in recorded] == [
        ("GET", 200),
        ("POST", 200),
        ("GET", 200),
    ]
    assert (
        json.loads((tmp_path / "recording" / "meta.json").read_text())["options"]["passive"] is True
    )
    # the recorded traffic judged again, offline, to the same verdicts
    rejudged = subprocess.run(
        [
            sys.executable,
            "-m",
            "conformance.cli",
            "rejudge",
            str(tmp_path / "recording"),
            "--report-dir",
            str(tmp_path / "again"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert rejudged.returncode == 0, rejudged.stderr
    assert "0 verdicts changed since the recording." in rejudged.stdout
    again = json.loads((tmp_path / "again" / "report.json").read_text())
    assert [(r["requirement"], r["status"], r["message"]) for r in again["results"]] == [
        (r["requirement"], r["status"], r["message"]) for r in report["results"]
    ]
    # an attestation of the report and of the proxy's recording verifies: the traffic is judged
    # again as the run that watched it, not replayed as a run that sends
    key = tmp_path / "key"
    attested = [
        [*CLI, "keygen", "--out", str(key)],
        [
            *CLI,
            "attest",
            str(tmp_path),
            "--key",
            str(key),
            "--recording",
            str(tmp_path / "recording"),
        ],
        [
            *CLI,
            "verify",
            str(tmp_path / "attestation.json"),
            "--key",
            f"{key}.pub",
            "--recording",
            str(tmp_path / "recording"),
        ],
    ]
    for command in attested:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr


def _invocation(envelope: object, answer: object) -> Traffic:
    """A document, then one invocation carrying `envelope` and answered `answer`, as the proxy
    records them."""
    from mocks.reference.woa_host import woa_document

    document = woa_document("https://host.example")
    json_type = {"content-type": "application/json"}
    return Traffic(
        [
            Observed(
                "GET",
                "https://host.example/.well-known/woa.json",
                "/.well-known/woa.json",
                {},
                b"",
                200,
                {"content-type": "application/woa+json", "etag": '"1"'},
                json.dumps(document).encode(),
                1.0,
            ),
            Observed(
                "POST",
                "https://host.example/agents/travel-and-photo/invoke",
                "/agents/travel-and-photo/invoke",
                json_type,
                json.dumps(envelope).encode(),
                200,
                json_type,
                json.dumps(answer).encode(),
                1.0,
            ),
        ]
    )


def test_sdsi_and_aci_messages_are_judged_wherever_they_travel() -> None:
    payload = {
        "schema_id": "flight_booking_v1",
        "payload": {"departure_city": "Beijing", "other": 42},
    }
    agent_context = {
        "AgentContext": {"AgentID": "hotel", "SubTaskID": "1", "todoItems": "not a list"}
    }
    traffic = _invocation(
        {"agent": "travel-and-photo", "operation": "execute", "input": {"message": payload}},
        {"result": agent_context},
    )
    results = {r.requirement: r for r in judge(traffic, ("sdsi", "aci"))}
    assert results["SDSI-4.3-OTHER-VALUE-STRING-OR-ARRAY"].status is Status.FAIL
    # the side the requirement binds
    assert catalogue()["SDSI-4.3-OTHER-VALUE-STRING-OR-ARRAY"].role == "client"
    # needs the negotiated template, which the traffic lacks
    assert results["SDSI-3.2-PAYLOAD-REQUIRED-KEYS"].status is Status.SKIP
    assert Status.FAIL in {
        r.status for r in results.values() if r.requirement.startswith("ACI-5.2")
    }


def test_hostile_traffic_is_judged_without_crashing_the_judge() -> None:

    document = {
        "woa_version": "1",
        "transports": {
            "rest": {"base": "https://h.example", "invoke_path": "/agents/{agent_id}/invoke"}
        },
        "agents": [
            {
                "id": "a",
                "name": "A",
                "description": "A.",
                "transports": ["rest"],
                "inputs": {"type": "object"},
                "outputs": {
                    "$defs": {"loop": {"$ref": "#/$defs/loop"}},
                    "type": "object",
                    "properties": {"x": {"$ref": "#/$defs/loop"}},
                },
            }
        ],
    }
    deep = b"[" * 100_000 + b"]" * 100_000
    json_type = {"content-type": "application/json"}
    traffic = Traffic(
        [
            Observed(
                "GET",
                "https://h.example/.well-known/woa.json",
                "/.well-known/woa.json",
                {},
                b"",
                200,
                json_type,
                json.dumps(document).encode(),
                1.0,
            ),
            *(
                Observed(
                    "POST",
                    "https://h.example/agents/a/invoke",
                    "/agents/a/invoke",
                    request_headers=json_type,
                    request_body=sent,
                    status=200,
                    response_headers=json_type,
                    response_body=b'{"x": 1}',
                    elapsed_ms=1.0,
                )
                for sent in (deep, b'{"agent": "a", "input": {}}')
            ),
        ]
    )
    results = {r.requirement: r for r in judge(traffic, ("woa",))}
    # a body nested 100,000 deep is not usable JSON
    assert results["WOA-4.3.1-CLIENT-SENDS-JSON"].status is Status.FAIL
    # a schema that refers to itself forever
    assert results["WOA-5.2-SUCCESS-CONFORMS-OUTPUTS"].status is Status.ERROR
    assert "cannot be judged" in results["WOA-5.2-SUCCESS-CONFORMS-OUTPUTS"].message


def test_a_compressed_answer_is_decoded_only_up_to_the_cap() -> None:
    import gzip

    from conformance.bindings.observed import MAX_BODY
    from conformance.usecases.proxy.forward import _decoded

    bomb = gzip.compress(b"0" * (MAX_BODY * 4))
    assert len(bomb) < MAX_BODY // 100 and len(_decoded(bomb, "gzip")) == MAX_BODY
