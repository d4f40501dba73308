"""What the WoA client checks share: every scenario of the spy host, played once per run.

The suite serves the spy world (conformance/spy), runs the client command (conformance/driver) for
each invocation of each scenario, with a proxy of the scenario's own so that every connection the
client asked for is that scenario's, and keeps what reached the spy host and the proxy. Scenarios
run a few at a time; the runs of one scenario run in order and share the client's cache folder.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ...bindings.observed import NotObserved
from ...bindings.observed import Observed
from ...driver import CommandDriver
from ...driver import Outcome
from ...driver import Request
from ...driver import client_environment
from ...recording import Recorder
from ...recording import Replay
from ...report.model import Exchange
from ...spy import SCENARIOS
from ...spy import ProxyAttempt
from ...spy import Scenario
from ...spy import SpyRequest
from ...spy import SpyWorld
from ...spy import spy_world
from ...targeting import Target

__all__ = ["MEMO_KEY", "ClientSession", "ScenarioRecord", "client_session"]

MEMO_KEY = "woa-client-session"
PARALLEL = 4


@dataclass
class ScenarioRecord:
    scenario: Scenario
    outcomes: list[Outcome] = field(default_factory=list)
    requests: list[SpyRequest] = field(default_factory=list)
    attempts: list[ProxyAttempt] = field(default_factory=list)

    @property
    def invocations(self) -> list[SpyRequest]:
        """The requests that were not for a WoA document: what the client sent as invocations."""
        return [r for r in self.requests if not r.is_document]

    @property
    def documents(self) -> list[SpyRequest]:
        return [r for r in self.requests if r.is_document]

    def reached(self, host: str) -> list[ProxyAttempt]:
        """The connections the client asked the proxy for to `host`."""
        return [a for a in self.attempts if a.host == host]

    def evidence(self) -> tuple[Exchange, ...]:
        """The requests as exchanges, then each run of the command (as an exchange without a
        URL)."""
        sent = [Exchange(**r.as_evidence()) for r in self.requests[:8]]
        runs = [
            Exchange(
                "RUN",
                f"command (scenario {self.scenario.name})",
                request_body=o.command,
                status=o.exit_code,
                response_body=(
                    o.stdout[:2048] + ("\n--- stderr ---\n" + o.stderr[-2048:] if o.stderr else "")
                ),
                elapsed_ms=o.seconds * 1000,
                error="killed at the deadline" if o.timed_out else None,
            )
            for o in self.outcomes
        ]
        return (*sent, *runs)

    def said(self) -> str:
        """What the runs did, for a verdict's message."""
        return "; ".join(f"run {n}: {o.describe()}" for n, o in enumerate(self.outcomes, 1))


@dataclass
class ClientSession:
    records: dict[str, ScenarioRecord]
    #: the traffic a run watched (one record), rather than the scenarios the suite played
    observed: bool = False

    def __getitem__(self, name: str) -> ScenarioRecord:
        if name not in self.records and self.observed:
            raise NotObserved(
                f"scenario {name} was not played: a run that watches plays no scenario (drive the"
                " client with --client-command to judge it)"
            )
        return self.records[name]

    def invoked_plainly(self) -> SpyRequest | None:
        """The plain scenario's invocation, when the client made one: without it, a refusal
        proves nothing."""
        plain = self["plain"]
        return (
            next((r for r in plain.invocations if r.method == "POST"), None)
            if plain.outcomes
            else None
        )


async def _play(
    scenario: Scenario, world: SpyWorld, driver: CommandDriver, folder: Path
) -> ScenarioRecord:
    record = ScenarioRecord(scenario)
    proxy = await world.open_proxy()
    cache = folder / "cache"
    cache.mkdir(parents=True)
    environment = client_environment(proxy.url, world.allowed_hosts, cache)
    for invocation in scenario.runs:
        document = f"https://{invocation.document_host or scenario.host}/.well-known/woa.json"
        request = Request(document, invocation.agent, invocation.operation, invocation.input)
        record.outcomes.append(
            await driver.act(request, workdir=folder, cacert=world.cacert, environment=environment)
        )
    record.attempts = list(proxy.attempts)
    record.requests = [r for r in world.recorder.requests if r.host in scenario.documents]
    return record


async def _drive(template: str, deadline: float, scenarios: tuple[Scenario, ...]) -> ClientSession:
    driver = CommandDriver(template, deadline)
    gate = asyncio.Semaphore(PARALLEL)
    with tempfile.TemporaryDirectory(prefix="agent-conformance-client-") as root:
        async with spy_world(scenarios, tunnel_deadline=deadline) as world:

            async def play(scenario: Scenario) -> ScenarioRecord:
                async with gate:
                    return await _play(scenario, world, driver, Path(root) / scenario.name)

            records = await asyncio.gather(*(play(s) for s in scenarios))
    return ClientSession({r.scenario.name: r for r in records})


def _kept(session: ClientSession, recorder: Recorder) -> list[dict[str, Any]]:
    """The session as the recording keeps it: plain data, each request's body by its hash."""
    return [
        {
            "scenario": name,
            "outcomes": [asdict(o) for o in record.outcomes],
            "attempts": [asdict(a) for a in record.attempts],
            "requests": [asdict(r) | {"body": recorder.body(r.body)} for r in record.requests],
        }
        for name, record in session.records.items()
    ]


def _restored(kept: list[dict[str, Any]], replay: Replay) -> ClientSession:
    scenarios = {s.name: s for s in SCENARIOS}
    return ClientSession(
        {
            k["scenario"]: ScenarioRecord(
                scenarios[k["scenario"]],
                [Outcome(**o) for o in k["outcomes"]],
                [SpyRequest(**r | {"body": replay.body(r["body"])}) for r in k["requests"]],
                [ProxyAttempt(**a) for a in k["attempts"]],
            )
            for k in kept
        }
    )


async def _session(
    template: str, deadline: float, recorder: Recorder | None, replay: Replay | None
) -> ClientSession:
    """Played live, or read back from the recording a replay answers from (the client cannot be run
    again: what it did then is what is judged)."""
    if replay is not None:
        return _restored(replay.observed(MEMO_KEY), replay)
    session = await _drive(template, deadline, SCENARIOS)
    if recorder is not None:
        recorder.observed(MEMO_KEY, _kept(session, recorder))
    return session


def _observed(target: Target) -> ClientSession:
    """In a run that watches: the client's side of the traffic as one record, its documents and the
    requests sent to where its document's invoke_path leads (whatever their method)."""
    from .observed import invocation_path

    assert target.observed is not None
    document = target.fetched.document
    pattern = invocation_path(document)
    requests = [
        SpyRequest(
            "observed",
            _host_of(o),
            o.method,
            o.path,
            o.request_headers,
            o.request_body,
            o.at,
            status=o.status,
            answered=o.response_headers,
            url=o.url,
        )
        for o in target.observed.exchanges
        if o.is_document or (pattern is not None and pattern.match(o.path))
    ]
    documents = {r.host: document for r in requests} if isinstance(document, dict) else {}
    scenario = Scenario("observed", "the traffic that passed by", documents, ())
    return ClientSession({scenario.name: ScenarioRecord(scenario, [], requests)}, observed=True)


def _host_of(observed: Observed) -> str:
    named = observed.request_headers.get("host", "")
    return (
        (named.rpartition(":")[0] if named.rpartition(":")[2].isdigit() else named).lower()
        or urlsplit(observed.url).hostname
        or ""
    )


async def client_session(target: Target) -> ClientSession:
    """Every scenario played against the client command of this run (once, however many checks
    ask), or in a run that watches, what the client sent."""
    if target.observed is not None:
        return await target.memo(MEMO_KEY, lambda: asyncio.sleep(0, _observed(target)))
    template = target.options.client_command
    assert template is not None, "client checks run only with --client-command"
    return await target.memo(
        MEMO_KEY,
        lambda: _session(template, target.options.timeout * 3, target.recorder, target.replay),
    )
