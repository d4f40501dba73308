"""Run the command line with every outbound connection and name lookup recorded, and its peak
memory.

    python tests/outbound.py RECORD.json run --target ...

writes {"connect": [[host, port], ...], "getaddrinfo": [host, ...], "peak_mb": N} when the process
exits, however it exits (short of a kill). Connections are seen through Python's audit hooks
(socket.connect, socket.getaddrinfo), below every library the suite uses; peak memory is VmHWM,
which, unlike ru_maxrss, starts afresh at exec.
"""

from __future__ import annotations

import atexit
import json
import sys
from pathlib import Path
from typing import Any

sys.path.pop(0)  # this script's folder, tests/, whose mocks/ would shadow the project's
record_path = Path(sys.argv[1])
seen: dict[str, list[Any]] = {"connect": [], "getaddrinfo": []}


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event == "socket.connect" and isinstance(args[1], tuple):
        seen["connect"].append([str(args[1][0]), args[1][1]])
    elif event == "socket.getaddrinfo":
        seen["getaddrinfo"].append(str(args[0]))


def _peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


@atexit.register
def _write() -> None:
    record_path.write_text(json.dumps({**seen, "peak_mb": round(_peak_mb(), 1)}))


sys.addaudithook(_hook)
sys.argv = ["agent-conformance", *sys.argv[2:]]
from conformance.cli import main  # noqa: E402  (after the hook, so that nothing escapes it)

main()
