"""The pool's idle checks: one poll of a socket each stream keeps, and a connection the server
closed while idle is still found closed (a POST after it goes out on a new connection)."""

from __future__ import annotations

import asyncio

import httpcore

from conformance.bindings import HttpClient
from conformance.bindings.sockets import _Backend


async def test_the_clients_pool_speaks_through_the_cheap_streams() -> None:
    async with HttpClient() as client:
        pool = client._client._transport._pool  # type: ignore[attr-defined]
        # an httpx that builds its pool otherwise fails here, not silently slower
        assert isinstance(pool, httpcore.AsyncConnectionPool)
        assert isinstance(pool._network_backend, _Backend)


async def test_a_connection_the_server_closed_while_idle_is_not_reused() -> None:
    connections = 0

    async def answer_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        await reader.readexactly(length)
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
        )
        await writer.drain()
        writer.close()  # keep-alive was not refused: the client's pool keeps the connection

    server = await asyncio.start_server(answer_once, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server, HttpClient(timeout=5) as client:
        for _ in range(3):
            response = await client.request("POST", f"http://127.0.0.1:{port}/", json={})
            assert response.status == 200
            await asyncio.sleep(0.05)  # the close arrives
    assert connections == 3
