"""Every rule about `run`'s options is said once (targeting/sources.py for options that go together,
run_options for one option's value) and refused before anything starts: exit 2, one line naming
the flags, no report folder made."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app

REFUSED = {
    "nothing to certify": ((), "give one of --target, --mock, --agent-callable, --client-command"),
    "two sources": (
        ("--target", "https://a.example", "--mock"),
        "give one of --target, --mock, not several",
    ),
    "a fault without the mock": (
        ("--target", "https://a.example", "--fault", "woa-4-version-1"),
        "--fault goes with --mock",
    ),
    "the minimal conformer without the mock": (
        ("--target", "https://a.example", "--minimal"),
        "--minimal goes with --mock",
    ),
    "the minimal conformer with a fault": (
        ("--mock", "--minimal", "--fault", "woa-4-version-1"),
        "--minimal takes no --fault: faults break the reference host",
    ),
    "a fault rate without a fault": (
        ("--mock", "--fault-rate", "0.5"),
        "--fault-rate goes with --fault",
    ),
    "a client command in another suite": (
        ("--client-command", "true", "--suite", "sdsi"),
        "--client-command certifies a WoA client: --suite woa --role client",
    ),
    "an unknown role": (
        ("--mock", "--role", "bogus"),
        "--role is one of host, server, master, invoked, client or any, not bogus",
    ),
    "an unknown binding": (
        ("--mock", "--binding", "grpc"),
        "--binding is one of woa-rest, jsonrpc, a2a, not 'grpc'",
    ),
    "an unknown format": (("--mock", "--format", "pdf"), "unknown --format pdf; choose from"),
}


@pytest.mark.parametrize(("flags", "said"), REFUSED.values(), ids=REFUSED.keys())
def test_run_refuses_before_anything_starts(
    flags: tuple[str, ...], said: str, tmp_path: Path
) -> None:
    reports = tmp_path / "reports"
    result = CliRunner().invoke(app, ["run", *flags, "--report-dir", str(reports)])
    assert result.exit_code == 2, result.output
    assert said in result.output, result.output
    assert not reports.exists()


def test_mock_server_refuses_in_the_same_words() -> None:
    for flags, (_, said) in (
        (
            ("--minimal", "--fault", "woa-4-version-1"),
            REFUSED["the minimal conformer with a fault"],
        ),
        (("--fault-rate", "0.5"), REFUSED["a fault rate without a fault"]),
    ):
        result = CliRunner().invoke(app, ["mock", "server", *flags])
        assert result.exit_code == 2 and said in result.output, result.output


def test_the_mocks_refuse_what_the_command_line_refuses() -> None:
    from mocks.host import create_app

    with pytest.raises(ValueError, match="--minimal takes no --fault"):
        create_app("https://host.test", "woa-4-version-1", minimal=True)
