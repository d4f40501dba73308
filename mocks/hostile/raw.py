"""A raw TCP server on loopback for behaviours that are not HTTP at all: the handler gets the
connection's streams and does what it likes (stay silent, reset, send junk, drip bytes)."""

from __future__ import annotations

import asyncio
import socket
import struct
import threading
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from contextlib import suppress

__all__ = ["Handler", "reset", "serve_raw"]

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def read_request(reader: asyncio.StreamReader) -> None:
    """Read up to the end of a request's header section (or what arrives in a second)."""
    with suppress(
        TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError
    ):
        await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 1)


def reset(writer: asyncio.StreamWriter) -> None:
    """Close with a TCP reset (SO_LINGER 0) rather than an orderly FIN."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


@contextmanager
def serve_raw(handler: Handler) -> Iterator[str]:
    """Serve `handler` on 127.0.0.1 until the block ends; yields http://127.0.0.1:PORT."""
    loop = asyncio.new_event_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    ready = threading.Event()
    tasks: set[asyncio.Task[None]] = set()

    async def guarded(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            tasks.add(task)
        try:
            await handler(reader, writer)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.transport.abort()

    async def main() -> None:
        server = await asyncio.start_server(guarded, sock=sock)
        ready.set()
        async with server:
            await asyncio.Event().wait()

    def run() -> None:
        with suppress(asyncio.CancelledError):
            loop.run_until_complete(main())
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(5)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:

        def stop() -> None:
            for task in asyncio.all_tasks(loop):
                task.cancel()

        loop.call_soon_threadsafe(stop)
        thread.join(5)
        sock.close()
