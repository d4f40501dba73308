"""The reference ACI agents: bad input is a 4xx problem, never a 500; the master keeps to its
address policy; its context store refuses what it must; the A2A servers answer refused contexts
with a problem data part."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from conformance.bindings.a2a import restore_integers
from conformance.bindings.a2a import send_data
from conformance.bindings.http import HttpClient
from conformance.harness.context_store import ContextStore
from conformance.harness.context_store import tampered
from conformance.recording.values import Values
from mocks.reference.aci_master import ContextStore as MasterStore
from mocks.serve import ServedMock


def _invoke(client: httpx.Client, agent: str, operation: str, given: Any) -> httpx.Response:
    return client.post(
        f"/agents/{agent}/invoke", json={"agent": agent, "operation": operation, "input": given}
    )


@pytest.mark.parametrize(
    "given, status",
    [
        ({}, 422),
        ({"AgentContext": []}, 422),
        (
            {"AgentContext": {"AgentID": "flight-booking", "SubTaskID": "t/1", "todoItems": []}},
            422,
        ),  # another agent's context
        (
            {
                "AgentContext": {
                    "AgentID": "hotel-booking",
                    "SubTaskID": "t/1",
                    "todoItems": [{"itemId": 3}],
                }
            },
            422,
        ),
        (
            {
                "AgentContext": {
                    "AgentID": "hotel-booking",
                    "SubTaskID": "t/1",
                    "todoItems": [],
                    "Dependencies": "t/0",
                }
            },
            422,
        ),
    ],
)
def test_an_invoked_agent_refuses_bad_contexts_with_a_problem(
    host: tuple[ServedMock, httpx.Client], given: Any, status: int
) -> None:
    response = _invoke(host[1], "hotel-booking", "execute_subtask", given)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/problem+json")


def test_an_invoked_agent_does_not_fetch_context_from_elsewhere(
    host: tuple[ServedMock, httpx.Client],
) -> None:
    context = {
        "AgentID": "hotel-booking",
        "SubTaskID": "t/1",
        "todoItems": [{"itemId": "h1", "description": "find a hotel"}],
        "ContextURI": "https://169.254.169.254/latest/meta-data/",
    }
    body = _invoke(host[1], "hotel-booking", "execute_subtask", {"AgentContext": context}).json()[
        "AgentContext"
    ]
    assert body["ItemstateUpdates"] == [{"itemId": "h1", "state": 0}]
    assert "not on an origin" in body["KeyInformation"][0]["outputabstract"]


@pytest.mark.parametrize(
    "given",
    [
        {"UserQuery": "plan a trip", "agents": "https://evil.example/.well-known/woa.json"},
        {"UserQuery": "plan a trip", "agents": "http://10.0.0.1/.well-known/woa.json"},
        {"UserQuery": "", "agents": "http://127.0.0.1:9/x"},
        {"UserQuery": "plan a trip"},
    ],
)
def test_the_master_refuses_agents_documents_elsewhere(
    host: tuple[ServedMock, httpx.Client], given: Any
) -> None:
    response = _invoke(host[1], "aci-master", "run_task", given)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")


def test_the_master_reports_unreachable_agents_in_a_failed_task_context(
    host: tuple[ServedMock, httpx.Client],
) -> None:
    response = _invoke(
        host[1],
        "aci-master",
        "run_task",
        {"UserQuery": "Plan a trip to Rome", "agents": "http://127.0.0.1:9/woa.json"},
    )
    assert response.status_code == 200
    task = response.json()["TaskContext"]
    assert task["OverallStatus"] == "failed" and {g["Status"] for g in task["GoalStatus"]} == {
        "failed"
    }


def test_the_master_store_refuses_missing_wrong_and_expired_credentials() -> None:
    store = MasterStore("https://h")
    uri = store.put("the patient's history")
    ident, query = uri.split("/aci/contexts/")[1].split("?")
    assert store.get(ident, query) == (200, "the patient's history")
    assert store.get(ident, "")[0] == 401
    assert store.get(ident, query[:-1] + ("0" if query[-1] != "0" else "1"))[0] == 403
    exp = int(query.split("exp=")[1].split("&")[0])
    expired = query.replace(f"exp={exp}", "exp=1").replace(
        query.split("sig=")[1], store._sign(ident, 1)
    )
    assert store.get(ident, expired)[0] == 410


def test_the_suite_store_signs_and_expires_references() -> None:
    store = ContextStore(Values(1), base="http://s")
    good, old = store.put("x"), store.put("y", ttl=-5)
    assert (
        tampered(good) != good and tampered(good).rsplit("sig=", 1)[0] == good.rsplit("sig=", 1)[0]
    )
    assert "exp=" in good and "sig=" in old


def test_integral_doubles_from_protobuf_become_integers_again() -> None:
    assert restore_integers({"state": 1.0, "items": [0.0, 2.5, {"n": 3.0}], "s": "1.0"}) == {
        "state": 1,
        "items": [0, 2.5, {"n": 3}],
        "s": "1.0",
    }


def test_an_a2a_agent_answers_a_refused_context_with_a_problem_part(
    host: tuple[ServedMock, httpx.Client],
) -> None:
    mock = host[0]

    async def call() -> Any:
        async with HttpClient(cacert=mock.cacert, timeout=5) as client:
            return await send_data(
                client,
                f"{mock.url}/a2a/diagnosis",
                {"AgentContext": {"AgentID": "hotel-booking"}},
                lambda _: True,
                "m-1",
            )

    reply = asyncio.run(call())
    assert reply.ok and reply.body["problem"]["status"] == 422


def test_an_a2a_agent_refuses_an_oversized_body_before_the_sdk_reads_it(
    host: tuple[ServedMock, httpx.Client],
) -> None:
    response = host[1].post(
        "/a2a/diagnosis/rpc",
        content=b"{" + b" " * (2 * 1024 * 1024) + b"}",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413
    assert response.headers["content-type"].startswith("application/problem+json")
