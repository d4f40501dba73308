"""The judging proxy served on a socket: `proxy` serves it until a signal, interop in front of
each implementation of a pair."""

from __future__ import annotations

import ssl
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx

from ...bindings.observed import Traffic
from .forward import forwarding_app

__all__ = ["served"]


@asynccontextmanager
async def served(
    upstream: str,
    traffic: Traffic,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    authority: Path | None = None,
    verify: ssl.SSLContext | bool = True,
    headers: dict[str, str] | None = None,
    rewrite: bool = True,
    deadline: float = 30.0,
) -> AsyncIterator[str]:
    """The proxy in front of `upstream`, recording into `traffic`, listening on `host`:`port`
    while the block runs; its origin. With `authority` (a path) it speaks TLS, its certificate
    from a CA made for it, whose certificate is written there; plain HTTP otherwise. `verify` and
    `headers` are those of its client to the upstream."""
    import trustme

    from ...harness.loop_server import start_server
    from ...harness.loop_server import write_leaf

    named = f"[{host}]" if ":" in host else host
    scheme = "https" if authority is not None else "http"
    with tempfile.TemporaryDirectory(prefix="agent-conformance-proxy-") as folder:
        certfile = keyfile = None
        if authority is not None:
            made = trustme.CA()
            certfile, keyfile = write_leaf(
                made.issue_cert(host, "localhost", "127.0.0.1", "::1"), Path(folder), "proxy"
            )
            made.cert_pem.write_to_path(str(authority))
        async with httpx.AsyncClient(
            verify=verify,
            headers=headers,
            timeout=deadline,
            follow_redirects=False,
            trust_env=False,
        ) as client:
            server, task, bound = await start_server(
                lambda bound: forwarding_app(
                    upstream,
                    client,
                    traffic,
                    f"{scheme}://{named}:{bound}",
                    rewrite=rewrite,
                    deadline=deadline,
                ),
                host=host,
                port=port,
                own_headers=False,  # the upstream's Date and Server, once each
                certfile=certfile,
                keyfile=keyfile,
            )
            try:
                yield f"{scheme}://{named}:{bound}"
            finally:
                await server.stop(task)
