"""One interop pair: implementation A's client side against implementation B's server side,
through the judging proxy, both sides judged by the registered checks.

    woa    A's WoA client (its command) calls agents of B's host; the command is handed the
           proxy's URL of B's WoA document
    aci    A's ACI master runs the draft's tour task (run_task) with B's invoked agents: its
           `agents` input is the proxy's URL of B's WoA document
    sdsi   A's SDSI client serves a user's request (handle_user_request) with B's SDSI server:
           its `server` input is the proxy's URL of B's WoA document

The proxy in front of B records what A sent and what B answered (the document's transport URLs
rewritten to pass through it); for aci and sdsi a second proxy records the suite's call to A and
A's answer (A's TaskContext, A's reply). Each recording is judged as a run that watches
(usecases/proxy): B's side is what B answered (host, server and invoked rules), A's side what A
sent B (client rules) and what A answered the suite. The pair interoperates when the exchange
completed and no MUST broke on either side; it broke otherwise (the side and requirement named,
or why the exchange did not complete); it could not run when the suite could not set it up.
"""

from __future__ import annotations

import asyncio
import json
import re
import ssl
import tempfile
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...bindings.aci import aci_agents
from ...bindings.aci import role_of
from ...bindings.http import ExchangeFailed
from ...bindings.http import HttpClient
from ...bindings.http import Unreachable
from ...bindings.http import tls_context
from ...bindings.jsonparse import NotJson
from ...bindings.jsonparse import parse_json
from ...bindings.observed import Traffic
from ...bindings.reply import operation_names
from ...bindings.sdsi import sdsi_agents
from ...checks.sdsi.client import UTTERANCES
from ...harness.aci_spies import QUERIES
from ...report.redaction import Redaction
from ...requirements import catalogue
from ..proxy.serve import served
from ..spread import until
from .manifest import Implementation

__all__ = ["PAIRINGS", "Pair", "Pairing", "cell_of", "interoperate", "roles_of", "woa_document"]

#: How many of B's agents A's WoA client is asked to call.
WOA_CALLS = 3
#: What the suite asks of an ACI master and of an SDSI client: the drafts' own examples, as the
#: master and client checks ask them.
TOUR = QUERIES["tour"]
FLIGHT = UTTERANCES["flight_booking"]


@dataclass(frozen=True)
class Pairing:
    """Which role of A meets which role of B, for which draft."""

    draft: str
    client: str
    server: str


PAIRINGS = (
    Pairing("woa", "woa-client", "woa-host"),
    Pairing("aci", "aci-master", "aci-invoked"),
    Pairing("sdsi", "sdsi-client", "sdsi-server"),
)

#: The roles a requirement binds that A's side plays (the rest are B's, or either's).
_CLIENT_ROLES = {"client", "master"}
_SERVER_ROLES = {"host", "server", "invoked"}


def roles_of(implementation: Implementation, document: Any) -> set[str]:
    """The roles `implementation` plays, from its WoA document (None: none read) and whether it
    gave a client command."""
    roles = {"woa-client"} if implementation.client_command else set()
    if not isinstance(document, dict) or not isinstance(document.get("agents"), list):
        return roles
    roles.add("woa-host")
    for agent in aci_agents(document):
        roles.add(f"aci-{role_of(agent)}")
    agents = [a for a in document["agents"] if isinstance(a, dict)]
    if any("handle_user_request" in operation_names(a) for a in agents):
        roles.add("sdsi-client")
    if any("get_schema_template" in operation_names(a) for a in sdsi_agents(document)):
        roles.add("sdsi-server")
    return roles


@dataclass(frozen=True)
class Pair:
    pairing: Pairing
    client: Implementation
    server: Implementation

    @property
    def slug(self) -> str:
        """The pair's folder name."""
        named = f"{self.pairing.draft}-{self.client.name}-with-{self.server.name}"
        return re.sub(r"[^A-Za-z0-9._-]+", "-", named).strip("-")


def _verify(cacert: str | None) -> ssl.SSLContext | bool:
    return tls_context(cacert) if cacert else True


def _headers(implementation: Implementation) -> dict[str, str]:
    return {
        name.strip(): value.strip()
        for name, _, value in (h.partition(":") for h in implementation.headers)
    }


@asynccontextmanager
async def _proxy(
    upstream: str, implementation: Implementation, traffic: Traffic, tls: bool, timeout: float
) -> AsyncIterator[tuple[str, Path | None]]:
    """The judging proxy in front of `upstream` on loopback, recording into `traffic`, while the
    block runs: its origin, and the CA its certificate chains to (over TLS)."""
    with tempfile.TemporaryDirectory(prefix="agent-conformance-interop-") as folder:
        authority = Path(folder) / "proxy-ca.pem" if tls else None
        async with served(
            upstream,
            traffic,
            authority=authority,
            verify=_verify(implementation.cacert),
            headers=_headers(implementation),
            deadline=timeout,
        ) as origin:
            yield origin, authority


async def woa_document(url: str, implementation: Implementation, timeout: float) -> Any:
    """The WoA document at `url`, or None (read by the suite's client: within `timeout` seconds
    in all, its body capped)."""
    cacert = Path(implementation.cacert) if implementation.cacert else None
    async with HttpClient(
        timeout=timeout, cacert=cacert, headers=_headers(implementation)
    ) as client:
        try:
            answer = await client.request("GET", url + "/.well-known/woa.json")
            return parse_json(answer.body) if answer.status == 200 else None
        except (ExchangeFailed, Unreachable, NotJson):
            return None


def _callable_agents(document: Any) -> list[tuple[str, str, Any]]:
    """(agent, operation, a valid input) for up to WOA_CALLS of the document's plain WoA agents
    (not its ACI or SDSI ones, whose inputs name other agents), in the document's order."""
    from ...instances import Ungeneratable
    from ...instances import valid_examples

    special = {a.get("id") for a in (*aci_agents(document), *sdsi_agents(document))}
    chosen = []
    for agent in document.get("agents", []):
        if not isinstance(agent, dict) or agent.get("id") in special:
            continue
        if "handle_user_request" in operation_names(agent):
            continue
        try:
            example = valid_examples(agent.get("inputs", {}), limit=1)
        except Ungeneratable:
            continue
        if example:
            chosen.append((str(agent.get("id")), "", example[0]))
        if len(chosen) == WOA_CALLS:
            break
    return chosen


async def _woa_client(pair: Pair, proxy: str, authority: Path, timeout: float) -> str | None:
    """A's WoA client calls B's agents through the proxy; why the exchange did not complete."""
    from ...driver.command import CommandDriver
    from ...driver.command import Request

    assert pair.client.client_command is not None and pair.server.host is not None
    # read from B itself: a read through the proxy would stand in its traffic as A's
    document = await woa_document(pair.server.host, pair.server, timeout)
    if document is None:
        return f"{pair.server.name}'s WoA document could not be read"
    calls = _callable_agents(document)
    if not calls:
        return f"{pair.server.name} offers no agent the suite can make an input for"
    driver = CommandDriver(pair.client.client_command, timeout)
    loopback = "127.0.0.1,localhost,::1"
    for agent, operation, given in calls:
        with tempfile.TemporaryDirectory(prefix="agent-conformance-interop-") as workdir:
            outcome = await driver.act(
                Request(f"{proxy}/.well-known/woa.json", agent, operation, given),
                workdir=Path(workdir),
                cacert=authority,
                environment={
                    "WOA_CLIENT_ALLOWED_HOSTS": "127.0.0.1",
                    "WOA_CLIENT_CACHE_DIR": workdir,
                    "NO_PROXY": loopback,
                    "no_proxy": loopback,
                },
            )
        if outcome.exit_code != 0 or outcome.outputs is None:
            return f"{pair.client.name}'s client, calling {agent}: {outcome.describe()}"
    return None


async def _drive(pair: Pair, proxy: str, calls: Traffic, timeout: float) -> str | None:
    """The suite asks A's master (run_task) or SDSI client (handle_user_request), through a proxy
    recording into `calls`, to work with B's agents behind `proxy`; why the exchange did not
    complete."""
    assert pair.client.host is not None
    draft = pair.pairing.draft
    async with _proxy(pair.client.host, pair.client, calls, False, timeout) as (front, _):
        document = await woa_document(front, Implementation("proxy"), timeout)
        agents = (
            [a for a in aci_agents(document) if role_of(a) == "master"]
            if draft == "aci"
            else [
                a
                for a in (document or {}).get("agents", [])
                if isinstance(a, dict) and "handle_user_request" in operation_names(a)
            ]
        )
        rest = (document or {}).get("transports", {}).get("rest", {})
        if not agents or not isinstance(rest, dict) or not isinstance(rest.get("base"), str):
            return f"{pair.client.name}'s document no longer offers the agent over rest"
        agent = agents[0]["id"]
        url = rest["base"].rstrip("/") + str(rest.get("invoke_path", "")).replace(
            "{agent_id}", agent
        )
        where = f"{proxy}/.well-known/woa.json"
        envelope = {
            "agent": agent,
            "operation": "run_task" if draft == "aci" else "handle_user_request",
            "input": (
                {"UserQuery": TOUR, "agents": where}
                if draft == "aci"
                else {"utterance": FLIGHT, "server": where}
            ),
        }
        # a whole task of the master's: four request timeouts
        async with HttpClient(timeout=timeout * 4) as client:
            try:
                answer = await client.request("POST", url, json=envelope)
            except (ExchangeFailed, Unreachable) as error:
                return f"{pair.client.name} did not answer: {error}"
        if answer.status >= 300:
            said = answer.body[:200].decode("utf-8", "replace")
            return f"{pair.client.name} answered {answer.status}: {said}"
    return None


def _broken(results: list[Any], pair: Pair, of_client: bool) -> list[dict[str, str]]:
    """Each MUST that failed or errored, with the implementation whose side broke it."""
    broken = []
    for result in results:
        if result.level != "MUST" or result.status.value not in ("fail", "error"):
            continue
        role = catalogue()[result.requirement].role
        side = (
            pair.client.name
            if of_client or role in _CLIENT_ROLES
            else pair.server.name
            if role in _SERVER_ROLES
            else f"{pair.client.name} or {pair.server.name}"
        )
        broken.append(
            {"side": side, "requirement": result.requirement, "status": result.status.value}
        )
    return broken


async def _judged(
    side: Implementation,
    draft: str,
    traffic: Traffic,
    folder: Path,
    about: dict[str, Any],
    roles: Any,
) -> list[Any]:
    """The results of `traffic` judged as a run that watches `side` (its headers' values kept
    out of the reports, as `run` keeps them)."""
    from ...engine.runner import run
    from ...report import Collect
    from ...report.writers import writers_for
    from ...targeting import run_options

    assert side.host is not None
    collect = Collect()
    options = run_options(
        side.host, suites=(draft,), roles=roles, headers=side.headers, seed=0, observed=traffic
    )
    await run(options, [collect, *writers_for(folder)], about=about)
    return collect.results


async def _interoperate(pair: Pair, folder: Path, timeout: float) -> dict[str, Any]:
    from ...targeting import DEFAULT_ROLES
    from ..proxy.judge import ROLES

    assert pair.server.host is not None
    draft = pair.pairing.draft
    to_server, to_client = Traffic(source="interop"), Traffic(source="interop")
    async with _proxy(pair.server.host, pair.server, to_server, draft == "woa", timeout) as (
        proxy,
        authority,
    ):
        if draft == "woa":
            assert authority is not None
            unfinished = await _woa_client(pair, proxy, authority, timeout)
        else:
            unfinished = await _drive(pair, proxy, to_client, timeout)
    if unfinished is None and not [o for o in to_server.exchanges if o.method != "GET"]:
        unfinished = f"{pair.client.name} sent {pair.server.name}'s agents nothing"
    about = {"interop": {"client": pair.client.name, "server": pair.server.name, "draft": draft}}
    judged = await _judged(pair.server, draft, to_server, folder / "server-side", about, ROLES)
    broken = _broken(judged, pair, of_client=False)
    if to_client.exchanges:
        assert pair.client.host is not None
        answered = await _judged(
            pair.client, draft, to_client, folder / "client-side", about, DEFAULT_ROLES
        )
        broken += _broken(answered, pair, of_client=True)
        judged += answered
    return cell_of(unfinished, broken, judged)


def cell_of(
    unfinished: str | None, broken: list[dict[str, str]], judged: list[Any]
) -> dict[str, Any]:
    """A pair's cell: it broke when the exchange did not complete or a MUST broke; it
    interoperates only when, besides, some MUST was judged and passed (the exchange showed
    something); else nothing could be judged of it."""
    if unfinished is not None or broken:
        return {"outcome": "broke", "broke": broken, "why": unfinished or ""}
    if not any(r.level == "MUST" and r.status.value == "pass" for r in judged):
        why = "the exchange completed, but it showed nothing a MUST requirement could be judged on"
        return {"outcome": "could-not-run", "broke": [], "why": why}
    return {"outcome": "interoperates", "broke": [], "why": ""}


def interoperate(
    pair: Pair, out: str, timeout: float = 30.0, stop: threading.Event | None = None
) -> dict[str, Any]:
    """Run `pair` into out/<pair's slug>/ (its evidence: server-side/ and client-side/ reports);
    its cell of the matrix. Never raises: what stopped it is the cell's `why`; `stop`, once set
    (a signal), cuts it short (a client command under way is killed)."""
    folder = Path(out) / pair.slug
    cell: dict[str, Any] = {
        "draft": pair.pairing.draft,
        "client": pair.client.name,
        "server": pair.server.name,
        "folder": pair.slug,
    }
    try:
        folder.mkdir(parents=True, exist_ok=True)
        cell |= asyncio.run(until(_interoperate(pair, folder, timeout), stop))
    except asyncio.CancelledError:
        cell |= {"outcome": "could-not-run", "broke": [], "why": "interrupted"}
    except Exception as error:  # one pair's trouble is its cell, never the matrix's end
        cell |= {"outcome": "could-not-run", "broke": [], "why": f"{type(error).__name__}: {error}"}
    for side in (pair.client, pair.server):  # a credential of either never reaches the matrix
        hidden = Redaction.of(side.host or "", _headers(side).items(), command=side.client_command)
        cell["why"] = hidden.text(cell["why"])
    (folder / "cell.json").write_text(json.dumps(cell, indent=2) + "\n", encoding="utf-8")
    return cell
