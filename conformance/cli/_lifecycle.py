"""How a command ends, whatever happens: a signal becomes an orderly finish, a defect one line.

SIGINT, SIGTERM during a run   cancel the run's task; the runner finishes it as `interrupted`
                               and the reports are written (gate.py: exit 4, or 1)
SIGTERM anywhere else          raised as KeyboardInterrupt, so every `with` block unwinds (the
                               mock's temporary CA and key are removed) and the exit is 130
an exception that escapes      a defect of the suite: one line, exit 3, the traceback in
                               agent-conformance-debug.log in the report folder (or the
                               temporary folder when the command has none); --debug prints it
"""

from __future__ import annotations

import signal
import traceback
from collections.abc import Coroutine
from pathlib import Path
from typing import Any
from typing import TypeVar

__all__ = ["interruptible", "settings", "sigterm_interrupts", "write_defect"]

T = TypeVar("T")


class _Settings:
    """What the command in progress told the lifecycle: where its reports go, and --debug."""

    report_dir: Path | None = None
    debug: bool = False


settings = _Settings()


def _raise_interrupt(signum: int, _: object) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


def sigterm_interrupts() -> None:
    """Make SIGTERM unwind like Ctrl-C (outside a run, where the runner handles it itself)."""
    signal.signal(signal.SIGTERM, _raise_interrupt)


async def interruptible(work: Coroutine[Any, Any, T]) -> T:
    """Await `work` in this task with SIGINT and SIGTERM cancelling it instead of killing the
    process."""
    import asyncio  # here: a command that runs nothing starts without it

    loop, task = asyncio.get_running_loop(), asyncio.current_task()
    installed = []
    if task is not None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(signum, task.cancel, signal.Signals(signum).name)
                installed.append(signum)
            except (NotImplementedError, RuntimeError, ValueError):
                # not the main thread, or no signals here
                pass
    try:
        return await work
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
        if signal.SIGTERM in installed:
            sigterm_interrupts()


def write_defect(error: BaseException) -> tuple[Path | None, str]:
    """Write the traceback of a defect to the debug log; its path (None if it could not be
    written) and text."""
    import tempfile

    # the writers' name for it, imported only when a defect happens
    from ..report.writers import DEBUG_LOG

    text = "".join(traceback.format_exception(error))
    for folder in (settings.report_dir, Path(tempfile.gettempdir())):
        if folder is None:
            continue
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / DEBUG_LOG
            path.write_text(text, encoding="utf-8")
            return path, text
        except OSError:
            continue
    return None, text
