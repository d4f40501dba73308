"""Results, their evidence, the compliance level they earn, and the writers that turn them into
files."""

from .compliance import LEVEL_ORDER, Summary, summarize
from .events import Collect, Event, Handler, ResultRecorded, RunFinished, RunStarted, broadcast
from .model import REPORT_FORMAT, Exchange, Result, RunHeader, Skip, Status

__all__ = [
    "LEVEL_ORDER",
    "REPORT_FORMAT",
    "Collect",
    "Event",
    "Exchange",
    "Handler",
    "Result",
    "ResultRecorded",
    "RunFinished",
    "RunHeader",
    "RunStarted",
    "Skip",
    "Status",
    "Summary",
    "broadcast",
    "summarize",
]
