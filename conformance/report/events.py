"""A run's results flow as events; each output format is a handler of those events.

    RunStarted(header) -> ResultRecorded(result) ... -> RunFinished(summary)

Handlers see every event in order. A handler that writes a file should flush what it can as
results arrive (see writers/jsonl.py), so that a run cut short still leaves evidence, and the
missing footer tells a reader the run did not finish.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from .compliance import Summary
from .model import Result
from .model import RunHeader

__all__ = [
    "Collect",
    "Event",
    "Handler",
    "ResultRecorded",
    "RunFinished",
    "RunStarted",
    "broadcast",
]


@dataclass(frozen=True)
class RunStarted:
    header: RunHeader


@dataclass(frozen=True)
class ResultRecorded:
    result: Result


@dataclass(frozen=True)
class RunFinished:
    summary: Summary


Event = RunStarted | ResultRecorded | RunFinished


class Handler(Protocol):
    def handle(self, event: Event) -> None: ...


def broadcast(event: Event, handlers: Iterable[Handler]) -> None:
    for handler in handlers:
        handler.handle(event)


class Collect:
    """A handler that keeps every result, in the order they were made."""

    def __init__(self) -> None:
        self.results: list[Result] = []
        self.header: RunHeader | None = None

    def handle(self, event: Event) -> None:
        if isinstance(event, ResultRecorded):
            self.results.append(event.result)
        elif isinstance(event, RunStarted):
            self.header = event.header
