"""The shared part of writers: collect, then render once at the end of a run; and the one way a
report file is written, whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import ClassVar

from ..compliance import Summary
from ..events import Event
from ..events import ResultRecorded
from ..events import RunFinished
from ..events import RunStarted
from ..model import Result
from ..model import RunHeader

__all__ = ["Collected", "ReportDirUnusable", "pass_k_said", "unwritable", "write_whole"]


class ReportDirUnusable(Exception):
    """The report folder cannot be created or written (a full disk, a quota, a read-only folder):
    the user's path, not a defect of the suite."""


def pass_k_said(values: list[float]) -> str:
    """pass^k over repeated runs, as a table cell: at k = 1, 2, 4, 8 ... and at every run judged
    (report.json holds every k)."""
    shown = sorted(
        {k for k in (2**i for i in range(len(values).bit_length())) if k <= len(values)}
        | {len(values)}
    )
    return ", ".join(f"pass^{k} {values[k - 1]:.0%}" for k in shown if values)


def unwritable(directory: Path, error: OSError) -> ReportDirUnusable:
    return ReportDirUnusable(f"cannot write reports to {directory}: {error.strerror or error}")


def write_whole(path: Path, text: str) -> None:
    """Write `text` to `path` under a temporary name, then rename it: a reader finds the whole file
    or none, never a half-written report. Raises `ReportDirUnusable`. A lone surrogate from a
    target stays an escape."""
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", errors="backslashreplace") as file:
                file.write(text)
            os.chmod(temporary, 0o644)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        raise unwritable(path.parent, error) from None


class Collected:
    """Keeps the header and results of a run; writes its file when the run finishes."""

    filename: ClassVar[str] = ""

    def __init__(self, directory: Path) -> None:
        self.path = directory / self.filename
        self.header: RunHeader | None = None
        self.results: list[Result] = []

    def handle(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self.header, self.results = event.header, []
        elif isinstance(event, ResultRecorded):
            self.results.append(event.result)
        elif isinstance(event, RunFinished) and self.header is not None:
            write_whole(self.path, self.render(self.header, self.results, event.summary))

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        raise NotImplementedError
