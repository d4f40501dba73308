"""Report writers: handlers of run events that write one format each into the report folder.

events.jsonl  every event as it happens (header, one line per result, footer)
report.json   the whole report, versioned by report.schema.json
junit.xml     one testcase per result, for CI systems
summary.md    a Markdown summary for a pull-request comment or a CI step summary
report.html   the evidence report for a browser: one self-contained file, filters, curl commands
badge-*.svg   one badge per draft with its level, for a README
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar
from typing import Protocol

from ..events import Event
from ._collect import ReportDirUnusable
from ._collect import unwritable
from .badges import BadgeWriter
from .html import HtmlWriter
from .json_report import JsonReportWriter
from .jsonl import JsonlWriter
from .junit import JunitWriter
from .markdown import MarkdownWriter

__all__ = [
    "DEBUG_LOG",
    "FORMATS",
    "BadgeWriter",
    "HtmlWriter",
    "JsonReportWriter",
    "JsonlWriter",
    "JunitWriter",
    "MarkdownWriter",
    "ReportDirUnusable",
    "Writer",
    "prepare_report_dir",
    "writers_for",
]

#: Where a defect's traceback goes in the report folder (cli/_lifecycle.py writes it).
DEBUG_LOG = "agent-conformance-debug.log"


class Writer(Protocol):
    """A handler of run events that writes one file, `filename`, into the folder it is given."""

    filename: ClassVar[str]

    def __init__(self, directory: Path) -> None: ...

    def handle(self, event: Event) -> None: ...


FORMATS: dict[str, type[Writer]] = {
    "jsonl": JsonlWriter,
    "json": JsonReportWriter,
    "junit": JunitWriter,
    "markdown": MarkdownWriter,
    "html": HtmlWriter,
    "badges": BadgeWriter,
}


def prepare_report_dir(directory: Path) -> None:
    """Create `directory`, prove it writable, and remove an earlier run's reports from it, so that a
    reader never takes an old verdict for this run's. Raises `ReportDirUnusable`."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / ".agent-conformance-write-test"
        probe.write_bytes(b"")
        probe.unlink()
        for pattern in (*(f.filename for f in FORMATS.values()), DEBUG_LOG):
            for path in directory.glob(pattern):
                path.unlink(missing_ok=True)
    except OSError as error:
        raise unwritable(directory, error) from None


def writers_for(directory: Path, formats: tuple[str, ...] = tuple(FORMATS)) -> list[Writer]:
    """One writer per format, each writing into `directory` (prepared first: see
    `prepare_report_dir`). An unknown format is `ReportDirUnusable` too, before the folder is
    touched."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ReportDirUnusable(
            f"unknown --format {', '.join(unknown)}; choose from {', '.join(FORMATS)}"
        )
    prepare_report_dir(directory)
    return [FORMATS[name](directory) for name in formats]
