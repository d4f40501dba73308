"""Targets as users run them: one live server certified again and again (a team gating every commit
on its staging server), SDSI scenarios however a framework spells them, and the WoA 5.2 reading
that a refused schema-valid input breaks no MUST."""

from __future__ import annotations

import json
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp
from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send
from typer.testing import CliRunner

from conformance.bindings.sdsi import CAPABILITY
from conformance.cli import app as cli
from mocks.reference.woa_host import create_app
from mocks.serve import ServedMock
from mocks.serve import serve
from mocks.serve import serve_host
from tests.command import against

runner = CliRunner()


def _certify(host: ServedMock, folder: Path, *more: str) -> tuple[int, str, dict[str, Any]]:
    result = runner.invoke(cli, ["run", *against(host), "--report-dir", str(folder), *more])
    report = (
        json.loads((folder / "report.json").read_text())
        if (folder / "report.json").exists()
        else {}
    )
    return result.exit_code, result.output, report


def _verdicts(report: dict[str, Any]) -> dict[str, str]:
    return {r["requirement"]: r["status"] for r in report["results"]}


def test_one_live_server_certified_again_through_the_command_gets_a_new_seed_and_the_same_verdicts(
    tmp_path: Path,
) -> None:
    """Twice through the command line: each run its own seed, the same verdicts (a hundred runs, the
    test below, hold the verdicts and the server's state over time)."""
    with serve_host() as host:  # not --mock: the same server, its state kept from run to run
        runs = [_certify(host, tmp_path / str(n)) for n in range(2)]
    seeds = {report["header"]["options"]["seed"] for _, _, report in runs}
    assert len(seeds) == 2  # a fresh seed each run: new sessions, canaries and ids
    assert [code for code, _, _ in runs] == [0] * 2, runs[-1][1]
    first = _verdicts(runs[0][2])
    for _, output, report in runs[1:]:
        assert _verdicts(report) == first, output
    assert "Seed " in runs[0][1]


CAP = "SDSI-6.2.3-CONVERGENCE-CAP"


def _rss_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


@pytest.mark.timeout(400)  # a hundred whole certifications: about 100 s alone, more beside others
def test_one_live_server_certified_a_hundred_times_stays_the_same_and_keeps_nothing() -> None:
    """A team gating every commit on one staging server: the reference certified 100 times with
    every draft (80 one after another, then 4 at a time), its state kept from run to run. Every
    run exits 0 with the same verdicts, the process's memory (server and suite) levels off once
    the server's test sessions reach their cap of 256 (about 50 runs), and
    the server's real Differential Semantic Pool learns nothing from the suite: its payloads go in
    a test session of the run's own (x-sdsi-test-mode), where they had fed the real pool until,
    after ten runs, it served four experimental keys against its cap of three
    (SDSI-6.2.3-CONVERGENCE-CAP)."""
    import asyncio
    import concurrent.futures

    from conformance.engine.runner import run
    from conformance.report import Collect
    from conformance.report.outcome import told
    from conformance.targeting import run_options

    def certify(host: ServedMock) -> tuple[int, dict[str, str], str]:
        collect = Collect()
        # the run's default timeout: four at a time on two busy cores, a master's whole task
        # (its spies fetching what it offloaded) may take more than five seconds
        options = run_options(target=host.url, suites=("woa", "sdsi", "aci"), cacert=host.cacert)
        summary = asyncio.run(run(options, [collect]))
        verdicts = {r.requirement: r.status.value for r in collect.results}
        # how many patches the real world served (polled, and suggested inline)
        served = next(r.message for r in collect.results if r.requirement == CAP)
        return told(summary).code, verdicts, served

    with serve_host() as host:
        runs, memory = [], {}
        for n in range(80):
            runs.append(certify(host))
            memory[n] = _rss_mb()
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            for _ in range(5):
                runs += list(pool.map(lambda _: certify(host), range(4)))
    assert len(runs) == 100
    assert [code for code, _, _ in runs] == [0] * 100
    first = runs[0][1]
    assert [n for n, (_, verdicts, _) in enumerate(runs) if verdicts != first] == []
    # the real pool evolved nothing: the hundredth run is served the patches the first was
    assert {served for _, _, served in runs} == {runs[0][2]}, runs[-1][2]
    # past the session cap, 25 runs leave less than 15 MB behind (measured: about 7)
    print({n: round(mb) for n, mb in memory.items() if n % 10 == 9})
    assert memory[79] - memory[54] < 15, memory


def test_a_given_seed_is_kept_and_recorded(tmp_path: Path) -> None:
    with serve_host() as host:
        _, _, report = _certify(host, tmp_path, "--suite", "sdsi", "--seed", "7")
    assert report["header"]["options"]["seed"] == 7


class Respelled:
    """The reference host with its WoA document edited on the way out (how another framework
    would emit it)."""

    def __init__(self, app: ASGIApp, edit: Callable[[dict[str, Any]], None]) -> None:
        self.app, self.edit = app, edit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != "/.well-known/woa.json":
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def keep(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            else:
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    body = b"".join(chunks)
                    if start["status"] == 200:
                        document = json.loads(body)
                        self.edit(document)
                        body = json.dumps(document).encode()
                    headers = [
                        (k, v)
                        for k, v in start["headers"]
                        if k.lower() not in (b"content-length", b"etag")
                    ]
                    await send(
                        {
                            **start,
                            "headers": [*headers, (b"content-length", str(len(body)).encode())],
                        }
                    )
                    await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, keep)


def _sdsi_operation(document: dict[str, Any], name: str) -> dict[str, Any]:
    agent = next(a for a in document["agents"] if CAPABILITY in a.get("capabilities", []))
    return next(o for o in agent["operations"] if o["name"] == name)


SPELLINGS = {
    "literal": {
        "const": "flight_booking",
        "title": "Scenario",
        "type": "string",
    },  # pydantic Literal["flight_booking"]
    "enum-ref": {"$ref": "#/$defs/Scenario"},  # a pydantic str Enum
    "one-of-consts": {
        "oneOf": [{"const": "flight_booking"}, {"const": "photo_retouch"}]
    },  # zod z.union of literals
}


@pytest.fixture
def respelled() -> Iterator[Callable[[Callable[[dict[str, Any]], None]], Any]]:
    def hosting(edit: Callable[[dict[str, Any]], None]) -> Any:
        return serve(lambda base: Respelled(create_app(base), edit))

    yield hosting


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_an_sdsi_server_is_certified_whatever_the_spelling_of_its_scenarios(
    spelling: str, respelled: Any, tmp_path: Path
) -> None:
    def edit(document: dict[str, Any]) -> None:
        inputs = _sdsi_operation(document, "get_schema_template")["inputs"]
        inputs["properties"]["scenario"] = SPELLINGS[spelling]
        inputs["$defs"] = {
            "Scenario": {
                "enum": ["flight_booking", "photo_retouch"],
                "title": "Scenario",
                "type": "string",
            }
        }

    with respelled(edit) as host:
        code, output, report = _certify(host, tmp_path, "--suite", "sdsi")
    assert code == 0, output
    assert report["summary"]["levels"]["sdsi"] == "SHOULD-compliant"


def test_scenario_is_honoured_over_woa_rest_and_refused_where_it_cannot_apply(
    respelled: Any, tmp_path: Path
) -> None:
    def unlisted(document: dict[str, Any]) -> None:  # a plain string: only --scenario can name one
        _sdsi_operation(document, "get_schema_template")["inputs"]["properties"]["scenario"] = {
            "type": "string"
        }

    with respelled(unlisted) as host:
        code, output, _ = _certify(host, tmp_path / "without", "--suite", "sdsi")
        assert code == 2, output
        code, output, report = _certify(
            host, tmp_path / "with", "--suite", "sdsi", "--scenario", "flight_booking"
        )
        assert code == 0, output
        assert report["header"]["options"]["scenarios"] == ["flight_booking"]
    result = runner.invoke(cli, ["run", "--mock", "--suite", "woa", "--scenario", "flight_booking"])
    assert result.exit_code == 2 and "--scenario names SDSI scenarios" in result.output


def test_a_refused_schema_valid_input_breaks_no_must(respelled: Any, tmp_path: Path) -> None:
    # schema_id as a FastAPI server types it: any string
    def free_text(document: dict[str, Any]) -> None:
        inputs = _sdsi_operation(document, "execute")["inputs"]
        inputs["properties"]["schema_id"] = {"type": "string"}
        inputs.pop("allOf", None)
        inputs.pop("examples", None)

    with respelled(free_text) as host:
        code, output, report = _certify(host, tmp_path, "--suite", "woa")
        verdicts = _verdicts(report)
        assert verdicts["WOA-5.2-VALID-INPUT-ACCEPTED"] == "fail"  # SHOULD, basis inferred
        assert verdicts["WOA-5.2-SUCCESS-2XX"] == "pass"
        assert code == 0, output
        code, _, report = _certify(host, tmp_path / "strict", "--suite", "woa", "--strict")
    assert code == 1  # the suite's stronger reading decides MUST compliance only under --strict
    accepted = next(
        r for r in report["results"] if r["requirement"] == "WOA-5.2-VALID-INPUT-ACCEPTED"
    )
    assert accepted["level"] == "MUST" and accepted["basis"] == "inferred"
