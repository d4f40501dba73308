"""Verdict helpers the SDSI checks share: what to say when there is no SDSI agent to talk to."""

from __future__ import annotations

from collections.abc import Callable

from ...bindings.observed import NotObserved
from ...bindings.sdsi import sdsi_agents
from ...report.model import Exchange
from ...targeting import Target
from ...targeting import rest_config
from ..preconditions import document_read
from ..preconditions import watching
from ..registry import Decided
from ..registry import Skip
from ..registry import Unmet
from ..registry import Verdict
from ..registry import errored
from ..registry import failed
from ..registry import passed
from ..registry import skipped
from .session import Exchanged
from .session import Session
from .session import session

__all__ = ["judge_exchanges", "payload_endpoint", "server_session"]


async def server_session(target: Target, *, watched: bool = False) -> Session:
    """The session; `Decided` with the verdict every SDSI check gives when there is nothing to
    judge. In a run that watches, only a check that judges messages as they pass by (`watched`)
    gets one: the others judge what the suite's own payloads make a server do."""
    judges = "how a server answers the suite's own template requests and payloads"
    if watching(target, watched=watched, judges=judges):
        return await session(target)
    if target.options.binding != "jsonrpc":  # JSON-RPC's endpoint may stand without a document
        document_read(target)
    found = await session(target)
    if found.binding is None:
        raise Decided((found.unmet or Unmet("no SDSI binding")).verdict())
    if not found.templates:
        raise Decided(
            skipped(
                Skip.NEEDS_INPUT,
                "the server names no scenario (the enum of get_schema_template's scenario input,"
                " or --scenario)",
            )
        )
    return found


Judge = Callable[[Exchanged], str | None]


async def judge_exchanges(
    target: Target,
    kinds: tuple[str, ...],
    judge: Judge,
    success: str,
    *,
    holds: Callable[[Exchanged], bool] | None = None,
    left_out: str = "",
) -> Verdict:
    """Judge the payload exchanges of `kinds` (with "observed", in a run that watches too, those
    that passed by): fail listing the wrong answers, pass when all are right. Where only some
    answers hold what the rule judges (`holds`: a served result, a refusal that says something),
    the verdict counts those and names the others (`left_out`); when none does, the rule is
    inconclusive."""
    found = await server_session(target, watched="observed" in kinds)
    exchanged = [e for e in found.exchanges if e.kind in kinds]
    if not exchanged and found.observed:
        raise NotObserved("no SDSI payload passed by")
    if not exchanged:
        return skipped(Skip.NOT_OBSERVED, "no such payload could be made from the templates")
    broken = [e for e in exchanged if e.reply.status is None]
    if broken:
        return errored(
            f"{broken[0].label()}: {broken[0].reply.problem}",
            *[e.reply.exchange for e in broken[:3] if e.reply.exchange],
        )
    wrong = [(e, problem) for e in exchanged if (problem := judge(e))]
    # a wrong answer is judged whatever else it holds
    wrong_ones = {id(e) for e, _ in wrong}
    judged = [e for e in exchanged if holds is None or holds(e) or id(e) in wrong_ones]
    if not judged:
        return skipped(Skip.INCONCLUSIVE, f"no answer to judge (left out: {left_out})")
    left = len(exchanged) - len(judged)
    left_out = f"; {left} left out: {left_out}" if left else ""
    if wrong:
        listed = "; ".join(f"{e.label()}: {problem}" for e, problem in wrong[:5])
        return failed(
            f"{len(wrong)} of {len(judged)}: {listed}{left_out}",
            *[e.reply.exchange for e, _ in wrong[:3] if e.reply.exchange],
        )
    return passed(
        f"{success} ({len(judged)} payloads{left_out})",
        *[e.reply.exchange for e in judged[:1] if e.reply.exchange],
    )


async def payload_endpoint(target: Target) -> tuple[str, tuple[Exchange, ...], Session | None]:
    """Where the SDSI messages travel, the first exchange there, and the session (None when the
    suite sent nothing: it sends no payload over plain HTTP, but the document says where they
    would go); `Decided` when there is no SDSI endpoint at all."""
    try:
        found = await server_session(target)
    except Decided:
        rest = rest_config(target.document)
        base = rest.get("base") if isinstance(rest, dict) else None
        if not (
            isinstance(base, str) and base.startswith("http://") and sdsi_agents(target.document)
        ):
            raise
        return base, (), None
    assert found.binding is not None  # else server_session decided
    evidence = tuple(e.reply.exchange for e in found.exchanges[:1] if e.reply.exchange)
    return found.binding.endpoint, evidence, found
