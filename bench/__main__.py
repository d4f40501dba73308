"""Benchmarks: what a certification costs against its floor, measured in the same run.

    python -m bench [--repeat 5] [--suite all]

Prints min and median over the repetitions, never asserts a time:
- startup: a bare interpreter against `agent-conformance version`;
- certification of the reference agents over loopback HTTPS and in-process (ASGI), beside its floor:
  the same exchanges (read from a recording of the run) sent back to back with one client to the
  same agents; the ratio, and milliseconds per check;
- message validation: the suite's `validate_message` against plain jsonschema and jsonschema-rs on
  the same document, valid and invalid;
- mock throughput: the reference host's document and an invocation, against a bare Starlette app
  answering the same bytes under the same uvicorn and TLS, loaded by two processes of four clients.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from collections.abc import Coroutine
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import httpx

from conformance.engine.runner import RunOptions
from conformance.engine.runner import run
from conformance.oracle.bench import spread
from conformance.report import Collect
from conformance.target import run_options
from mocks.reference.woa_host import create_app
from mocks.serve import serve_host

IN_PROCESS = "https://agent.test"


def _timed(work: Callable[[], Any], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        samples.append(time.perf_counter() - started)
    return samples


async def _certify(options: RunOptions) -> int:
    collect = Collect()
    await run(options, [collect])
    return sum(1 for r in collect.results if r.check)


async def _floor(requests: list[dict[str, Any]], bodies: Path, client: httpx.AsyncClient) -> None:
    for request in requests:
        headers = {
            k: v
            for k, v in request["request_headers"].items()
            if k not in ("host", "content-length")
        }
        with contextlib.suppress(httpx.HTTPError):
            await client.request(
                request["method"],
                request["url"],
                headers=headers,
                content=(bodies / request["request_body"]).read_bytes(),
            )


def _recorded(options: RunOptions, folder: Path) -> list[dict[str, Any]]:
    """The exchanges a certification sends, recorded into `folder` (their bodies in
    folder/bodies)."""
    asyncio.run(_certify(replace(options, record=folder)))
    return [json.loads(line) for line in (folder / "exchanges.jsonl").read_text().splitlines()]


def _compare(
    label: str,
    certify: Callable[..., Coroutine[Any, Any, int]],
    floor: Callable[[], Coroutine[Any, Any, None]],
    exchanges: int,
    repeat: int,
) -> None:
    checks = asyncio.run(certify())
    run_samples = _timed(lambda: asyncio.run(certify()), repeat)
    floor_samples = _timed(lambda: asyncio.run(floor()), repeat)
    ratio = min(run_samples) / min(floor_samples)
    print(
        f"{label}: certification {spread(run_samples)}; floor ({exchanges} exchanges back to back)"
        f" {spread(floor_samples)}; ratio {ratio:.1f}x (of the minima);"
        f" {1000 * min(run_samples) / checks:.1f} ms per check ({checks} checks)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--suite", default="all", choices=("woa", "sdsi", "aci", "all"))
    arguments = parser.parse_args()
    suites = ("woa", "sdsi", "aci") if arguments.suite == "all" else (arguments.suite,)
    logging.getLogger("mocks").setLevel(
        logging.ERROR
    )  # the reference agents log what the drafts ask servers to log
    repeat = arguments.repeat

    bare = _timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), repeat)
    cli = _timed(
        lambda: subprocess.run(
            [sys.executable, "-m", "conformance.cli", "version"], check=True, capture_output=True
        ),
        repeat,
    )
    print(f"startup: bare interpreter {spread(bare)}; agent-conformance version {spread(cli)}")

    with (
        serve_host() as host,
        tempfile.TemporaryDirectory(prefix="agent-conformance-bench-") as folder,
    ):
        options = run_options(host.url, suites=suites, cacert=host.cacert, timeout=10)
        requests = _recorded(options, Path(folder))

        async def over_loopback() -> None:
            assert host.cacert is not None
            async with httpx.AsyncClient(
                verify=ssl.create_default_context(cafile=str(host.cacert))
            ) as client:
                await _floor(requests, Path(folder) / "bodies", client)

        _compare(
            "over loopback HTTPS", lambda: _certify(options), over_loopback, len(requests), repeat
        )

    def in_process(app: Any, **more: Any) -> RunOptions:
        return run_options(
            IN_PROCESS, suites=suites, timeout=10, transport=httpx.ASGITransport(app=app), **more
        )

    async def certify_in_process(**more: Any) -> int:
        app = create_app(
            IN_PROCESS
        )  # a fresh app each time: the MCP session manager runs once per instance
        async with app.router.lifespan_context(app):
            return await _certify(in_process(app, **more))

    with tempfile.TemporaryDirectory(prefix="agent-conformance-bench-") as folder:
        asyncio.run(certify_in_process(record=Path(folder)))
        requests = [
            json.loads(line) for line in (Path(folder) / "exchanges.jsonl").read_text().splitlines()
        ]

        async def in_process_floor() -> None:
            app = create_app(IN_PROCESS)
            async with (
                app.router.lifespan_context(app),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as client,
            ):
                await _floor(requests, Path(folder) / "bodies", client)

        _compare("in-process (ASGI)", certify_in_process, in_process_floor, len(requests), repeat)

    _validation(repeat)
    _throughput(repeat)


def _validation(repeat: int) -> None:
    from jsonschema import Draft202012Validator

    from conformance.schemas import fast_validator
    from conformance.schemas import validator
    from conformance.validation import validate_message
    from mocks.reference.woa_host import woa_document

    document = woa_document("https://bench.test")
    broken = {**document, "woa_version": 2}
    registry = validator("woa/document")._registry  # type: ignore[attr-defined]
    plain = Draft202012Validator(validator("woa/document").schema, registry=registry)
    rust = fast_validator("woa/document")
    n = 200
    for label, message in (("valid", document), ("invalid", broken)):
        ours = _timed(
            partial(lambda m: [validate_message("woa/document", m) for _ in range(n)], message),
            repeat,
        )
        theirs = _timed(
            partial(lambda m: [list(plain.iter_errors(m)) for _ in range(n)], message), repeat
        )
        native = _timed(
            partial(lambda m: [list(rust.iter_errors(m)) for _ in range(n)], message), repeat
        )
        print(
            f"validation of the reference WoA document, {label} ({n} times): validate_message"
            f" {spread(ours)}; plain jsonschema {spread(theirs)}; jsonschema-rs {spread(native)};"
            f" validate_message / jsonschema {min(ours) / min(theirs):.2f}x"
        )


def _bare(document: bytes, answer: bytes) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    async def served(_: Request) -> Response:
        return Response(document, media_type="application/woa+json")

    async def invoked(request: Request) -> Response:
        await request.body()
        return Response(answer, media_type="application/json")

    return Starlette(
        routes=[
            Route("/.well-known/woa.json", served),
            Route("/agents/summarizer/invoke", invoked, methods=["POST"]),
        ]
    )


def _loaded(arguments: list[str], processes: int) -> None:
    """Run `processes` load generators at once (bench/load.py) and wait for them."""
    runs = [
        subprocess.Popen([sys.executable, "-m", "bench.load", *arguments], stdout=subprocess.PIPE)
        for _ in range(processes)
    ]
    for started in runs:
        started.communicate()


def _throughput(repeat: int, count: int = 2000, processes: int = 2, clients: int = 4) -> None:
    from mocks.serve import serve

    envelope = json.dumps(
        {
            "agent": "summarizer",
            "input": {"text": "The IETF is an open international community of network designers."},
        }
    )
    with serve_host() as host:
        document = httpx.get(host.url + "/.well-known/woa.json", verify=str(host.cacert)).content
        answer = httpx.post(
            host.url + "/agents/summarizer/invoke",
            content=envelope,
            headers={"content-type": "application/json"},
            verify=str(host.cacert),
        ).content
    for label, method, path, body in (
        ("document GET", "GET", "/.well-known/woa.json", ""),
        ("invocation POST", "POST", "/agents/summarizer/invoke", envelope),
    ):
        rates = {}
        for name, server in (
            ("reference host", serve_host()),
            ("bare Starlette", serve(lambda _: _bare(document, answer))),
        ):
            with server as served:
                arguments = [
                    served.url + path,
                    str(served.cacert),
                    method,
                    body,
                    str(count // processes),
                    str(clients),
                ]
                rates[name] = [
                    count / t for t in _timed(partial(_loaded, arguments, processes), repeat)
                ]
        print(
            f"mock throughput, {label} ({count} requests, {processes} processes x {clients}"
            f" clients): reference host max {max(rates['reference host']):,.0f}/s, median"
            f" {statistics.median(rates['reference host']):,.0f}/s; bare Starlette max"
            f" {max(rates['bare Starlette']):,.0f}/s, median"
            f" {statistics.median(rates['bare Starlette']):,.0f}/s; ratio"
            f" {max(rates['bare Starlette']) / max(rates['reference host']):.2f}x"
        )


if __name__ == "__main__":
    main()
