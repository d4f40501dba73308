"""The reference WoA host with one named fault (mocks/faults/), on every request or on a seeded
fraction of them, or as the minimal conformer: what `mock server`, `run --mock` and the tests
serve.

    app = create_app(base, "woa-5.2-agent-mismatch-400", fault_rate=0.2, fault_seed=0)

The reference host (mocks/reference/woa_host.py) knows no fault: a fault changes what it serves
(`Changes`), wraps it (an ASGI middleware), or changes how it is served (mocks/serve.py).
"""

from __future__ import annotations

from typing import Any

from conformance.targeting.sources import Sources
from conformance.targeting.sources import refused

from .faults.catalogue import FAULTS
from .faults.rate import AtRate
from .reference import woa_host

__all__ = ["create_app"]


def create_app(
    base: str,
    fault: str | None = None,
    test_mode: bool = True,
    *,
    fault_rate: float | None = None,
    fault_seed: int = 0,
    minimal: bool = False,
) -> Any:
    """The host announcing `base`, with the named `fault` if any: on every request, or with
    `fault_rate` on that fraction of them (a coin seeded by `fault_seed`, mocks/faults/rate.py).
    `minimal`: the minimal conformer (mocks/minimal.py), which takes no fault."""
    # the command line's rules (a ValueError): a fault rate goes with a fault, the minimal
    # conformer takes none
    refused(
        Sources(
            mock=True, fault=fault is not None, fault_rate=fault_rate is not None, minimal=minimal
        )
    )
    broken = FAULTS[fault] if fault else None
    if broken is None:
        return woa_host.create_app(base, test_mode, minimal=minimal)
    if fault_rate is not None and broken.made_once:
        raise ValueError(
            f"the fault {fault} is made once, not per request: it cannot be applied at a rate"
        )
    if broken.announces_https:  # served over plain HTTP while the document says https
        base = base.replace("http://", "https://", 1)
    host = woa_host.create_app(base, test_mode, changes=broken)
    faulty = broken.wrap(host) if broken.wrap else host
    if fault_rate is not None:  # one host, one state: the coin picks which requests break the rule
        return AtRate(host, faulty, fault_rate, fault_seed)
    return faulty
