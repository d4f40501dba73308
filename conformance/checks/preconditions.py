"""What a check needs before it can judge, said once for every check that needs it: each raises
`Decided` with the verdict when the need is not met."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..bindings.observed import NotObserved
from .registry import Decided
from .registry import Skip
from .registry import not_applicable
from .registry import skipped

if TYPE_CHECKING:
    from ..report import Exchange
    from ..targeting import Target
    from .registry import Verdict

__all__ = [
    "DOCUMENT_RULES",
    "IN_PROCESS",
    "certifies",
    "document_read",
    "no_document",
    "on_the_wire",
    "watching",
]


#: The requirements that judge whether the WoA document can be read at all.
DOCUMENT_RULES = "WOA-1-WELL-KNOWN-LOCATION and WOA-4-DOCUMENT-OBJECT judge it"


def no_document(problem: str | None, *evidence: Exchange) -> Verdict:
    """The verdict of a rule that starts from a WoA document the run could not read: a skip naming
    the requirements that judge the document."""
    problem = problem or "the WoA document is not a JSON object"
    return skipped(
        Skip.DEPENDS_ON, f"no WoA document to start from ({DOCUMENT_RULES}): {problem}", *evidence
    )


def document_read(target: Target) -> None:
    """The target's WoA document, which a check or a session starts from, was read as a JSON
    object; else a skip naming the requirements that judge the document (with the answer that
    carried it, if any): one defect fails one requirement, and a host without a document is not a
    flood of errors."""
    if not isinstance(target.document, dict):
        response = target.discovery.response
        evidence = (response.exchange,) if response is not None else ()
        raise Decided(no_document(target.discovery.problem, *evidence))


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


#: Why a check of the connection itself is not made in-process.
IN_PROCESS = (
    "the run is in-process (an ASGI app, no socket): there is no connection (TLS, HTTP on the wire)"
    " to judge"
)


def on_the_wire(target: Target) -> None:
    """The run has a connection to judge (TLS, HTTP on a socket); in-process it has none, a skip.
    A check asks once it knows the rule applies, so an in-process run still says what does not."""
    if target.options.in_process:
        raise Decided(skipped(Skip.IN_PROCESS, IN_PROCESS))
