"""The ACI agents' faults, each a subclass of a reference agent that breaks one rule by overriding
one of its methods (`@breaks`, mocks/faults/rate.py). The reference agents read as the draft
(mocks/reference/aci_agents.py, aci_master.py); each class here is one rule broken.

    executor = SubtaskExecutor()                   # the reference invoked agents
    broken = KeepsAnExpiredReference()             # ACI-6-EXPIRED-REFERENCE-NOT-USED broken
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from ..reference.aci_agents import AciError
from ..reference.aci_agents import Fetch
from ..reference.aci_agents import SubtaskExecutor
from ..reference.aci_master import ContextStore
from ..reference.aci_master import Dispatch
from ..reference.aci_master import Master
from ..reference.aci_master import Progress
from ..reference.aci_master import Subtask
from ..reference.aci_master import TaskPlan
from .rate import AgentFault
from .rate import breaks

__all__ = ["ACI_FAULTS"]

Answer = Callable[[dict[str, Any], dict[str, Any]], Any]
Conclusion = Callable[[dict[str, Any], TaskPlan, dict[str, str], dict[str, Any]], dict[str, Any]]


# -- the invoked agents (ACI 2.1, 5.2, 5.3, 6), over WoA REST and A2A --


def _answers(requirement: str, description: str, edit: Answer) -> type[AgentFault]:
    """Invoked agents that return their updated AgentContext with `edit(updated, sent)` made."""

    class Answers(SubtaskExecutor, AgentFault):
        @breaks
        def answers(self, updated: dict[str, Any], sent: dict[str, Any]) -> dict[str, Any]:
            edit(updated, sent)
            return updated

    Answers.requirement, Answers.description = requirement, description
    return Answers


def _states(updated: dict[str, Any], edit: Callable[[list[Any]], list[Any]]) -> None:
    updated["ItemstateUpdates"] = edit(updated["ItemstateUpdates"])


def _no_last_abstract(updated: dict[str, Any], sent: dict[str, Any]) -> None:
    last = updated["todoItems"][-1]["itemId"] if updated["todoItems"] else None
    if any(s["itemId"] == last and s["state"] == 1 for s in updated["ItemstateUpdates"]):
        updated["KeyInformation"] = [k for k in updated["KeyInformation"] if k["itemId"] != last]


class WorksWithoutTheContext(SubtaskExecutor, AgentFault):
    requirement = "ACI-5.2-CONTEXT-URI-RESOLVED"
    description = "never fetches a ContextURI and works without the context"

    @breaks
    async def resolves(self, uri: str, fetch: Fetch, inline: str) -> tuple[str, str]:
        return "", ""


class CompletesWithoutTheContext(SubtaskExecutor, AgentFault):
    requirement = "ACI-5.2-NO-COMPLETION-WITHOUT-CONTEXT"
    description = "carries on, items completed, when the store refuses a ContextURI"

    @breaks
    def unresolved(self, error: AciError) -> str:
        return ""


class KeepsAnExpiredReference(SubtaskExecutor, AgentFault):
    requirement = "ACI-6-EXPIRED-REFERENCE-NOT-USED"
    description = "uses a ContextURI whose expiry has passed"

    @breaks
    def usable(self, uri: str) -> bool:
        return True


_INVOKED: list[type[AgentFault]] = [
    _answers(
        "ACI-2.1-RETURNS-OWN-AGENTCONTEXT",
        "returns its AgentContext under another SubTaskID",
        lambda updated, sent: updated.update(SubTaskID=f"{sent['SubTaskID']}-copy"),
    ),
    _answers(
        "ACI-5.2-AGENTCONTEXT-MEMBERS",
        "returns its AgentContext without AgentName",
        lambda updated, sent: updated.pop("AgentName"),
    ),
    _answers(
        "ACI-5.2-AGENTCONTEXT-MEMBER-TYPES",
        "returns its AgentName as a number",
        lambda updated, sent: updated.update(AgentName=17),
    ),
    _answers(
        "ACI-5.2-TODO-ITEMS",
        "returns todoItems without their descriptions",
        lambda updated, sent: updated.update(
            todoItems=[{"itemId": i["itemId"]} for i in updated["todoItems"]]
        ),
    ),
    _answers(
        "ACI-5.2-ITEM-STATE-BINARY",
        "marks a completed item with state 2",
        lambda updated, sent: _states(
            updated, lambda states: [{**s, "state": 2 * s["state"]} for s in states]
        ),
    ),
    _answers(
        "ACI-5.2-ITEM-STATE-PER-ITEM",
        "leaves the first todo item without a state",
        lambda updated, sent: _states(updated, lambda states: states[1:]),
    ),
    _answers(
        "ACI-5.2-ITEM-STATE-ONE-EACH",
        "gives the first todo item two states",
        lambda updated, sent: _states(updated, lambda states: [states[0], *states]),
    ),
    _answers(
        "ACI-5.2-KEY-INFORMATION-PER-ITEM",
        "gives no outputabstract for its last completed item",
        _no_last_abstract,
    ),
    _answers(
        "ACI-5.2-LAST-UPDATED-TIMESTAMP",
        "stamps LastUpdated as a number",
        lambda updated, sent: updated.update(LastUpdated=time.time()),
    ),
    _answers(
        "ACI-5.2-LAST-UPDATED-RFC3339",
        'stamps LastUpdated "last tuesday"',
        lambda updated, sent: updated.update(LastUpdated="last tuesday"),
    ),
    _answers(
        "ACI-5.2-DEPENDENCIES-PRESERVED",
        "returns Dependencies emptied",
        lambda updated, sent: updated.update(Dependencies=[]),
    ),
    _answers(
        "ACI-5.2-TODO-ITEMS-PRESERVED",
        "returns todoItems, ItemstateUpdates and KeyInformation emptied (test_acp.py's ctx4)",
        lambda updated, sent: updated.update(todoItems=[], ItemstateUpdates=[], KeyInformation=[]),
    ),
    _answers(
        "ACI-5.3-RETURNS-STATE-AND-KEY-INFORMATION",
        "returns ItemstateUpdates and KeyInformation as they were sent",
        lambda updated, sent: updated.update(
            ItemstateUpdates=sent.get("ItemstateUpdates", sent.get("ItemStateUpdates", [])),
            KeyInformation=sent.get("KeyInformation", []),
        ),
    ),
    WorksWithoutTheContext,
    CompletesWithoutTheContext,
    KeepsAnExpiredReference,
]


# -- the master (ACI 2.1, 3, 4.2, 5, 6), run against the suite's spy agents --


class SendsTheTaskContext(Master, AgentFault):
    requirement = "ACI-2.1-TASKCONTEXT-MASTER-ONLY"
    description = "sends the TaskContext inside each AgentContext"

    @breaks
    def message(self, agent_context: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
        return {"AgentContext": {**agent_context, "TaskContext": task}}


class PastesTheTaskContext(Master, AgentFault):
    requirement = "ACI-2.1-TASKCONTEXT-MASTER-ONLY"
    description = "pastes the TaskContext into each AgentContext's Context as JSON text"
    variant = "as-text"

    @breaks
    def message(self, agent_context: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
        pasted = {k: task.get(k) for k in ("TaskID", "TaskName", "GoalStatus", "OverallStatus")}
        context = agent_context.get("Context", "") + " Task state: " + json.dumps(pasted)
        return {"AgentContext": {**agent_context, "Context": context}}


class SwapsTheTourContexts(Master, AgentFault):
    requirement = "ACI-2.1-ONLY-TARGET-AGENTCONTEXT-DELIVERED"
    description = "swaps the hotel and flight subtasks' AgentContexts"

    @breaks
    def addressed(self, plan: TaskPlan, subtask: Subtask) -> Subtask:
        swap = {"hotel-booking": "flight", "flight-booking": "hotel"}
        if plan.name != "tour-plan":
            return subtask
        return next((s for s in plan.subtasks if s.key == swap.get(subtask.agent)), subtask)


class PastesTheOtherContexts(Master, AgentFault):
    requirement = "ACI-2.1-ONLY-TARGET-AGENTCONTEXT-DELIVERED"
    description = "pastes the other tour subtasks' AgentContexts into Context as JSON text"
    variant = "as-text"

    @breaks
    def delivers(
        self, built: dict[str, Any], plan: TaskPlan, subtask: Subtask, task_id: str, query: str
    ) -> dict[str, Any]:
        if plan.name == "tour-plan":
            others = [
                {
                    "AgentID": s.agent,
                    "SubTaskID": f"{task_id}/{s.key}",
                    "SubTaskName": s.name,
                    "Context": s.context,
                }
                for s in plan.subtasks
                if s.agent != subtask.agent
            ]
            built["Context"] = built.get("Context", "") + " Other subtasks: " + json.dumps(others)
        return built


class CarriesOnPastAFailure(Master, AgentFault):
    requirement = "ACI-3-NO-DISPATCH-PAST-UNFINISHED"
    description = "carries on down the doctor-visit chain after the diagnosis failed"

    @breaks
    def finished(self, subtask: Subtask, goals: dict[str, str]) -> bool:
        return True


class SendsWithoutWaiting(Master, AgentFault):
    requirement = "ACI-3-COLLABORATIVE-WAITS"
    description = "sends the doctor visit's subtasks 20 ms apart without waiting for answers"

    @breaks
    async def schedules(
        self, plan: TaskPlan, subtasks: list[Subtask], dispatch: Dispatch, goals: dict[str, str]
    ) -> None:
        if plan.name != "see-a-doctor":
            await super().schedules(plan, subtasks, dispatch, goals)
            return
        await asyncio.gather(*(dispatch(s, 0.02 * n) for n, s in enumerate(subtasks)))


class RunsBackwards(Master, AgentFault):
    requirement = "ACI-3-COLLABORATIVE-ORDER"
    description = "runs the doctor visit backwards: medicine, prescription, diagnosis"

    @breaks
    async def schedules(
        self, plan: TaskPlan, subtasks: list[Subtask], dispatch: Dispatch, goals: dict[str, str]
    ) -> None:
        if plan.name != "see-a-doctor":
            await super().schedules(plan, subtasks, dispatch, goals)
            return
        for subtask in reversed(subtasks):
            await dispatch(subtask, 0.0)


class PassesNoResults(Master, AgentFault):
    requirement = "ACI-3-COLLABORATIVE-INPUT-FROM-PREVIOUS"
    description = "never passes a subtask's result to the subtask that needs it"

    @breaks
    def context_for(self, subtask: Subtask, plan: TaskPlan, progress: Progress) -> str:
        return subtask.context


class NeverChecksTheWeather(Master, AgentFault):
    requirement = "ACI-3-INDEPENDENT-SUBTASKS-DISTRIBUTED"
    description = "never sends the weather check"

    @breaks
    def dispatched(self, plan: TaskPlan) -> list[Subtask]:
        return [s for s in plan.subtasks if s.agent != "weather-checking"]


class SharesEverything(Master, AgentFault):
    requirement = "ACI-4.2-CONTEXT-ISOLATION"
    description = "passes every earlier result and working context to each later subtask"

    @breaks
    def context_for(self, subtask: Subtask, plan: TaskPlan, progress: Progress) -> str:
        context = subtask.context
        for key in (s.key for s in plan.subtasks if s.key in progress.results):
            context += f" Result of {progress.task_id}/{key}: " + " ".join(progress.results[key])
            context += " " + str(progress.returned.get(key, {}).get("Context", ""))
        return context


def _concludes(requirement: str, description: str, edit: Conclusion) -> type[AgentFault]:
    """A master that returns its TaskContext as `edit(task, plan, goals, initial)` makes it."""

    class Concludes(Master, AgentFault):
        @breaks
        def concludes(
            self,
            task: dict[str, Any],
            plan: TaskPlan,
            goals: dict[str, str],
            initial: dict[str, Any],
        ) -> dict[str, Any]:
            return edit(task, plan, goals, initial)

    Concludes.requirement, Concludes.description = requirement, description
    return Concludes


def _as_it_started(
    task: dict[str, Any], plan: TaskPlan, goals: dict[str, str], initial: dict[str, Any]
) -> dict[str, Any]:
    return {**initial, "GoalStatus": [{"Goal": s.goal, "Status": "pending"} for s in plan.subtasks]}


class TakesUnfinishedItems(Master, AgentFault):
    requirement = "ACI-5.2-TWO-PHASE-UNFINISHED"
    description = "takes an item in state 0 as done when its abstract reads well"

    @breaks
    def verified(self, states: dict[Any, Any], abstracts: dict[Any, str], item: str) -> bool:
        return super().verified({**states, item: 1}, abstracts, item)


class TakesStatelessItems(Master, AgentFault):
    requirement = "ACI-5.2-TWO-PHASE-UNFINISHED"
    variant = "no-state"
    description = (
        "takes an item the reply gives no state as done when its abstract reads well (the"
        " authors' test_acp.py fills a missing state with 0)"
    )

    @breaks
    def verified(self, states: dict[Any, Any], abstracts: dict[Any, str], item: str) -> bool:
        return super().verified(states if item in states else {**states, item: 1}, abstracts, item)


class PassesTruncatedWork(Master, AgentFault):
    requirement = "ACI-4.2-CONTEXT-ISOLATION"
    variant = "truncated"
    description = (
        "passes the first 300 characters of each upstream's working context beside its result"
        " (the authors' fallback when KeyInformation is empty)"
    )

    @breaks
    def context_for(self, subtask: Subtask, plan: TaskPlan, progress: Progress) -> str:
        context = super().context_for(subtask, plan, progress)
        for key in subtask.after:
            work = str(progress.returned.get(key, {}).get("Context", ""))
            context += f" {work[:300]}... [truncated]"
        return context


class TakesStatesOnTrust(Master, AgentFault):
    requirement = "ACI-5.2-TWO-PHASE-VERIFIED"
    description = "takes an item in state 1 as done without reading its abstract"

    @breaks
    def verified(self, states: dict[Any, Any], abstracts: dict[Any, str], item: str) -> bool:
        return states.get(item) == 1


class AddsTheUserQuery(Master, AgentFault):
    requirement = "ACI-5.3-FIGURE-4-MEMBERS-ONLY"
    description = "adds the whole UserQuery to each AgentContext"

    @breaks
    def delivers(
        self, built: dict[str, Any], plan: TaskPlan, subtask: Subtask, task_id: str, query: str
    ) -> dict[str, Any]:
        return {**built, "UserQuery": query}


_MASTER: list[type[AgentFault]] = [
    TakesStatelessItems,
    PassesTruncatedWork,
    SendsTheTaskContext,
    SwapsTheTourContexts,
    PastesTheOtherContexts,
    PastesTheTaskContext,
    CarriesOnPastAFailure,
    SendsWithoutWaiting,
    RunsBackwards,
    PassesNoResults,
    NeverChecksTheWeather,
    SharesEverything,
    AddsTheUserQuery,
    _concludes(
        "ACI-5.1-TASKCONTEXT-MEMBERS",
        "returns a TaskContext without TaskName",
        lambda task, plan, goals, initial: {k: v for k, v in task.items() if k != "TaskName"},
    ),
    _concludes(
        "ACI-5.1-TASKCONTEXT-MEMBER-TYPES",
        "returns its TaskID as a number",
        lambda task, plan, goals, initial: {**task, "TaskID": 17},
    ),
    _concludes(
        "ACI-5.1-GOAL-STATUS",
        "returns GoalStatus as an object from goal to status",
        lambda task, plan, goals, initial: {
            **task,
            "GoalStatus": {s.goal: goals[s.key] for s in plan.subtasks},
        },
    ),
    _concludes(
        "ACI-5.1-OVERALL-STATUS-DERIVED",
        "reads OverallStatus completed whatever its goals say",
        lambda task, plan, goals, initial: {**task, "OverallStatus": "completed"},
    ),
    _concludes(
        "ACI-5.3-TASKCONTEXT-UPDATED",
        "returns the TaskContext as it stood before any subtask ran",
        _as_it_started,
    ),
    TakesUnfinishedItems,
    TakesStatesOnTrust,
]


# -- the master's context store (ACI 6) --


class ServesAnyone(ContextStore, AgentFault):
    requirement = "ACI-6-STORAGE-ACCESS-AUTHENTICATED"
    description = "serves offloaded context to a request without the reference's credential"

    @breaks
    def requires_credential(self) -> bool:
        return False


class TakesAnySignature(ContextStore, AgentFault):
    requirement = "ACI-6-CONTEXT-URI-SIGNED"
    description = "accepts any signature on a context reference"

    @breaks
    def checks_signature(self) -> bool:
        return False


class KeepsReferencesForYears(ContextStore, AgentFault):
    requirement = "ACI-6-STORAGE-TTL"
    description = "hands out context references that expire in ten years"

    @breaks
    def ttl(self) -> float:
        return 10 * 365 * 86400


class RewritesOnRead(ContextStore, AgentFault):
    """A store shared with a writer that keeps appending."""

    requirement = "ACI-6-MASTER-TRUSTS-STORAGE"
    description = "offloads context to a store that rewrites an entry each time it is read"

    @breaks
    def reads(self, ident: str) -> str:
        self.entries[ident] += f"\n(revised {time.time():.6f})"
        return self.entries[ident]


#: Every fault of an ACI agent: a subclass of the invoked agents' executor, the master or its store.
ACI_FAULTS: list[type[AgentFault]] = [
    *_INVOKED,
    *_MASTER,
    ServesAnyone,
    TakesAnySignature,
    KeepsReferencesForYears,
    RewritesOnRead,
]
