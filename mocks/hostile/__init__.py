"""Hostile targets: each misbehaves in one named way, and the suite must stay whole against it.

    HOSTILE["silent"].serve()  ->  a context manager yielding the target's URL (plain HTTP on
                                   loopback)

Every behaviour is a real server on 127.0.0.1: a Starlette app under uvicorn where HTTP is spoken
(documents, redirects, invocations), a raw TCP server where it is not (silence, resets, bytes
that are not HTTP). Each says what the suite must make of it: the exit code of the contract
(conformance/engine/gate.py) and whether the target answered (and so whether a report must
exist). The tests run the suite against every one of them in a separate process and hold it to
its budget, to 500 MB, and to connecting nowhere but the target."""

from __future__ import annotations

from .catalogue import HOSTILE
from .catalogue import Hostile

__all__ = ["HOSTILE", "Hostile"]
