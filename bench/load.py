"""A load generator for `python -m bench`: one process, `clients` connections, `count` requests in
all.

    python -m bench.load URL CACERT METHOD BODY COUNT CLIENTS    -> prints the seconds it took

Run several at once so that the generator is not what limits the server."""

from __future__ import annotations

import asyncio
import ssl
import sys
import time

import httpx


async def load(url: str, cacert: str, method: str, body: bytes, count: int, clients: int) -> float:
    context = ssl.create_default_context(cafile=cacert)
    headers = {"content-type": "application/json"} if body else {}

    async def client(share: int) -> None:
        async with httpx.AsyncClient(verify=context) as http:
            for _ in range(share):
                response = await http.request(method, url, content=body or None, headers=headers)
                response.raise_for_status()

    started = time.perf_counter()
    await asyncio.gather(*(client(count // clients) for _ in range(clients)))
    return time.perf_counter() - started


if __name__ == "__main__":
    url, cacert, method, body, count, clients = sys.argv[1:7]
    print(asyncio.run(load(url, cacert, method, body.encode(), int(count), int(clients))))
