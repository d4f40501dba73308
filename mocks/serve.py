"""Run a mock on loopback under a real uvicorn server, over HTTPS with a CA made on the fly.

    with serve(lambda base: create_app(base)) as mock:
        mock.url      # https://127.0.0.1:PORT
        mock.cacert   # the CA's certificate, for --cacert

The port is chosen by the OS unless given; the server runs in a thread and stops on exit.
"""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import h11
import trustme
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from conformance.harness.loop_server import PromptServer

__all__ = ["ProblemH11Protocol", "ServedMock", "make_certificates", "serve", "serve_host"]


class ProblemH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1, saying no to a request it cannot parse (malformed, or a header section
    over h11's limit) in problem details rather than text/plain. The connection still closes: after
    a request that is not HTTP there is no telling where the next one starts."""

    def send_400_response(self, msg: str) -> None:
        body = json.dumps({"type": "about:blank", "title": "Bad Request", "status": 400,
                           "detail": "the request is not valid HTTP/1.1 (malformed, or its header section too large)"}).encode()
        headers = [(b"content-type", b"application/problem+json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close")]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


@dataclass(frozen=True)
class ServedMock:
    url: str
    cacert: Path | None


def make_certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A throw-away CA and a certificate for 127.0.0.1 and localhost: (CA cert, cert chain, key)."""
    ca = trustme.CA()
    leaf = ca.issue_cert("127.0.0.1", "localhost", "::1")
    paths = directory / "ca.pem", directory / "cert.pem", directory / "key.pem"
    ca.cert_pem.write_to_path(str(paths[0]))
    leaf.cert_chain_pems[0].write_to_path(str(paths[1]))
    for extra in leaf.cert_chain_pems[1:]:
        extra.write_to_path(str(paths[1]), append=True)
    leaf.private_key_pem.write_to_path(str(paths[2]))
    return paths


@contextmanager
def serve(build: Callable[[str], ASGIApp], *, port: int = 0, tls: bool = True, host: str = "127.0.0.1",
          tls_maximum: ssl.TLSVersion | None = None) -> Iterator[ServedMock]:
    """Serve the app `build(base_url)` until the block ends (`tls_maximum` caps the TLS version offered)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # IPPROTO_TCP: asyncio then sets TCP_NODELAY
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    url = f"{'https' if tls else 'http'}://{host}:{sock.getsockname()[1]}"
    with contextlib.closing(sock), tempfile.TemporaryDirectory(prefix="agent-conformance-mock-") as folder:
        cacert, certfile, keyfile = make_certificates(Path(folder)) if tls else (None, None, None)
        config = uvicorn.Config(build(url), log_level="error", ssl_certfile=certfile, ssl_keyfile=keyfile,
                                lifespan="on", timeout_graceful_shutdown=1, http=ProblemH11Protocol)
        config.load()
        if tls_maximum is not None and config.ssl is not None:
            config.ssl.maximum_version = tls_maximum
        server = PromptServer(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not server.started:
            raise RuntimeError("the mock server did not start within 10 s")
        try:
            yield ServedMock(url, cacert)
        finally:
            server.stop_soon()
            thread.join(timeout=5)


@contextmanager
def serve_host(fault: str | None = None, *, port: int = 0, tls: bool = True, fault_rate: float | None = None,
               fault_seed: int = 0, minimal: bool = False) -> Iterator[ServedMock]:
    """The reference WoA host, with the named fault if any (a fault may change how it is served), on
    every request or, with `fault_rate`, on that fraction of them (a coin seeded by `fault_seed`);
    `minimal`: the minimal conformer instead (mocks/minimal.py)."""
    from .faults import FAULTS
    from .reference.woa_host import create_app

    broken = FAULTS[fault] if fault else None
    with serve(lambda base: create_app(base, fault, fault_rate=fault_rate, fault_seed=fault_seed, minimal=minimal), port=port,
               tls=tls and not (broken and broken.plain_http),
               tls_maximum=broken.tls_maximum if broken else ssl.TLSVersion.TLSv1_2 if minimal else None) as mock:
        yield mock
