"""What a check gets: the run's options, the binding to talk through, what the probe found, a memo
for work several checks share, and the address policy that keeps the suite where the user allowed.

The suite calls the target's own origin and any origin the user allows (`--allow-origin`); a URL a
target advertises elsewhere (another host, a private or link-local address) is never called.

    options.py   RunOptions, and run_options(), which builds and checks them for every entry point
    target.py    the Target a check gets, and the memo of work several checks share
    policy.py    the address policy: loopback, the open Internet, the rest transport's configuration
    selection.py, baseline.py   which requirements a run judges; the failures a team expects
"""

from .options import (
    DEFAULT_BUDGET,
    DEFAULT_MAX_PROBES,
    DEFAULT_ROLES,
    SUITES,
    OptionsUnusable,
    RunOptions,
    fresh_seed,
    may_call,
    origin,
    run_options,
    usable_cacert,
)
from .policy import is_loopback, on_the_open_internet, rest_config
from .target import SharedWorkFailed, Target

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_PROBES",
    "DEFAULT_ROLES",
    "SUITES",
    "OptionsUnusable",
    "RunOptions",
    "SharedWorkFailed",
    "Target",
    "fresh_seed",
    "is_loopback",
    "may_call",
    "on_the_open_internet",
    "origin",
    "rest_config",
    "run_options",
    "usable_cacert",
]
