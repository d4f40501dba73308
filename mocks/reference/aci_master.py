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
from collections.abc import Awaitable
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Protocol
from urllib.parse import parse_qs
from urllib.parse import urlsplit

from conformance.bindings.http import ExchangeFailed
from conformance.bindings.http import HttpClient
from conformance.bindings.http import Unreachable
from conformance.bindings.reply import operation_names
from conformance.oracle.clock import format_time
from conformance.targeting import is_loopback

from .aci_agents import CAPABILITY
from .aci_agents import AciError

__all__ = [
    "ContextStore",
    "Dispatch",
    "Master",
    "Planner",
    "Progress",
    "RulePlanner",
    "Subtask",
    "TaskPlan",
    "master_entry",
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


@dataclass
class Progress:
    """What a task has come to so far: each subtask's verified results and the AgentContext its
    agent returned, by subtask key."""

    task_id: str
    results: dict[str, list[str]] = field(default_factory=dict)
    returned: dict[str, dict[str, Any]] = field(default_factory=dict)


#: Sends one subtask's AgentContext to its agent after `wait` seconds, and judges the reply.
Dispatch = Callable[[Subtask, float], Awaitable[None]]


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
    one: 403; past exp: 410. A fault is a subclass that overrides one of the methods below
    (mocks/faults/aci.py)."""

    base: str
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    entries: dict[str, str] = field(default_factory=dict)
    #: the entries served at least once (a variant that cleans up reads it)
    read: set[str] = field(default_factory=set)

    # -- what a fault overrides: each the reference's behaviour, by the draft (ACI 6) --

    def ttl(self) -> float:
        """How long a reference lasts: a short time."""
        return TTL

    def requires_credential(self) -> bool:
        """A reference without its credential is refused."""
        return True

    def checks_signature(self) -> bool:
        """A reference whose signature does not match is refused."""
        return True

    def reads(self, ident: str) -> str:
        """What an entry holds: what was put there."""
        return self.entries[ident]

    # -- the store --

    def _sign(self, ident: str, exp: int) -> str:
        return hmac.new(self.key, f"{ident}.{exp}".encode(), hashlib.sha256).hexdigest()

    def put(self, text: str) -> str:
        ident = secrets.token_hex(8)
        if len(self.entries) >= 1024:  # a bounded store: the oldest entry goes
            oldest = next(iter(self.entries))
            self.entries.pop(oldest)
            self.read.discard(oldest)
        self.entries[ident] = text
        exp = int(time.time() + self.ttl())
        return f"{self.base}/aci/contexts/{ident}?exp={exp}&sig={self._sign(ident, exp)}"

    def get(self, ident: str, query: str) -> tuple[int, str]:
        """(status, text or reason)."""
        values = parse_qs(query)
        exp, sig = (values.get("exp") or ["0"])[0], (values.get("sig") or [""])[0]
        if ident not in self.entries:
            return 404, "no such context"
        if not sig and self.requires_credential():
            return 401, "the reference's credential (sig) is missing"
        if (
            sig
            and self.checks_signature()
            and (not exp.isdigit() or not hmac.compare_digest(sig, self._sign(ident, int(exp))))
        ):
            return 403, "the reference's signature does not match"
        if exp != "0" and exp.isdigit() and int(exp) <= time.time():
            return 410, "the reference has expired"
        self.read.add(ident)
        return 200, self.reads(ident)


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
        # capabilities are OPTIONAL (WoA 4.1): an invoked agent is also one offering execute_subtask
        if (
            isinstance(agent, dict)
            and (
                CAPABILITY in (agent.get("capabilities") or [])
                or "execute_subtask" in operation_names(agent)
            )
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


class Master:
    """The reference master agent (ACI 2.1, 3, 4.2, 5, 6): `planner` plans the task (the rules
    for the draft's two by default); `minimal`: what Section 5 demands and nothing more
    (mocks/minimal.py). A fault is a subclass that overrides one of the methods below `run_task`
    calls (mocks/faults/aci.py), each named after what the reference does there."""

    def __init__(self, planner: Planner | None = None, *, minimal: bool = False) -> None:
        self.planner, self.minimal = planner or RulePlanner(), minimal

    # -- what a fault overrides: each the reference's behaviour, by the draft --

    def dispatched(self, plan: TaskPlan) -> list[Subtask]:
        """The subtasks sent to agents: every one of the plan (ACI 3)."""
        return list(plan.subtasks)

    async def schedules(
        self, plan: TaskPlan, subtasks: list[Subtask], dispatch: Dispatch, goals: dict[str, str]
    ) -> None:
        """Independent subtasks at once, a dependent one only after those it needs completed; what
        depends on an unfinished subtask waits, undone (ACI 2.1, 3)."""
        finished: set[str] = set()
        remaining = subtasks
        while remaining:
            ready = [s for s in remaining if set(s.after) <= finished]
            if not ready:
                break
            if self.minimal:  # ACI 2.1: independent subtasks at once is a MAY; one at a time
                for subtask in ready:
                    await dispatch(subtask, 0.0)
            else:
                await asyncio.gather(*(dispatch(s, 0.0) for s in ready))
            finished |= {s.key for s in ready if self.finished(s, goals)}
            remaining = [s for s in remaining if s not in ready]

    def finished(self, subtask: Subtask, goals: dict[str, str]) -> bool:
        """Whether a dependent subtask may use this one's result: it completed (ACI 3)."""
        return goals.get(subtask.key) == "completed"

    def context_for(self, subtask: Subtask, plan: TaskPlan, progress: Progress) -> str:
        """The context of a subtask's AgentContext: its own, with the results of the subtasks it
        depends on and nothing else (ACI 3, 4.2)."""
        context = subtask.context
        for key in subtask.after:
            results = progress.results.get(key, [])
            context += f" Result of {progress.task_id}/{key}: " + " ".join(results)
        return context

    def addressed(self, plan: TaskPlan, subtask: Subtask) -> Subtask:
        """The subtask whose AgentContext an agent is sent: its own (ACI 2.1)."""
        return subtask

    def delivers(
        self, built: dict[str, Any], plan: TaskPlan, subtask: Subtask, task_id: str, query: str
    ) -> dict[str, Any]:
        """An AgentContext as sent: Figure 4's members and nothing of other subtasks (ACI 2.1,
        5.3)."""
        return built

    def message(self, agent_context: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
        """The message to an invoked agent: its AgentContext; the TaskContext stays with the
        master (ACI 2.1)."""
        return {"AgentContext": agent_context}

    def verified(self, states: dict[Any, Any], abstracts: dict[Any, str], item: str) -> bool:
        """Two-phase evaluation (ACI 5.2): state 1 first, then an abstract that bears it out."""
        if states.get(item) != 1:
            return False
        abstract = abstracts.get(item, "").strip()
        return bool(abstract) and not CONTRADICTS.search(abstract)

    def concludes(
        self, task: dict[str, Any], plan: TaskPlan, goals: dict[str, str], initial: dict[str, Any]
    ) -> dict[str, Any]:
        """The TaskContext returned: updated as the subtasks went, a status per goal, the overall
        status derived from them (ACI 5.1, 5.3)."""
        return task

    # -- the operation --

    def _agent_context(
        self, subtask: Subtask, plan: TaskPlan, progress: Progress, store: ContextStore, query: str
    ) -> dict[str, Any]:
        """The AgentContext a subtask's agent is sent (ACI 5.2), its context offloaded when long."""
        task_id = progress.task_id
        context = self.context_for(subtask, plan, progress)
        subtask = self.addressed(plan, subtask)
        built: dict[str, Any] = {
            "AgentID": subtask.agent,
            "AgentName": subtask.agent.replace("-", " ").title() + " Agent",
            "SubTaskID": f"{task_id}/{subtask.key}",
            "SubTaskName": subtask.name,
            "Dependencies": [f"{task_id}/{k}" for k in subtask.after],
            "todoItems": [{"itemId": i, "description": d} for i, d in subtask.items],
            "ItemstateUpdates": [{"itemId": i, "state": 0} for i, _ in subtask.items],
            "KeyInformation": [],
            "LastUpdated": format_time(time.time()),
            "Optional": ["LastUpdated"],
        }
        if len(context.encode()) > OFFLOAD_AT and not self.minimal:
            built["ContextURI"] = store.put(context)  # ACI 4.1: allowed, not required
        else:
            built["Context"] = context
        if self.minimal:  # only what Section 5.3 delivers: the todoItems and the context
            for member in ("ItemstateUpdates", "KeyInformation", "LastUpdated", "Optional"):
                del built[member]
        return self.delivers(built, plan, subtask, task_id, query)

    def _judged(self, subtask: Subtask, reply: Any, progress: Progress) -> str:
        """The goal's status once its agent's reply is read (ACI 5.3), its verified results kept."""
        context = reply.get("AgentContext") if isinstance(reply, dict) else None
        context = context if isinstance(context, dict) else {}
        progress.returned[subtask.key] = context
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
        done = [i for i, _ in subtask.items if self.verified(states, abstracts, i)]
        progress.results[subtask.key] = [abstracts[i] for i in done if i in abstracts]
        return "completed" if len(done) == len(subtask.items) else "pending"

    async def run_task(
        self, given: Any, base: str, store: ContextStore, client: HttpClient
    ) -> dict[str, Any]:
        query, agents_url = given.get("UserQuery"), given.get("agents")
        if not isinstance(query, str) or not isinstance(agents_url, str):
            raise AciError(
                422, "Invalid input", "give UserQuery and agents (the URL of a WoA document)"
            )
        if not _allowed(agents_url, base):
            raise AciError(
                422,
                "Agents document refused",
                f"{agents_url} is not on this host's origin or loopback",
            )
        plan = self.planner.plan(query)
        if plan is None:  # the task is run and fails: the TaskContext says so (ACI 5.1)
            why = "The query is neither a trip nor a doctor visit, the two tasks this master plans."
            return {"TaskContext": _failed(query, "unplanned", why, ["plan the task"])}

        def unrunnable(why: str) -> dict[str, Any]:
            goals = [s.goal for s in plan.subtasks]
            return {"TaskContext": _failed(query, plan.name, f"{plan.description} {why}", goals)}

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
        progress = Progress(task_id)
        try:
            invoke = _agents(await _get_json(client, "GET", agents_url), agents_url, base)
        except AciError as error:
            return unrunnable(f"No agents: {error.detail}")
        missing = [s.agent for s in plan.subtasks if s.agent not in invoke]
        if missing:
            return unrunnable(f"The agents document lists no {missing}.")

        async def dispatch(subtask: Subtask, wait: float) -> None:
            await asyncio.sleep(wait)
            built = self._agent_context(subtask, plan, progress, store, query)
            message = self.message(built, task)
            envelope = {"agent": subtask.agent, "operation": "execute_subtask", "input": message}
            try:
                reply = await _get_json(client, "POST", invoke[subtask.agent], envelope)
            except AciError:
                goals[subtask.key] = "failed"
                return
            goals[subtask.key] = self._judged(subtask, reply, progress)

        await self.schedules(plan, self.dispatched(plan), dispatch, goals)
        task["GoalStatus"] = [{"Goal": s.goal, "Status": goals[s.key]} for s in plan.subtasks]
        completed = all(g == "completed" for g in goals.values())
        task["OverallStatus"] = "completed" if completed else "incomplete"
        task["EndTime"] = format_time(time.time())
        if self.minimal:
            del task["StartTime"], task["EndTime"], task["Optional"]
        return {"TaskContext": self.concludes(task, plan, goals, initial)}
