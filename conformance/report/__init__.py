"""Results, their evidence, the compliance level they earn, and the writers that turn them into
files."""

from .compliance import LEVEL_ORDER
from .compliance import Summary
from .compliance import summarize
from .events import Collect
from .events import Event
from .events import Handler
from .events import ResultRecorded
from .events import RunFinished
from .events import RunStarted
from .events import broadcast
from .model import REPORT_FORMAT
from .model import Exchange
from .model import Result
from .model import RunHeader
from .model import Skip
from .model import Status

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
