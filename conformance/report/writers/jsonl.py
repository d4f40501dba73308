"""events.jsonl: one JSON object per line, written as the run goes, with a header and a footer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from typing import ClassVar
from typing import NamedTuple

from ..events import Event
from ..events import ResultRecorded
from ..events import RunFinished
from ..events import RunStarted
from ._collect import unwritable

__all__ = ["EventLog", "JsonlWriter", "read_events"]


class JsonlWriter:
    """Appends each event as it comes and keeps no file open, so an interrupted run leaves a
    readable log. A line that cannot be written (a full disk) removes the log, which would
    otherwise read as a run's, and the run's end says so (`ReportDirUnusable`)."""

    filename: ClassVar[str] = "events.jsonl"

    def __init__(self, directory: Path) -> None:
        self.path = directory / self.filename
        self.failed: OSError | None = None

    def _line(self, record: dict[str, Any], mode: str = "a") -> None:
        if self.failed is not None:
            return
        try:
            # lone surrogates stay escapes
            with self.path.open(mode, encoding="utf-8", errors="backslashreplace") as file:
                file.write(json.dumps(record, ensure_ascii=False) + "\n")
        except OSError as error:
            self.failed = error
            self.path.unlink(missing_ok=True)

    def handle(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self.failed = None
            self._line({"event": "run-started", **event.header.as_dict()}, mode="w")
        elif isinstance(event, ResultRecorded):
            self._line({"event": "result", **event.result.as_dict()})
        elif isinstance(event, RunFinished):
            self._line({"event": "run-finished", **event.summary.as_dict()})
            if self.failed is not None:
                raise unwritable(self.path.parent, self.failed)


class EventLog(NamedTuple):
    """An events.jsonl read back. `footer` is None when the file is truncated (the process died
    mid-run); a footer whose `completion` is not "complete" is a run that stopped early but in
    order."""

    header: dict[str, Any]
    results: list[dict[str, Any]]
    footer: dict[str, Any] | None

    @property
    def truncated(self) -> bool:
        return self.footer is None

    def state(self) -> str:
        """One line on how the run ended, for a reader."""
        if self.footer is None:
            return (
                f"truncated: no footer after {len(self.results)} results; the run did not finish"
                " and this log is partial"
            )
        completion = self.footer.get("completion", "complete")
        return (
            "complete"
            if completion == "complete"
            else f"incomplete: the run ended early ({completion})"
        )


def read_events(path: Path) -> EventLog:
    """Header, results and footer of an events.jsonl. A torn last line (the writer died mid-line) is
    dropped, and the log reads as truncated. Raises ValueError when there is no header."""
    lines: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            lines.append(json.loads(line))
        except ValueError:
            break  # only the last line can be torn; anything after it is not the writer's
    if not lines or lines[0].get("event") != "run-started":
        raise ValueError(f"{path} does not start with a run-started header")
    footer = lines[-1] if lines[-1].get("event") == "run-finished" else None
    results = [line for line in lines[1:] if line.get("event") == "result"]
    return EventLog(lines[0], results, footer)
