"""The reference WoA host serves what the draft describes, and says no with problem details."""

from __future__ import annotations

import httpx
import pytest

from conformance.validation import validate_message
from mocks.host import create_app as with_fault
from mocks.reference.woa_host import MAX_BODY
from mocks.serve import ServedMock


def test_the_document_keeps_every_message_rule(host: tuple[ServedMock, httpx.Client]) -> None:
    mock, client = host
    response = client.get("/.well-known/woa.json")
    assert response.headers["content-type"] == "application/woa+json"
    assert {"etag", "last-modified", "cache-control"} <= set(response.headers)
    assert validate_message("woa/document", response.json()) == []
    assert response.json()["transports"]["rest"]["base"] == mock.url


def test_a_conditional_get_is_answered_304(host: tuple[ServedMock, httpx.Client]) -> None:
    _, client = host
    first = client.get("/.well-known/woa.json")
    assert (
        client.get(
            "/.well-known/woa.json", headers={"if-none-match": first.headers["etag"]}
        ).status_code
        == 304
    )
    assert (
        client.get(
            "/.well-known/woa.json", headers={"if-modified-since": first.headers["last-modified"]}
        ).status_code
        == 304
    )


def _invoke(
    client: httpx.Client, body: object, agent: str = "summarizer", **kwargs: object
) -> httpx.Response:
    return client.post(f"/agents/{agent}/invoke", json=body, **kwargs)  # type: ignore[arg-type]


def test_a_valid_invocation_answers_the_outputs_schema(
    host: tuple[ServedMock, httpx.Client],
) -> None:
    _, client = host
    document = client.get("/.well-known/woa.json").json()
    response = _invoke(
        client,
        {
            "agent": "summarizer",
            "operation": "default",
            "input": {"text": "one two three", "max_words": 10},
        },
    )
    assert response.status_code == 200
    assert (
        validate_message(
            "woa/success-response", response.json(), document=document, agent="summarizer"
        )
        == []
    )


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"agent": "translator", "input": {"text": "x"}}, 400),
        ({"agent": "summarizer", "input": {"max_words": 5}}, 422),
        ({"agent": "summarizer", "input": "text"}, 400),
        ({"agent": "summarizer", "operation": "translate", "input": {"text": "x"}}, 400),
        (["not", "an", "envelope"], 400),
    ],
)
def test_bad_envelopes_get_a_4xx_problem(
    host: tuple[ServedMock, httpx.Client], body: object, status: int
) -> None:
    response = _invoke(host[1], body)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["status"] == status


@pytest.mark.parametrize(
    ("content", "headers", "status"),
    [
        (b"{not json", {"content-type": "application/json"}, 400),
        (
            b'{"agent": "summarizer", "input": {"text": NaN}}',
            {"content-type": "application/json"},
            400,
        ),
        (b'{"agent": "summarizer", "input": {"text": "x"}}', {"content-type": "text/plain"}, 415),
        (b" " * (MAX_BODY + 1), {"content-type": "application/json"}, 413),
    ],
)
def test_bad_bodies_get_a_4xx_problem(
    host: tuple[ServedMock, httpx.Client], content: bytes, headers: dict[str, str], status: int
) -> None:
    response = host[1].post("/agents/summarizer/invoke", content=content, headers=headers)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"


def test_unknown_paths_and_agents_get_404_problems(host: tuple[ServedMock, httpx.Client]) -> None:
    _, client = host
    for response in (
        client.get("/nowhere"),
        _invoke(client, {"agent": "x", "input": {}}, agent="x"),
    ):
        assert (
            response.status_code == 404
            and response.headers["content-type"] == "application/problem+json"
        )


def test_the_json_rpc_endpoint_caps_and_checks_its_input(
    host: tuple[ServedMock, httpx.Client],
) -> None:
    _, client = host
    big = client.post(
        "/sdsi/rpc", content=b" " * (MAX_BODY + 1), headers={"content-type": "application/json"}
    )
    bad = client.post("/sdsi/rpc", content=b"{bad", headers={"content-type": "application/json"})
    odd = client.post("/sdsi/rpc", json={"method": "nothing"})
    assert (big.status_code, bad.status_code, odd.status_code) == (413, 400, 400)
    assert {r.headers["content-type"] for r in (big, bad, odd)} == {"application/problem+json"}


@pytest.mark.parametrize("fault", ["woa-5.2-agent-mismatch-400", "woa-9.2-media-type"])
async def test_a_faulty_host_refuses_a_body_over_the_limit_as_the_host_does(fault: str) -> None:
    """A fault's wrapper reads no more of a request than the reference host would."""
    app = with_fault("https://host.test", fault)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="https://host.test"
    ) as client:
        response = await client.post(
            "/agents/summarizer/invoke",
            content=b"x" * (MAX_BODY + 1),
            headers={"content-type": "application/json"},
        )
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/problem+json"
