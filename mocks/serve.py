"""The reference WoA host on loopback, healthy, with one named fault, or as the minimal conformer.

    with serve_host("woa-5.2-agent-mismatch-400") as mock:
        mock.url      # https://127.0.0.1:PORT
        mock.cacert   # the CA's certificate, for --cacert

The loopback server itself (uvicorn in a thread, a CA made on the fly) is the suite's own
(conformance/harness/loop_server.py): the mocks use it, the suite never imports the mocks.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from contextlib import contextmanager

from conformance.harness.loop_server import ServedMock
from conformance.harness.loop_server import serve

from .faults.catalogue import FAULTS
from .host import create_app

__all__ = ["ServedMock", "serve", "serve_host"]


@contextmanager
def serve_host(
    fault: str | None = None,
    *,
    port: int = 0,
    tls: bool = True,
    fault_rate: float | None = None,
    fault_seed: int = 0,
    minimal: bool = False,
) -> Iterator[ServedMock]:
    """The reference WoA host, with the named fault if any (a fault may change how it is served), on
    every request or, with `fault_rate`, on that fraction of them (a coin seeded by `fault_seed`);
    `minimal`: the minimal conformer instead (mocks/minimal.py)."""
    broken = FAULTS[fault] if fault else None
    with serve(
        lambda base: create_app(
            base, fault, fault_rate=fault_rate, fault_seed=fault_seed, minimal=minimal
        ),
        port=port,
        tls=tls and not (broken and broken.plain_http),
        tls_maximum=broken.tls_maximum if broken else ssl.TLSVersion.TLSv1_2 if minimal else None,
    ) as mock:
        yield mock
