"""`agent-conformance proxy`: stand between a real client and a real host, and judge both from
their traffic."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Annotated

import typer

from .. import __version__
from ..bindings.http import tls_context
from ..bindings.observed import Traffic
from ..recording import Recorder
from ..report.model import utc_now
from ..report.outcome import told
from ..report.redaction import public
from ..report.writers import FORMATS
from ..requirements import DRAFTS
from ..requirements import catalogue_digest
from ..targeting import SUITES
from ..targeting import origin
from ..targeting import usable_cacert
from ..targeting.declared import GIVEN
from ..usecases.proxy import judged_run
from ..usecases.proxy.serve import served
from ._console import console
from ._console import fail_usage
from ._lifecycle import interruptible
from ._options import Cacert
from ._options import Record
from ._options import Strict
from ._options import Suite
from ._options import Timeout
from .run import finish
from .run import prepared_writers
from .run import reported
from .run import usable

__all__ = ["proxy"]

PROXY_CA = "proxy-ca.pem"


def _listen_address(listen: str) -> tuple[str, int]:
    host, _, port = listen.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        fail_usage(f"--listen is HOST:PORT, such as 127.0.0.1:8443, not {listen!r}")
    return host.strip("[]"), int(port)


async def _serve(
    upstream: str,
    host: str,
    port: int,
    cacert: Path | None,
    timeout: float,
    plain: bool,
    rewrite: bool,
    duration: float | None,
    report_dir: Path,
    traffic: Traffic,
) -> None:
    """Forward until cancelled (a signal) or `duration` seconds have passed."""
    async with served(
        upstream,
        traffic,
        host=host,
        port=port,
        authority=None if plain else report_dir / PROXY_CA,
        verify=tls_context(str(cacert)) if cacert else True,
        rewrite=rewrite,
        deadline=timeout,
    ) as url:
        console.print(
            f"Proxy for {public(upstream)} listening at {url}"
            + ("" if plain else f" (its CA certificate: {report_dir / PROXY_CA})")
        )
        console.print("Ctrl-C (or SIGTERM) stops it and writes the reports.")
        if duration is None:
            await asyncio.Event().wait()
        else:
            await asyncio.sleep(duration)


def proxy(
    upstream: Annotated[
        str,
        typer.Option(
            help=(
                "The host to forward to, e.g. https://agents.example.com; the proxy calls nothing"
                " else."
            )
        ),
    ],
    listen: Annotated[
        str, typer.Option(help="Where the proxy listens, HOST:PORT.")
    ] = "127.0.0.1:8443",
    suite: Suite = GIVEN["suites"].default,
    report_dir: Annotated[
        Path,
        typer.Option(
            file_okay=False, help="Where to write the reports (and the proxy's CA certificate)."
        ),
    ] = Path("reports"),
    cacert: Cacert = None,
    timeout: Timeout = 30.0,
    http: Annotated[
        bool,
        typer.Option(
            "--http",
            help="Listen over plain HTTP (loopback tests); HTTPS with a CA of its own otherwise.",
        ),
    ] = False,
    rewrite: Annotated[
        bool,
        typer.Option(
            help=(
                "Point a WoA document's transport URLs on the upstream's origin at the proxy, so"
                " invocations pass through it."
            )
        ),
    ] = True,
    duration: Annotated[
        float | None,
        typer.Option(min=0.1, help="Stop after this many seconds (default: at SIGINT or SIGTERM)."),
    ] = None,
    strict: Strict = False,
    record: Record = None,
) -> None:
    """Forward every exchange between a client and --upstream unchanged, and judge both sides from
    the traffic.

    At SIGINT or SIGTERM (or after --duration) it writes the reports: a requirement that some
    exchange exercised is pass or fail (the host's documents and answers, the client's requests);
    one that no exchange touched is skip, never pass. The exit code is run's."""
    upstream = usable(origin, upstream, "upstream")
    host, port = _listen_address(listen)
    usable(usable_cacert, cacert)
    suites = SUITES if suite == "all" else (suite,)
    fresh = not report_dir.exists()
    writers = prepared_writers(report_dir, list(FORMATS))
    traffic, started = Traffic(recorder=Recorder(record) if record else None), utc_now()
    options = {"listen": listen, "rewrite": rewrite, "strict": strict, "passive": True}
    if traffic.recorder is not None:
        traffic.recorder.start(
            {
                "suite_version": __version__,
                "catalogue_sha256": catalogue_digest(),
                "target": upstream,
                "drafts": {d: DRAFTS[d] for d in suites},
                "seed": 0,
                "options": options,
            }
        )
    with contextlib.suppress(asyncio.CancelledError):
        asyncio.run(
            interruptible(
                _serve(
                    upstream,
                    host,
                    port,
                    cacert,
                    timeout,
                    http,
                    rewrite,
                    duration,
                    report_dir,
                    traffic,
                )
            )
        )
    with reported(report_dir, list(FORMATS), made=fresh):
        summary = asyncio.run(
            interruptible(
                judged_run(
                    upstream,
                    suites,
                    traffic,
                    writers,
                    options | {"listening_since": started},
                    strict=strict,
                )
            )
        )
    console.print(
        f"{len(traffic.exchanges)} exchanges judged; compliance: {told(summary).headline}. Reports"
        f" in {report_dir}",
        markup=False,
    )
    finish(summary)
