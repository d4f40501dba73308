"""Recorded evidence: every exchange a run makes, kept so that the run can be judged again later.

    run --record DIR        writes DIR as the run goes
    rejudge DIR             judges the recording again with the current checks, contacting nothing

A recording is a folder, append-only while the run writes it (format
agent-conformance-recording/2):

    meta.json        the format, suite version, catalogue digest, draft revisions, the run's
                     options, the seed every made-up value (session ids, message ids) came from,
                     the start time
    exchanges.jsonl  one line per exchange, in the order they ended: method, URL, request headers,
                     the SHA-256 of the request body, then the status, response headers, HTTP and
                     TLS versions and the SHA-256 of the response body as it crossed the wire
                     (compressed, when it was), or the failure (kind, error and message), the
                     time it took and the wall-clock time it ended
    observed.jsonl   what the suite observed of a counterpart it drives rather than asks (the WoA
                     client under test: each run of its command, what reached the spy hosts and
                     the proxy), one line per session, bodies by hash
    inbound.jsonl    one line per request a target made to a server the suite hosted (the ACI
                     spies, the context store): the server's name and base URL, the request, the
                     answer, when it arrived, and the stamps its own code took (arrival, answer)
    values.jsonl     the clock readings that enter a message or a verdict
    bodies/<sha256>  each body once, by content hash
    results.jsonl    the verdicts the recorded run reached (requirement, status, message),
                     written at its end, so that a re-judging can say which verdicts changed

Recording and replay are transports (transport.py) and ASGI middleware (inbound.py) that the run
builds its clients and servers with; the run hands the recorder or the replay, and the run's
`Values` (values.py), to whoever needs them: nothing is process-wide. Replaying answers each
request the suite makes with the recorded answer to the same method, URL and body (in recorded
order when one was sent several times). A server the suite hosts is not started: it keeps its
recorded base URL, and the requests it received are fed through its own app in-process, in the
order they arrived, by the time the request they arrived under is answered, so that its state is
rebuilt by its own code. Random values come from per-purpose streams of the recorded seed; clock
readings from values.jsonl; what a driven client did from observed.jsonl. A request, reading or
observation the recording lacks raises `NotRecorded`, which the runner reports as `skip` "not in
the recording".
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
from collections import defaultdict
from collections import deque
from collections.abc import AsyncIterator
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import IO
from typing import Any
from urllib.parse import parse_qsl
from urllib.parse import unquote
from urllib.parse import urlsplit
from urllib.parse import urlunsplit

from starlette.types import ASGIApp

from ..report.redaction import is_credential
from ..report.redaction import is_marked
from .inbound import replay_request
from .recorder import FILES
from .recorder import FORMAT
from .recorder import STAMPS
from .recorder import Recorder
from .recorder import sha256
from .recorder import stamp

__all__ = ["FILES", "FORMAT", "STAMPS", "NotRecorded", "Recorder", "Replay", "stamp"]


class NotRecorded(Exception):
    """The replayed run needs traffic its recording lacks."""


#: The most of a recorded body read for what it hands out (a run reads 10 MiB of an answer).
_HANDED_CAP = 16 * 1024 * 1024
_UNKEYED = frozenset({"host", "content-length", "user-agent", "accept-encoding", "connection"})


def _key(method: str, url: str, body: str) -> tuple[str, str, str]:
    """A request as a replay finds it: its URL without userinfo and percent-decoded, since a
    recording keeps URLs with their credentials redacted (report/redaction.py)."""
    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    return method.upper(), unquote(urlunsplit(parts._replace(netloc=netloc))), body


def _credentialless(key: tuple[str, str, str]) -> tuple[str, str, str] | None:
    """A request's key with its credential query values left out, when it has any."""
    method, url, body = key
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if not any(is_credential(name, query=True) for name, _ in pairs):
        return None
    query = "&".join(
        f"{name}={'*' if is_credential(name, query=True) else value}" for name, value in pairs
    )
    return method, urlunsplit(parts._replace(query=query)), body


def _hides_a_credential(url: str) -> bool:
    return any(
        is_credential(name, query=True) and is_marked(value)
        for name, value in parse_qsl(urlsplit(url).query, keep_blank_values=True)
    )


def _headers_key(headers: Mapping[str, str]) -> str:
    """The request headers that can change an answer (a conditional GET's, a session id), as a
    digest; a credential by its presence alone (its value lies redacted in the recording)."""
    kept = sorted(
        (k.lower(), "<credential>" if is_credential(k) else v)
        for k, v in headers.items()
        if k.lower() not in _UNKEYED
    )
    return sha256(json.dumps(kept).encode())


def _lines(path: Path) -> list[dict[str, Any]]:
    return (
        [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        if path.exists()
        else []
    )


@dataclass
class Replay:
    """Recorded answers, by the request they answered; what the suite's servers received, to feed
    them."""

    folder: Path
    meta: dict[str, Any]
    #: Recorded exchanges by request (method, URL, body digest), then by the same and the headers'
    #: digest: positions into `records`, in recorded order
    loose: dict[tuple[str, str, str], list[int]] = field(default_factory=dict)
    exact: dict[tuple[str, str, str, str], list[int]] = field(default_factory=dict)
    #: Those whose URL hides a credential value, by request with such values left out: a
    #: request made with a value the recording could not keep (a signature the suite altered)
    hidden: dict[tuple[str, str, str], list[int]] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    inbound: list[dict[str, Any]] = field(default_factory=list)  # by arrival
    bases: dict[str, str] = field(default_factory=dict)
    values: dict[str, deque[float]] = field(default_factory=dict)
    fed: set[int] = field(default_factory=set)  # the inbound requests fed so far, by position
    #: one feed at a time: the servers see the recorded order
    feeding: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The hosted servers whose block the current task is in: a replayed request feeds only them
    #: (another lane's servers get what they received when that lane's own requests are answered).
    #: Task-local, and this replay's own: each task sees the blocks it entered.
    hosting: contextvars.ContextVar[Mapping[str, ASGIApp]] = field(
        default_factory=lambda: contextvars.ContextVar("hosting", default=MappingProxyType({}))
    )

    @classmethod
    def load(cls, folder: Path) -> Replay:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            raise ValueError(
                f"{folder} is not a recording of this version ({FORMAT}, not {meta.get('format')});"
                " record it again with this version of the suite"
            )
        records = _lines(folder / "exchanges.jsonl")
        loose: dict[tuple[str, str, str], list[int]] = defaultdict(list)
        exact: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
        hidden: dict[tuple[str, str, str], list[int]] = defaultdict(list)
        for n, record in enumerate(records):
            key = _key(record["method"], record["url"], record["request_body"])
            loose[key].append(n)
            exact[(*key, _headers_key(record.get("request_headers", {})))].append(n)
            if _hides_a_credential(record["url"]) and (without := _credentialless(key)):
                hidden[without].append(n)
        values: dict[str, deque[float]] = defaultdict(deque)
        for record in _lines(folder / "values.jsonl"):
            values[record["purpose"]].append(record["value"])
        inbound = _lines(folder / "inbound.jsonl")
        bases = {r["hosted"]: r["base"] for r in inbound if "hosted" in r}
        received = sorted((r for r in inbound if "server" in r), key=lambda r: float(r["at"]))
        return cls(
            folder,
            meta,
            dict(loose),
            dict(exact),
            dict(hidden),
            records,
            set(),
            received,
            bases,
            dict(values),
        )

    def answer(
        self, method: str, url: str, body: bytes, headers: Mapping[str, str]
    ) -> dict[str, Any]:
        """The recorded outcome of this request; raises `NotRecorded`. The first unused answer to
        the same request with the same headers, else to the same request, else to one whose
        credential query value the recording hid; when every one was used, the last again (a
        replay may ask more often than the recorded run did)."""
        key = _key(method, url, sha256(body))
        candidates = self.exact.get((*key, _headers_key(headers))) or self.loose.get(key)
        hid = False
        if not candidates and (without := _credentialless(key)):
            candidates, hid = self.hidden.get(without), True
        if not candidates:
            raise NotRecorded(f"not in the recording: {method} {url}")
        chosen = next((n for n in candidates if n not in self.used), candidates[-1])
        self.used.add(chosen)
        # found by a value the recording hid: the evidence shows the recorded URL, as the
        # recorded run's report did
        return self.records[chosen] | ({"hid": True} if hid else {})

    @contextlib.contextmanager
    def open_body(self, digest: str) -> Iterator[IO[bytes]]:
        """A recorded body, to read (in pieces: a recording may come from anyone)."""
        if not all(c in "0123456789abcdef" for c in digest):
            raise NotRecorded(f"not in the recording: a body named {digest[:80]!r}")
        with (self.folder / "bodies" / digest).open("rb") as stored:
            yield stored

    def body(self, digest: str, limit: int | None = None) -> bytes:
        """A recorded body, no more than `limit` + 1 bytes of it."""
        with self.open_body(digest) as stored:
            return stored.read(-1 if limit is None else limit + 1)

    def handed_texts(self) -> Iterator[str]:
        """The recorded bodies that may hand out a signed URL, as text (no more of each than a
        run takes of an answer: a recording may come from anyone)."""
        folder = self.folder / "bodies"
        for path in sorted(folder.iterdir()) if folder.is_dir() else ():
            with path.open("rb") as stored:
                data = stored.read(_HANDED_CAP)
            if b"=" in data:
                yield data.decode("utf-8", errors="replace")

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
    async def hosted(self, server: str, app: ASGIApp) -> AsyncIterator[None]:
        """While the block runs, requests the current task replays feed `app` what `server`
        received; at its end, what it received after the last of them."""
        token = self.hosting.set({**self.hosting.get(), server: app})
        try:
            yield
            await self.feed(None, only=server)
        finally:
            self.hosting.reset(token)

    async def feed(self, until: float | None, only: str | None = None) -> None:
        """Feed the current task's hosted servers what they received up to the recorded time
        `until` (None: all)."""
        hosts = self.hosting.get()
        async with self.feeding:
            for n, record in enumerate(self.inbound):
                if until is not None and float(record["at"]) > until:
                    break
                if (
                    n in self.fed
                    or record["server"] not in hosts
                    or (only is not None and record["server"] != only)
                ):
                    continue
                self.fed.add(n)
                await replay_request(
                    hosts[record["server"]], record, self.body(record["request_body"])
                )

    def previous_results(self) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for result in self.lines("results.jsonl"):
            found[result["requirement"]].append(result)
        return dict(found)
