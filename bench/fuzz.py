"""`fuzz` beside plain schemathesis, on the same requests to the same host.

    python -m bench            (its `fuzz` line)
    python -m bench.fuzz URL CACERT EXAMPLES     (the floor alone)

The suite's whole command, `agent-conformance fuzz --target URL`, against its floor: a fresh process
that reads the same WoA document, hands schemathesis the same OpenAPI document with the same
configuration (seed, examples, checks off), sends the same edge strings with httpx, and judges
and keeps nothing. Both are timed from process start to exit, in turn, and the peak memory (the
largest resident set) of each process is read from the kernel when it ends.
"""

from __future__ import annotations

import os
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.timing import DEADLINE
from bench.timing import cli
from bench.timing import load
from bench.timing import ratio
from bench.timing import spread


def floor(url: str, cacert: str, examples: int) -> int:
    """The requests `fuzz --target URL --max-examples EXAMPLES` sends, sent by schemathesis and
    httpx alone; how many were sent."""
    import httpx
    import schemathesis
    from schemathesis.engine import events

    from conformance.usecases.fuzz.engine import _config
    from conformance.usecases.fuzz.engine import hypothesis_storage
    from conformance.usecases.fuzz.openapi import openapi_from_woa

    trusted = ssl.create_default_context(cafile=cacert)
    plan = openapi_from_woa(httpx.get(f"{url}/.well-known/woa.json", verify=trusted).json())
    assert plan.base is not None
    sent = 0
    with hypothesis_storage():
        schema = schemathesis.openapi.from_dict(
            dict(plan.openapi),
            config=_config(
                plan.base, max_examples=examples, seed=0, timeout=10.0, cacert=Path(cacert)
            ),
        )
        for event in schemathesis.engine.from_schema(schema).execute():
            if isinstance(event, events.ScenarioFinished):
                sent += len(event.recorder.interactions)
    headers = {"content-type": "application/json", "accept": "application/json"}
    with httpx.Client(verify=trusted, timeout=10.0) as client:
        for path, _, body in plan.edges:
            client.post(plan.base.rstrip("/") + path, content=body, headers=headers)
            sent += 1
    return sent


def _measured(arguments: list[str]) -> tuple[float, float]:
    """Seconds from start to exit, and the peak resident memory in MiB, of one command."""
    started = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _, _, usage = os.wait4(process.pid, 0)
    except BaseException:
        process.kill()
        raise
    process.returncode = 0  # reaped above
    elapsed = time.perf_counter() - started
    if elapsed > DEADLINE:
        raise TimeoutError(arguments)
    return elapsed, usage.ru_maxrss / 1024


def side_by_side(repeat: int, examples: int) -> None:
    """The `fuzz` line of the bench: wall and peak memory of both, in turn, and their ratios."""
    from mocks.serve import serve_host

    with serve_host() as host, tempfile.TemporaryDirectory(prefix="bench-fuzz-") as folder:
        fuzzing = [
            *cli(),
            *("fuzz", "--target", host.url, "--cacert", str(host.cacert)),
            *("--max-examples", str(examples), "--report-dir", folder, "--quiet"),
        ]
        plain = [sys.executable, "-m", "bench.fuzz", host.url, str(host.cacert), str(examples)]
        walls: dict[str, list[float]] = {"fuzz": [], "floor": []}
        peaks: dict[str, list[float]] = {"fuzz": [], "floor": []}
        for _ in range(repeat):
            for name, arguments in (("fuzz", fuzzing), ("floor", plain)):
                wall, peak = _measured(arguments)
                walls[name].append(wall)
                peaks[name].append(peak)
    memory = statistics.median(peaks["fuzz"]) / statistics.median(peaks["floor"])
    print(
        f"fuzz (--max-examples {examples}, the reference host): whole command"
        f" {spread(walls['fuzz'])}; floor (schemathesis and httpx sending the same requests,"
        f" nothing judged) {spread(walls['floor'])}; ratio {ratio(walls['fuzz'], walls['floor'])};"
        f" peak memory {statistics.median(peaks['fuzz']):.0f} MiB against"
        f" {statistics.median(peaks['floor']):.0f} MiB (medians), {memory:.2f}x; {load()}"
    )


if __name__ == "__main__":
    print(floor(sys.argv[1], sys.argv[2], int(sys.argv[3])))
