"""The reference agents, handed to the commands that serve, drive or mutate them (`mock`, `run
--mock`, `mutate`, `aci isolation`) through this one interface. The suite never imports them: the
distribution that ships them names an object of this shape under the entry point group below (this
project's is `mocks.references:REFERENCES`), and a suite installed without them says so in one line.

    refs = references()
    with refs.serve_host("woa-5.2-agent-mismatch-400") as host:
        ...  # host.url, host.cacert
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any
from typing import Protocol

__all__ = [
    "GROUP",
    "AgentIds",
    "Described",
    "Figure",
    "References",
    "ReferencesMissing",
    "Served",
    "Variant",
    "references",
]

GROUP = "agent_conformance.references"


class ReferencesMissing(Exception):
    """No installed distribution offers the reference agents."""


class Described(Protocol):
    """A named fault: the requirement it breaks and what it does."""

    @property
    def requirement(self) -> str: ...
    @property
    def description(self) -> str: ...


class Served(Protocol):
    @property
    def url(self) -> str: ...
    @property
    def cacert(self) -> Path | None: ...


@dataclass(frozen=True)
class Figure:
    """What the reference master sends its invoked agents in one scenario, isolated and
    broadcast."""

    scenario: str
    dispatches: int
    isolated_bytes: int
    broadcast_bytes: int
    isolated_tokens: int | None
    broadcast_tokens: int | None

    @property
    def ratio(self) -> float:
        return self.broadcast_bytes / self.isolated_bytes if self.isolated_bytes else 0.0


@dataclass(frozen=True)
class AgentIds:
    """The ids the reference host gives its agents, for telling which certification judges a
    path."""

    sdsi_server: str
    sdsi_client: str
    master: str
    invoked: frozenset[str]


class Variant(Protocol):
    """A conformant variant of a reference agent: what it does that the text allows, the
    requirements it bears on, and the SHOULD readings it may fail."""

    @property
    def description(self) -> str: ...
    @property
    def bears_on(self) -> tuple[str, ...]: ...
    @property
    def expected(self) -> tuple[str, ...]: ...


class References(Protocol):
    @property
    def faults(self) -> Mapping[str, Described]: ...
    @property
    def variants(self) -> Mapping[str, Variant]: ...
    @property
    def client_variants(self) -> Mapping[str, Any]:
        """The reference WoA client's conformant variants, by name."""
        ...

    @property
    def client_faults(self) -> Mapping[str, Described]: ...
    @property
    def agent_ids(self) -> AgentIds: ...

    def serve_host(
        self,
        fault: str | None = None,
        *,
        port: int = 0,
        tls: bool = True,
        fault_rate: float | None = None,
        fault_seed: int = 0,
        minimal: bool = False,
    ) -> AbstractContextManager[Served]:
        """The reference WoA host on loopback (HTTPS unless `tls` is False), with one named
        fault, or minimal."""
        ...

    def create_app(self, base: str, variant: str | None = None) -> Any:
        """The healthy reference host as an ASGI app whose origin is `base` (for in-process
        runs), or one of its conformant `variant`s."""
        ...

    def client_command(
        self, fault: str | None = None, *, minimal: bool = False, variant: str | None = None
    ) -> str:
        """The --client-command that runs the reference WoA client, with `fault` if any, as the
        minimal conformer, or as one of its conformant `variant`s."""
        ...

    def client_daemon(self) -> AbstractContextManager[Callable[..., str]]:
        """The reference WoA client as one long-lived process while the block runs; yields what
        makes its --client-command (`fault`, `minimal`, `variant`, as client_command takes them):
        still one process per invocation, a forwarder of the standard library alone that hands
        the invocation to it (for a command that certifies the client again and again). Where it
        cannot start (no Unix sockets), what it yields makes client_command's commands instead."""
        ...

    def isolation_figures(self) -> list[Figure]:
        """ACI 4.2's figure: what the reference master sends in the draft's two scenarios,
        against a broadcast."""
        ...


@cache
def references() -> References:
    """The installed reference agents (the first distribution to offer them)."""
    for entry in entry_points(group=GROUP):
        found: References = entry.load()
        return found
    raise ReferencesMissing(
        f"no reference agents are installed (entry point group {GROUP}): install agent-conformance "
        "from its repository, which ships them in mocks/"
    )
