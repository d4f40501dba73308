"""The spy world a WoA client under test talks to: a spy host and a recording proxy, on loopback.

    async with spy_world(SCENARIOS) as world:
        proxy = await world.open_proxy()   # one per scenario: what it records is that scenario's
        proxy.url              # for the client's HTTPS_PROXY
        world.cacert           # the CA the spy host's good certificates chain to
        world.allowed_hosts    # the host names an administrator would allow (the spy's own)
        world.recorder.requests, proxy.attempts

The spy host listens three times, each with its own certificate: `trusted` (a CA made for this run,
the one `cacert` names, for *.spy.test), `untrusted-ca` (the same names from a CA nobody was told
about) and `wrong-name` (the trusted CA, but for another host name). The proxy routes each spy host
name to its listener; every other address is recorded and refused. Everything listens on
127.0.0.1 and runs in the caller's event loop; leaving the block stops it and deletes the keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from ..harness.loop_server import LoopServer
from ..harness.loop_server import start_server
from ..harness.loop_server import write_leaf
from .host import Recorder
from .host import SpyRequest
from .host import spy_app
from .proxy import ProxyAttempt
from .proxy import RecordingProxy
from .scenarios import DOMAIN
from .scenarios import SCENARIOS
from .scenarios import Scenario

__all__ = [
    "SCENARIOS",
    "ProxyAttempt",
    "Recorder",
    "Scenario",
    "SpyRequest",
    "SpyWorld",
    "spy_world",
]

LISTENERS = ("trusted", "untrusted-ca", "wrong-name")


@dataclass
class SpyWorld:
    cacert: Path
    allowed_hosts: tuple[str, ...]
    recorder: Recorder
    routes: dict[str, int]
    tunnel_deadline: float
    proxies: list[RecordingProxy] = field(default_factory=list)

    async def open_proxy(self) -> RecordingProxy:
        """A recording proxy of its own (closed with the world) that routes the spy's host names."""
        proxy = RecordingProxy(self.routes, deadline=self.tunnel_deadline)
        await proxy.start()
        self.proxies.append(proxy)
        return proxy


def _certificates(folder: Path) -> tuple[Path, dict[str, tuple[Path, Path]]]:
    """The trusted CA's certificate, and (chain, key) per listener."""
    import trustme  # with cryptography: only when a client is certified

    trusted, stranger = trustme.CA(), trustme.CA()
    leaves = {
        "trusted": trusted.issue_cert(f"*.{DOMAIN}"),
        "untrusted-ca": stranger.issue_cert(f"*.{DOMAIN}"),
        "wrong-name": trusted.issue_cert("someone-else.example"),
    }
    cacert = folder / "ca.pem"
    trusted.cert_pem.write_to_path(str(cacert))
    return cacert, {name: write_leaf(leaf, folder, name) for name, leaf in leaves.items()}


@contextlib.asynccontextmanager
async def spy_world(
    scenarios: Iterable[Scenario] = SCENARIOS, *, tunnel_deadline: float = 60.0
) -> AsyncIterator[SpyWorld]:
    """Serve `scenarios` on loopback until the block ends."""
    scenarios = tuple(scenarios)
    by_host = {host: s for s in scenarios for host in s.documents}
    recorder = Recorder()
    servers: list[tuple[LoopServer, asyncio.Task[None]]] = []
    with tempfile.TemporaryDirectory(prefix="agent-conformance-spy-") as folder:
        cacert, files = _certificates(Path(folder))
        world: SpyWorld | None = None
        try:
            ports = {}
            for listener in LISTENERS:
                served = {h: s for h, s in by_host.items() if s.listener == listener}
                chain, key = files[listener]
                server, task, ports[listener] = await start_server(
                    lambda _, served=served, listener=listener: spy_app(served, recorder, listener),  # type: ignore[misc]
                    certfile=chain,
                    keyfile=key,
                )
                servers.append((server, task))
            world = SpyWorld(
                cacert,
                tuple(sorted(by_host)),
                recorder,
                {h: ports[s.listener] for h, s in by_host.items()},
                tunnel_deadline,
            )
            yield world
        finally:
            for proxy in world.proxies if world is not None else ():
                await proxy.close()
            await asyncio.gather(*(server.stop(task) for server, task in servers))
