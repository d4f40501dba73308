"""Fleets: reference and faulty hosts on loopback (four healthy, four faults, one that hangs),
certified serially, locally in parallel and on a Dask LocalCluster of two workers, give the same
verdicts; a hanging host stalls nobody; a re-run keeps complete reports."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.usecases.fleet import TargetSpec
from conformance.usecases.fleet import certify_one
from conformance.usecases.fleet import fleet_results
from conformance.usecases.fleet import slug
from mocks.hostile import HOSTILE
from mocks.serve import serve_host

runner = CliRunner()
#: A fault of each kind: the document, a wrapper of the host, how it is served (TLS), an answer.
FAULTS = ["woa-4-version-1", "woa-9.2-media-type", "woa-8.1-tls-1.3", "woa-5.2-success-2xx"]
HEALTHY = 4


@pytest.fixture(scope="module")
def hosts() -> Iterator[list[TargetSpec]]:
    with ExitStack() as stack:
        specs = []
        for fault in [None] * HEALTHY + FAULTS:
            host = stack.enter_context(serve_host(fault))
            specs.append(
                TargetSpec.of(host.url, suite="woa", cacert=str(host.cacert), timeout=5, budget=60)
            )
        hanging = stack.enter_context(HOSTILE["invocations-hang"].serve())
        specs.append(TargetSpec.of(hanging, suite="woa", timeout=1, budget=8))
        yield specs


def verdicts(out: Path, specs: list[TargetSpec]) -> dict[str, dict[str, str]]:
    found = {}
    for spec in specs:
        report = json.loads((out / slug(spec.target) / "report.json").read_text())
        found[spec.target] = {r["requirement"]: r["status"] for r in report["results"]}
    return found


@pytest.mark.timeout(600)
def test_local_and_dask_fleets_match_serial_runs(hosts: list[TargetSpec], tmp_path: Path) -> None:
    from distributed import LocalCluster

    serial = tmp_path / "serial"
    for spec in hosts:
        certify_one(spec, str(serial))
    local = fleet_results(hosts, tmp_path / "local", jobs=4)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        distributed = fleet_results(hosts, tmp_path / "dask", scheduler=cluster.scheduler_address)
    assert (
        [r["target"] for r in local]
        == [r["target"] for r in distributed]
        == [s.target for s in hosts]
    )
    assert (
        verdicts(tmp_path / "local", hosts)
        == verdicts(serial, hosts)
        == verdicts(tmp_path / "dask", hosts)
    )
    codes = [r["exit_code"] for r in local]
    # the healthy pass; the hanging host does not, and stalled nobody
    assert codes[:HEALTHY] == [0] * HEALTHY and codes[-1] != 0
    found = verdicts(tmp_path / "local", hosts)
    for spec, fault in zip(hosts[HEALTHY:-1], FAULTS, strict=True):
        # each fault caught on its requirement
        assert found[spec.target][fault.upper()] == "fail", fault


def test_the_command_writes_the_fleet_summary_and_matrix_and_keeps_complete_reports(
    hosts: list[TargetSpec], tmp_path: Path
) -> None:
    listed = tmp_path / "targets.json"
    listed.write_text(
        json.dumps([{"target": s.target, **dict(s.options)} for s in hosts[:3]], default=str)
    )
    first = runner.invoke(
        app, ["fleet", "--targets", str(listed), "--report-dir", str(tmp_path / "out")]
    )
    assert first.exit_code == 0, first.output
    assert "3 of 3 targets passed" in first.output
    assert {p.name for p in (tmp_path / "out").iterdir()} >= {
        "fleet.json",
        "fleet.md",
        "comparison.html",
        "comparison.md",
    }
    again = runner.invoke(
        app, ["fleet", "--targets", str(listed), "--report-dir", str(tmp_path / "out")]
    )
    assert again.output.count("(kept from an earlier run)") == 3


@pytest.mark.timeout(300)
def test_a_fleet_that_did_not_all_pass_exits_in_the_contracts_precedence_and_says_why(
    tmp_path: Path,
) -> None:
    """An unreachable target beside a passing one: exit 2 (nothing certifiable outranks a failure,
    as in a run), and one line on standard error naming it."""
    with serve_host() as host:
        listed = tmp_path / "targets.json"
        listed.write_text(
            json.dumps(
                [
                    {"target": host.url, "cacert": str(host.cacert), "suite": "woa"},
                    {"target": "https://127.0.0.1:9", "suite": "woa"},
                ]
            )
        )
        done = runner.invoke(
            app, ["fleet", "--targets", str(listed), "--report-dir", str(tmp_path / "out")]
        )
    assert done.exit_code == 2, done.output
    assert (
        "agent-conformance: 1 of 2 targets did not pass (https://127.0.0.1:9 exited 2) (exit 2)"
        in done.stderr
    )


def test_a_worker_that_dies_loses_only_its_current_target_which_is_retried(
    hosts: list[TargetSpec], tmp_path: Path
) -> None:
    import os
    import signal
    import threading
    import time

    from distributed import Client
    from distributed import LocalCluster

    specs = hosts[:4]
    victim = f"certify-{slug(specs[0].target)}"
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster.scheduler_address) as observer,
    ):
        rows: list[dict[str, object]] = []
        fleet = threading.Thread(
            target=lambda: rows.extend(
                fleet_results(specs, tmp_path / "dask", scheduler=cluster.scheduler_address)
            )
        )
        fleet.start()
        killed = None
        deadline = time.monotonic() + 60
        while killed is None and time.monotonic() < deadline:
            for address, keys in observer.processing().items():
                if victim in keys:
                    nanny = next(n for n in cluster.workers.values() if n.worker_address == address)
                    killed = nanny.process.pid
                    os.kill(killed, signal.SIGKILL)  # the worker dies in the middle of its target
            time.sleep(0.05)
        fleet.join(timeout=240)
    assert killed is not None, "the victim's task was never seen running"
    assert [r["target"] for r in rows] == [s.target for s in specs]
    # the victim's target certified again, the others untouched
    assert [r["exit_code"] for r in rows] == [0, 0, 0, 0]
    serial = tmp_path / "serial"
    for spec in specs:
        certify_one(spec, str(serial))
    assert verdicts(tmp_path / "dask", specs) == verdicts(serial, specs)


def test_a_scheduler_without_the_fleet_extra_says_which_extra_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dask is the [fleet] extra: without it, --scheduler is one line naming the extra, exit 2."""
    # an import of it now fails, as when it is not installed
    monkeypatch.setitem(sys.modules, "distributed", None)
    targets = tmp_path / "targets.txt"
    targets.write_text("https://127.0.0.1:1\n")
    result = runner.invoke(
        app, ["fleet", "--targets", str(targets), "--scheduler", "tcp://127.0.0.1:1"]
    )
    assert result.exit_code == 2 and "pip install 'agent-conformance[fleet]'" in result.output


def test_a_targets_file_takes_every_option_a_run_takes(tmp_path: Path) -> None:
    """Per-target options are the run's own (targeting/declared.py), by flag or keyword; one a run
    does not take is named."""
    from conformance.usecases.fleet import read_targets

    listed = tmp_path / "targets.json"
    listed.write_text(
        '[{"target": "https://a.example", "suite": "woa", "role": ["host"],'
        ' "allow-origin": ["https://b.example"], "strict": true, "max_probes": 5}]'
    )
    (spec,) = read_targets(listed)
    assert dict(spec.options) == {
        "suites": "woa",
        "roles": ("host",),
        "allowed_origins": ("https://b.example",),
        "strict": True,
        "max_probes": 5,
    }
    listed.write_text('[{"target": "https://a.example", "colour": "blue"}]')
    with pytest.raises(ValueError, match="colour: not an option of a run"):
        read_targets(listed)
