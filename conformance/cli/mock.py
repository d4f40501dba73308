"""`agent-conformance mock`: run the reference agents, healthy or with one named fault."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from ..targeting import OptionsUnusable
from ..targeting.sources import Sources
from ..targeting.sources import refused
from ..usecases.references import References
from ..usecases.references import ReferencesMissing
from ..usecases.references import references
from ._console import console
from ._console import fail_usage
from ._options import Fault
from ._options import FaultRate
from ._options import FaultSeed
from ._options import Minimal

__all__ = ["app"]

app = typer.Typer(
    help="The reference agents the suite certifies, and their named faults.", no_args_is_help=True
)


def reference_agents() -> References:
    """The installed reference agents, or a usage error (exit 2) saying they are not installed."""
    try:
        return references()
    except ReferencesMissing as error:
        fail_usage(str(error))


def check_fault(fault: str | None, *, client: bool = False) -> str | None:
    """`fault`, when it names a fault of the reference host (or, with `client`, of the reference
    WoA client)."""
    if fault is not None:
        refs = reference_agents()
        if fault not in (refs.client_faults if client else refs.faults):
            fail_usage(
                f"unknown {'client ' if client else ''}fault {fault!r}; `agent-conformance mock"
                " faults` lists them"
            )
    return fault


@app.command("server")
def server(
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port on 127.0.0.1 (0: any free port).")
    ] = 8443,
    fault: Fault = None,
    http: Annotated[
        bool,
        typer.Option(
            "--http", help="Serve plain HTTP instead of HTTPS (the suite then fails WOA-8.1)."
        ),
    ] = False,
    fault_rate: FaultRate = None,
    fault_seed: FaultSeed = 0,
    minimal: Minimal = False,
) -> None:
    """Serve the reference WoA host on loopback until interrupted (HTTPS with a CA made on the
    fly)."""
    try:
        refused(
            Sources(
                mock=True,
                fault=fault is not None,
                fault_rate=fault_rate is not None,
                minimal=minimal,
            )
        )
    except OptionsUnusable as error:
        fail_usage(str(error))
    check_fault(fault)
    with reference_agents().serve_host(
        fault,
        port=port,
        tls=not http,
        fault_rate=fault_rate,
        fault_seed=fault_seed,
        minimal=minimal,
    ) as host:
        name = "Minimal conformer" if minimal else "Reference WoA host"
        console.print(f"{name}{f' with fault {fault}' if fault else ''} at {host.url}")
        if host.cacert:
            console.print(f"Its CA certificate: {host.cacert}  (pass it to run --cacert)")
        console.print("Ctrl-C stops it.")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


@app.command("faults")
def faults() -> None:
    """List the named faults: each makes the reference host, or the reference WoA client, break
    exactly one requirement."""
    refs = reference_agents()
    for name, fault in sorted(refs.faults.items()):
        console.print(f"{name}  {fault.description}")
    console.print(
        "\nFaults of the reference WoA client (run --mock --suite woa --role client --fault NAME):"
    )
    for name, client_fault in sorted(refs.client_faults.items()):
        console.print(f"{name}  {client_fault.description}")
