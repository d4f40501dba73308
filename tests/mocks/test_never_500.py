"""Every endpoint of every server the project runs (the reference host with its WoA REST, JSON-RPC,
test-clock, A2A and MCP endpoints; the suite's SDSI and ACI spies; its context store) fuzzed with
Hypothesis over real uvicorn servers: never a 5xx, every error a 4xx in problem details (what the
frameworks answer themselves too), the connection still usable after an error, and a body over the
limit refused with 413 before it is read. Schemathesis fuzzes the agents' declared inputs too
(tests/usecases/fuzz/test_fuzz.py)."""

from __future__ import annotations

import contextlib
import copy
import http.client
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from conformance.harness.aci_spies import SPIES
from conformance.harness.aci_spies import Spies
from conformance.harness.aci_spies import SpyRun
from conformance.harness.aci_spies import spies_app
from conformance.harness.context_store import ContextStore
from conformance.harness.sdsi_spy import Spy
from conformance.harness.sdsi_spy import spy_app
from conformance.recording.values import Values
from mocks.reference.woa_host import woa_document
from mocks.serve import serve
from mocks.serve import serve_host

ROOT = Path(__file__).resolve().parents[2]
HOST_AGENTS = [a["id"] for a in woa_document("http://x")["agents"]]
VOCABULARY = [
    "method",
    "params",
    "scenario",
    "preferred_language",
    "schema_id",
    "payload",
    "agent",
    "operation",
    "input",
    "client_id",
    "AgentContext",
    "AgentID",
    "SubTaskID",
    "todoItems",
    "Context",
    "ContextURI",
    "jsonrpc",
    "id",
    "UserQuery",
    "agents",
    "utterance",
    "server",
    "text",
    "max_words",
    "other",
    "message",
    "parts",
]
WORDS = [
    "get_schema_template",
    "get_schema_updates",
    "execute",
    "flight_booking",
    "restaurant_reservation",
    "flight_booking_v1",
    "default",
    "execute_subtask",
    "run_task",
    "handle_user_request",
    "message/send",
    "2.0",
    "summarizer",
    *HOST_AGENTS,
    "http://127.0.0.1:9/",
    "zh-CN",
    "",
    "\x00",
    "é",
    "\ud800",  # a lone surrogate: valid JSON (written as an escape), no Unicode scalar value
    "x \udfff y",
    "\uffff",
]

leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.sampled_from(WORDS)
    | st.text(max_size=30)
)
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(VOCABULARY) | st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=25,
)
clocks = st.sampled_from(
    [
        "9999-12-31T23:59:59Z",
        "0001-01-01T00:00:00Z",
        "2026-05-04T09:00:00Z",
        "2026-05-04",
        "yesterday",
        "2026-05-04T09:00:00+14:00",
        "1969-12-31T23:59:59Z",
    ]
)
header_values = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)
clocks = clocks | header_values

SUBTASK = json.loads((ROOT / "vectors" / "aci" / "section-3-subtasks.json").read_text())["cases"][
    0
]["data"]
PAYLOAD = {
    "departure_city": "Beijing",
    "arrival_city": "Shanghai",
    "departure_date": "2026-05-04",
    "passenger_count": 1,
    "other": "window seat",
}


def _envelope(agent: str, operation: str | None, given: Any) -> dict[str, Any]:
    return {"agent": agent, **({"operation": operation} if operation else {}), "input": given}


#: What a well-behaved caller sends each endpoint: the fuzzer mutates one place of one of them.
SEEDS: dict[str, list[Any]] = {
    "/sdsi/rpc": [
        {
            "method": "get_schema_template",
            "params": {"scenario": "flight_booking", "preferred_language": "zh-CN"},
        },
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "get_schema_updates",
            "params": {"schema_id": "flight_booking_v1"},
        },
        {"schema_id": "flight_booking_v1", "payload": PAYLOAD},
    ],
    "/agents/summarizer/invoke": [
        _envelope("summarizer", "default", {"text": "A text.", "max_words": 10})
    ],
    "/agents/travel-and-photo/invoke": [
        _envelope(
            "travel-and-photo",
            "get_schema_template",
            {"scenario": "flight_booking", "preferred_language": "zh"},
        ),
        _envelope(
            "travel-and-photo", "execute", {"schema_id": "flight_booking_v1", "payload": PAYLOAD}
        ),
        _envelope("travel-and-photo", "get_schema_updates", {"schema_id": "flight_booking_v1"}),
    ],
    "/agents/hotel-booking/invoke": [_envelope("hotel-booking", "execute_subtask", SUBTASK)],
    "/agents/aci-master/invoke": [
        _envelope(
            "aci-master",
            "run_task",
            {
                "UserQuery": "Plan a trip to Beijing.",
                "agents": "http://127.0.0.1:9/.well-known/woa.json",
            },
        )
    ],
    "/a2a/hotel-booking/rpc": [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "SendMessage",
            "params": {
                "message": {"messageId": "m1", "role": "ROLE_USER", "parts": [{"data": SUBTASK}]}
            },
        }
    ],
    "/mcp/": [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "summarizer", "arguments": {"text": "A text."}},
        }
    ],
    "/runs/fuzz/agents/hotel-booking/invoke": [
        _envelope("hotel-booking", "execute_subtask", SUBTASK)
    ],
}


def _places(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _places(inner, (*at, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _places(inner, (*at, index))
    return found


@st.composite
def mutated(draw: st.DrawFn, seed: Any) -> bytes:
    """`seed` with one place replaced, removed or given a sibling; or, now and then, bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=64))
    message = copy.deepcopy(seed)
    place = draw(st.sampled_from(_places(message)))
    if not place:
        return json.dumps(draw(values)).encode()
    parent = message
    for step in place[:-1]:
        parent = parent[step]
    action = draw(st.sampled_from(["replace", "replace", "remove", "add"]))
    if action == "replace":
        parent[place[-1]] = draw(values)
    elif action == "remove":
        del parent[place[-1]]
    elif isinstance(parent, dict):
        parent[draw(st.sampled_from(VOCABULARY))] = draw(values)
    return json.dumps(message).encode()


def _paths(spies_run: str) -> list[str]:
    host = [
        "/.well-known/woa.json",
        "/sdsi/rpc",
        "/sdsi/jwks.json",
        "/aci/contexts/abc",
        "/mcp/",
        "/mcp",
        "/nope",
        *(f"/agents/{a}/invoke" for a in [*HOST_AGENTS, "no-such-agent"]),
        *(
            f"/a2a/{a}/{p}"
            for a in ("hotel-booking", "diagnosis")
            for p in (".well-known/agent-card.json", "rpc", "nope")
        ),
    ]
    return [
        *host,
        f"/runs/{spies_run}/.well-known/woa.json",
        f"/runs/{spies_run}/agents/hotel-booking/invoke",
        "/contexts/x",
    ]


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, str]]:
    spies, store = Spies(delay=0), ContextStore(Values(1))
    spies.runs["fuzz"] = SpyRun.made("fuzz", "normal", Values(1))
    with (
        serve_host(tls=False) as host,
        serve(lambda base: spies_app(spies), tls=False) as spied,
        serve(lambda base: spy_app(base, Spy()), tls=False) as sdsi,
        serve(lambda base: store.app(), tls=False) as stored,
    ):
        yield {
            "host": host.url,
            "aci-spies": spied.url,
            "sdsi-spy": sdsi.url,
            "context-store": stored.url,
        }


class Connection:
    """One kept-alive HTTP/1.1 connection per server, so that a closed connection shows."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.http = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)

    def send(
        self, method: str, path: str, body: bytes | None, headers: dict[str, str]
    ) -> tuple[int, str, bytes, bool]:
        self.http.request(method, path, body=body, headers=headers)
        response = self.http.getresponse()
        data = response.read()
        return response.status, response.getheader("content-type", ""), data, response.will_close


def _jsonrpc_error(media: str, data: bytes) -> bool:
    """A JSON-RPC 2.0 error object: how MCP's and A2A's own transports say no, which their
    clients expect."""
    try:
        answer = json.loads(data)
    except ValueError:
        return False
    return (
        media.split(";")[0] == "application/json"
        and isinstance(answer, dict)
        and answer.get("jsonrpc") == "2.0"
        and isinstance(answer.get("error"), dict)
    )


def _judge(status: int, media: str, data: bytes, closes: bool, what: str, jsonrpc: bool) -> None:
    assert status < 500, f"{what}: {status} {data[:300]!r}"
    if status >= 400:
        problem_details = media.split(";")[0] == "application/problem+json"
        # a HEAD is answered with no body (RFC 9110, 9.3.2): its media type is the GET's
        head = what.startswith("HEAD ") and jsonrpc and media.split(";")[0] == "application/json"
        assert problem_details or head or (jsonrpc and _jsonrpc_error(media, data)), (
            f"{what}: {status} {media} {data[:200]!r}"
        )
        assert not closes, f"{what}: the connection was closed after a {status}"


def _headers(data: st.DataObject) -> dict[str, str]:
    headers = {
        "content-type": data.draw(
            st.sampled_from(
                ["application/json"] * 4 + ["text/plain", "application/x-www-form-urlencoded", ""]
            )
        ),
        "accept": data.draw(
            st.sampled_from(["application/json", "*/*", "application/json, text/event-stream"])
        ),
    }
    if data.draw(st.booleans()):
        headers |= {
            "SDSI-Test-Clock": data.draw(clocks),
            "SDSI-Test-Session": data.draw(header_values),
        }
    if data.draw(st.booleans()):
        headers[
            data.draw(
                st.sampled_from(
                    ["authorization", "mcp-session-id", "mcp-protocol-version", "if-none-match"]
                )
            )
        ] = data.draw(header_values)
    return {k: v for k, v in headers.items() if v}


def _exchange(
    url: str, method: str, path: str, body: bytes | None, headers: dict[str, str]
) -> None:
    connection = Connection(url)
    try:
        status, media, answer, closes = connection.send(method, path, body, headers)
        jsonrpc = path.startswith("/mcp") or (
            path.startswith("/a2a/") and path.split("?")[0].endswith("/rpc")
        )
        _judge(status, media, answer, closes, f"{method} {url}{path} {body!r:.300}", jsonrpc)
        if status >= 400:  # the same connection serves the next request
            assert connection.send("GET", "/.well-known/woa.json", None, {})[0] in (200, 404)
    finally:
        connection.http.close()


FUZZ = settings(
    max_examples=250, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)


@pytest.mark.parametrize("path", sorted(SEEDS))
@FUZZ
@given(data=st.data())
def test_a_message_mutated_in_one_place_is_never_answered_5xx(
    servers: dict[str, str], path: str, data: st.DataObject
) -> None:
    server = servers["aci-spies" if path.startswith("/runs/") else "host"]
    body = data.draw(mutated(data.draw(st.sampled_from(SEEDS[path]))))
    _exchange(server, "POST", path, body, _headers(data))


@FUZZ
@given(data=st.data())
def test_any_request_anywhere_is_never_answered_5xx(
    servers: dict[str, str], data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(sorted(servers)))
    paths = [
        p
        for p in _paths("fuzz")
        if (name == "host") == (not p.startswith(("/runs/", "/contexts/")))
    ] or ["/nope"]
    path = data.draw(st.sampled_from(paths)) + data.draw(
        st.sampled_from(["", "?x=1", "/extra", "?exp=1&sig=00"])
    )
    method = data.draw(st.sampled_from(["POST", "GET", "PUT", "DELETE", "HEAD", "OPTIONS"]))
    body = (
        data.draw(mutated(data.draw(st.sampled_from(SEEDS.get(path.split("?")[0], [{}])))))
        if method in ("POST", "PUT")
        else None
    )
    _exchange(servers[name], method, path, body, _headers(data))


def _post(
    url: str, path: str, body: Any, headers: dict[str, str] | None = None
) -> tuple[int, str, bytes, bool]:
    connection = Connection(url)
    try:
        return connection.send(
            "POST",
            path,
            json.dumps(body).encode(),
            {"content-type": "application/json", **(headers or {})},
        )
    finally:
        connection.http.close()


def test_a_language_that_is_not_a_string_is_refused(servers: dict[str, str]) -> None:
    status, media, body, closes = _post(
        servers["host"],
        "/sdsi/rpc",
        {
            "method": "get_schema_template",
            "params": {"scenario": "flight_booking", "preferred_language": 5},
        },
    )
    assert (status, media, closes) == (400, "application/problem+json", False), body


def test_a_test_clock_past_what_the_lifecycle_can_date_is_refused(servers: dict[str, str]) -> None:
    """A burst of wishes at 9999-12-31 made the oracle date a deadline in year 10000: a 500."""
    clock = {"SDSI-Test-Clock": "9999-12-31T23:59:59Z", "SDSI-Test-Session": "far-future"}
    payload = {
        "origin": "Beijing",
        "destination": "Shanghai",
        "departure_date": "2026-05-04",
        "other": "a window seat please",
    }
    for n in range(15):
        envelope = _envelope(
            "travel-and-photo", "execute", {"schema_id": "flight_booking_v1", "payload": payload}
        )
        status, media, body, _ = _post(
            servers["host"],
            "/agents/travel-and-photo/invoke",
            {**envelope, "client_id": f"c{n % 5}"},
            clock,
        )
        assert (status, media) == (400, "application/problem+json"), body


@pytest.mark.parametrize(
    "path",
    [
        "/sdsi/rpc",
        "/agents/summarizer/invoke",
        "/agents/travel-and-photo/invoke",
        "/a2a/hotel-booking/rpc",
        "/mcp/",
    ],
)
def test_a_body_over_the_limit_is_refused_before_it_is_read(
    servers: dict[str, str], path: str
) -> None:
    parts = urlsplit(servers["host"])
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\naccept:"
            " application/json, text/event-stream\r\n"
            f"content-length: {100 * 1024 * 1024}\r\n\r\n".encode()
            + b"{" * 1024
        )
        answer = sock.recv(65536).decode(errors="replace")  # answered with 99.99 MB still unsent
    head = answer.split("\r\n\r\n", 1)[0].lower()
    assert head.startswith("http/1.1 413") and "application/problem+json" in head, answer[:300]


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"NOT HTTP AT ALL\r\n\r\n",
        b"GET / HTTP/1.1\r\nhost: x\r\n"
        + b"".join(b"x-flood-%d: %s\r\n" % (n, b"y" * 64) for n in range(20_000))
        + b"\r\n",
    ],
    ids=["malformed", "header-flood"],
)
def test_a_request_that_is_not_http_is_answered_in_problem_details(
    servers: dict[str, str], request_bytes: bytes
) -> None:
    parts = urlsplit(servers["host"])
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        # the server may answer and close before the flood is all sent
        with contextlib.suppress(ConnectionError):
            sock.sendall(request_bytes)
        answer = sock.recv(65536).decode(errors="replace")
    assert answer.startswith("HTTP/1.1 400") and "application/problem+json" in answer.lower(), (
        answer[:300]
    )


def test_the_spies_cover_every_agent() -> None:
    assert {"hotel-booking", "diagnosis"} <= set(SPIES)


#: Strings JSON allows that are no Unicode scalar values, or that trip encoders: a lone high and a
#: lone low surrogate, a noncharacter, NUL, and a string of a megabyte's worth of escapes.
EDGE_STRINGS = ["\ud800", "window \udfff seat", "\uffff", "\x00", "\\u0000" * 20_000]


def _with_every_string_replaced(seed: Any, by: str) -> Iterator[Any]:
    """`seed` once for each string in it, that string replaced by `by`."""
    for place in _places(seed):
        parent: Any = seed
        for step in place[:-1]:
            parent = parent[step]
        if place and isinstance(parent[place[-1]], str):
            changed = copy.deepcopy(seed)
            inner = changed
            for step in place[:-1]:
                inner = inner[step]
            inner[place[-1]] = by
            yield changed


@pytest.mark.parametrize("edge", EDGE_STRINGS, ids=["high", "low", "nonchar", "nul", "long"])
@pytest.mark.parametrize("path", sorted(SEEDS))
def test_an_edge_string_anywhere_in_a_message_is_never_answered_5xx(
    servers: dict[str, str], path: str, edge: str
) -> None:
    """Valid JSON holding a lone surrogate (an escape json.dumps writes as \\ud800), a
    noncharacter, NUL or a very long string in each string of each seed: a 4xx problem or an
    answer, never a 500 (the reference answered 500 UnicodeEncodeError to a lone surrogate)."""
    server = servers["aci-spies" if path.startswith("/runs/") else "host"]
    for seed in SEEDS[path]:
        for message in _with_every_string_replaced(seed, edge):
            body = json.dumps(message).encode()
            _exchange(server, "POST", path, body, {"content-type": "application/json"})
