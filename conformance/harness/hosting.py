"""Host one of the suite's servers for a block of a run: on loopback, in the run's own event loop
(or, for a target that runs in that loop too, in a thread of its own, so that a blocking call the
target makes to it is still answered), recorded when the run is, and not started at all when the
run is a replay (its recorded traffic is fed to its app instead).

    async with hosted("aci-spies", lambda base: spies_app(spies),
                      recorder=target.recorder, replay=target.replay,
                      threaded=target.options.in_process) as base:
        ...   # base: http://127.0.0.1:PORT, the same in a replay as in the recorded run
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from collections.abc import Callable
from contextlib import asynccontextmanager

from starlette.types import ASGIApp

from ..recording import Recorder
from ..recording import Replay
from ..recording.inbound import RecordedInbound
from .loop_server import serve
from .loop_server import start_server

__all__ = ["hosted"]


@asynccontextmanager
async def hosted(
    server: str,
    build: Callable[[str], ASGIApp],
    *,
    recorder: Recorder | None = None,
    replay: Replay | None = None,
    threaded: bool = False,
) -> AsyncIterator[str]:
    """Serve `build(base)` over plain HTTP on loopback while the block runs (`threaded`: from a
    thread of its own); yields its base URL."""
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

    if threaded:  # started and stopped off the loop, which keeps serving the target meanwhile
        serving = serve(built, tls=False)
        served = await asyncio.to_thread(serving.__enter__)
        try:
            yield served.url
        finally:
            await asyncio.to_thread(serving.__exit__, None, None, None)
        return
    uvicorn, task, port = await start_server(lambda port: built(f"http://127.0.0.1:{port}"))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await uvicorn.stop(task)
