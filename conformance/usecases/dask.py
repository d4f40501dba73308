"""Tasks on Dask distributed, for the use cases that spread over a cluster (fleet, interop)."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any
from typing import TypeVar

__all__ = ["on_dask"]

T = TypeVar("T")
Item = TypeVar("Item")


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
    from distributed import as_completed

    with Client(scheduler, timeout="30s") as client:
        futures = [
            client.submit(function, item, *arguments, key=key(item), retries=1, pure=False)
            for item in items
        ]
        for future in as_completed(futures):
            yield future.result()
