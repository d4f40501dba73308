"""What a run certifies and the options that go with it, said once for the command line and the
pytest plugin, so that both refuse the same mistakes in the same words (each in its own spelling of
the flags).

    a target        --target URL (plugin: --agent-target), or the reference --mock
    an app          (plugin only) --agent-app module:app, in-process
    a function      --agent-callable module:function: --suite aci (an ACI invoked agent) or
                    --suite sdsi with at least one --scenario (an SDSI server agent)
    a WoA client    --client-command (the suite plays the host)

Exactly one is given. `refused` holds every rule about options that go together (a fault goes
with the mock, a fault rate with a fault, the minimal conformer with neither...), for every entry
point that has them: `run`, `mock server`, the plugin and the mocks' own `create_app`. It raises
`OptionsUnusable` (whole: its message names the flags). What one option's value may be is
`run_options`'s to say.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass

from ..harness.callables import KINDS
from .options import OptionsUnusable

__all__ = ["CLI", "PLUGIN", "Sources", "refused"]

#: A spelling of the flags: the option's name as the command line says it -> as a user types it.
Spelling = Callable[[str], str]


def CLI(name: str) -> str:
    return f"--{name}"


_PLUGIN_NAMES: Mapping[str, str] = {"agent-callable": "agent-callable", "app": "agent-app"}


def PLUGIN(name: str) -> str:
    return f"--{_PLUGIN_NAMES.get(name, f'agent-{name}')}"


@dataclass(frozen=True)
class Sources:
    """What the user gave: which sources, the suite, the scenarios and the roles, and the mock's
    fault and form."""

    target: bool = False
    mock: bool = False
    app: bool = False
    agent_callable: bool = False
    client_command: bool = False
    suite: str = "all"
    scenarios: tuple[str, ...] = ()
    binding: str = "woa-rest"
    #: the roles asked for (None: the default ones)
    roles: tuple[str, ...] | None = None
    fault: bool = False
    fault_rate: bool = False
    minimal: bool = False


def refused(given: Sources, flag: Spelling = CLI) -> None:
    """Raise `OptionsUnusable` for the first mistake in `given`, spelled by `flag`."""

    def no(why: str) -> OptionsUnusable:
        return OptionsUnusable("", why, whole=True)

    named = {
        "target": given.target,
        "mock": given.mock,
        "app": given.app,
        "agent-callable": given.agent_callable,
        "client-command": given.client_command,
    }
    chosen = [name for name, on in named.items() if on]
    if given.client_command and (given.target or given.mock):
        raise no(
            f"{flag('client-command')} certifies a client: it takes neither {flag('target')} nor"
            f" {flag('mock')}"
        )
    if given.agent_callable:
        others = [flag(n) for n in chosen if n != "agent-callable"]
        if others:
            raise no(
                f"{flag('agent-callable')} certifies a function: it takes no {', '.join(others)}"
            )
        if given.suite not in KINDS:
            raise no(
                f"{flag('agent-callable')} certifies an ACI invoked agent ({flag('suite')} aci) or"
                f" an SDSI server agent ({flag('suite')} sdsi)"
            )
        if given.suite == "sdsi" and not given.scenarios:
            raise no(
                f"{flag('agent-callable')} with {flag('suite')} sdsi: name the scenarios the"
                f" function serves with {flag('scenario')}"
            )
    if len(chosen) > 1 and not given.client_command:
        raise no(f"give one of {', '.join(flag(n) for n in chosen)}, not several")
    if given.binding == "jsonrpc" and (given.suite != "sdsi" or not given.scenarios):
        raise no(
            f"{flag('binding')} jsonrpc certifies an SDSI endpoint: give {flag('suite')} sdsi and"
            f" at least one {flag('scenario')}"
        )
    if given.client_command and (
        given.suite not in ("woa", "all") or given.roles not in (None, ("client",))
    ):
        raise no(
            f"{flag('client-command')} certifies a WoA client: {flag('suite')} woa"
            f" {flag('role')} client"
        )
    if not chosen:
        raise no(f"give one of {', '.join(flag(n) for n in named if n != 'app')}")
    if given.fault and not given.mock:
        raise no(f"{flag('fault')} goes with {flag('mock')}")
    if given.minimal and not given.mock:
        raise no(f"{flag('minimal')} goes with {flag('mock')}")
    if given.minimal and given.fault:
        raise no(f"{flag('minimal')} takes no {flag('fault')}: faults break the reference host")
    if given.fault_rate and not given.fault:
        raise no(f"{flag('fault-rate')} goes with {flag('fault')}")
