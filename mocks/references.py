"""The reference agents as the suite's commands are handed them
(conformance/usecases/references.py): the object pyproject.toml names under the entry point group
`agent_conformance.references`. Each member imports what it serves when it is first used."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from contextlib import ExitStack
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING
from typing import Any

from conformance.usecases.references import AgentIds
from conformance.usecases.references import Figure

from .faults.woa_client import command_prefix

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from .faults.catalogue import Fault
    from .faults.woa_client import ClientFault
    from .serve import ServedMock
    from .variants import ClientVariant
    from .variants import Variant

__all__ = ["REFERENCES", "ReferenceAgents"]


class ReferenceAgents:
    @cached_property
    def faults(self) -> Mapping[str, Fault]:
        from .faults.catalogue import FAULTS

        return FAULTS

    @cached_property
    def client_faults(self) -> Mapping[str, ClientFault]:
        from .faults.woa_client import CLIENT_FAULTS

        return CLIENT_FAULTS

    @cached_property
    def agent_ids(self) -> AgentIds:
        from .reference.aci_agents import AGENTS
        from .reference.aci_master import MASTER_ID
        from .reference.sdsi_client import CLIENT_AGENT_ID
        from .reference.woa_host import SDSI_AGENT

        return AgentIds(SDSI_AGENT, CLIENT_AGENT_ID, MASTER_ID, frozenset(AGENTS))

    @property
    def serve_host(self) -> Callable[..., AbstractContextManager[ServedMock]]:
        """mocks/serve.py's serve_host, imported when first asked for (it imports the host)."""
        from .serve import serve_host

        return serve_host

    @cached_property
    def variants(self) -> Mapping[str, Variant]:
        from .variants import VARIANTS

        return VARIANTS

    def create_app(self, base: str, variant: str | None = None) -> Any:
        from .reference.woa_host import create_app

        if variant is None:
            return create_app(base)
        changes = self.variants[variant]
        return create_app(base, changes.test_mode, changes=changes)

    @cached_property
    def client_variants(self) -> Mapping[str, ClientVariant]:
        from .variants import CLIENT_VARIANTS

        return CLIENT_VARIANTS

    def client_command(
        self, fault: str | None = None, *, minimal: bool = False, variant: str | None = None
    ) -> str:
        prefix = command_prefix(fault, minimal=minimal, variant=variant)
        return (
            f"{prefix}{shlex.quote(sys.executable)} -m mocks.woa_client {{document}}"
            " {agent} {operation} {input} {cacert}"
        )

    @contextmanager
    def client_daemon(self) -> Iterator[Callable[..., str]]:
        from . import woa_client_daemon

        with ExitStack() as stack:
            try:
                command = stack.enter_context(woa_client_daemon.client_daemon())
            except (RuntimeError, OSError):  # it cannot start (no Unix sockets)
                command = self.client_command
            yield command

    def isolation_figures(self) -> list[Figure]:
        from .aci_figures import isolation_figures

        return isolation_figures()


REFERENCES = ReferenceAgents()
