"""How a command ends, whatever happens: a signal becomes an orderly finish, a defect one line.

SIGINT, SIGTERM during a run   cancel the run's task; the runner finishes it as `interrupted`
                               and the reports are written (gate.py: exit 4, or 1); before it
                               judged anything, there is nothing to report: one line, exit 130
SIGINT, SIGTERM anywhere else  raised as `Interrupted`, so every `with` block unwinds (the mock's
                               temporary CA and key are removed): one line, exit 130 (not
                               KeyboardInterrupt, which the CLI library turns into a silent 130)
an exception that escapes      a defect of the suite: one line, exit 3, the traceback in
                               agent-conformance-debug.log in the report folder (or a new
                               file of the temporary folder, made exclusively), its
                               credentials redacted; --debug prints it
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar

if TYPE_CHECKING:
    from ..report.redaction import Redaction

__all__ = ["Interrupted", "interruptible", "settings", "signals_interrupt", "write_defect"]

T = TypeVar("T")


class _Settings:
    """What the command in progress told the lifecycle: where its reports go, and --debug."""

    report_dir: Path | None = None
    debug: bool = False
    #: what the command knows to be credentials (its target's userinfo, its --header values),
    #: kept out of the debug log
    redaction: Redaction | None = None
    #: the signal that came outside a run, kept in case its exception was swallowed (Python ignores
    #: an exception raised in a weakref callback of the import machinery): a run that starts after
    #: it is cancelled at once
    interrupted: str | None = None


settings = _Settings()


#: A file made new, never through a link.
_EXCLUSIVE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


class Interrupted(BaseException):
    """SIGINT or SIGTERM outside a run: a BaseException, as KeyboardInterrupt is, so that no
    `except Exception` swallows it."""


def _raise_interrupt(signum: int, _: object) -> None:
    settings.interrupted = signal.Signals(signum).name
    raise Interrupted(settings.interrupted)


def _unraisable(unraisable: Any, *, then: Any = sys.unraisablehook) -> None:
    """An `Interrupted` that Python could not raise (in a callback) is no traceback: the signal
    is kept in `settings`, and the next run is cancelled at once."""
    if not isinstance(unraisable.exc_value, Interrupted):
        then(unraisable)


def signals_interrupt() -> None:
    """Make SIGINT and SIGTERM unwind as `Interrupted` (outside a run, where the runner handles them
    itself). A SIGINT its parent ignores (a job started in the background) stays ignored."""
    sys.unraisablehook = _unraisable
    try:
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            signal.signal(signal.SIGINT, _raise_interrupt)
        signal.signal(signal.SIGTERM, _raise_interrupt)
    except ValueError:  # not the main thread
        pass


async def interruptible(work: Coroutine[Any, Any, T]) -> T:
    """Await `work` in a task of its own that SIGINT and SIGTERM cancel instead of killing the
    process. A signal that comes once `work` has finished (its reports written) changes nothing."""
    import asyncio  # here: a command that runs nothing starts without it

    loop, task = asyncio.get_running_loop(), asyncio.ensure_future(work)
    installed = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, task.cancel, signal.Signals(signum).name)
            installed.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):
            # not the main thread, or no signals here
            pass
    if settings.interrupted is not None:  # a signal came before, and its exception was lost
        task.cancel(settings.interrupted)
    try:
        return await task
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
        if installed:
            signals_interrupt()


def write_defect(error: BaseException) -> tuple[Path | None, str]:
    """Write the traceback of a defect to the debug log, its credentials redacted: into the report
    folder, or else a new file of the temporary folder, made exclusively (mode 0600, no link
    followed, never a name another user could have planted); its path (None if it could not be
    written) and text."""
    import tempfile

    # the writers' name for it, imported only when a defect happens
    from ..report.writers import DEBUG_LOG

    text = "".join(traceback.format_exception(error))
    if settings.redaction is not None:
        text = settings.redaction.text(text)
    if settings.report_dir is not None:
        try:
            settings.report_dir.mkdir(parents=True, exist_ok=True)
            path = settings.report_dir / DEBUG_LOG
            path.unlink(missing_ok=True)  # a link planted there is removed, not followed
            with os.fdopen(os.open(path, _EXCLUSIVE, 0o600), "w", encoding="utf-8") as log:
                log.write(text)
            return path, text
        except OSError:
            pass
    try:
        handle, name = tempfile.mkstemp(prefix="agent-conformance-debug-", suffix=".log")
        with os.fdopen(handle, "w", encoding="utf-8") as log:
            log.write(text)
        return Path(name), text
    except OSError:
        return None, text
