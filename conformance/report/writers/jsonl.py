"""events.jsonl: one JSON object per line, written as the run goes, with a header and a footer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from ..events import Event, ResultRecorded, RunFinished, RunStarted

__all__ = ["JsonlWriter", "read_events"]


class JsonlWriter:
    """Appends each event as it comes and keeps no file open, so an interrupted run leaves a readable log."""

    filename: ClassVar[str] = "events.jsonl"

    def __init__(self, directory: Path) -> None:
        self.path = directory / self.filename

    def _line(self, record: dict[str, Any], mode: str = "a") -> None:
        with self.path.open(mode, encoding="utf-8") as file:
            file.write(json.dumps(record, ensure_ascii=False) + "\n")

    def handle(self, event: Event) -> None:
        if isinstance(event, RunStarted):
            self._line({"event": "run-started", **event.header.as_dict()}, mode="w")
        elif isinstance(event, ResultRecorded):
            self._line({"event": "result", **event.result.as_dict()})
        elif isinstance(event, RunFinished):
            self._line({"event": "run-finished", **event.summary.as_dict()})


def read_events(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None]:
    """Header, results and footer of an events.jsonl; the footer is None when the run was cut short."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not lines or lines[0].get("event") != "run-started":
        raise ValueError(f"{path} does not start with a run-started header")
    footer = lines[-1] if lines[-1].get("event") == "run-finished" else None
    results = [line for line in lines[1:] if line.get("event") == "result"]
    return lines[0], results, footer
