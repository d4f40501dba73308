"""What a check gets: the run's options, the binding to talk through, what the probe found, a memo
for work several checks share, and the address policy that keeps the suite where the user allowed.

The suite calls the target's own origin and any origin the user allows (`--allow-origin`); a URL a
target advertises elsewhere (another host, a private or link-local address) is never called.

    declared.py  each option a user gives a run, once: flag, help, type, limits (the CLI, the
                 plugin and fleet offer them from it)
    options.py   RunOptions, and run_options(), which builds and checks them for every entry point;
                 what a run records of them and reads back
    sources.py   what a run certifies, and every rule about options that go together
    target.py    the Target a check gets, and the memo of work several checks share
    policy.py    the address policy: loopback, the open Internet, the rest transport's configuration
    selection.py, baseline.py   which requirements a run judges; the failures a team expects
"""

from . import options
from .options import *  # noqa: F403 (the options' names are the package's)
from .policy import is_loopback
from .policy import on_the_open_internet
from .policy import rest_config
from .target import SharedWorkFailed
from .target import Target

__all__ = ["SharedWorkFailed", "Target", "is_loopback", "on_the_open_internet", "rest_config"]
__all__ += options.__all__
