"""The fleet at scale: `python -m bench.fleet [--targets 200] [--host-processes 2] [--jobs 4]
[--suite woa] [--dask]`

Serves `--targets` reference hosts on loopback (spread over `--host-processes` processes, each host
its own uvicorn and CA), certifies them with `fleet_results` (threads, or a Dask LocalCluster of
`--jobs` single-threaded workers), and prints the wall time, targets per minute, each target's own
certification time (min, median, max, from its report) and the peak memory of the driver and the
workers. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from conformance.oracle.bench import peak_mb
from conformance.usecases.fleet import TargetSpec
from conformance.usecases.fleet import fleet_results
from conformance.usecases.fleet import slug


def _serve_hosts(count: int, listing: Path) -> None:
    """Child mode: serve `count` reference hosts, write their specs to `listing`, serve until
    stdin closes."""
    from mocks.serve import serve_host

    with ExitStack() as stack:
        hosts = [stack.enter_context(serve_host()) for _ in range(count)]
        listing.write_text(json.dumps([{"target": h.url, "cacert": str(h.cacert)} for h in hosts]))
        sys.stdin.read()


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.fleet",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--targets", type=int, default=200)
    parser.add_argument("--host-processes", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--suite", default="woa", choices=("woa", "sdsi", "aci", "all"))
    parser.add_argument(
        "--dask",
        action="store_true",
        help="certify on a Dask LocalCluster instead of local threads",
    )
    parser.add_argument("--serve", nargs=2, metavar=("COUNT", "LISTING"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.serve:
        _serve_hosts(int(arguments.serve[0]), Path(arguments.serve[1]))
        return
    with tempfile.TemporaryDirectory(prefix="agent-conformance-fleet-bench-") as folder:
        shares = [
            arguments.targets // arguments.host_processes
            + (n < arguments.targets % arguments.host_processes)
            for n in range(arguments.host_processes)
        ]
        listings = [Path(folder) / f"hosts-{n}.json" for n in range(len(shares))]
        servers = [
            subprocess.Popen(
                [sys.executable, "-m", "bench.fleet", "--serve", str(share), str(listing)],
                stdin=subprocess.PIPE,
            )
            for share, listing in zip(shares, listings, strict=True)
        ]
        started = time.perf_counter()
        while not all(listing.exists() and listing.stat().st_size for listing in listings):
            time.sleep(0.1)
        print(
            f"{arguments.targets} reference hosts served by {len(servers)} processes in"
            f" {time.perf_counter() - started:.1f} s"
        )
        specs = [
            TargetSpec.of(h["target"], suite=arguments.suite, cacert=h["cacert"])
            for listing in listings
            for h in json.loads(listing.read_text())
        ]
        out = Path(folder) / "reports"
        started = time.perf_counter()
        if arguments.dask:
            from distributed import Client
            from distributed import LocalCluster

            cluster = LocalCluster(
                n_workers=arguments.jobs,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
            with cluster, Client(cluster.scheduler_address) as client:
                rows = fleet_results(specs, out, scheduler=cluster.scheduler_address)
                memory = list(client.run(peak_mb).values())
        else:
            rows = fleet_results(specs, out, jobs=arguments.jobs)
            memory = []
        wall = time.perf_counter() - started
        for server in servers:
            server.communicate(b"")
        own = [
            json.loads((out / slug(s.target) / "report.json").read_text())["summary"]["duration_ms"]
            / 1000
            for s in specs
        ]
        passed = sum(r["exit_code"] == 0 for r in rows)
        print(
            f"certified {len(rows)} targets ({arguments.suite},"
            f" {'Dask LocalCluster' if arguments.dask else 'threads'}, {arguments.jobs} at a time)"
            f" in {wall:.1f} s: {60 * len(rows) / wall:,.0f} targets a minute, {passed} passed"
        )
        print(
            f"each target's own run: min {min(own):.2f} s, median {statistics.median(own):.2f} s,"
            f" max {max(own):.2f} s"
        )
        print(
            f"peak memory of the driver {peak_mb():.0f} MiB"
            + (
                f"; peak of each worker {', '.join(f'{m:.0f}' for m in memory)} MiB"
                if memory
                else ""
            )
        )


if __name__ == "__main__":
    main()
