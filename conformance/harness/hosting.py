"""Host one of the suite's servers for a block of a run: on loopback, recorded when the run is,
and not started at all when the run is a replay (its recorded traffic is fed to its app instead).

    async with hosted("aci-spies", lambda base: spies_app(spies),
                      recorder=target.recorder, replay=target.replay) as base:
        ...   # base: http://127.0.0.1:PORT, the same in a replay as in the recorded run
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from collections.abc import Callable
from contextlib import asynccontextmanager

from starlette.types import ASGIApp

from ..recording import Recorder
from ..recording import Replay
from ..recording.inbound import RecordedInbound
from .loop_server import serve

__all__ = ["hosted"]


@asynccontextmanager
async def hosted(
    server: str,
    build: Callable[[str], ASGIApp],
    *,
    recorder: Recorder | None = None,
    replay: Replay | None = None,
) -> AsyncIterator[str]:
    """Serve `build(base)` over plain HTTP on loopback while the block runs; yields its base URL."""
    if replay is not None:
        base = replay.base_of(server)
        async with replay.hosted(server, build(base)):
            yield base
        return

    def built(base: str) -> ASGIApp:
        if recorder is None:
            return build(base)
        recorder.hosted(server, base)
        return RecordedInbound(build(base), recorder, server)

    with serve(built, tls=False) as served:
        yield served.url
