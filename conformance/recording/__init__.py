"""Recorded evidence: every exchange a run makes, kept so that the run can be judged again later.

    run --record DIR        writes DIR as the run goes
    rejudge DIR             judges the recording again with the current checks, contacting nothing

A recording is a folder, append-only while the run writes it (format agent-conformance-recording/1):

    meta.json        the format, suite version, catalogue digest, draft revisions, the run's options,
                     the seed every made-up value (session ids, message ids) came from, the start time
    exchanges.jsonl  one line per exchange, in the order they ended: method, URL, request headers,
                     the SHA-256 of the request body, then the status, response headers, HTTP and TLS
                     versions and the SHA-256 of the (decoded) response body, or the failure (kind and
                     message), and the time it took
                     and the wall-clock times it started and ended
    observed.jsonl   what the suite observed of a counterpart it drives rather than asks (the WoA
                     client under test: each run of its command, what reached the spy hosts and the
                     proxy), one line per session, bodies by hash
    inbound.jsonl    one line per request a target made to a server the suite hosted (the ACI spies,
                     the context store): the server's name and base URL, the request, the answer,
                     when it arrived, and the stamps the server's own code took (arrival, answer)
    values.jsonl     the times the suite read from the clock where they enter a message or a verdict
    bodies/<sha256>  each body once, by content hash
    results.jsonl    the verdicts the recorded run reached (requirement, status, message), written at
                     its end, so that a re-judging can say which verdicts changed

Replaying answers each request the suite makes with the recorded answer to the same method, URL
and body (in recorded order when one was sent several times). A server the suite hosts is not
started: it keeps its recorded base URL, and the requests it received are fed through its own app
in-process, in the order they arrived, by the time the request they arrived under is answered, so
that its state is rebuilt by its own code. Random values come from per-purpose streams of the
recorded seed; clock readings from values.jsonl; what a driven client did from observed.jsonl. A
request, reading or observation the recording lacks raises `NotRecorded`, which the runner reports
as `skip` "not in the recording".
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import json
import random
import time
import uuid
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from starlette.types import ASGIApp

from ..report.model import Exchange
from .inbound import replay_request
from .recorder import FILES, FORMAT, STAMPS, Recorder, recording, sha256

__all__ = ["FILES", "FORMAT", "STAMPS", "NotRecorded", "Recorder", "Replay", "made_bytes", "made_hex", "made_time",
           "made_uuid", "outcome_of", "recording", "replaying", "seeded", "stamp"]

_REPLAY: contextvars.ContextVar[Replay | None] = contextvars.ContextVar("replay", default=None)
#: The hosted servers whose block the current task is in: a replayed request feeds only them (another
#: lane's servers get what they received when that lane's own requests are answered).
_HOSTING: contextvars.ContextVar[Mapping[str, ASGIApp]] = contextvars.ContextVar("hosting", default=MappingProxyType({}))
_SEED: contextvars.ContextVar[tuple[int, dict[str, random.Random]] | None] = contextvars.ContextVar("seed", default=None)


class NotRecorded(Exception):
    """The replayed run needs traffic its recording lacks."""


def seeded(seed: int) -> None:
    """Make every value the suite makes up in this run (and the tasks it starts) come from `seed`."""
    _SEED.set((seed, {}))


def _source(purpose: str) -> random.Random | None:
    """The run's random stream for `purpose`: one per purpose, so that what one part of the suite
    draws does not depend on when another part drew (checks may run concurrently)."""
    seed = _SEED.get()
    if seed is None:
        return None
    number, streams = seed
    if purpose not in streams:
        streams[purpose] = random.Random(int.from_bytes(hashlib.sha256(f"{number}/{purpose}".encode()).digest()[:8], "big"))
    return streams[purpose]


def made_uuid(purpose: str) -> str:
    """A UUID from the run's seed: the same recording re-judged makes the same ones."""
    source = _source(purpose)
    return str(uuid.UUID(int=source.getrandbits(128), version=4) if source is not None else uuid.uuid4())


def made_bytes(size: int, purpose: str) -> bytes:
    """`size` random bytes from the run's seed (a key, a token)."""
    source = _source(purpose)
    return source.randbytes(size) if source is not None else random.SystemRandom().randbytes(size)


def made_hex(size: int, purpose: str) -> str:
    """`size` random bytes from the run's seed, in hex (a canary, an identifier)."""
    return made_bytes(size, purpose).hex()


def made_time(purpose: str) -> float:
    """The wall-clock time, where it enters a message or a verdict: recorded in a recorded run, read
    back in a replay (the same time as then), the clock otherwise."""
    replay = _REPLAY.get()
    if replay is not None:
        return replay.value(purpose)
    now = time.time()
    recorder = recording()
    if recorder is not None:
        recorder.value(purpose, now)
    return now


def stamp(scope: MutableMapping[str, Any], name: str, clock: Callable[[], float] = time.monotonic) -> float:
    """A clock reading a hosted server takes while it answers (its arrival, its answer), kept in the
    request's scope: the recorder keeps it with the inbound exchange, and a replay hands the recorded
    reading back instead of the clock's."""
    stamps: dict[str, float] = scope.setdefault(STAMPS, {})
    if name not in stamps:
        stamps[name] = clock()
    return stamps[name]


_UNKEYED = frozenset({"host", "content-length", "user-agent", "accept-encoding", "connection"})


def _key(method: str, url: str, body: str) -> tuple[str, str, str]:
    return method.upper(), url, body


def _headers_key(headers: Mapping[str, str]) -> str:
    """The request headers that can change an answer (a conditional GET's, a session id), as a digest."""
    kept = sorted((k.lower(), v) for k, v in headers.items() if k.lower() not in _UNKEYED)
    return sha256(json.dumps(kept).encode())


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


@dataclass
class Replay:
    """Recorded answers, by the request they answered; what the suite's servers received, to feed them."""

    folder: Path
    meta: dict[str, Any]
    #: Recorded exchanges by request (method, URL, body digest), then by the same and the headers' digest:
    #: positions into `records`, in recorded order
    loose: dict[tuple[str, str, str], list[int]] = field(default_factory=dict)
    exact: dict[tuple[str, str, str, str], list[int]] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    inbound: list[dict[str, Any]] = field(default_factory=list)  # by arrival
    bases: dict[str, str] = field(default_factory=dict)
    values: dict[str, deque[float]] = field(default_factory=dict)
    fed: set[int] = field(default_factory=set)  # the inbound requests fed so far, by position
    feeding: asyncio.Lock = field(default_factory=asyncio.Lock)  # one feed at a time: the servers see the recorded order

    @classmethod
    def load(cls, folder: Path) -> Replay:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            raise ValueError(f"{folder} is not a recording ({FORMAT})")
        records = _lines(folder / "exchanges.jsonl")
        loose: dict[tuple[str, str, str], list[int]] = defaultdict(list)
        exact: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
        for n, record in enumerate(records):
            key = _key(record["method"], record["url"], record["request_body"])
            loose[key].append(n)
            exact[(*key, _headers_key(record.get("request_headers", {})))].append(n)
        values: dict[str, deque[float]] = defaultdict(deque)
        for record in _lines(folder / "values.jsonl"):
            values[record["purpose"]].append(record["value"])
        inbound = _lines(folder / "inbound.jsonl")
        bases = {r["hosted"]: r["base"] for r in inbound if "hosted" in r}
        received = sorted((r for r in inbound if "server" in r), key=lambda r: float(r["at"]))
        return cls(folder, meta, dict(loose), dict(exact), records, set(), received, bases, dict(values))

    def activate(self) -> None:
        """Make this the replay of the current run (and of the tasks it starts)."""
        _REPLAY.set(self)

    def answer(self, method: str, url: str, body: bytes, headers: Mapping[str, str], limit: int) -> dict[str, Any]:
        """The recorded outcome of this request, its body read back; raises `NotRecorded`. The first unused
        answer to the same request with the same headers, else to the same request; when every one was
        used, the last again (a replay may ask more often than the recorded run did). A recorded body over
        `limit` bytes is the failure it would have been live."""
        key = _key(method, url, sha256(body))
        candidates = self.exact.get((*key, _headers_key(headers))) or self.loose.get(key)
        if not candidates:
            raise NotRecorded(f"not in the recording: {method} {url}")
        chosen = next((n for n in candidates if n not in self.used), candidates[-1])
        self.used.add(chosen)
        record = self.records[chosen]
        if "response_body" in record:
            answered = self.body(record["response_body"], limit)
            if len(answered) > limit:
                return {k: v for k, v in record.items() if k != "response_body"} | {
                    "failure": "exchange", "message": f"the response body exceeds the {limit:,}-byte cap"}
            record = {**record, "response_body": answered}
        return record

    def body(self, digest: str, limit: int | None = None) -> bytes:
        """A recorded body, no more than `limit` + 1 bytes of it (a recording may come from anyone)."""
        with (self.folder / "bodies" / digest).open("rb") as stored:
            return stored.read(-1 if limit is None else limit + 1)

    def lines(self, name: str) -> list[dict[str, Any]]:
        """The lines of one of the recording's files, in order."""
        return _lines(self.folder / name)

    def value(self, purpose: str) -> float:
        """The next clock reading the recorded run took for `purpose`."""
        queue = self.values.get(purpose)
        if not queue:
            raise NotRecorded(f"not in the recording: the time read for {purpose}")
        return queue.popleft() if len(queue) > 1 else queue[0]

    def observed(self, what: str) -> Any:
        """What the recorded run observed as `what` (see `Recorder.observed`)."""
        found = [r["value"] for r in self.lines("observed.jsonl") if r["what"] == what]
        if not found:
            raise NotRecorded(f"not in the recording: {what}")
        return found[-1]

    def base_of(self, server: str) -> str:
        if server not in self.bases:
            raise NotRecorded(f"not in the recording: the suite's {server} server")
        return self.bases[server]

    @contextlib.asynccontextmanager
    async def hosting(self, server: str, app: ASGIApp) -> AsyncIterator[None]:
        """While the block runs, requests the current task replays feed `app` what `server` received; at
        its end, what it received after the last of them."""
        token = _HOSTING.set({**_HOSTING.get(), server: app})
        try:
            yield
            await self.feed(None, only=server)
        finally:
            _HOSTING.reset(token)

    async def feed(self, until: float | None, only: str | None = None) -> None:
        """Feed the current task's hosted servers what they received up to the recorded time `until` (None: all)."""
        hosts = _HOSTING.get()
        async with self.feeding:
            for n, record in enumerate(self.inbound):
                if until is not None and float(record["at"]) > until:
                    break
                if n in self.fed or record["server"] not in hosts or (only is not None and record["server"] != only):
                    continue
                self.fed.add(n)
                await replay_request(hosts[record["server"]], record, self.body(record["request_body"]))

    def previous_results(self) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for result in self.lines("results.jsonl"):
            found[result["requirement"]].append(result)
        return dict(found)


def replaying() -> Replay | None:
    return _REPLAY.get()


def outcome_of(exchange: Exchange, body: bytes) -> dict[str, Any]:
    """What a recorder keeps of an exchange that was answered."""
    return {"status": exchange.status, "response_headers": exchange.response_headers, "response_body": body,
            "http_version": exchange.http_version, "tls_version": exchange.tls_version, "elapsed_ms": exchange.elapsed_ms}
