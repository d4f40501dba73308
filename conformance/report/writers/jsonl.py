"""events.jsonl: one JSON object per line, written as the run goes, with a header and a footer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from ..events import Event, ResultRecorded, RunFinished, RunStarted

__all__ = ["JsonlWriter", "read_events"]


class JsonlWriter:
    filename = "events.jsonl"

    def __init__(self, directory: Path) -> None:
        self.path = directory / self.filename
        self._file: IO[str] | None = None

    def _line(self, record: dict[str, Any]) -> None:
        assert self._file is not None
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()

    def handle(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self._file = self.path.open("w", encoding="utf-8")
            self._line({"event": "run-started", **event.header.as_dict()})
        elif isinstance(event, ResultRecorded) and self._file:
            self._line({"event": "result", **event.result.as_dict()})
        elif isinstance(event, RunFinished) and self._file:
            self._line({"event": "run-finished", **event.summary.as_dict()})
            self._file.close()
            self._file = None


def read_events(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None]:
    """Header, results and footer of an events.jsonl; the footer is None when the run was cut short."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not lines or lines[0].get("event") != "run-started":
        raise ValueError(f"{path} does not start with a run-started header")
    footer = lines[-1] if lines[-1].get("event") == "run-finished" else None
    results = [line for line in lines[1:] if line.get("event") == "result"]
    return lines[0], results, footer
