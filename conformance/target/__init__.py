"""What a check gets: the run's options, the binding to talk through, what the probe found, a memo
for work several checks share, and the address policy that keeps the suite where the user allowed.

The suite calls the target's own origin and any origin the user allows (`--allow-origin`); a URL a
target advertises elsewhere (another host, a private or link-local address) is never called.

    options.py   RunOptions, and run_options(), which builds and checks them for every entry point
    target.py    the Target a check gets, and the memo of work several checks share
    policy.py    the address policy: loopback, the open Internet, the rest transport's configuration
    selection.py, baseline.py   which requirements a run judges; the failures a team expects
"""

from .options import DEFAULT_BUDGET
from .options import DEFAULT_MAX_PROBES
from .options import DEFAULT_ROLES
from .options import SUITES
from .options import OptionsUnusable
from .options import RunOptions
from .options import fresh_seed
from .options import may_call
from .options import origin
from .options import run_options
from .options import usable_cacert
from .policy import is_loopback
from .policy import on_the_open_internet
from .policy import rest_config
from .target import SharedWorkFailed
from .target import Target

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
