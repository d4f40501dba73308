"""Certify an ASGI app in-process, with no socket: load it by name and run its lifespan around the
run.

    app = load_app("my_service.main:app")
    async with lifespan(app):
        await run(run_options(IN_PROCESS_ORIGIN, transport=in_process(app)), handlers)

The app is still a black box: the suite speaks HTTP to it through httpx's ASGI transport. An
exception the app raises is what a server would make of it, a 500 answer judged as such, never an
error of the suite; checks of the connection itself (TLS, a socket) are skips, with the reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

__all__ = [
    "IN_PROCESS_ORIGIN",
    "AppUnusable",
    "in_process",
    "lifespan",
    "load_app",
    "load_callable",
]

#: The origin an in-process app is certified as (its documents' URLs should name it).
IN_PROCESS_ORIGIN = "https://agent.test"


def in_process(app: Any) -> httpx.AsyncBaseTransport:
    """The transport that carries the suite's requests to `app` with no socket; an exception in the
    app is answered 500, as uvicorn answers it over a socket."""
    return httpx.ASGITransport(app=app, raise_app_exceptions=False)


class AppUnusable(ValueError):
    """A module:attribute that does not name an ASGI app (a usage error)."""


def load_callable(
    reference: str,
    *,
    option: str = "--agent-app",
    example: str = "my_service.main:app",
    what: str = "an ASGI app",
) -> Any:
    """The callable `module:attribute` names, the current directory first on the import path (as
    uvicorn resolves an app); `AppUnusable` says what is wrong, in the words of `option`."""
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise AppUnusable(f"{option} is module:attribute, such as {example}, not {reference!r}")
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        found = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise AppUnusable(f"cannot load {reference}: {error}") from None
    if not callable(found):
        raise AppUnusable(f"{reference} is not {what}")
    return found


def load_app(reference: str) -> Any:
    """The object `module:attribute` names (a callable ASGI app, or a factory of one called
    without arguments)."""
    return load_callable(reference)


@contextlib.asynccontextmanager
async def lifespan(app: Any, *, timeout: float = 10.0) -> AsyncIterator[None]:
    """Run the app's ASGI lifespan (startup before the block, shutdown after); an app without one
    is fine."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def receive() -> dict[str, Any]:
        return await inbox.get()

    async def send(message: dict[str, Any]) -> None:
        await outbox.put(message)

    task = asyncio.ensure_future(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send)
    )
    await inbox.put({"type": "lifespan.startup"})
    supported = await _reply(task, outbox, timeout, "lifespan.startup")
    try:
        yield
    finally:
        if supported:
            await inbox.put({"type": "lifespan.shutdown"})
            await _reply(task, outbox, timeout, "lifespan.shutdown")
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def _reply(
    task: asyncio.Future[Any], outbox: asyncio.Queue[dict[str, Any]], timeout: float, phase: str
) -> bool:
    """Whether the app answered `phase` (False: it has no lifespan); raises if it failed it."""
    getting = asyncio.ensure_future(outbox.get())
    done, _ = await asyncio.wait(
        {task, getting}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
    )
    if getting not in done:
        getting.cancel()
        return False  # the app returned or raised without answering: it does not speak lifespan
    message = getting.result()
    if message["type"] == f"{phase}.failed":
        raise RuntimeError(f"the app's {phase} failed: {message.get('message', '')}")
    return True
