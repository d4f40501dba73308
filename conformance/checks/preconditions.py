"""What a check needs before it can judge, said once for every check that needs it: each raises
`Decided` with the verdict when the need is not met."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..bindings.observed import NotObserved
from .registry import Decided
from .registry import errored
from .registry import not_applicable

if TYPE_CHECKING:
    from ..target import Target

__all__ = ["certifies", "document_read", "watching"]


def document_read(target: Target) -> None:
    """The target's WoA document, which the checks' sessions start from, was read as a JSON object;
    else an error: nothing can be judged."""
    if not isinstance(target.document, dict):
        problem = target.discovery.problem or "the WoA document is not a JSON object"
        raise Decided(errored(f"cannot be judged: {problem}"))


def certifies(target: Target, role: str, agents: str) -> None:
    """The run certifies `role` (its `agents`); else not applicable."""
    if role not in target.options.roles:
        raise Decided(not_applicable(f"this run does not certify {agents}"))


def watching(target: Target, *, watched: bool, judges: str) -> bool:
    """Whether the run watches traffic go by rather than sending its own. There, a check that
    judges only what the target does with the suite's own messages (`watched` false; it
    `judges` that) has nothing to judge."""
    if target.observed is None:
        return False
    if not watched:
        raise NotObserved(f"this check judges {judges}")
    return True
