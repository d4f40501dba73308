"""Behaviours below HTTP or at its edge, on a raw socket: the document never arrives whole."""

from __future__ import annotations

import asyncio
import functools
import json
import zlib

from .raw import Handler
from .raw import read_request
from .raw import reset

__all__ = ["BEHAVIOURS"]

_DOC = json.dumps({"woa_version": "1", "agents": []}).encode()


async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Accepts the connection and the request, and never says a word."""
    await read_request(reader)
    await asyncio.sleep(3600)


async def slow_bytes(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A valid status line and headers, then the body one byte every 0.2 s (a slow-read attack in
    reverse)."""
    await read_request(reader)
    writer.write(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/woa+json\r\ncontent-length: %d\r\n\r\n"
        % len(_DOC)
    )
    for byte in _DOC:
        writer.write(bytes([byte]))
        await writer.drain()
        await asyncio.sleep(0.2)


async def slow_headers(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """The header section dripped a byte at a time, never finished within any sane deadline."""
    await read_request(reader)
    for byte in b"HTTP/1.1 200 OK\r\nx-slow: " + b"a" * 10_000:
        writer.write(bytes([byte]))
        await writer.drain()
        await asyncio.sleep(0.1)


async def resets(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Reads the request, then resets the connection."""
    await read_request(reader)
    reset(writer)


async def closes_at_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Reads the request and closes without an answer."""
    await read_request(reader)
    writer.close()


async def not_http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Answers with bytes of another protocol."""
    await read_request(reader)
    writer.write(b"SSH-2.0-OpenSSH_9.6\r\n\x00\x01\x02\xff" * 64)
    await writer.drain()
    await asyncio.sleep(5)


async def header_flood(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A status line followed by 100,000 headers."""
    await read_request(reader)
    writer.write(b"HTTP/1.1 200 OK\r\n")
    for n in range(100_000):
        writer.write(b"x-flood-%d: %s\r\n" % (n, b"f" * 64))
        if n % 1000 == 0:
            await writer.drain()
    writer.write(b"\r\n" + _DOC)
    await writer.drain()


async def length_lie(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Declares a Content-Length of 100,000 and closes after 10 bytes."""
    await read_request(reader)
    writer.write(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/woa+json\r\ncontent-length: 100000\r\n\r\n"
        + _DOC[:10]
    )
    await writer.drain()
    writer.close()


async def endless_chunks(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A chunked body that never ends."""
    await read_request(reader)
    writer.write(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/woa+json\r\ntransfer-encoding:"
        b" chunked\r\n\r\n"
    )
    chunk = b"[" * 65536
    while True:
        writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        await writer.drain()


@functools.cache
def _bomb() -> bytes:
    """256 MiB of spaces, gzipped to about 250 KB."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: the gzip container
    block = b" " * (1024 * 1024)
    return b"".join(packer.compress(block) for _ in range(256)) + packer.flush()


async def gzip_bomb(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A gzip body that inflates to 256 MiB, 25 times the suite's cap."""
    await read_request(reader)
    bomb = _bomb()
    writer.write(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/woa+json\r\ncontent-encoding: gzip\r\n"
        b"content-length: %d\r\n\r\n" % len(bomb)
    )
    writer.write(bomb)
    await writer.drain()


async def fifty_megabytes(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A 50 MB document, declared honestly."""
    await read_request(reader)
    size = 50 * 1024 * 1024
    writer.write(
        b"HTTP/1.1 200 OK\r\ncontent-type: application/woa+json\r\ncontent-length: %d\r\n\r\n"
        % size
    )
    block = b" " * (1024 * 1024)
    for _ in range(50):
        writer.write(block)
        await writer.drain()


BEHAVIOURS: dict[str, tuple[Handler, str]] = {
    "silent": (silent, "accepts the connection and never answers"),
    "slow-bytes": (slow_bytes, "drips the document one byte every 0.2 s"),
    "slow-headers": (slow_headers, "drips an endless header section"),
    "reset": (resets, "resets the connection after the request"),
    "closes-at-once": (closes_at_once, "closes the connection without an answer"),
    "not-http": (not_http, "answers with bytes of another protocol"),
    "header-flood": (header_flood, "sends 100,000 response headers"),
    "length-lie": (length_lie, "declares 100,000 bytes and sends 10"),
    "endless-chunks": (endless_chunks, "a chunked body that never ends"),
    "gzip-bomb": (gzip_bomb, "a gzip body that inflates to 256 MiB"),
    "fifty-megabytes": (fifty_megabytes, "a 50 MB document"),
}
