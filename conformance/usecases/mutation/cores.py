"""Mutants and variations judged on every core: worker processes, each certifying up to `AT_ONCE`
at a time (each in an in-process app of its own), taking the next as soon as one is done. Their
waits (deadlines passed on purpose, the ACI spies' holds) overlap while the cores work, and the
outcomes are those of one at a time.

    parent: baselines recorded, mutants planned  ->  inbox   ->  N workers, forked from it then
            progress as each outcome arrives     <-  outbox  <-  AT_ONCE certifications each

The workers ignore SIGINT: a signal reaches the parent, which stops them (they judge nothing
anyone will read) and leaves.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import queue
import signal
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Sequence
from multiprocessing.process import BaseProcess
from typing import Any
from typing import Protocol
from typing import TypeVar

__all__ = ["AT_ONCE", "Cores", "Work"]


class _Judged(Protocol):
    verdict: str


J = TypeVar("J", bound=_Judged)
#: One certification: a coroutine function of the engine (judge, vary, vary_agent, vary_client)
#: and its arguments, all of them picklable.
Work = tuple[Callable[..., Awaitable[J]], tuple[Any, ...]]
#: Certifications a process judges at once: their waits overlap, and the outcomes are one at a
#: time's (measured: 311 mutants and 104 variations alike).
AT_ONCE = 8
#: How often the parent looks for an outcome (seconds): a signal is never kept waiting longer.
_POLL = 0.02


async def _at_once(works: Sequence[Work[J]], advance: Callable[[str], None]) -> list[J]:
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(function: Callable[..., Awaitable[J]], arguments: tuple[Any, ...]) -> J:
        async with gate:  # its coroutine is made once it may run: a signal leaves none unawaited
            outcome = await function(*arguments)
        advance(outcome.verdict)
        return outcome

    return list(await asyncio.gather(*(one(f, a) for f, a in works)))


def _worker(inbox: Any, outbox: Any) -> None:
    # forked from a process whose event loop turns signals into cancellation: here SIGINT is the
    # parent's to take, and SIGTERM (the parent stopping this worker) ends it
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # the reference agents log what the mutants break
    logging.getLogger("mocks").setLevel(logging.CRITICAL)
    logging.getLogger("conformance").setLevel(logging.CRITICAL)
    asyncio.run(_serve(inbox, outbox))


async def _serve(inbox: Any, outbox: Any) -> None:
    """Take works from `inbox` until told to stop (None), `AT_ONCE` at a time; put each outcome
    (or the defect that stopped it) in `outbox` under its index."""
    loop, room, running = asyncio.get_running_loop(), asyncio.Semaphore(AT_ONCE), set()

    async def one(index: int, function: Callable[..., Awaitable[Any]], arguments: Any) -> None:
        try:
            outbox.put((index, await function(*arguments), None))
        except Exception as error:  # a defect of the suite: the parent raises it
            outbox.put((index, None, f"{type(error).__name__}: {error}"))
        finally:
            room.release()

    while True:
        await room.acquire()
        item = await loop.run_in_executor(None, inbox.get)
        if item is None:
            break
        task = asyncio.ensure_future(one(*item))
        running.add(task)
        task.add_done_callback(running.discard)
    await asyncio.gather(*running)


class Cores:
    """The worker processes of a mutation (`jobs`; 1: this process alone), forked once this
    process has recorded the baselines, so that each starts with what the recording built (the
    reference agents, their schemas' validators) instead of building it again."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        context = multiprocessing.get_context("fork")
        self.inbox, self.outbox = context.Queue(), context.Queue()
        self.workers: list[BaseProcess] = [
            context.Process(target=_worker, args=(self.inbox, self.outbox), daemon=True)
            for _ in range(jobs if jobs > 1 else 0)
        ]

    def __enter__(self) -> Cores:
        # what the workers inherit stays out of their collectors' walks (walked, each page of it
        # would be copied into every worker)
        gc.freeze()
        for worker in self.workers:
            worker.start()
        gc.unfreeze()
        return self

    def __exit__(self, kind: object, *_: object) -> None:
        for worker in self.workers:
            if kind is None:
                self.inbox.put(None)
            else:  # a signal or a defect: what they judge now, nobody reads
                worker.terminate()
        if kind is not None:
            # works nobody will take may still wait to be written to the pipe: leaving must not
            # wait for them
            self.inbox.cancel_join_thread()
            self.outbox.cancel_join_thread()
        for worker in self.workers:
            worker.join()

    async def judged(self, works: Sequence[Work[J]], advance: Callable[[str], None]) -> list[J]:
        """Each work's outcome, in the order given; `advance` told each verdict as it comes."""
        if not self.workers:
            return await _at_once(works, advance)
        for index, (function, arguments) in enumerate(works):
            self.inbox.put((index, function, arguments))
        outcomes: list[J | None] = [None] * len(works)
        for _ in works:
            while True:
                try:
                    index, outcome, defect = self.outbox.get_nowait()
                    break
                except queue.Empty:
                    await asyncio.sleep(_POLL)
            if defect is not None:
                raise RuntimeError(f"a mutation worker stopped on a defect: {defect}")
            outcomes[index] = outcome
            advance(outcome.verdict)
        return [o for o in outcomes if o is not None]
