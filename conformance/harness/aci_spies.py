"""Spy invoked agents for certifying an ACI master: the six agents of the draft's two scenarios
(hotel-booking, flight-booking, weather-checking; diagnosis, prescription, buy-medicine), served
on loopback and listed in one WoA document per run, at /runs/{run}/.well-known/woa.json.

Each spy records every message it receives (when it arrived, when it answered), holds its
answer back while holding can still show something (`SpyRun.hold`: until its sibling subtasks
have arrived, so that concurrent dispatch shows as overlapping calls; until the subtask that needs
its result arrives, which would then have been sent too early; never longer than `Spies.delay`),
and answers the AgentContext it was given with every item completed. Its answer plants two
canaries: one in its KeyInformation (its result, which a master may pass to the agents that
depend on it) and one in its Context (its own working context, which must reach no other agent).
A run's `behaviour` makes one spy answer unfinished (state 0 with a plausible abstract),
unverified (state 1 with an empty abstract) or contradicting (state 1 with an abstract that says it
failed), to observe the master's two-phase evaluation. A ContextURI the master hands a spy is
kept, for the suite to fetch after the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.responses import Response
from starlette.routing import Route

from ..bindings.aci import CAPABILITY
from ..bindings.jsonparse import NotJson
from ..recording import stamp
from ..recording.values import Values
from . import ProblemDetailsOnly
from . import TooLarge
from . import problem
from . import read_capped
from . import read_message

__all__ = [
    "QUERIES",
    "SCENARIO_SPIES",
    "SPIES",
    "UPSTREAM",
    "Received",
    "Spies",
    "SpyRun",
    "spies_app",
]

SPIES = {
    "hotel-booking": ("Hotel Booking Agent", "Booked Jade Garden Hotel, 3 nights"),
    "flight-booking": ("Flight Booking Agent", "Booked 2 economy seats on CA1501 and CA1502"),
    "weather-checking": ("Weather Checking Agent", "Forecast: sunny, 18-27 C"),
    "diagnosis": ("Diagnosis Agent", "Diagnosis: acute pharyngitis"),
    "prescription": ("Prescription Agent", "Prescription: ibuprofen 400 mg, 12 tablets"),
    "buy-medicine": ("Medicine Purchase Agent", "Ordered the prescribed medicine for delivery"),
}
SCENARIO_SPIES = {
    "tour": ("hotel-booking", "flight-booking", "weather-checking"),
    "doctor": ("diagnosis", "prescription", "buy-medicine"),
}
#: The subtask each collaborative subtask needs the result of (ACI section 3).
UPSTREAM = {"prescription": "diagnosis", "buy-medicine": "prescription"}
#: What a spy's answer waits for, at the most: the arrival of its independent siblings (the
#: dispatch overlapped) or of the subtask that needs its result (sent before this one returned).
_SHOWN_BY = {
    **{spy: frozenset(SCENARIO_SPIES["tour"]) - {spy} for spy in SCENARIO_SPIES["tour"]},
    **{up: frozenset({spy}) for spy, up in UPSTREAM.items()},
}
_AGENT_CONTEXT = {
    "type": "object",
    "required": ["AgentContext"],
    "properties": {"AgentContext": {"type": "object"}},
}

#: The user queries of the draft's two scenarios, as a master is given them (the spies play their
#: agents).
QUERIES = {
    "tour": (
        "Plan a three-day trip to Beijing next week: book a hotel and a flight, and check the"
        " weather."
    ),
    "doctor": (
        "I have a sore throat and a fever: see a doctor, get a prescription and buy the medicine."
    ),
}


@dataclass
class Received:
    spy: str
    envelope: Any
    arrived: float
    answered: float = 0.0
    reference: str = ""  # the ContextURI the master handed over, if any
    #: (ContextURI, status, text or error), once the suite fetched it
    fetched: tuple[str, int | None, str] | None = None

    @property
    def context(self) -> dict[str, Any] | None:
        given = self.envelope.get("input") if isinstance(self.envelope, dict) else None
        inner = given.get("AgentContext") if isinstance(given, dict) else None
        return inner if isinstance(inner, dict) else None


@dataclass
class SpyRun:
    name: str
    #: normal, unfinished (weather-checking), unverified or contradicting (hotel-booking),
    #: upstream-fails (diagnosis)
    behaviour: str = "normal"
    received: list[Received] = field(default_factory=list)
    _arrivals: asyncio.Event | None = field(default=None, repr=False, compare=False)
    result_canaries: dict[str, str] = field(default_factory=dict)
    context_canaries: dict[str, str] = field(default_factory=dict)

    @classmethod
    def made(cls, name: str, behaviour: str, values: Values) -> SpyRun:
        """A run with canaries of its own for every spy, from the run's values."""
        run = cls(name, behaviour)
        for spy in SPIES:
            run.result_canaries[spy] = f"ki-{values.hex(5, 'aci-spies')}"
            run.context_canaries[spy] = f"cx-{values.hex(5, 'aci-spies')}"
        return run

    def of(self, spy: str) -> list[Received]:
        return [r for r in self.received if r.spy == spy]

    def arrive(self, record: Received) -> None:
        self.received.append(record)
        if self._arrivals is not None:
            self._arrivals.set()  # every hold looks again

    async def hold(self, spy: str, longest: float) -> None:
        """Keep `spy`'s answer back while that can still show something about the master, and
        never longer than `longest` seconds: until the run's other independent subtasks have
        arrived (a master that sends them at once has its calls overlap), or until the subtask
        that needs this one's result arrives (a master that does not wait sends it now). A spy
        whose answer no arrival can tell anything about answers at once."""
        awaited = _SHOWN_BY.get(spy, frozenset())
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(longest):
                while not awaited <= {r.spy for r in self.received}:
                    self._arrivals = self._arrivals or asyncio.Event()
                    await self._arrivals.wait()
                    self._arrivals.clear()


@dataclass
class Spies:
    base: str = ""
    #: the longest a spy holds an answer back (SpyRun.hold): long enough for a 20 ms stagger to
    #: show, short enough for a quick run
    delay: float = 0.06
    runs: dict[str, SpyRun] = field(default_factory=dict)
    #: how a spy fetches the ContextURI it is handed, while the master waits for its answer, as
    #: the agent would (None: the suite fetches each after the task)
    fetch: Callable[[str], Awaitable[tuple[int | None, str]]] | None = None

    def document_url(self, run: str) -> str:
        return f"{self.base}/runs/{run}/.well-known/woa.json"

    def document(self, run: str) -> dict[str, Any]:
        return {
            "woa_version": "1",
            "agents": [
                {
                    "id": spy,
                    "name": name,
                    "description": f"{name} (a spy of agent-conformance).",
                    "version": "1.0.0",
                    "capabilities": [CAPABILITY],
                    "transports": ["rest"],
                    "inputs": _AGENT_CONTEXT,
                    "outputs": _AGENT_CONTEXT,
                    "operations": [
                        {
                            "name": "execute_subtask",
                            "description": "Execute an ACI subtask.",
                            "inputs": _AGENT_CONTEXT,
                            "outputs": _AGENT_CONTEXT,
                        }
                    ],
                }
                for spy, (name, _) in SPIES.items()
            ],
            "transports": {
                "rest": {
                    "base": f"{self.base}/runs/{run}",
                    "invoke_path": "/agents/{agent_id}/invoke",
                }
            },
        }

    def answer(self, run: SpyRun, spy: str, context: dict[str, Any], now: float) -> dict[str, Any]:
        listed = context.get("todoItems")
        items = (
            [i for i in listed if isinstance(i, dict) and isinstance(i.get("itemId"), str)]
            if isinstance(listed, list)
            else []
        )
        result = SPIES[spy][1]
        states, abstracts = [], []
        for n, item in enumerate(items):
            state, abstract = (
                1,
                f"{item.get('description', '')}: {result} [{run.result_canaries[spy]}]",
            )
            if run.behaviour == "unfinished" and spy == "weather-checking":
                state, abstract = (
                    0,
                    (
                        f"Forecast for {item.get('description', '')}: sunny"
                        f" [{run.result_canaries[spy]}]"
                    ),
                )
            if run.behaviour == "upstream-fails" and spy == "diagnosis":
                state, abstract = (
                    0,
                    f"Diagnosis failed: no doctor could be reached [{run.result_canaries[spy]}]",
                )
            if run.behaviour == "unverified" and spy == "hotel-booking" and n == len(items) - 1:
                abstract = ""
            if run.behaviour == "contradicting" and spy == "hotel-booking" and n == len(items) - 1:
                abstract = (
                    "Booking failed: no rooms available for those dates"
                    f" [{run.result_canaries[spy]}]"
                )
            if run.behaviour == "stateless" and spy == "weather-checking" and n == len(items) - 1:
                abstracts.append({"itemId": item["itemId"], "outputabstract": abstract})
                continue  # a plausible abstract, and no state at all
            states.append({"itemId": item["itemId"], "state": state})
            abstracts.append({"itemId": item["itemId"], "outputabstract": abstract})
        return {
            "AgentContext": {
                **{
                    k: context.get(k)
                    for k in ("AgentID", "AgentName", "SubTaskID", "SubTaskName", "Dependencies")
                },
                "Context": f"Working notes of {spy} [{run.context_canaries[spy]}]",
                "todoItems": items,
                "ItemstateUpdates": states,
                "KeyInformation": abstracts,
                "LastUpdated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
                "Optional": ["LastUpdated"],
            }
        }


def spies_app(spies: Spies) -> Starlette:
    async def document(request: Request) -> Response:
        run = request.path_params["run"]
        if run not in spies.runs:
            return problem(404, "No such run")
        return JSONResponse(spies.document(run), media_type="application/woa+json")

    async def invoke(request: Request) -> Response:
        run, spy = spies.runs.get(request.path_params["run"]), request.path_params["agent_id"]
        if run is None or spy not in SPIES:
            return problem(404, "No such agent")
        record = Received(spy, None, stamp(request.scope, "arrived"))
        run.arrive(record)
        try:
            record.envelope = read_message(await read_capped(request, 4 * 1024 * 1024))
        except (TooLarge, NotJson) as error:
            return problem(400, "Bad request", str(error))
        context = record.context
        given = context or {}
        uri = next(
            (
                given[k]
                for k in ("ContextURI", "Context/ContextURI")
                if isinstance(given.get(k), str)
            ),
            None,
        )
        record.reference = uri or ""
        if uri and spies.fetch is not None:
            record.fetched = (uri, *await spies.fetch(uri))
        await run.hold(spy, spies.delay)
        record.answered = stamp(request.scope, "answered")
        if context is None:
            return problem(422, "No AgentContext", 'the input must be {"AgentContext": {...}}')
        return JSONResponse(spies.answer(run, spy, context, stamp(request.scope, "now", time.time)))

    return Starlette(
        routes=[
            Route("/runs/{run}/.well-known/woa.json", document),
            Route("/runs/{run}/agents/{agent_id}/invoke", invoke, methods=["POST"]),
        ],
        middleware=[Middleware(ProblemDetailsOnly)],
    )
