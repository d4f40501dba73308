"""The recording proxy the client under test is pointed at: closed under an open tunnel (the run
ends or is interrupted), it ends the tunnel without an error of its own."""

from __future__ import annotations

import asyncio
from typing import Any

from conformance.spy.proxy import RecordingProxy


async def test_closing_under_an_open_tunnel_logs_nothing() -> None:
    """Python 3.11's stream protocol logged a cancelled connection handler as an error with a
    traceback; the user saw it on the terminal at a Ctrl-C during a client's certification."""
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _, context: reported.append(context))

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # the spy host: holds the tunnel open
        writer.close()

    upstream = await asyncio.start_server(silent, "127.0.0.1", 0)
    proxy = RecordingProxy({"spy.test": upstream.sockets[0].getsockname()[1]})
    await proxy.start()
    port = int(proxy.url.rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"CONNECT spy.test:443 HTTP/1.1\r\nHost: spy.test:443\r\n\r\n")
    assert (await reader.readline()).startswith(b"HTTP/1.1 200")
    await proxy.close()
    for _ in range(5):  # the stream protocol's callbacks run
        await asyncio.sleep(0)
    writer.close()
    upstream.close()
    assert reported == [], reported
    assert [a.tunnelled for a in proxy.attempts] == [True]
