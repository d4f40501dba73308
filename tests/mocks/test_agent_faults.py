"""A fault that is a subclass of a reference agent breaks its one rule: on every request, or at a
rate on the requests a seeded coin picked, the reference answering the others; a fault made when
the agent starts cannot be applied at a rate; the reference agents name no rule they break."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx
import pytest

from mocks.faults.aci import ACI_FAULTS
from mocks.faults.catalogue import FAULTS
from mocks.faults.rate import AgentFault
from mocks.faults.sdsi import SDSI_FAULTS
from mocks.faults.sdsi import ReflectsOther
from mocks.faults.woa_client import CLIENT_FAULTS
from mocks.host import create_app
from mocks.reference.aci_agents import SubtaskExecutor
from mocks.reference.aci_master import ContextStore
from mocks.reference.aci_master import Master
from mocks.reference.sdsi_client import SdsiClient
from mocks.reference.sdsi_server import SdsiServer
from mocks.reference.woa_client import WoaClient

ROOT = Path(__file__).resolve().parents[2]
BASE = "http://testserver"
MARKUP = "<b>window seat</b>"


def test_a_fault_overrides_one_method_and_says_its_rule() -> None:
    server = ReflectsOther()
    result = server.execute("flight_booking_v1", _payload())
    assert result["noted"] == [MARKUP]
    assert SdsiServer().execute("flight_booking_v1", _payload())["noted"] == [
        "&lt;b&gt;window seat&lt;/b&gt;"
    ]
    assert FAULTS["sdsi-7-other-not-reflected"].agent is ReflectsOther


REFERENCES = (SdsiServer, SdsiClient, SubtaskExecutor, Master, ContextStore)


def test_every_agent_fault_is_a_subclass_of_one_reference_agent_and_in_the_catalogue() -> None:
    faults: list[type[AgentFault]] = [*SDSI_FAULTS, *ACI_FAULTS]
    for fault in faults:
        assert sum(issubclass(fault, reference) for reference in REFERENCES) == 1, fault
        name = fault.requirement.lower() + (f"-{fault.variant}" if fault.variant else "")
        assert FAULTS[name].agent is fault
    for client_fault in CLIENT_FAULTS.values():
        assert issubclass(client_fault.agent, WoaClient)
        assert client_fault.agent is not WoaClient


def test_the_reference_agents_name_no_rule_they_break() -> None:
    """A reference agent reads as the draft: no requirement ID stands in its code, only in the
    faults (mocks/faults/)."""
    requirement_id = re.compile(r"[\"'](SDSI|ACI|WOA)-[0-9]")
    named = [
        f"{path.name}:{n}"
        for path in sorted((ROOT / "mocks" / "reference").glob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if requirement_id.search(line)
    ]
    assert named == []


def _payload() -> dict[str, object]:
    return {"origin": "PEK", "destination": "SHA", "departure_date": "2026-05-04", "other": MARKUP}


async def _noted(rate: float | None, requests: int) -> list[bool]:
    app = create_app(BASE, "sdsi-7-other-not-reflected", fault_rate=rate, fault_seed=7)
    envelope = {
        "input": {"schema_id": "flight_booking_v1", "payload": _payload()},
        "operation": "execute",
    }
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as client:
        answers = [
            await client.post("/agents/travel-and-photo/invoke", json=envelope)
            for _ in range(requests)
        ]
    return [a.json()["noted"] == [MARKUP] for a in answers]


def test_at_a_rate_the_fault_breaks_its_rule_on_the_picked_requests_alone() -> None:
    always = asyncio.run(_noted(None, 5))
    sometimes = asyncio.run(_noted(0.5, 40))
    assert all(always)
    assert 0 < sum(sometimes) < len(sometimes)
    assert asyncio.run(_noted(0.5, 40)) == sometimes  # the same seed picks the same requests


def test_a_fault_made_when_the_agent_starts_cannot_be_applied_at_a_rate() -> None:
    with pytest.raises(ValueError, match="made once"):
        create_app(BASE, "sdsi-4.1-key-name-snake-case", fault_rate=0.5)
