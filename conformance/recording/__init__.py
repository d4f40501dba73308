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
    bodies/<sha256>  each body once, by content hash
    results.jsonl    the verdicts the recorded run reached (requirement, status, message), written at
                     its end, so that a re-judging can say which verdicts changed

Replaying answers each request the suite makes with the recorded answer to the same method, URL
and body (in recorded order when one was sent several times). A request the recording lacks, or
work that needs a live counterpart (the suite's spies, which the target calls; the MCP SDK's
client), raises `NotRecorded`, which the runner reports as `skip` "not in the recording".
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import random
import uuid
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from ..report.model import Exchange, utc_now

__all__ = ["FORMAT", "NotRecorded", "Recorder", "Replay", "ensure_live", "made_uuid", "outcome_of", "replaying", "seeded"]

FORMAT = "agent-conformance-recording/1"
_REPLAY: contextvars.ContextVar[Replay | None] = contextvars.ContextVar("replay", default=None)
_RANDOM: contextvars.ContextVar[random.Random | None] = contextvars.ContextVar("seeded_random", default=None)


class NotRecorded(Exception):
    """The replayed run needs traffic its recording lacks."""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def seeded(seed: int) -> None:
    """Make every value the suite makes up in this run (and the tasks it starts) come from `seed`."""
    _RANDOM.set(random.Random(seed))


def made_uuid() -> str:
    """A UUID from the run's seed: the same recording re-judged makes the same ones."""
    source = _RANDOM.get()
    return str(uuid.UUID(int=source.getrandbits(128), version=4) if source is not None else uuid.uuid4())


def ensure_live(what: str) -> None:
    """Raise `NotRecorded` when the run replays a recording: `what` needs a live target."""
    if _REPLAY.get() is not None:
        raise NotRecorded(f"not in the recording: {what} needs a live target")


def _key(method: str, url: str, body: bytes) -> tuple[str, str, str]:
    return method.upper(), url, _sha256(body)


@dataclass
class Recorder:
    """Writes a recording into `folder` as the run goes."""

    folder: Path

    def start(self, meta: dict[str, Any]) -> None:
        (self.folder / "bodies").mkdir(parents=True, exist_ok=True)
        for stale in ("exchanges.jsonl", "results.jsonl"):
            (self.folder / stale).unlink(missing_ok=True)
        (self.folder / "meta.json").write_text(json.dumps({"format": FORMAT, "recorded": utc_now(), **meta}, indent=2), encoding="utf-8")

    def _body(self, data: bytes) -> str:
        digest = _sha256(data)
        path = self.folder / "bodies" / digest
        if not path.exists():
            path.write_bytes(data)
        return digest

    def exchange(self, request: httpx.Request, body: bytes, outcome: dict[str, Any]) -> None:
        line = {"method": request.method, "url": str(request.url), "request_headers": dict(request.headers),
                "request_body": self._body(body)}
        if "response_body" in outcome:
            outcome = {**outcome, "response_body": self._body(outcome["response_body"])}
        with (self.folder / "exchanges.jsonl").open("a", encoding="utf-8") as log:
            log.write(json.dumps(line | outcome) + "\n")

    def results(self, results: list[dict[str, Any]]) -> None:
        with (self.folder / "results.jsonl").open("w", encoding="utf-8") as log:
            for result in results:
                log.write(json.dumps(result) + "\n")


@dataclass
class Replay:
    """Recorded answers, by the request they answered."""

    folder: Path
    meta: dict[str, Any]
    answers: dict[tuple[str, str, str], deque[dict[str, Any]]] = field(default_factory=dict)

    @classmethod
    def load(cls, folder: Path) -> Replay:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            raise ValueError(f"{folder} is not a recording ({FORMAT})")
        answers: dict[tuple[str, str, str], deque[dict[str, Any]]] = defaultdict(deque)
        exchanges = folder / "exchanges.jsonl"
        for line in exchanges.read_text(encoding="utf-8").splitlines() if exchanges.exists() else []:
            record = json.loads(line)
            answers[(record["method"], record["url"], record["request_body"])].append(record)
        return cls(folder, meta, dict(answers))

    def activate(self) -> None:
        """Make this the replay of the current run (and of the tasks it starts)."""
        _REPLAY.set(self)

    def answer(self, method: str, url: str, body: bytes) -> dict[str, Any]:
        """The recorded outcome of this request, its body read back; raises `NotRecorded`."""
        queue = self.answers.get(_key(method, url, body))
        if not queue:
            raise NotRecorded(f"not in the recording: {method} {url}")
        record = queue.popleft() if len(queue) > 1 else queue[0]
        if "response_body" in record:
            record = {**record, "response_body": (self.folder / "bodies" / record["response_body"]).read_bytes()}
        return record

    def previous_results(self) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = defaultdict(list)
        path = self.folder / "results.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
            result = json.loads(line)
            found[result["requirement"]].append(result)
        return dict(found)


def replaying() -> Replay | None:
    return _REPLAY.get()


def outcome_of(exchange: Exchange, body: bytes) -> dict[str, Any]:
    """What a recorder keeps of an exchange that was answered."""
    return {"status": exchange.status, "response_headers": exchange.response_headers, "response_body": body,
            "http_version": exchange.http_version, "tls_version": exchange.tls_version, "elapsed_ms": exchange.elapsed_ms}
