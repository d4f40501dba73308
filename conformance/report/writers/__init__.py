"""Report writers: handlers of run events that write one format each into the report folder.

    events.jsonl  every event as it happens (header, one line per result, footer)
    report.json   the whole report, versioned by report.schema.json
    junit.xml     one testcase per result, for CI systems
    summary.md    a Markdown summary for a pull-request comment or a CI step summary
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Protocol

from ..events import Event
from .json_report import JsonReportWriter
from .jsonl import JsonlWriter
from .junit import JunitWriter
from .markdown import MarkdownWriter

__all__ = ["FORMATS", "JsonReportWriter", "JsonlWriter", "JunitWriter", "MarkdownWriter", "Writer", "writers_for"]

class Writer(Protocol):
    """A handler of run events that writes one file, `filename`, into the folder it is given."""

    filename: ClassVar[str]

    def __init__(self, directory: Path) -> None: ...

    def handle(self, event: Event) -> None: ...


FORMATS: dict[str, type[Writer]] = {"jsonl": JsonlWriter, "json": JsonReportWriter, "junit": JunitWriter, "markdown": MarkdownWriter}


def writers_for(directory: Path, formats: tuple[str, ...] = tuple(FORMATS)) -> list[Writer]:
    """One writer per format, each writing into `directory` (created if needed)."""
    directory.mkdir(parents=True, exist_ok=True)
    return [FORMATS[name](directory) for name in formats]
