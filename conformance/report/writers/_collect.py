"""The shared part of writers that write once, at the end of a run: collect, then render."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from ..compliance import Summary
from ..events import Event
from ..events import ResultRecorded
from ..events import RunFinished
from ..events import RunStarted
from ..model import Result
from ..model import RunHeader

__all__ = ["Collected"]


class Collected:
    """Keeps the header and results of a run; calls `write` when the run finishes."""

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
            # a lone surrogate from a target stays an escape
            self.path.write_text(
                self.render(self.header, self.results, event.summary),
                encoding="utf-8",
                errors="backslashreplace",
            )

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        raise NotImplementedError
