"""The A2A TCK beside the suite, on the same A2A agent of the same server process, per item.

    python -m bench --tck DIR [--tck-python PYTHON]

DIR is a checkout of the A2A TCK (github.com/a2aproject/a2a-tck; commit 410ba92 or later speaks
A2A 1.0, the protocol of the a2a-sdk the reference agents are served with), installed in a venv of
its own (DIR/.venv unless --tck-python names its interpreter):

    git clone https://github.com/a2aproject/a2a-tck DIR
    python -m venv DIR/.venv && DIR/.venv/bin/pip install -e DIR

Nothing is fetched at run time. The reference host serves its A2A agents at /a2a/<id>; the TCK
looks for the agent card at the origin's root and at <sut-url>/.well-known/agent-card.json, so
the bench serves those two paths as aliases of one agent's card (hotel-booking), in-process. The
TCK does not send A2A-Version, without which the SDK answers as A2A 0.3 (-32009): the bench hands
it the header through the TCK's own A2A_AUTH_HEADERS. Both tools run as whole commands, from
process start to exit, in turn; an item is a test the TCK selected (passed, failed, errored or
skipped) and a requirement the suite judged (its A2A agents: --suite aci --binding a2a --role
invoked).
"""

from __future__ import annotations

import json
import logging
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.timing import cli
from bench.timing import command
from bench.timing import interleaved
from bench.timing import load
from bench.timing import ratio
from bench.timing import run_command
from bench.timing import spread

AGENT = "hotel-booking"
_COUNTED = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)")


def _aliased(app: Any, agent: str) -> Any:
    """The host, with the paths where the TCK looks for an agent card answering that agent's."""
    card = f"/a2a/{agent}/.well-known/agent-card.json"
    aliases = {"/.well-known/agent-card.json", f"/a2a/{agent}/rpc/.well-known/agent-card.json"}

    async def aliased(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] in aliases:
            scope = {**scope, "path": card, "raw_path": card.encode()}
        await app(scope, receive, send)

    return aliased


def _tck_items(output: str) -> int:
    """How many tests the TCK's pytest sessions reported, from their summary lines."""
    summaries = [line for line in output.splitlines() if re.search(r" in [\d.]+s\b", line)]
    return sum(int(n) for line in summaries for n, _ in _COUNTED.findall(line))


def side_by_side(tck: Path, repeat: int, python: Path | None = None) -> None:
    from conformance.harness.loop_server import serve
    from mocks.reference.woa_host import create_app

    interpreter = python or tck / ".venv" / "bin" / "python"
    for sdk in ("a2a", "jsonrpc"):  # the SDK logs every wrong request the TCK sends on purpose
        logging.getLogger(sdk).setLevel(logging.CRITICAL)
    if not (tck / "run_tck.py").exists() or not interpreter.exists():
        print(f"A2A TCK: not run ({tck}/run_tck.py or {interpreter} is missing; see bench/tck.py)")
        return
    with (
        serve(lambda base: _aliased(create_app(base), AGENT)) as host,
        tempfile.TemporaryDirectory(prefix="agent-conformance-tck-") as folder,
    ):
        environment = {
            **os.environ,
            "SSL_CERT_FILE": str(host.cacert),
            "REQUESTS_CA_BUNDLE": str(host.cacert),
            "A2A_AUTH_HEADERS": json.dumps({"A2A-Version": "1.0"}),
        }
        theirs = [
            str(interpreter),
            "run_tck.py",
            "--sut-url",
            f"{host.url}/a2a/{AGENT}/rpc",
            "--category",
            "mandatory",
        ]
        reports = Path(folder) / "reports"
        ours = [
            *cli(),
            "run",
            "--target",
            host.url,
            "--cacert",
            str(host.cacert),
            "--suite",
            "aci",
            "--binding",
            "a2a",
            "--role",
            "invoked",
            "--quiet",
            "--report-dir",
            str(reports),
        ]
        first = run_command(theirs, check=False, cwd=tck, env=environment, text=True)
        tested = _tck_items(first.stdout)
        run_command(ours, check=False)
        results = json.loads((reports / "report.json").read_text())["results"]
        judged = sum(1 for r in results if r["status"] != "not-applicable")
        if not tested or not judged:
            print(
                f"A2A TCK: no items to compare (the TCK reported {tested} tests, the suite judged"
                f" {judged}); the TCK said: {first.stdout[-300:]!r}"
            )
            return
        samples = interleaved(
            {
                "tck": command(*theirs, check=False, cwd=tck, env=environment),
                "ours": command(*ours, check=False),
            },
            repeat,
        )
    per_tck = [1000 * t / tested for t in samples["tck"]]
    per_ours = [1000 * t / judged for t in samples["ours"]]
    print(
        f"A2A TCK beside the suite, {AGENT} on one reference host (whole commands): TCK"
        f" --category mandatory {spread(samples['tck'])} for {tested} tests, min"
        f" {min(per_tck):.1f} ms, median {statistics.median(per_tck):.1f} ms a test;"
        f" agent-conformance --suite aci --binding a2a --role invoked"
        f" {spread(samples['ours'])} for {judged} requirements judged, min {min(per_ours):.1f} ms,"
        f" median {statistics.median(per_ours):.1f} ms a requirement; per item, suite /"
        f" TCK {ratio(per_ours, per_tck)}; {load()}"
    )


if __name__ == "__main__":
    side_by_side(
        Path(sys.argv[1]),
        int(sys.argv[2]) if len(sys.argv) > 2 else 5,
        Path(sys.argv[3]) if len(sys.argv) > 3 else None,
    )
