"""Work spread over threads or a Dask cluster, for the use cases that run many certifications at
once (fleet, interop): each item one call of a function that never raises, its result yielded as
it finishes; a signal stops the calls under way (they see `stop` set) and starts no other."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from collections.abc import Coroutine
from collections.abc import Iterable
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import as_completed
from typing import Any
from typing import TypeVar

__all__ = ["in_threads", "on_dask", "until"]

T = TypeVar("T")
Item = TypeVar("Item")


async def until(work: Coroutine[Any, Any, T], stop: threading.Event | None) -> T:
    """`work`, cancelled once `stop` is set (a signal)."""
    task = asyncio.ensure_future(work)
    while stop is not None and not task.done():
        await asyncio.wait({task}, timeout=0.1)
        if stop.is_set():
            task.cancel()
            break
    return await task


def in_threads(
    function: Callable[..., T], items: Iterable[Item], jobs: int, *arguments: Any
) -> Iterator[T]:
    """`function(item, *arguments, stop=...)` for each item, `jobs` at a time in threads."""
    stop = threading.Event()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(function, item, *arguments, stop=stop) for item in items]
        try:
            for done in as_completed(futures):
                yield done.result()
        except BaseException:  # a signal: the calls under way stop, none starts
            stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def on_dask(
    scheduler: str,
    function: Callable[..., T],
    items: Iterable[Item],
    key: Callable[[Item], str],
    *arguments: Any,
) -> Iterator[T]:
    """`function(item, *arguments)` for each item, one task each on the cluster at `scheduler`
    (named `key(item)`, retried once if its worker dies), yielded as they finish."""
    from distributed import Client
    from distributed import as_completed as finished

    with Client(scheduler, timeout="30s") as client:
        futures = [
            client.submit(function, item, *arguments, key=key(item), retries=1, pure=False)
            for item in items
        ]
        for future in finished(futures):
            yield future.result()
