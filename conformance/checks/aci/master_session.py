"""What the master-agent checks share: the suite hosts spy invoked agents (harness/aci_spies.py)
and asks each ACI master of the target to run the draft's two tasks, once per run:

- `tour`: the tour plan (hotel, flight, weather: independent subtasks);
- `doctor`: the doctor visit (diagnosis, then prescription, then medicine: each needs the one
    before);
- `tour-unfinished`: the tour plan, the weather spy answering state 0 with a plausible abstract;
- `tour-unverified`: the tour plan, the hotel spy answering state 1 with an empty abstract;
- `tour-contradicting`: the same, its abstract saying the booking failed;
- `doctor-upstream-fails`: the doctor visit, the diagnosis spy answering state 0;
- `tour-stateless`: the tour plan, the weather spy giving its last item no state at all.

The master is invoked through WoA REST: run_task with {"UserQuery", "agents": the URL of the
run's spy document}. `tour` runs alone (whether its calls overlap is reported); the other runs are
independent (each has spies of its own) and are asked for at once, at most --parallel at a time.
The spies run on http://127.0.0.1 (the master under test must be allowed to call loopback agents,
as a test deployment is)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from ...bindings.aci import RestMaster
from ...bindings.aci import aci_agents
from ...bindings.aci import role_of
from ...bindings.http import ExchangeFailed
from ...bindings.http import Unreachable
from ...bindings.observed import carried
from ...bindings.reply import Reply
from ...harness.aci_spies import QUERIES
from ...harness.aci_spies import SCENARIO_SPIES
from ...harness.aci_spies import UPSTREAM
from ...harness.aci_spies import Spies
from ...harness.aci_spies import SpyRun
from ...harness.aci_spies import spies_app
from ...harness.hosting import hosted
from ...targeting import Target
from ..registry import Unmet

__all__ = ["RUNS", "SCENARIO_SPIES", "UPSTREAM", "MasterRun", "MasterSession", "master_session"]

RUNS = {
    "tour": ("tour", "normal"),
    "doctor": ("doctor", "normal"),
    "tour-unfinished": ("tour", "unfinished"),
    "tour-unverified": ("tour", "unverified"),
    "tour-contradicting": ("tour", "contradicting"),
    "doctor-upstream-fails": ("doctor", "upstream-fails"),
    # last: the runs before keep the canaries the seed gave them
    "tour-stateless": ("tour", "stateless"),
}


@dataclass
class MasterRun:
    name: str
    scenario: str
    spies: SpyRun
    reply: Reply | None = None

    @property
    def task_context(self) -> dict[str, Any] | None:
        body = self.reply.body if self.reply is not None else None
        inner = body.get("TaskContext") if isinstance(body, dict) else None
        return inner if isinstance(inner, dict) else None


@dataclass
class MasterSession:
    unmet: Unmet | None = None
    runs: dict[str, MasterRun] = field(default_factory=dict)


async def _gather(target: Target) -> MasterSession:
    target.sends("tasks for the master, and the suite's spy agents")
    masters = [a for a in aci_agents(target.document) if role_of(a) == "master"]
    if not masters:
        return MasterSession(
            Unmet("the target offers no ACI master agent (a run_task operation)", absent=True)
        )
    url, reason = target.invoke_url(masters[0]["id"])
    if url is None:
        return MasterSession(Unmet(reason or ""))
    master = RestMaster(target.client, masters[0]["id"], url)

    async def fetch(uri: str) -> tuple[int | None, str]:
        if not target.may_call(uri):
            return None, f"{uri} is not on an origin the suite may call"
        try:
            response = await target.client.request("GET", uri)
        except (ExchangeFailed, Unreachable) as error:
            return None, str(error)
        return response.status, response.body.decode("utf-8", errors="replace")

    spies = Spies(delay=0.0 if target.replay else Spies.delay)  # a replay has the recorded times
    loop = asyncio.get_running_loop()

    async def fetch_for_spy(uri: str) -> tuple[int | None, str]:
        # the spies of an in-process run serve from a thread of their own: the run's client is
        # this loop's
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(fetch(uri), loop))

    # the spies fetch a reference while the master waits, as its agent would: a store may clean
    # up once the task is done (a replay answers the exchanges in their recorded order, so it
    # fetches after the task, where the recording's fetch is found again)
    if target.replay is None:
        spies.fetch = fetch_for_spy if target.options.in_process else fetch
    session = MasterSession()
    gate = asyncio.Semaphore(max(1, target.options.parallel))

    async def play(name: str, scenario: str) -> MasterRun:
        run = MasterRun(name, scenario, spies.runs[name])
        async with gate:
            run.reply = await master.run_task(QUERIES[scenario], spies.document_url(name))
        for record in run.spies.received:
            if record.reference and record.fetched is None:
                record.fetched = (record.reference, *await fetch(record.reference))
        return run

    # made in order: their canaries come from the seed in this order
    for name, (_, behaviour) in RUNS.items():
        spies.runs[name] = SpyRun.made(name, behaviour, target.values)
    async with hosted(
        "aci-spies",
        lambda base: spies_app(spies),
        recorder=target.recorder,
        replay=target.replay,
        threaded=target.options.in_process,
    ) as base:
        spies.base = base
        # whether its calls overlap is reported: nothing else may slow the master then
        alone = [await play("tour", "tour")]
        played = await asyncio.gather(
            *(play(name, scenario) for name, (scenario, _) in RUNS.items() if name != "tour")
        )
    session.runs = {run.name: run for run in (*alone, *played)}
    return session


def _observed(target: Target) -> MasterSession:
    """In a run that watches: every TaskContext an answer carried (wherever in it), as a run's
    reply."""
    assert target.observed is not None
    session = MasterSession()
    for n, observed in enumerate(target.observed.calls()):
        for returned in carried(observed.response_json(), "TaskContext"):
            reply = observed.reply(returned)
            name = f"{observed.method} {observed.path} ({n})"
            session.runs[name] = MasterRun(name, "observed", SpyRun(name), reply)
    return session


async def master_session(target: Target) -> MasterSession:
    if target.observed is not None:
        return await target.memo("aci-master-session", lambda: asyncio.sleep(0, _observed(target)))
    return await target.memo("aci-master-session", lambda: _gather(target))
