"""Time for the oracle: RFC 3339 in and out, and injected clocks (real or simulated)."""

from __future__ import annotations

import time
from datetime import UTC
from datetime import datetime
from typing import Protocol

__all__ = ["Clock", "SimulatedClock", "SystemClock", "format_time", "parse_time"]


def parse_time(text: str) -> float:
    """Seconds since the epoch of an RFC 3339 date-time with an offset (a bare date is refused)."""
    if not isinstance(text, str) or "T" not in text.upper():
        raise ValueError(f"not an RFC 3339 date-time: {text!r}")
    moment = datetime.fromisoformat(text.replace("z", "Z").replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(f"an RFC 3339 date-time needs an offset: {text!r}")
    return moment.timestamp()


def format_time(seconds: float) -> str:
    """RFC 3339 in UTC, with milliseconds only when the instant has them."""
    moment = datetime.fromtimestamp(round(seconds, 3), UTC)
    spec = "milliseconds" if moment.microsecond else "seconds"
    return moment.isoformat(timespec=spec).replace("+00:00", "Z")


class Clock(Protocol):
    def now(self) -> float: ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()


class SimulatedClock:
    """A clock that moves only when told: tests and test-mode servers set it."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def set(self, moment: float) -> None:
        self._now = moment

    def advance(self, seconds: float) -> None:
        self._now += seconds
