"""The values a run makes up and the clock readings that enter its messages or verdicts, from one
object the run hands to whoever needs them (no process-wide state):

    values = Values(seed, recorder, replay)
    values.uuid("sdsi-drives"); values.hex(6, "aci-invoked"); values.time("context-store")

Random values come from per-purpose streams of the run's seed, so that what one part of the suite
draws does not depend on when another part drew (checks run concurrently), and a replay of the
recording, with the recorded seed, makes the same ones. Clock readings are written to the recording
and read back from it in a replay."""

from __future__ import annotations

import hashlib
import random
import time
import uuid
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING

from .recorder import Recorder

if TYPE_CHECKING:
    from . import Replay

__all__ = ["Values"]


@dataclass
class Values:
    seed: int
    recorder: Recorder | None = None
    replay: Replay | None = None
    _streams: dict[str, random.Random] = field(default_factory=dict, repr=False)

    def _source(self, purpose: str) -> random.Random:
        if purpose not in self._streams:
            digest = hashlib.sha256(f"{self.seed}/{purpose}".encode()).digest()
            self._streams[purpose] = random.Random(int.from_bytes(digest[:8], "big"))
        return self._streams[purpose]

    def uuid(self, purpose: str) -> str:
        """A version 4 UUID."""
        return str(uuid.UUID(int=self._source(purpose).getrandbits(128), version=4))

    def bytes(self, size: int, purpose: str) -> bytes:
        """`size` random bytes (a key, a token)."""
        return self._source(purpose).randbytes(size)

    def hex(self, size: int, purpose: str) -> str:
        """`size` random bytes in hex (a canary, an identifier)."""
        return self.bytes(size, purpose).hex()

    def time(self, purpose: str) -> float:
        """The wall-clock time where it enters a message or a verdict: recorded in a recorded
        run, the recorded reading in a replay, the clock otherwise."""
        if self.replay is not None:
            return self.replay.value(purpose)
        now = time.time()
        if self.recorder is not None:
            self.recorder.value(purpose, now)
        return now
