"""The floor a certification is measured against: the same exchanges in both directions, at the
run's own concurrency, with nothing judged.

    python -m bench.floor RECORDING           the whole command's floor, as one process
    python -m bench.floor RECORDING --live    the same against a target already up (a live host)

From a recording of the run (`run --record`): the suite's requests are sent again by one plain
client, each as soon as fewer exchanges are in flight than were in flight when the run sent it (so
the floor overlaps its exchanges as much as the run did, never more, and waits for nothing else);
and the requests targets made to the servers the suite hosted (the ACI spies, the context store)
are answered by bare servers bound at their recorded ports, with the recorded bytes, at once. The
target keeps doing its own work: as a process, the floor serves the reference host at its recorded
port, as `run --mock` does, so that what it sends the suite's servers reaches the bare ones.

What the floor leaves out is what the suite adds: its imports, judging, the spies' own code and
designed waits, the reports.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from collections import defaultdict
from collections import deque
from collections.abc import AsyncIterator
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from conformance.harness.loop_server import start_server

__all__ = ["Recorded", "floor", "recorded", "widths"]


@dataclass(frozen=True)
class Answer:
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes


@dataclass(frozen=True)
class Recorded:
    """What a recording holds that the floor sends or answers."""

    target: str
    exchanges: list[dict[str, Any]]  # the suite's requests, in the order the run sent them
    bodies: Path
    hosted: dict[str, int]  # each server the suite hosted: its recorded port
    answers: dict[str, dict[tuple[str, str], list[Answer]]]  # server -> (method, path) -> answers

    def body(self, digest: str) -> bytes:
        return (self.bodies / digest).read_bytes()


def recorded(folder: Path) -> Recorded:
    """The recording in `folder`, read for the floor."""
    meta = json.loads((folder / "meta.json").read_text())
    lines = [json.loads(line) for line in (folder / "exchanges.jsonl").read_text().splitlines()]
    lines.sort(key=lambda e: e["ended_at"] - e["elapsed_ms"] / 1000)
    hosted: dict[str, int] = {}
    answers: dict[str, dict[tuple[str, str], list[Answer]]] = defaultdict(lambda: defaultdict(list))
    inbound = folder / "inbound.jsonl"
    for line in inbound.read_text().splitlines() if inbound.exists() else []:
        entry = json.loads(line)
        if "hosted" in entry:
            hosted[entry["hosted"]] = urlsplit(entry["base"]).port or 80
            continue
        answers[entry["server"]][entry["method"], entry["path"]].append(
            Answer(
                entry["status"],
                [(k.encode("latin-1"), v.encode("latin-1")) for k, v in entry["response_headers"]],
                (folder / "bodies" / entry["response_body"]).read_bytes(),
            )
        )
    return Recorded(meta["target"], lines, folder / "bodies", hosted, answers)


def widths(exchanges: list[dict[str, Any]]) -> list[int]:
    """For each exchange (in the order the run sent them), how many were in flight, itself
    included, when the run sent it."""
    spans = [(e["ended_at"] - e["elapsed_ms"] / 1000, e["ended_at"]) for e in exchanges]
    return [max(1, sum(1 for s, e in spans if s <= start < e)) for start, _ in spans]


def _bare(answers: dict[tuple[str, str], list[Answer]], port: int) -> Any:
    """An ASGI app answering each method and path with its recorded answers, in turn (the last
    again when the run received fewer), 404 for what it never received."""
    queues = {key: deque(found) for key, found in answers.items()}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        while (await receive()).get("more_body"):
            pass
        queue = queues.get((scope["method"], scope["path"]))
        answer = (
            (queue.popleft() if len(queue) > 1 else queue[0]) if queue else Answer(404, [], b"")
        )
        await send(
            {"type": "http.response.start", "status": answer.status, "headers": answer.headers}
        )
        await send({"type": "http.response.body", "body": answer.body})

    return app


@contextlib.asynccontextmanager
async def _bare_servers(record: Recorded) -> AsyncIterator[None]:
    started = [
        await start_server(partial(_bare, record.answers[server]), port=port)
        for server, port in record.hosted.items()
    ]
    try:
        yield
    finally:
        for server, task, _ in started:
            await server.stop(task)


async def _send(record: Recorded, client: httpx.AsyncClient) -> None:
    in_flight = 0
    room = asyncio.Condition()

    async def one(exchange: dict[str, Any]) -> None:
        nonlocal in_flight
        headers = {
            k: v
            for k, v in exchange["request_headers"].items()
            if k not in ("host", "content-length")
        }
        try:
            with contextlib.suppress(httpx.HTTPError):
                await client.request(
                    exchange["method"],
                    exchange["url"],
                    headers=headers,
                    content=record.body(exchange["request_body"]),
                )
        finally:
            async with room:
                in_flight -= 1
                room.notify_all()

    def below(width: int) -> Callable[[], bool]:
        return lambda: in_flight < width

    async with asyncio.TaskGroup() as group:
        for exchange, width in zip(record.exchanges, widths(record.exchanges), strict=True):
            async with room:
                await room.wait_for(below(width))
                in_flight += 1
            group.create_task(one(exchange))


async def floor(record: Recorded, client: httpx.AsyncClient) -> None:
    """Both directions of the recorded run: the bare servers up, the suite's requests sent, the
    servers down."""
    async with _bare_servers(record):
        await _send(record, client)


@contextlib.contextmanager
def _reference_host(target: str) -> Iterator[Any]:
    from mocks.serve import serve_host

    with serve_host(port=urlsplit(target).port or 443) as host:
        yield host


def main(folder: str, live: bool = False) -> None:
    """The floor of the run recorded in `folder`: with `live`, against the recorded target, up
    already, trusting the recorded CA (as `run --target` does); else with the reference host
    served at its recorded port (as `run --mock` does)."""
    logging.getLogger("mocks").setLevel(logging.ERROR)  # as run --mock has it
    record = recorded(Path(folder))

    async def both(cacert: str | None) -> None:
        async with httpx.AsyncClient(verify=cacert or True, timeout=10) as client:
            await floor(record, client)

    if live:
        options = json.loads((Path(folder) / "meta.json").read_text()).get("options", {})
        asyncio.run(both(options.get("cacert")))
        return
    with _reference_host(record.target) as host:
        asyncio.run(both(str(host.cacert)))


if __name__ == "__main__":
    main(sys.argv[1], live="--live" in sys.argv[2:])
