"""What a check needs before it can judge, said once for every check that needs it: each raises
`Decided` with the verdict when the need is not met."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .registry import Decided
from .registry import errored

if TYPE_CHECKING:
    from ..target import Target

__all__ = ["document_read"]


def document_read(target: Target) -> None:
    """The target's WoA document, which the checks' sessions start from, was read as a JSON object;
    else an error: nothing can be judged."""
    if not isinstance(target.document, dict):
        problem = target.discovery.problem or "the WoA document is not a JSON object"
        raise Decided(errored(f"cannot be judged: {problem}"))
