"""Master-agent checks (ACI 2.1, 3, 4.2, 5.1, 5.2, 5.3, 6): what the spies received from the master
and the TaskContext it returned, for the runs of master_session.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qs
from urllib.parse import parse_qsl
from urllib.parse import urlencode
from urllib.parse import urlsplit
from urllib.parse import urlunsplit

from ...bindings.http import ExchangeFailed
from ...bindings.http import Unreachable
from ...bindings.observed import NotObserved
from ...bindings.observed import carried
from ...harness.aci_spies import SPIES
from ...report.model import Exchange
from ...report.model import Status
from ...targeting import Target
from ...validation import validate_message
from ...validation.rules import is_done
from ...validation.rules import is_not_done
from ...validation.rules import unread_words
from ..preconditions import certifies
from ..preconditions import document_read
from ..preconditions import watching
from ..registry import Decided
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import errored
from ..registry import failed
from ..registry import passed
from ..registry import skipped
from .fingerprints import agent_contexts
from .fingerprints import task_context_marks
from .master_session import SCENARIO_SPIES
from .master_session import UPSTREAM
from .master_session import MasterRun
from .master_session import MasterSession
from .master_session import master_session

#: Figure 4's members (both spellings, E-ACI-5.2-ITEMSTATE-SPELLING; E-ACI-5.2-CONTEXT-MEMBER).
FIGURE_4 = frozenset(
    {
        "AgentID",
        "AgentName",
        "SubTaskID",
        "SubTaskName",
        "Dependencies",
        "Context",
        "ContextURI",
        "Context/ContextURI",
        "todoItems",
        "ItemstateUpdates",
        "ItemStateUpdates",
        "KeyInformation",
        "LastUpdated",
        "Optional",
    }
)


async def _session(target: Target, *, watched: bool = False) -> MasterSession:
    """The session; `Decided` when there is nothing to judge. In a run that watches, only a
    check that judges TaskContexts as they pass by (`watched`) gets one: the others judge what a
    master does with the suite's tasks and spy agents."""
    certifies(target, "master", "masters")
    judges = "what a master does with the suite's tasks and spy agents"
    if watching(target, watched=watched, judges=judges):
        found = await master_session(target)
        if not found.runs:
            raise NotObserved("no TaskContext passed by")
        return found
    document_read(target)
    found = await master_session(target)
    if found.unmet:
        raise Decided(found.unmet.verdict())
    broken = [
        r
        for r in found.runs.values()
        if r.reply is None or r.reply.status is None or not 200 <= r.reply.status < 300
    ]
    if broken:
        reply = broken[0].reply
        why = (
            reply.problem
            if reply and reply.status is None
            else f"answered {reply.status if reply else None}"
        )
        raise Decided(
            errored(
                f"run_task for the {broken[0].name} run broke: {why}",
                *[reply.exchange] if reply and reply.exchange else [],
            )
        )
    return found


async def master_sent(target: Target) -> list[tuple[str, dict[str, Any]]]:
    """The AgentContexts the master sent the spies, as messages, when this run certifies a
    master."""
    if "master" not in target.options.roles:
        return []
    if target.observed is not None:  # what any master sent: the AgentContexts requests carried
        return [
            (f"{o.method} {o.path}", message)
            for o in target.observed.calls()
            for message in carried(o.request_json(), "AgentContext")
        ]
    if not isinstance(target.document, dict):
        return []
    found = await master_session(target)
    return [
        (f"{run.name}: sent to {rec.spy}", {"AgentContext": rec.context})
        for run in found.runs.values()
        for rec in run.spies.received
        if rec.context is not None
    ]


def _evidence(runs: Iterable[MasterRun]) -> tuple[Exchange, ...]:
    return tuple(r.reply.exchange for r in runs if r.reply is not None and r.reply.exchange)[:3]


def _text(record: Any) -> str:
    """Everything a spy got in one call: the envelope and any context fetched through its
    ContextURI."""
    fetched = record.fetched[2] if record.fetched else ""
    return json.dumps(record.envelope, ensure_ascii=False) + fetched


def _verdict(runs: list[MasterRun], problems: list[str], success: str) -> Verdict:
    """A rule on what the spies were sent: failed with its problems; passed only when the master
    sent the spies something to judge (no message judged is no pass)."""
    if problems:
        return failed("; ".join(problems[:4]), *_evidence(runs))
    if not any(r.spies.received for r in runs):
        return skipped(
            Skip.NOT_OBSERVED,
            "the master sent the suite's spy agents nothing, so no delivery could be judged"
            " (ACI-3-INDEPENDENT-SUBTASKS-DISTRIBUTED)",
            *_evidence(runs),
        )
    return passed(success, *_evidence(runs))


@check("ACI-2.1-TASKCONTEXT-MASTER-ONLY")
async def aci_2_1_task_context_stays_with_the_master(target: Target) -> Verdict:
    """2.1: the TaskContext is the master's own: no invoked agent is sent it."""
    found = await _session(target)
    runs = list(found.runs.values())
    leaks = [
        f"{r.name}: {rec.spy} was sent {', '.join(marks)}"
        for r in runs
        for rec in r.spies.received
        if (marks := task_context_marks(_delivered(rec)))
    ]
    calls = sum(len(r.spies.received) for r in runs)
    return _verdict(
        runs,
        leaks,
        f"no TaskContext, as a member or an object of its members, in the {calls} messages the"
        " spies received",
    )


@check("ACI-2.1-ONLY-TARGET-AGENTCONTEXT-DELIVERED")
async def aci_2_1_only_the_target_agent_context_is_delivered(target: Target) -> Verdict:
    """2.1: "only the AgentContext instance corresponding to the target agent is delivered": no call
    carries another agent's AgentContext (an object with another AgentID and a member of Figure 4
    beside it, JSON text included). A second copy of the agent's own, or a result attributed to
    the agent it came from ({AgentID, outputabstract}), is no other agent's AgentContext."""
    found = await _session(target)
    runs, problems = list(found.runs.values()), []
    for run in runs:
        for rec in run.spies.received:
            foreign = sorted(
                {
                    str(c.get("AgentID"))
                    for c in agent_contexts(_delivered(rec))
                    if c.get("AgentID") != rec.spy and set(c) & _FIGURE_4_BODY
                }
            )
            if foreign:
                problems.append(f"{run.name}: {rec.spy} received the AgentContext of {foreign}")
    return _verdict(runs, problems, "no spy received another agent's AgentContext")


#: Members of Figure 4 that make an object with an AgentID an AgentContext, not a mention of an
#: agent.
_FIGURE_4_BODY = frozenset(
    {"SubTaskID", "todoItems", "ItemstateUpdates", "ItemStateUpdates", "KeyInformation"}
)


def _delivered(record: Any) -> Any:
    """What one call delivered to a spy: the envelope, and the context fetched through its
    ContextURI."""
    return [record.envelope, record.fetched[2] if record.fetched else ""]


def _firsts(run: MasterRun) -> dict[str, Any]:
    return {spy: run.spies.of(spy)[0] for spy in SCENARIO_SPIES[run.scenario] if run.spies.of(spy)}


@check("ACI-3-INDEPENDENT-SUBTASKS-DISTRIBUTED")
async def aci_3_independent_subtasks_are_distributed(target: Target) -> Verdict:
    """3: the tour plan's three independent subtasks each reach their agent. Whether they were sent
    concurrently (the asynchronous mode) is reported."""
    found = await _session(target)
    run = found.runs["tour"]
    firsts = _firsts(run)
    missing = [spy for spy in SCENARIO_SPIES["tour"] if spy not in firsts]
    if missing:
        return failed(f"the tour plan's subtasks never reached {missing}", *_evidence([run]))
    calls = list(firsts.values())
    overlapping = max(c.arrived for c in calls) < min(c.answered for c in calls)
    mode = "concurrently (asynchronous mode)" if overlapping else "one after another"
    return passed(
        f"hotel-booking, flight-booking and weather-checking each received their subtask, {mode}",
        *_evidence([run]),
    )


def _collaborative(found: MasterSession) -> tuple[MasterRun, dict[str, Any]]:
    """The doctor visit's run and each spy's first request; `Decided` (a failure) when a subtask
    never reached its spy."""
    run = found.runs["doctor"]
    firsts = _firsts(run)
    missing = [spy for spy in SCENARIO_SPIES["doctor"] if spy not in firsts]
    if missing:
        why = f"the doctor visit's subtasks never reached {missing}"
        raise Decided(failed(why, *_evidence([run])))
    return run, firsts


@check("ACI-3-COLLABORATIVE-ORDER")
async def aci_3_collaborative_subtasks_go_in_order(target: Target) -> Verdict:
    """3: the doctor visit's subtasks are sent in order: diagnosis, prescription, medicine."""
    found = await _session(target)
    run, firsts = _collaborative(found)
    order = sorted(firsts, key=lambda spy: firsts[spy].arrived)
    if order != list(SCENARIO_SPIES["doctor"]):
        return failed(f"the subtasks reached the agents in the order {order}", *_evidence([run]))
    return passed("diagnosis, then prescription, then buy-medicine", *_evidence([run]))


@check("ACI-3-COLLABORATIVE-WAITS")
async def aci_3_dependent_subtasks_wait(target: Target) -> Verdict:
    """The suite's reading of 3 (inferred): in a collaborative task, a subtask is sent only after
    the one whose output it depends on has returned. (2.1's synchronous mode is not signalled, so
    its MUST cannot be told apart from the asynchronous mode 2.1 allows:
    E-ACI-2.1-MODE-NOT-SIGNALLED.)"""
    found = await _session(target)
    run, firsts = _collaborative(found)
    if sorted(firsts, key=lambda spy: firsts[spy].arrived) != list(SCENARIO_SPIES["doctor"]):
        return skipped(
            Skip.DEPENDS_ON,
            "the subtasks were not sent in their order (see ACI-3-COLLABORATIVE-ORDER)",
        )
    early = [
        f"{spy} was sent its subtask {firsts[up].answered - firsts[spy].arrived:.3f} s before {up}"
        " returned"
        for spy, up in UPSTREAM.items()
        if firsts[spy].arrived < firsts[up].answered
    ]
    return _verdict(
        [run], early, "each dependent subtask was sent after the one it needs had returned"
    )


@check("ACI-3-COLLABORATIVE-INPUT-FROM-PREVIOUS")
async def aci_3_dependent_input_carries_the_previous_result(target: Target) -> Verdict:
    """3: the input of a dependent subtask reflects the result of the one before (its canary)."""
    found = await _session(target)
    run, firsts = _collaborative(found)
    if problem := _not_waiting(firsts):
        return problem
    # the upstream's result, as its canary or in its own words ("acute pharyngitis"): a master may
    # restate it
    missing = [
        f"{spy}'s input does not carry {up}'s result"
        for spy, up in UPSTREAM.items()
        if run.spies.result_canaries[up] not in _text(firsts[spy])
        and _result_words(up) not in _text(firsts[spy]).lower()
    ]
    return _verdict(
        [run], missing, "prescription received the diagnosis, buy-medicine the prescription"
    )


def _not_waiting(firsts: dict[str, Any]) -> Verdict | None:
    """The skip of a check that needs the master to wait for each upstream result, when it did
    not."""
    if any(firsts[spy].arrived < firsts[up].answered for spy, up in UPSTREAM.items()):
        return skipped(
            Skip.DEPENDS_ON,
            "a dependent subtask was sent before its predecessor returned, or out of order "
            "(see ACI-3-COLLABORATIVE-WAITS, ACI-3-COLLABORATIVE-ORDER)",
        )
    return None


def _result_words(spy: str) -> str:
    """What a spy's result says, without its label: "acute pharyngitis" of "Diagnosis: acute
    pharyngitis"."""
    return SPIES[spy][1].split(": ", 1)[-1].lower()


@check("ACI-3-NO-DISPATCH-PAST-UNFINISHED")
async def aci_3_nothing_goes_down_the_chain_past_a_failure(target: Target) -> Verdict:
    """The suite's reading of 3 (inferred, E-ACI-3-FAILED-UPSTREAM): a collaborative subtask is
    not sent while the one it depends on is unfinished (it would have no input to carry)."""
    found = await _session(target)
    _, firsts = _collaborative(found)
    if problem := _not_waiting(firsts):
        return problem
    failing = found.runs.get("doctor-upstream-fails")  # diagnosis answers every item unfinished
    if failing is None:
        return skipped(Skip.NOT_OBSERVED, "the run with an unfinished diagnosis was not made")
    if failing.spies.of("prescription"):
        return _verdict(
            [failing],
            ["with the diagnosis unfinished, the master still sent prescription its subtask"],
            "",
        )
    return passed(
        "with the diagnosis unfinished, nothing went down the chain", *_evidence([failing])
    )


@check("ACI-4.2-CONTEXT-ISOLATION")
async def aci_4_2_contexts_are_isolated(target: Target) -> Verdict:
    """4.2: no agent receives another's working context, nor another's result unless its subtask
    depends on that agent directly (E-ACI-4.2-ISOLATION-CANARIES)."""
    found = await _session(target)
    runs, problems = list(found.runs.values()), []
    for run in runs:
        for rec in run.spies.received:
            text = _text(rec)
            for other in SCENARIO_SPIES[run.scenario]:
                if other == rec.spy:
                    continue
                # a working context is relevant to no other agent, a direct upstream's included
                if run.spies.context_canaries[other] in text:
                    problems.append(f"{run.name}: {rec.spy} received {other}'s working context")
                if run.spies.result_canaries[other] in text and UPSTREAM.get(rec.spy) != other:
                    problems.append(
                        f"{run.name}: {rec.spy} received the result of {other}, which it does not"
                        " depend on"
                    )
    return _verdict(
        runs, problems, "no canary of one agent reached another beyond a direct dependency"
    )


@check("ACI-5.3-FIGURE-4-MEMBERS-ONLY")
async def aci_5_3_delivery_holds_figure_4_only(target: Target) -> Verdict:
    """The suite's reading of 5.3 (inferred): what a master delivers is the AgentContext alone,
    holding only Figure 4's members. (ACI-5.3-MINIMAL-DELIVERY itself, task-relevant information
    only, is judged on content by ACI-4.2-CONTEXT-ISOLATION and ACI-2.1-TASKCONTEXT-MASTER-ONLY.)"""
    found = await _session(target)
    runs, problems = list(found.runs.values()), []
    for run in runs:
        for rec in run.spies.received:
            given = rec.envelope.get("input") if isinstance(rec.envelope, dict) else None
            extra_input = sorted(set(given) - {"AgentContext"}) if isinstance(given, dict) else []
            # that one is ACI-2.1-TASKCONTEXT-MASTER-ONLY's
            extra = sorted(set(rec.context or {}) - FIGURE_4 - {"TaskContext"})
            if extra_input or extra:
                problems.append(f"{run.name}: {rec.spy} was also sent {extra_input + extra}")
    return _verdict(runs, problems, "every delivery held only Figure 4's members")


async def _task_rule(target: Target, requirement: str, needs: tuple[str, ...] = ()) -> Verdict:
    """A rule the TaskContext schema and rules judge, on the TaskContext of every run (in a run that
    watches, on every TaskContext an answer carried). A rule on members (`needs`) judges only the
    TaskContexts that have them: with none, it has nothing to judge (their absence is
    ACI-5.1-TASKCONTEXT-MEMBERS's failure)."""
    found = await _session(target, watched=True)
    runs = list(found.runs.values())
    judged = [
        run
        for run in runs
        if not needs or (run.task_context is not None and all(m in run.task_context for m in needs))
    ]
    if not judged:
        return skipped(
            Skip.DEPENDS_ON,
            f"no run returned a TaskContext with {' and '.join(needs)}"
            " (ACI-5.1-TASKCONTEXT-MEMBERS judges the members)",
            *_evidence(runs),
        )
    problems = [
        f"{run.name}: {violation.path}: {violation.message}"
        for run in judged
        for violation in validate_message("aci/task-context", run.reply.body if run.reply else None)
        if violation.requirement == requirement
    ]
    return _verdict(judged, problems, f"the {len(judged)} TaskContexts returned keep this rule")


@check("ACI-5.1-TASKCONTEXT-MEMBERS")
async def aci_5_1_task_context_has_its_members(target: Target) -> Verdict:
    """5.1: the returned TaskContext has TaskID, UserQuery, TaskName, TaskDescription and the
    rest of Figure 3."""
    return await _task_rule(target, "ACI-5.1-TASKCONTEXT-MEMBERS")


@check("ACI-5.1-TASKCONTEXT-MEMBER-TYPES")
async def aci_5_1_task_context_members_are_strings(target: Target) -> Verdict:
    """The suite's reading of 5.1 and Figure 3 (inferred, E-ACI-5.1-MEMBER-TYPES): TaskID,
    UserQuery, TaskName, TaskDescription and OverallStatus are strings, as the figure's
    placeholders are."""
    return await _task_rule(target, "ACI-5.1-TASKCONTEXT-MEMBER-TYPES")


@check("ACI-5.1-GOAL-STATUS")
async def aci_5_1_goal_status_records_each_goal(target: Target) -> Verdict:
    """5.1: GoalStatus is an array of {Goal, Status}."""
    return await _task_rule(target, "ACI-5.1-GOAL-STATUS", ("GoalStatus",))


@check("ACI-5.1-OVERALL-STATUS-DERIVED")
async def aci_5_1_overall_status_follows_the_goals(target: Target) -> Verdict:
    """5.1: OverallStatus is derived from the goals: done only when every goal is
    (E-ACI-5.1-STATUS-VOCABULARY). A status word the suite cannot read as done or not done makes
    the verdict inconclusive, naming the word, never a pass by not understanding it."""
    verdict = await _task_rule(
        target, "ACI-5.1-OVERALL-STATUS-DERIVED", ("GoalStatus", "OverallStatus")
    )
    if verdict.status is not Status.PASS:
        return verdict
    found = await _session(target, watched=True)
    unread = sorted(
        {
            word
            for run in found.runs.values()
            for word in unread_words(run.reply.body if run.reply else None)
        }
    )
    if unread:
        return skipped(
            Skip.INCONCLUSIVE,
            f"status words the suite reads as neither done nor not done: {unread}; use the"
            " draft's (completed, not completed, unfinished) or common ones (done, pending,"
            " failed) so that the overall status can be checked against the goals",
            *verdict.evidence,
        )
    return verdict


def _all_done(task: dict[str, Any] | None) -> bool:
    goals = task.get("GoalStatus") if isinstance(task, dict) else None
    return (
        isinstance(goals, list)
        and bool(goals)
        and all(isinstance(g, dict) and is_done(g.get("Status")) for g in goals)
        and is_done(task.get("OverallStatus") if isinstance(task, dict) else None)
    )


def _still_open(task: dict[str, Any] | None) -> bool:
    """Whether a goal or the task still reads a word the suite knows as not done (an unknown word
    is not judged)."""
    if not isinstance(task, dict):
        return True
    goals: list[Any] = task["GoalStatus"] if isinstance(task.get("GoalStatus"), list) else []
    return is_not_done(task.get("OverallStatus")) or any(
        isinstance(g, dict) and is_not_done(g.get("Status")) for g in goals
    )


@check("ACI-5.3-TASKCONTEXT-UPDATED")
async def aci_5_3_task_context_is_updated(target: Target) -> Verdict:
    """5.3: once every subtask came back completed, the TaskContext says so: every goal and the
    task done."""
    found = await _session(target)
    runs = [found.runs["tour"], found.runs["doctor"]]
    for run in runs:
        unsent = [spy for spy in SCENARIO_SPIES[run.scenario] if not run.spies.of(spy)]
        if unsent:
            return skipped(
                Skip.DEPENDS_ON,
                f"in the {run.name} run no subtask reached {unsent} (see"
                " ACI-3-INDEPENDENT-SUBTASKS-DISTRIBUTED)",
            )
        misdelivered = [
            r.spy for r in run.spies.received if (r.context or {}).get("AgentID") != r.spy
        ]
        if misdelivered:
            return skipped(
                Skip.DEPENDS_ON,
                f"in the {run.name} run {misdelivered} were not sent their own AgentContext "
                "(see ACI-2.1-ONLY-TARGET-AGENTCONTEXT-DELIVERED)",
            )
        goals = run.task_context.get("GoalStatus") if run.task_context else None
        if not isinstance(goals, list) or not all(isinstance(g, dict) for g in goals):
            return skipped(
                Skip.DEPENDS_ON,
                f"the {run.name} run's GoalStatus is not an array of goals (see"
                " ACI-5.1-GOAL-STATUS)",
            )
    stale = [
        f"{run.name}: every subtask came back completed but the TaskContext is"
        f" {_statuses(run.task_context)}"
        for run in runs
        if _still_open(run.task_context)
    ]
    return _verdict(runs, stale, "after every subtask completed, every goal and the task read done")


def _statuses(task: dict[str, Any] | None) -> str:
    if not isinstance(task, dict):
        return "missing"
    goals: list[Any] = task["GoalStatus"] if isinstance(task.get("GoalStatus"), list) else []
    return (
        f"goals {[g.get('Status') for g in goals if isinstance(g, dict)]}, overall"
        f" {task.get('OverallStatus')!r}"
    )


def _two_phase(found: MasterSession, name: str, spy: str, story: str) -> Verdict:
    run = found.runs[name]
    if not run.spies.of(spy):
        return skipped(
            Skip.NOT_OBSERVED, f"the master never sent {spy} its subtask in the {name} run"
        )
    if _all_done(run.task_context):
        return failed(
            f"{story}, yet the TaskContext reads {_statuses(run.task_context)}", *_evidence([run])
        )
    return passed(
        f"{story}: the task is not marked done ({_statuses(run.task_context)})", *_evidence([run])
    )


def _all_of(verdicts: list[Verdict]) -> Verdict:
    """The first verdict of the runs that is not a pass; a pass saying each of them otherwise."""
    return next(
        (v for v in verdicts if v.status is not Status.PASS),
        passed(
            "; ".join(v.message for v in verdicts), *[e for v in verdicts for e in v.evidence][:3]
        ),
    )


@check("ACI-5.2-TWO-PHASE-UNFINISHED")
async def aci_5_2_unfinished_items_are_not_done(target: Target) -> Verdict:
    """5.2: an item in state 0 is unfinished, whatever its abstract says; so is an item the
    reply gives no state (errata E-ACI-5.2-MISSING-STATE)."""
    found = await _session(target)
    verdicts = [
        _two_phase(
            found,
            "tour-unfinished",
            "weather-checking",
            "weather-checking answered state 0 with a plausible abstract",
        ),
        _two_phase(
            found,
            "tour-stateless",
            "weather-checking",
            "weather-checking gave an item no state, with a plausible abstract",
        ),
    ]
    return _all_of(verdicts)


@check("ACI-5.2-TWO-PHASE-VERIFIED")
async def aci_5_2_completed_items_are_verified(target: Target) -> Verdict:
    """5.2: an item in state 1 is accepted only when its KeyInformation bears it out: not when the
    abstract is empty, nor when it says the work failed."""
    found = await _session(target)
    verdicts = [
        _two_phase(
            found,
            "tour-unverified",
            "hotel-booking",
            "hotel-booking answered state 1 with an empty outputabstract",
        ),
        _two_phase(
            found,
            "tour-contradicting",
            "hotel-booking",
            "hotel-booking answered state 1 with an abstract saying it failed",
        ),
    ]
    return _all_of(verdicts)


async def _references(target: Target) -> list[tuple[MasterRun, str]]:
    """Every ContextURI the master handed a spy that resolved, with its run; `Decided` (a skip)
    when there is none to judge."""
    found = await _session(target)
    references = [
        (run, rec.fetched[0])
        for run in found.runs.values()
        for rec in run.spies.received
        if rec.fetched and rec.fetched[1] == 200
    ]
    if not references:
        raise Decided(
            skipped(
                Skip.NOT_OBSERVED,
                "the master handed no spy a ContextURI it could fetch, so its context store was"
                " not seen",
            )
        )
    return references


async def _refetch(target: Target, uri: str) -> tuple[int | None, str, Exchange | None]:
    try:
        response = await target.client.request("GET", uri)
    except (ExchangeFailed, Unreachable) as error:
        return None, str(error), getattr(error, "exchange", None)
    return response.status, "", response.exchange


async def _store_check(target: Target, change: Callable[[str], str | None], story: str) -> Verdict:
    references = await _references(target)
    uri = references[0][1]
    changed = change(uri)
    if changed is None:
        return skipped(
            Skip.INCONCLUSIVE,
            f"the reference {uri} has no credential the suite can tell apart to {story}",
        )
    status, problem, exchange = await _refetch(target, changed)
    evidence = (exchange,) if exchange else ()
    if status is None:
        return errored(f"fetching {changed}: {problem}", *evidence)
    if 400 <= status < 500:
        return passed(f"the store refused a reference with {story} ({status})", *evidence)
    if 300 <= status < 400:
        # sent to sign in (the suite follows no redirect): no context was served
        return passed(f"the store redirected a reference with {story} ({status})", *evidence)
    return failed(f"the store answered {status} to a reference with {story}", *evidence)


#: Query parameters that carry a reference's credential (a signature, a token, its expiry).
_CREDENTIAL_PARAMETERS = frozenset(
    {
        "sig",
        "signature",
        "token",
        "access_token",
        "auth",
        "key",
        "exp",
        "expires",
        "x-amz-signature",
        "x-amz-credential",
        "x-amz-security-token",
        "x-amz-date",
        "x-amz-expires",
        "se",
        "sp",
        "sv",
        "sr",
        "st",
        "skoid",
    }
)


def _unguessable(segment: str) -> bool:
    """Whether a path segment looks like a secret: 16 characters or more of 10 kinds or more
    (16 random base64url characters are 96 bits, a nanoid's 21 are 126)."""
    return len(segment) >= 16 and len(set(segment)) >= 10


def _without_query(uri: str) -> str | None:
    """The reference without its credential: the query parameters named like one, or, when none
    is and no path segment looks like a secret (long and random), the whole query. None: nothing
    to remove."""
    parts = urlsplit(uri)
    if not parts.query:
        return None
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(k, v) for k, v in pairs if k.lower() not in _CREDENTIAL_PARAMETERS]
    if len(kept) == len(pairs):
        if any(_unguessable(s) for s in parts.path.split("/")):
            return None  # the credential may be in the path: removing the query proves nothing
        kept = []
    return urlunsplit(parts._replace(query=urlencode(kept), fragment=""))


#: The longest expiry the suite reads as short of long-term persistence (ACI 6 names none).
LONG_TERM = 30 * 86400
_SIGNATURE_PARAMETERS = ("sig", "signature", "x-amz-signature", "token", "access_token", "jwt")


def _tampered(uri: str) -> str | None:
    """The reference with its signature altered (its last character changed): a query parameter
    named like a signature, or a JWT in the path. None when no signature can be told: then
    nothing is judged."""
    parts = urlsplit(uri)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    named = next(
        (n for n, (k, v) in enumerate(pairs) if k.lower() in _SIGNATURE_PARAMETERS and v), None
    )
    if named is not None:
        key, value = pairs[named]
        pairs[named] = (key, value[:-1] + ("0" if value[-1] != "0" else "1"))
        return urlunsplit(parts._replace(query=urlencode(pairs)))
    segments = parts.path.split("/")
    jwt = next((n for n, s in enumerate(segments) if s.count(".") == 2 and len(s) > 32), None)
    if jwt is not None:
        segments[jwt] = segments[jwt][:-1] + ("A" if segments[jwt][-1] != "A" else "B")
        return urlunsplit(parts._replace(path="/".join(segments)))
    return None


@check("ACI-6-STORAGE-ACCESS-AUTHENTICATED")
async def aci_6_context_store_requires_credentials(target: Target) -> Verdict:
    """6: the master's context store answers only requests that carry the reference's credential."""
    return await _store_check(target, _without_query, "its credential removed")


@check("ACI-6-CONTEXT-URI-SIGNED")
async def aci_6_context_references_are_signed(target: Target) -> Verdict:
    """6: a reference whose signature was altered is refused (a signed reference)."""
    return await _store_check(target, _tampered, "its signature altered")


@check("ACI-6-STORAGE-TTL")
async def aci_6_context_references_expire(target: Target) -> Verdict:
    """6: an offloaded context has an explicit expiry "to prevent long-term persistence": the
    reference names one (exp) in the future and within 30 days (the draft names no term;
    E-ACI-6-STORAGE-TTL-TERM)."""
    references = await _references(target)
    problems, unreadable = [], []
    now = target.values.time("aci-master-expiry")
    for run, uri in references:
        values = parse_qs(urlsplit(uri).query).get("exp", [])
        expiry = float(values[0]) if values and values[0].replace(".", "", 1).isdigit() else None
        if expiry is None:
            unreadable.append(uri)
        elif not now < expiry <= now + LONG_TERM:
            problems.append(
                f"{run.name}: {uri} expires at {expiry:.0f}: "
                + ("already" if expiry <= now else "beyond 30 days, long-term persistence")
            )
    if unreadable and not problems:
        return skipped(
            Skip.UNDECLARED,
            "rests on the suite's convention of an expiry the reference names (exp, in seconds"
            f" since the epoch; E-ACI-6-CONTEXTURI-FORM), which {unreadable[0]} does not follow:"
            " its store's expiry was not seen",
        )
    return _verdict(
        [r for r, _ in references],
        problems,
        f"the {len(references)} references expire within a day",
    )


@check("ACI-6-MASTER-TRUSTS-STORAGE")
async def aci_6_stored_context_stays_available_and_whole(target: Target) -> Verdict:
    """6: the store the master relies on "maintains the integrity and availability of the stored
    context": every reference the master handed a spy resolves (200) when the intended agent
    fetches it, and fetched again with its credential serves the same bytes. A refusal of the
    second fetch is a control (a single-use reference), not a loss. Its security controls are
    ACI-6-STORAGE-ACCESS-AUTHENTICATED's."""
    found = await _session(target)
    handed = [
        (run, rec.fetched)
        for run in found.runs.values()
        for rec in run.spies.received
        if rec.fetched
    ]
    judged = [(run, fetched) for run, fetched in handed if target.may_call(fetched[0])]
    if not judged:
        why = (
            "handed no spy a ContextURI"
            if not handed
            else "handed only references on origins the suite may not call"
        )
        return skipped(Skip.NOT_OBSERVED, f"the master {why}, so its store was not seen")
    problems = []
    for run, (uri, status, text) in judged:
        if status != 200:
            problems.append(
                f"{run.name}: {uri} did not resolve for the agent it was handed to"
                f" ({status or text})"
            )
            continue
        try:
            again = await target.client.request("GET", uri)
        except (ExchangeFailed, Unreachable):
            continue  # the second fetch is the suite's own: its failure says nothing of the store
        if again.status == 200 and again.body.decode("utf-8", errors="replace") != text:
            problems.append(
                f"{run.name}: {uri} served other bytes on a second fetch: the stored context"
                " changed after it was handed over"
            )
    return _verdict(
        [r for r, _ in judged],
        problems,
        f"the {len(judged)} references resolved, and served the same context again",
    )
