"""API fuzzing with schemathesis: its engine sends the requests it makes from the OpenAPI document
of usecases/fuzz/openapi.py (valid envelopes, and ones that break the schema, boundary values
included), and every exchange it makes is kept, as traffic for the engine to judge (session.py): the
same registered checks that judge `run` judge what the fuzzer sent and what the host answered.

Runs are reproducible: a fixed seed, no example database, no cache, Hypothesis' files kept in a
temporary folder. schemathesis judges nothing here (its checks are off): a finding is a verdict of
a registered check on an exchange, with the curl command that sends it again.
"""

from __future__ import annotations

import gc
import gzip
import json
import ssl
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ...bindings.observed import Observed

__all__ = ["FuzzOutcome", "fuzz"]

#: The largest body kept of one exchange (the cap of the suite's own client).
MAX_RECORDED = 10 * 1024 * 1024


@dataclass
class FuzzOutcome:
    cases: int = 0
    #: every request sent and its answer, in order
    exchanges: list[Observed] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stop_reason: str = ""


def _config(base: str, *, max_examples: int, seed: int, timeout: float, cacert: Path | None) -> Any:
    from schemathesis.config import SchemathesisConfig

    return SchemathesisConfig.from_dict(
        {
            "base-url": base,
            "seed": seed,
            "workers": 1,
            "request-timeout": timeout,
            "tls-verify": str(cacert) if cacert else True,
            "cache": {"enabled": False},
            "generation": {"max-examples": max_examples, "database": "none"},
            "checks": {"enabled": False},
            "output": {"truncation": {"max-recorded-payload-size": MAX_RECORDED}},
            "phases": {"stateful": {"enabled": False}},
        }
    )


#: What Hypothesis computes, character by character over all of Unicode, for each codec schemathesis
#: draws strings in (its default for bodies, ascii for headers): the code points the codec encodes,
#: and those among them that do not decode back. Computed, it is 1.3 s and a 180 MB peak (a list of
#: a million one-character intervals) at every fuzzing in a fresh storage folder; these are those
#: codecs' facts (UTF-8 encodes every code point but the surrogates), checked against Hypothesis's
#: own computation by the tests.
CODEC_TABLES: dict[str, tuple[list[list[int]], list[list[int]]]] = {
    "utf-8": ([[0, 0xD7FF], [0xE000, 0x10FFFF]], []),
    "ascii": ([[0, 0x7F]], []),
}


@contextmanager
def hypothesis_storage() -> Iterator[Path]:
    """A temporary folder for Hypothesis's files, for this fuzzing only (no example database, no
    trace a later run can see), holding the codec tables it would otherwise compute; Hypothesis's
    folder before is restored after."""
    from hypothesis.configuration import set_hypothesis_home_dir
    from hypothesis.configuration import storage_directory
    from hypothesis.internal.charmap import charmap_file

    before = storage_directory(intent_to_write=False).home_directory
    with tempfile.TemporaryDirectory(prefix="agent-conformance-hypothesis-") as storage:
        set_hypothesis_home_dir(storage)
        try:
            for codec, tables in CODEC_TABLES.items():
                table = charmap_file(f"codec-v2-{codec}")
                table.parent.mkdir(parents=True, exist_ok=True)
                with gzip.GzipFile(table, "wb", mtime=1) as written:
                    written.write(json.dumps(tables).encode())
            yield Path(storage)
        finally:
            set_hypothesis_home_dir(before)


def _let_go_of_its_connections() -> None:
    """schemathesis leaves its HTTP sessions' sockets to the garbage collector: collect them now,
    quietly (their ResourceWarning is schemathesis's, and would otherwise surface at a random
    later point)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


def _flat(headers: Any) -> dict[str, str]:
    """Headers as one lower-case name to one value (schemathesis keeps a list per name)."""
    return {k.lower(): ", ".join(v) if isinstance(v, list) else str(v) for k, v in headers.items()}


def _observed(interaction: Any) -> Observed:
    """One exchange the fuzzer made, as traffic (an answer that never came is an exchange that
    broke)."""
    request, response = interaction.request, interaction.response
    path = urlsplit(request.uri)
    return Observed(
        request.method,
        request.uri,
        path.path + (f"?{path.query}" if path.query else ""),
        _flat(request.headers),
        request.body if isinstance(request.body, bytes) else b"",
        None if response is None else response.status_code,
        {} if response is None else _flat(response.headers),
        b"" if response is None else response.content or b"",
        0.0 if response is None else round(response.elapsed * 1000, 1),
        "no answer" if response is None else None,
        interaction.timestamp,
    )


def fuzz(
    openapi: dict[str, Any],
    base: str,
    *,
    max_examples: int = 100,
    seed: int = 0,
    timeout: float = 10.0,
    cacert: Path | None = None,
    app: Any = None,
    progress: Callable[[int], None] | None = None,
    stop: threading.Event | None = None,
    edges: Sequence[tuple[str, str, bytes]] = (),
) -> FuzzOutcome:
    """Run schemathesis on `openapi` against `base` (or the ASGI `app` in-process), then send
    `edges` (path, what, body: the strings schemathesis cannot draw, edges.py); every exchange
    made, in order. `progress` hears the number of exchanges so far after each operation; `stop`,
    once set (a signal), ends the fuzzing after the operation under way, and the outcome holds
    what was made until then."""
    with hypothesis_storage():
        import schemathesis
        from schemathesis.engine import events

        schema = schemathesis.openapi.from_dict(
            dict(openapi),
            config=_config(
                "http://testserver" if app is not None else base,
                max_examples=max_examples,
                seed=seed,
                timeout=timeout,
                cacert=cacert,
            ),
        )
        if app is not None:
            schema.app = app
        outcome = FuzzOutcome()
        stream = schemathesis.engine.from_schema(schema).execute()
        for event in stream:
            if stop is not None and stop.is_set():
                stream.stop()
            if isinstance(event, events.ScenarioFinished):
                outcome.cases += len(event.recorder.cases)
                made = sorted(event.recorder.interactions.values(), key=lambda i: i.timestamp)
                outcome.exchanges += [_observed(interaction) for interaction in made]
                if progress is not None:
                    progress(len(outcome.exchanges))
            elif isinstance(event, events.NonFatalError):
                outcome.errors.append(f"{event.label}: {event.info.title}: {event.info.message}")
            elif isinstance(event, events.FatalError):
                outcome.errors.append(f"schemathesis could not run: {event.exception}")
            elif isinstance(event, events.EngineFinished):
                outcome.stop_reason = event.stop_reason.value
        _let_go_of_its_connections()
        if edges and not (stop is not None and stop.is_set()):
            outcome.exchanges += _sent(edges, base, app=app, timeout=timeout, cacert=cacert)
            if progress is not None:
                progress(len(outcome.exchanges))
        return outcome


def _sent(
    edges: Sequence[tuple[str, str, bytes]],
    base: str,
    *,
    app: Any,
    timeout: float,
    cacert: Path | None,
) -> list[Observed]:
    """Each edge invocation, sent as it is (its escapes kept), and its answer."""
    import httpx
    from starlette.testclient import TestClient

    client: Any = (
        TestClient(app, base_url="http://testserver", raise_server_exceptions=False)
        if app is not None
        else httpx.Client(
            verify=ssl.create_default_context(cafile=str(cacert)) if cacert else True,
            timeout=timeout,
        )
    )
    root = "http://testserver" if app is not None else base.rstrip("/")
    made = []
    headers = {"content-type": "application/json", "accept": "application/json"}
    with client:
        for relative, _, body in edges:
            url = root + relative
            path = urlsplit(url).path
            started, at = time.monotonic(), time.time()
            try:
                status, answered, content = _answer(client, url, body, headers, timeout)
            except (httpx.HTTPError, TimeoutError) as error:
                made.append(
                    Observed("POST", url, path, headers, body, None, {}, b"", 0.0, str(error), at)
                )
                continue
            elapsed = round((time.monotonic() - started) * 1000, 1)
            made.append(
                Observed(
                    "POST", url, path, headers, body, status, answered, content, elapsed, None, at
                )
            )
    return made


def _answer(
    client: Any, url: str, body: bytes, headers: dict[str, str], timeout: float
) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body (at most MAX_RECORDED bytes) of one POST, within `timeout`
    seconds in all: a host that answers slowly, or without end, is cut off (TimeoutError)."""
    deadline = time.monotonic() + timeout
    with client.stream("POST", url, content=body, headers=headers) as response:
        content = bytearray()
        for chunk in response.iter_bytes():
            content += chunk
            if len(content) >= MAX_RECORDED:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"the answer took longer than {timeout:g} s")
        return response.status_code, _flat(dict(response.headers)), bytes(content[:MAX_RECORDED])
