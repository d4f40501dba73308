"""What a run certifies and the options that go with it, said once for the command line and the
pytest plugin, so that both refuse the same mistakes in the same words (each in its own spelling of
the flags).

    a target        --target URL (plugin: --agent-target), or the reference --mock
    an app          (plugin only) --agent-app module:app, in-process
    a function      --agent-callable module:function: --suite aci (an ACI invoked agent) or
                    --suite sdsi with at least one --scenario (an SDSI server agent)
    a WoA client    --client-command (the suite plays the host)

Exactly one is given. `refused` raises `OptionsUnusable` (whole: its message names the flags).
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
    """What the user gave: which sources, the suite and the scenarios."""

    target: bool = False
    mock: bool = False
    app: bool = False
    agent_callable: bool = False
    client_command: bool = False
    suite: str = "all"
    scenarios: tuple[str, ...] = ()
    binding: str = "woa-rest"


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
