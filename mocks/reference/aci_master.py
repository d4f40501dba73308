"""The reference ACI master agent: it plans the draft's two tasks without an LLM, keeps the
TaskContext, builds one isolated AgentContext per subtask, dispatches independent subtasks at
once and dependent ones in order, evaluates each reply in two phases, and offloads long context
to its context store behind signed, expiring references (ACI 2.1, 3, 4.2, 5, 6).

`run_task({"UserQuery", "agents"})` reads the WoA document at `agents` (same origin as the master,
or loopback) for the invoked agents, and answers {"TaskContext": ...}. The `Planner` protocol is
where an LLM planner plugs in; `RulePlanner` knows the tour plan and the doctor visit.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Protocol
from urllib.parse import parse_qs
from urllib.parse import urlsplit

from conformance.bindings.http import ExchangeFailed
from conformance.bindings.http import HttpClient
from conformance.bindings.http import Unreachable
from conformance.oracle.clock import format_time
from conformance.target import is_loopback

from .aci_agents import CAPABILITY
from .aci_agents import AciError

__all__ = [
    "ContextStore",
    "Planner",
    "RulePlanner",
    "Subtask",
    "TaskPlan",
    "master_entry",
    "run_task",
]

MASTER_ID = "aci-master"
OFFLOAD_AT = 512  # bytes of context above which it goes to the store, behind a ContextURI
TTL = 600.0
CONTRADICTS = re.compile(r"\b(not done|failed|unable|error|could not|cannot|unavailable)\b", re.I)


@dataclass(frozen=True)
class Subtask:
    agent: str
    key: str  # short name: the SubTaskID is "{TaskID}/{key}"
    name: str
    goal: str
    items: tuple[tuple[str, str], ...]
    context: str
    after: tuple[str, ...] = ()  # keys of the subtasks whose results this one needs


@dataclass(frozen=True)
class TaskPlan:
    name: str
    description: str
    subtasks: tuple[Subtask, ...]


class Planner(Protocol):
    def plan(self, query: str) -> TaskPlan | None: ...


HISTORY = (
    "Patient record: adult, 34 years old; no known drug allergies; no chronic conditions; last"
    " visit 2025-11 for a sprained ankle. Current complaint, in the patient's words: a sore throat"
    " for two days, worse when swallowing, a fever of 38.5 C since yesterday evening, tiredness, no"
    " cough, no shortness of breath, no rash. Has taken no medicine yet. Works in an office; two"
    " colleagues had a cold last week. Prefers tablets to syrup; lives alone; pharmacy delivery to"
    " the home address on file is acceptable; available for a video consultation all day."
)


class RulePlanner:
    """Keyword rules for the draft's section 3: a trip becomes the tour plan, an illness the
    doctor visit."""

    def plan(self, query: str) -> TaskPlan | None:
        text = query.lower()
        if re.search(r"\b(trip|tour|travel|holiday|vacation)\b", text):
            trip = f"Trip request: {query}"
            return TaskPlan(
                "tour-plan",
                "Plan a tour: hotel booking, flight booking and a weather check.",
                (
                    Subtask(
                        "hotel-booking",
                        "hotel",
                        "book a hotel",
                        "hotel booked",
                        (
                            ("h1", "find hotels for the stay"),
                            ("h2", "book the best-rated hotel within budget"),
                        ),
                        trip,
                    ),
                    Subtask(
                        "flight-booking",
                        "flight",
                        "book a flight",
                        "flight booked",
                        (("f1", "find flights for the dates"), ("f2", "book the seats")),
                        trip,
                    ),
                    Subtask(
                        "weather-checking",
                        "weather",
                        "check the weather",
                        "weather checked",
                        (("w1", "get the forecast for the stay"),),
                        trip,
                    ),
                ),
            )
        if re.search(r"\b(doctor|sick|ill|fever|sore|pain|medicine|prescription)\b", text):
            return TaskPlan(
                "see-a-doctor",
                "See a doctor: diagnosis, prescription, then buying the medicine.",
                (
                    Subtask(
                        "diagnosis",
                        "diagnosis",
                        "diagnose",
                        "diagnosis made",
                        (("d1", "assess the symptoms"), ("d2", "give a diagnosis")),
                        HISTORY,
                    ),
                    Subtask(
                        "prescription",
                        "prescription",
                        "prescribe",
                        "medicine prescribed",
                        (("p1", "prescribe medicine for the diagnosis"),),
                        "Prescribe for the diagnosis below.",
                        ("diagnosis",),
                    ),
                    Subtask(
                        "buy-medicine",
                        "medicine",
                        "buy the medicine",
                        "medicine bought",
                        (("m1", "order the prescribed medicine for delivery"),),
                        "Buy what the prescription below names.",
                        ("prescription",),
                    ),
                ),
            )
        return None


@dataclass
class ContextStore:
    """Offloaded context behind signed, expiring capability URLs:
    {base}/aci/contexts/{id}?exp=..&sig=.. (HMAC-SHA256 over id and exp). No sig: 401; a wrong
    one: 403; past exp: 410."""

    base: str
    fault: str = ""
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    entries: dict[str, str] = field(default_factory=dict)

    def _sign(self, ident: str, exp: int) -> str:
        return hmac.new(self.key, f"{ident}.{exp}".encode(), hashlib.sha256).hexdigest()

    def put(self, text: str) -> str:
        ident = secrets.token_hex(8)
        if len(self.entries) >= 1024:  # a bounded store: the oldest entry goes
            self.entries.pop(next(iter(self.entries)))
        self.entries[ident] = text
        exp = int(time.time() + (TTL if self.fault != "ACI-6-STORAGE-TTL" else 10 * 365 * 86400))
        return f"{self.base}/aci/contexts/{ident}?exp={exp}&sig={self._sign(ident, exp)}"

    def get(self, ident: str, query: str) -> tuple[int, str]:
        """(status, text or reason)."""
        values = parse_qs(query)
        exp, sig = (values.get("exp") or ["0"])[0], (values.get("sig") or [""])[0]
        if ident not in self.entries:
            return 404, "no such context"
        if not sig and self.fault != "ACI-6-STORAGE-ACCESS-AUTHENTICATED":
            return 401, "the reference's credential (sig) is missing"
        if (
            sig
            and self.fault != "ACI-6-CONTEXT-URI-SIGNED"
            and (not exp.isdigit() or not hmac.compare_digest(sig, self._sign(ident, int(exp))))
        ):
            return 403, "the reference's signature does not match"
        if exp != "0" and exp.isdigit() and int(exp) <= time.time():
            return 410, "the reference has expired"
        if (
            self.fault == "ACI-6-MASTER-TRUSTS-STORAGE"
        ):  # a store shared with a writer that keeps appending
            self.entries[ident] += f"\n(revised {time.time():.6f})"
        return 200, self.entries[ident]


def master_entry(base: str) -> dict[str, Any]:
    """The master as it stands in the WoA document: `agents` may name a document on this host's
    origin or on loopback, nowhere else (the pattern says so, and run_task enforces it)."""
    own = re.escape(base.rstrip("/"))
    pattern = rf"^({own}|https?://(127\.0\.0\.1|localhost|\[::1\])(:[0-9]{{1,5}})?)/"
    documents = f"{base.rstrip('/')}/.well-known/woa.json"
    inputs = {
        "type": "object",
        "required": ["UserQuery", "agents"],
        "additionalProperties": False,
        "properties": {
            "UserQuery": {"type": "string", "minLength": 1, "maxLength": 4000},
            "agents": {
                "type": "string",
                "format": "uri",
                "maxLength": 2000,
                "pattern": pattern,
                "examples": [documents],
            },
        },
        "examples": [
            {"UserQuery": "Plan a three-day trip to Beijing next week.", "agents": documents}
        ],
    }
    outputs = {
        "type": "object",
        "required": ["TaskContext"],
        "properties": {"TaskContext": {"type": "object"}},
    }
    return {
        "id": MASTER_ID,
        "name": "ACI Master Agent",
        "description": "Plans and runs tour plans and doctor visits with ACI invoked agents.",
        "version": "1.0.0",
        "capabilities": [CAPABILITY],
        "transports": ["rest"],
        "inputs": inputs,
        "outputs": outputs,
        "operations": [
            {
                "name": "run_task",
                "description": "Run a task with the invoked agents of a WoA document (ACI 3).",
                "inputs": inputs,
                "outputs": outputs,
            }
        ],
    }


def _allowed(url: str, base: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http"):
        return False
    if parts.scheme == "http" and not is_loopback(url):
        return False
    return parts.netloc == urlsplit(base).netloc or is_loopback(url)


async def _get_json(client: HttpClient, method: str, url: str, body: Any = None) -> Any:
    try:
        response = await client.request(method, url, json=body)
    except (ExchangeFailed, Unreachable) as error:
        raise AciError(502, "Agent unreachable", str(error)) from None
    if response.status >= 400:
        raise AciError(502, "Agent failed", f"{url} answered {response.status}")
    try:
        return json.loads(response.body)
    except ValueError:
        raise AciError(502, "Agent answered no JSON", url) from None


def _agents(document: Any, url: str, base: str) -> dict[str, str]:
    """Invoke URLs of the document's ACI invoked agents, where the master may call them."""
    rest = document.get("transports", {}).get("rest") if isinstance(document, dict) else None
    if (
        not isinstance(rest, dict)
        or not isinstance(rest.get("base"), str)
        or not isinstance(rest.get("invoke_path"), str)
    ):
        raise AciError(
            422,
            "Unusable agents document",
            "the document has no rest transport with base and invoke_path",
        )
    found = {}
    for agent in document.get("agents", []) if isinstance(document.get("agents"), list) else []:
        if (
            isinstance(agent, dict)
            and CAPABILITY in (agent.get("capabilities") or [])
            and isinstance(agent.get("id"), str)
        ):
            invoke = rest["base"].rstrip("/") + rest["invoke_path"].replace(
                "{agent_id}", agent["id"]
            )
            if _allowed(invoke, base) and urlsplit(invoke).netloc in (
                urlsplit(url).netloc,
                urlsplit(base).netloc,
            ):
                found[agent["id"]] = invoke
    return found


def _failed(query: str, name: str, description: str, goals: list[str]) -> dict[str, Any]:
    now = format_time(time.time())
    return {
        "TaskID": f"task-{hashlib.sha256(f'{query}{time.time()}'.encode()).hexdigest()[:8]}",
        "UserQuery": query,
        "TaskName": name,
        "TaskDescription": description,
        "GoalStatus": [{"Goal": g, "Status": "failed"} for g in goals],
        "OverallStatus": "failed",
        "StartTime": now,
        "EndTime": now,
        "Optional": ["StartTime", "EndTime"],
    }


def _verified(states: dict[Any, Any], abstracts: dict[Any, str], item: str, fault: str) -> bool:
    """Two-phase evaluation (ACI 5.2): state 1 first, then an abstract that bears it out."""
    first = states.get(item) == 1 or fault == "ACI-5.2-TWO-PHASE-UNFINISHED"
    if not first:
        return False
    if fault == "ACI-5.2-TWO-PHASE-VERIFIED" and states.get(item) == 1:
        return True
    abstract = abstracts.get(item, "").strip()
    return bool(abstract) and not CONTRADICTS.search(abstract)


async def run_task(
    given: Any,
    base: str,
    store: ContextStore,
    client: HttpClient,
    planner: Planner | None = None,
    fault: str = "",
    *,
    minimal: bool = False,
) -> dict[str, Any]:
    query, agents_url = given.get("UserQuery"), given.get("agents")
    if not isinstance(query, str) or not isinstance(agents_url, str):
        raise AciError(
            422, "Invalid input", "give UserQuery and agents (the URL of a WoA document)"
        )
    if not _allowed(agents_url, base):
        raise AciError(
            422, "Agents document refused", f"{agents_url} is not on this host's origin or loopback"
        )
    plan = (planner or RulePlanner()).plan(query)
    if plan is None:  # the task is run and fails: the TaskContext says so (ACI 5.1)
        return {
            "TaskContext": _failed(
                query,
                "unplanned",
                "The query is neither a trip nor a doctor visit, the two tasks this master plans.",
                ["plan the task"],
            )
        }
    task_id = f"task-{hashlib.sha256(f'{query}{time.time()}'.encode()).hexdigest()[:8]}"
    goals = {s.key: "pending" for s in plan.subtasks}
    task: dict[str, Any] = {
        "TaskID": task_id,
        "UserQuery": query,
        "TaskName": plan.name,
        "TaskDescription": plan.description,
        "GoalStatus": [],
        "OverallStatus": "in progress",
        "StartTime": format_time(time.time()),
        "EndTime": "",
        "Optional": ["StartTime", "EndTime"],
    }
    initial = json.loads(json.dumps(task))
    results: dict[str, list[str]] = {}
    returned: dict[str, dict[str, Any]] = {}
    try:
        invoke = _agents(await _get_json(client, "GET", agents_url), agents_url, base)
    except AciError as error:
        return {
            "TaskContext": _failed(
                query,
                plan.name,
                f"{plan.description} No agents: {error.detail}",
                [s.goal for s in plan.subtasks],
            )
        }
    missing = [s.agent for s in plan.subtasks if s.agent not in invoke]
    if missing:
        return {
            "TaskContext": _failed(
                query,
                plan.name,
                f"{plan.description} The agents document lists no {missing}.",
                [s.goal for s in plan.subtasks],
            )
        }

    def agent_context(subtask: Subtask) -> dict[str, Any]:
        context = subtask.context
        sources = (
            [s.key for s in plan.subtasks if s.key in results]
            if fault == "ACI-4.2-CONTEXT-ISOLATION"
            else list(subtask.after)
        )
        if fault != "ACI-3-COLLABORATIVE-INPUT-FROM-PREVIOUS":
            for key in sources:
                context += f" Result of {task_id}/{key}: " + " ".join(results.get(key, []))
                if fault == "ACI-4.2-CONTEXT-ISOLATION":
                    context += " " + str(returned.get(key, {}).get("Context", ""))
        agent, key = subtask.agent, subtask.key
        if fault == "ACI-2.1-ONLY-TARGET-AGENTCONTEXT-DELIVERED" and plan.name == "tour-plan":
            swap = {"hotel-booking": "flight", "flight-booking": "hotel"}
            other = next((s for s in plan.subtasks if s.key == swap.get(agent)), None)
            if other is not None:
                subtask = other
                agent, key = other.agent, other.key
        built: dict[str, Any] = {
            "AgentID": agent,
            "AgentName": agent.replace("-", " ").title() + " Agent",
            "SubTaskID": f"{task_id}/{key}",
            "SubTaskName": subtask.name,
            "Dependencies": [f"{task_id}/{k}" for k in subtask.after],
            "todoItems": [{"itemId": i, "description": d} for i, d in subtask.items],
            "ItemstateUpdates": [{"itemId": i, "state": 0} for i, _ in subtask.items],
            "KeyInformation": [],
            "LastUpdated": format_time(time.time()),
            "Optional": ["LastUpdated"],
        }
        if (
            len(context.encode()) > OFFLOAD_AT and not minimal
        ):  # ACI 4.1: offloading is allowed, not required
            built["ContextURI"] = store.put(context)
        else:
            built["Context"] = context
        if fault == "ACI-5.3-FIGURE-4-MEMBERS-ONLY":
            built["UserQuery"] = query
        if (
            minimal
        ):  # only what Section 5.3 delivers: the todoItems and the context (mocks/minimal.py)
            for member in ("ItemstateUpdates", "KeyInformation", "LastUpdated", "Optional"):
                del built[member]
        if (
            fault == "ACI-2.1-ONLY-TARGET-AGENTCONTEXT-DELIVERED/as-text"
            and plan.name == "tour-plan"
        ):
            others = [
                {
                    "AgentID": s.agent,
                    "SubTaskID": f"{task_id}/{s.key}",
                    "SubTaskName": s.name,
                    "Context": s.context,
                }
                for s in plan.subtasks
                if s.agent != agent
            ]
            built["Context"] = built.get("Context", "") + " Other subtasks: " + json.dumps(others)
        return built

    async def dispatch(subtask: Subtask, wait: float = 0.0) -> None:
        await asyncio.sleep(wait)
        message: dict[str, Any] = {"AgentContext": agent_context(subtask)}
        if fault == "ACI-2.1-TASKCONTEXT-MASTER-ONLY":
            message["AgentContext"]["TaskContext"] = task
        if fault == "ACI-2.1-TASKCONTEXT-MASTER-ONLY/as-text":
            pasted = {k: task.get(k) for k in ("TaskID", "TaskName", "GoalStatus", "OverallStatus")}
            message["AgentContext"]["Context"] = (
                message["AgentContext"].get("Context", "") + " Task state: " + json.dumps(pasted)
            )
        envelope = {"agent": subtask.agent, "operation": "execute_subtask", "input": message}
        try:
            reply = await _get_json(client, "POST", invoke[subtask.agent], envelope)
        except AciError:
            goals[subtask.key] = "failed"
            return
        context = reply.get("AgentContext") if isinstance(reply, dict) else None
        context = context if isinstance(context, dict) else {}
        returned[subtask.key] = context
        raw = context.get("ItemstateUpdates", context.get("ItemStateUpdates", []))
        states = (
            {s.get("itemId"): s.get("state") for s in raw if isinstance(s, dict)}
            if isinstance(raw, list)
            else {}
        )
        info: list[Any] = (
            context["KeyInformation"] if isinstance(context.get("KeyInformation"), list) else []
        )
        abstracts = {
            k.get("itemId"): str(k.get("outputabstract", "")) for k in info if isinstance(k, dict)
        }
        done = [i for i, _ in subtask.items if _verified(states, abstracts, i, fault)]
        results[subtask.key] = [abstracts[i] for i in done if i in abstracts]
        goals[subtask.key] = "completed" if len(done) == len(subtask.items) else "pending"

    remaining = [
        s
        for s in plan.subtasks
        if not (fault == "ACI-3-INDEPENDENT-SUBTASKS-DISTRIBUTED" and s.agent == "weather-checking")
    ]
    if fault == "ACI-3-COLLABORATIVE-WAITS" and plan.name == "see-a-doctor":
        await asyncio.gather(*(dispatch(s, 0.02 * n) for n, s in enumerate(remaining)))
    elif fault == "ACI-3-COLLABORATIVE-ORDER" and plan.name == "see-a-doctor":
        for subtask in reversed(remaining):
            await dispatch(subtask)
    else:
        finished: set[str] = set()  # the subtasks whose result a dependent may use: completed ones
        carry_on = fault == "ACI-3-NO-DISPATCH-PAST-UNFINISHED"
        while remaining:
            ready = [s for s in remaining if set(s.after) <= finished]
            if (
                not ready
            ):  # what is left depends on a subtask that did not complete: it waits, undone
                break
            if minimal:  # ACI 2.1: dispatching independent subtasks at once is a MAY; one at a time
                for subtask in ready:
                    await dispatch(subtask)
            else:
                await asyncio.gather(*(dispatch(s) for s in ready))
            finished |= {s.key for s in ready if goals.get(s.key) == "completed" or carry_on}
            remaining = [s for s in remaining if s not in ready]
    task["GoalStatus"] = [{"Goal": s.goal, "Status": goals[s.key]} for s in plan.subtasks]
    if fault == "ACI-5.1-GOAL-STATUS":
        task["GoalStatus"] = {s.goal: goals[s.key] for s in plan.subtasks}
    task["OverallStatus"] = (
        "completed"
        if all(g == "completed" for g in goals.values())
        or fault == "ACI-5.1-OVERALL-STATUS-DERIVED"
        else "incomplete"
    )
    task["EndTime"] = format_time(time.time())
    if minimal:
        del task["StartTime"], task["EndTime"], task["Optional"]
    if fault == "ACI-5.1-TASKCONTEXT-MEMBERS":
        del task["TaskName"]
    if fault == "ACI-5.3-TASKCONTEXT-UPDATED":
        task = initial
        task["GoalStatus"] = [{"Goal": s.goal, "Status": "pending"} for s in plan.subtasks]
    return {"TaskContext": task}
