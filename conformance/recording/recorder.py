"""The recorder: writes a recording as the run goes (the format is described in __init__.py)."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from collections.abc import MutableMapping
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from ..report.model import utc_now
from ..report.redaction import Redaction

__all__ = ["FILES", "FORMAT", "STAMPS", "Recorder", "sha256", "stamp"]

FORMAT = "agent-conformance-recording/2"
#: The files of a recording besides its bodies (what an attestation of it covers).
FILES = (
    "meta.json",
    "exchanges.jsonl",
    "inbound.jsonl",
    "values.jsonl",
    "observed.jsonl",
    "results.jsonl",
)
#: The ASGI scope key under which a hosted server's code keeps its clock readings (see `stamp`).
STAMPS = "agent_conformance.stamps"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Recorder:
    """Writes a recording into `folder` as the run goes (from the run's thread and its servers')."""

    folder: Path
    #: what the recording replaces: credentials, in every URL, header and message it keeps
    redaction: Redaction = field(default_factory=Redaction)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def start(self, meta: dict[str, Any]) -> None:
        (self.folder / "bodies").mkdir(parents=True, exist_ok=True)
        for stale in FILES[1:]:
            (self.folder / stale).unlink(missing_ok=True)
        (self.folder / "meta.json").write_text(
            json.dumps(
                {"format": FORMAT, "recorded": utc_now(), **self.redaction.value(meta)}, indent=2
            ),
            encoding="utf-8",
        )

    def body(self, data: bytes) -> str:
        """Keep `data` among the recording's bodies (once); its SHA-256."""
        digest = sha256(data)
        path = self.folder / "bodies" / digest
        if not path.exists():
            path.write_bytes(data)
        return digest

    def _append(self, name: str, line: dict[str, Any]) -> None:
        with self.lock, (self.folder / name).open("a", encoding="utf-8") as log:
            log.write(json.dumps(line) + "\n")

    def exchange(self, request: Any, body: bytes, outcome: dict[str, Any]) -> None:
        """One exchange, ended (`request` is httpx's or httpx2's)."""
        redaction = self.redaction
        line = {
            "method": request.method,
            "url": redaction.url(str(request.url), spare_issued=True),
            "request_headers": redaction.headers(dict(request.headers.items())),
            "request_body": self.body(body),
        }
        if "response_body" in outcome:
            self.handed(outcome["response_body"])
            answered = redaction.echoed(outcome["response_body"])
            outcome = {**outcome, "response_body": self.body(answered)}
        if "response_headers" in outcome:
            outcome = {
                **outcome,
                "response_headers": redaction.headers(outcome["response_headers"]),
            }
        if "message" in outcome:
            outcome = {**outcome, "message": redaction.text(str(outcome["message"]))}
        if "proxied" in outcome:
            outcome = {**outcome, "proxied": redaction.proxied(outcome["proxied"])}
        self._append("exchanges.jsonl", line | outcome | {"ended_at": time.time()})

    def handed(self, body: bytes) -> None:
        """What a body hands out (a signed URL's credential): the recording keeps bodies as they
        crossed the wire, so the URLs that use it later keep it too, and a replay finds them by
        it; reports still replace it (report/redaction.py)."""
        if b"=" in body:
            self.redaction.learn(body.decode("utf-8", errors="replace"))

    def hosted(self, server: str, base: str) -> None:
        """A server the suite hosts for this run started at `base`."""
        self._append("inbound.jsonl", {"hosted": server, "base": base})

    def inbound(
        self,
        server: str,
        request: dict[str, Any],
        body: bytes,
        answer: dict[str, Any],
        response: bytes,
    ) -> None:
        """A request a hosted server received and what it answered (`request` and `answer` hold the
        rest: method, path, query, headers, arrival; status, headers, stamps)."""
        if "request_headers" in request:
            request = {
                **request,
                "request_headers": [
                    [name, self.redaction.header_value(name, value)]
                    for name, value in request["request_headers"]
                ],
            }
        self._append(
            "inbound.jsonl",
            {
                "server": server,
                **request,
                "request_body": self.body(self.redaction.echoed(body)),
                **answer,
                "response_body": self.body(self.redaction.echoed(response)),
            },
        )

    def value(self, purpose: str, value: float) -> None:
        self._append("values.jsonl", {"purpose": purpose, "value": value})

    def observed(self, what: str, value: Any) -> None:
        """What the suite observed of a counterpart it drives (`value`: JSON; bytes kept by
        `body`)."""
        self._append("observed.jsonl", {"what": what, "value": value})

    def results(self, results: list[dict[str, Any]]) -> None:
        with (self.folder / "results.jsonl").open("w", encoding="utf-8") as log:
            for result in results:
                log.write(json.dumps(self.redaction.value(result)) + "\n")


def stamp(
    scope: MutableMapping[str, Any], name: str, clock: Callable[[], float] = time.monotonic
) -> float:
    """A clock reading a hosted server takes while it answers (its arrival, its answer), kept in the
    request's scope: the recorder keeps it with the inbound exchange, and a replay hands the
    recorded reading back instead of the clock's."""
    stamps: dict[str, float] = scope.setdefault(STAMPS, {})
    if name not in stamps:
        stamps[name] = clock()
    return stamps[name]
