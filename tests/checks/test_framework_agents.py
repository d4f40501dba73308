"""Agents as users build them: a FastAPI + pydantic host (examples/fastapi_host.py), a host of one
agent per schema of the framework corpus, and an agent whose input the suite cannot build. Every
advertised agent is exercised or named with why; the rules that need no valid input are probed on
every agent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema import validators
from pydantic import Field
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.responses import Response
from starlette.routing import Route
from typer.testing import CliRunner

from conformance.cli import app as cli
from examples import fastapi_host
from examples import fastapi_sdsi_server
from examples import mcp_host
from mocks.serve import serve
from tests.command import against
from tests.command import agent_conformance

runner = CliRunner()
CORPUS = Path(__file__).parents[1] / "instances" / "corpus"
#: An input the suite cannot build: a lookahead pattern (no string is walked from it) on a required
#: member.
HARD = {
    "type": "object",
    "required": ["code"],
    "properties": {"code": {"type": "string", "pattern": "^(?=.*[0-9])[a-z0-9]{8}$"}},
}
PROBLEM = "application/problem+json"


def _certify(
    url: str, cacert: Path | None, folder: Path, *more: str
) -> tuple[int, str, dict[str, Any]]:
    result = runner.invoke(
        cli,
        [
            "run",
            "--target",
            url,
            "--cacert",
            str(cacert),
            "--suite",
            "woa",
            "--report-dir",
            str(folder),
            *more,
        ],
    )
    return result.exit_code, result.output, json.loads((folder / "report.json").read_text())


def _failing(report: dict[str, Any]) -> set[str]:
    return {r["requirement"] for r in report["results"] if r["status"] in ("fail", "error")}


def test_the_fastapi_host_is_certified_clean_with_both_agents_exercised(tmp_path: Path) -> None:
    # the app as users start it (uvicorn examples.fastapi_host:app), announcing the origin it is
    # reached at
    with serve(lambda _: fastapi_host.app) as host:
        code, output, report = _certify(host.url, host.cacert, tmp_path)
    assert code == 0, output
    assert _failing(report) == set()
    agents = {a["id"]: a for a in report["coverage"]["agents"]}
    assert agents.keys() == {"weather", "translate"} and all(
        a["exercised"] for a in agents.values()
    )
    # its $ref-to-Enum input was built
    assert "WOA-5.2-AGENT-MISMATCH-400" in agents["translate"]["requirements"]


@pytest.mark.parametrize("fault", sorted(fastapi_host.FAULTS))
def test_each_fault_of_the_fastapi_host_is_caught_on_its_requirement_alone(
    fault: str, tmp_path: Path
) -> None:
    with serve(lambda _: fastapi_host.create_app(fault=fault)) as host:
        _, output, report = _certify(host.url, host.cacert, tmp_path)
    assert _failing(report) == {fastapi_host.FAULTS[fault]}, output


def test_the_fastapi_host_is_fuzzed_through_its_refs(tmp_path: Path) -> None:
    """The fuzzer runs as users run it, in a process of its own: hypothesis moves the recursion
    limit while it runs, and Python 3.11's compiler, in the thread serving FastAPI in this
    process, would take that for a corrupted AST ("AST constructor recursion depth mismatch")."""
    with serve(lambda _: fastapi_host.app) as host:
        done = agent_conformance(
            *("fuzz", *against(host), "--report-dir", str(tmp_path), "--max-examples", "25"),
            timeout=300,
        )
    output = done.stdout + done.stderr
    assert (tmp_path / "report.json").exists(), output
    report = json.loads((tmp_path / "report.json").read_text())
    assert set(report["header"]["options"]["fuzzed_agents"]) == {"weather", "translate"}, output
    assert report["header"]["options"]["left_out"] == []
    assert done.returncode == 0, output


@pytest.mark.parametrize("fault", [None, *sorted(mcp_host.FAULTS)])
def test_a_host_on_the_mcp_sdk_is_certified_through_its_tools(
    fault: str | None, tmp_path: Path
) -> None:
    with serve(lambda _: mcp_host.create_app(fault=fault)) as host:
        code, output, report = _certify(host.url, host.cacert, tmp_path)
    assert _failing(report) == ({mcp_host.FAULTS[fault]} if fault else set()), output
    assert (
        report["summary"]["levels"]["woa"] == ("MUST-compliant" if fault else "SHOULD-compliant")
        and code == 0
    )
    assert all(
        a["exercised"] and a["requirements"] == ["WOA-5.3-MCP-TOOL-INVOCATION"]
        for a in report["coverage"]["agents"]
    )


@pytest.mark.parametrize("fault", [None, *sorted(fastapi_sdsi_server.FAULTS)])
def test_an_sdsi_server_on_fastapi_with_a_literal_scenario_is_certified(
    fault: str | None, tmp_path: Path
) -> None:
    with serve(lambda _: fastapi_sdsi_server.create_app(fault=fault)) as host:
        result = runner.invoke(
            cli, ["run", *against(host), "--suite", "sdsi", "--report-dir", str(tmp_path)]
        )
        report = json.loads((tmp_path / "report.json").read_text())
        assert _failing(report) == ({fastapi_sdsi_server.FAULTS[fault]} if fault else set()), (
            result.output
        )
        # the same server as a WoA host: refusing an unknown schema_id breaks no MUST
        if fault is None:
            code, output, report = _certify(host.url, host.cacert, tmp_path / "woa")
            assert code == 0, output
            # a SHOULD; the caching set (Cache-Control beside a validator) is a MAY, a warning
            assert _failing(report) == {"WOA-5.2-VALID-INPUT-ACCEPTED"}
            (caching,) = [
                r
                for r in report["results"]
                if r["requirement"] == "WOA-7-CACHE-CONTROL-AND-VALIDATOR"
            ]
            assert caching["status"] == "pass" and caching["message"].startswith("warning")


def _corpus_host(extra: dict[str, Any], *, corpus: bool = True) -> Any:
    """A host with one agent per schema of the corpus (unless not `corpus`), each validating its
    input, plus `extra` agents (id: inputs)."""
    agents: dict[str, Any] = {}
    for path in sorted(CORPUS.glob("*.json")) if corpus else []:
        for n, entry in enumerate(json.loads(path.read_text())):
            agents[f"{entry['source']}-{n}"] = entry["schema"]
    agents.update(extra)
    checkers = {
        agent_id: validators.validator_for(s, default=Draft202012Validator)(
            s, format_checker=Draft202012Validator.FORMAT_CHECKER
        )
        for agent_id, s in agents.items()
    }

    def build(base: str) -> Starlette:
        document = {
            "woa_version": "1",
            "host": {"name": "corpus"},
            "transports": {"rest": {"base": base, "invoke_path": "/a/{agent_id}"}},
            "agents": [
                {
                    "id": i,
                    "name": i,
                    "description": "d",
                    "inputs": s,
                    "outputs": {"type": "object"},
                    "transports": ["rest"],
                }
                for i, s in agents.items()
            ],
        }

        async def woa(request: Request) -> Response:
            return Response(json.dumps(document), media_type="application/woa+json")

        async def invoke(request: Request) -> Response:
            agent_id = request.path_params["agent_id"]
            try:
                envelope = json.loads(await request.body())
            except ValueError:
                return JSONResponse(
                    {"title": "not JSON", "status": 400}, status_code=400, media_type=PROBLEM
                )
            # serves any envelope: a MUST the suite must see without a valid input
            lenient = agent_id == "hard-and-lenient"
            if not lenient and (
                not isinstance(envelope, dict) or envelope.get("agent", agent_id) != agent_id
            ):
                return JSONResponse(
                    {"title": "mismatch", "status": 400}, status_code=400, media_type=PROBLEM
                )
            if not lenient and not checkers[agent_id].is_valid(envelope.get("input")):
                return JSONResponse(
                    {"title": "invalid input", "status": 422}, status_code=422, media_type=PROBLEM
                )
            return JSONResponse({})

        return Starlette(
            routes=[
                Route("/.well-known/woa.json", woa),
                Route("/a/{agent_id}", invoke, methods=["POST"]),
            ]
        )

    return build


@pytest.fixture(scope="module")
def corpus_host() -> Iterator[Any]:
    with serve(_corpus_host({"hard": HARD, "hard-and-lenient": HARD})) as host:
        yield host


def test_every_agent_of_a_host_of_hundreds_is_exercised_by_default_or_named_with_why(
    corpus_host: Any, tmp_path: Path
) -> None:
    code, output, report = _certify(corpus_host.url, corpus_host.cacert, tmp_path)
    coverage = {a["id"]: a for a in report["coverage"]["agents"]}
    assert len(coverage) == report["coverage"]["advertised"] >= 269
    missing = [a for a in coverage.values() if not a["exercised"]]
    # corpus schemas of arrays and strings
    objectless = [a for a in missing if "admits no object" in a["why"]]
    assert [a["id"] for a in missing if a not in objectless] == ["hard", "hard-and-lenient"]
    # the corpus's array, tuple and enum roots: arrays of items, Tags, Coordinates, ...
    assert len(objectless) == 13
    assert "no valid input could be built" in coverage["hard"]["why"]
    # the mismatch needs no valid input: the lenient hard agent is caught, the other judged
    assert "WOA-5.2-AGENT-MISMATCH-400" in coverage["hard"]["requirements"]
    assert "WOA-5.2-AGENT-MISMATCH-400" in _failing(report) and code == 1
    assert "AGENT 'hard' not exercised: no valid input could be built" in output
    shown = f"{len(coverage) - len(missing)} of {len(coverage)}"
    assert f"{shown} agents" in report["summary"]["headline"]
    assert f"Agents: {shown} exercised" in (tmp_path / "summary.md").read_text()
    assert f"Agents: {shown} exercised" in (tmp_path / "report.html").read_text()


def test_a_partial_run_exits_4_when_every_agent_is_required(tmp_path: Path) -> None:
    easy = {"type": "object", "required": ["q"], "properties": {"q": {"type": "string"}}}
    with serve(_corpus_host({"easy": easy, "hard": HARD}, corpus=False)) as host:
        code, output, report = _certify(host.url, host.cacert, tmp_path, "--require-every-agent")
        assert code == 4, output
        assert "1 of 2 advertised agents were not exercised" in report["summary"]["gate"]["reason"]
        code, output, report = _certify(host.url, host.cacert, tmp_path)
    assert code == 0 and "MUST-compliant, 1 of 2 agents" in output, output
    assert "MUST-compliant, 1 of 2 agents" in (tmp_path / "badge-woa.svg").read_text()


def test_a_probe_cap_cuts_agents_breadth_first_and_says_so(
    corpus_host: Any, tmp_path: Path
) -> None:
    _, _, report = _certify(corpus_host.url, corpus_host.cacert, tmp_path, "--max-probes", "60")
    coverage = report["coverage"]["agents"]
    exercised = [a for a in coverage if a["exercised"]]
    assert 15 <= len(exercised) <= 30  # about three probes an agent before any agent gets a fourth
    assert all("raise --max-probes" in a["why"] for a in coverage[len(exercised) + 13 :])


@pytest.mark.parametrize("example", [fastapi_host, mcp_host, fastapi_sdsi_server])
def test_the_command_an_example_gives_certifies_it_with_its_agents_exercised(
    example: Any, tmp_path: Path
) -> None:
    """Each example's docstring says how to start it (uvicorn, plain HTTP on loopback) and how to
    certify it: that command, run as written against the app so served, exercises every agent."""
    given = [
        line.strip()
        for line in (example.__doc__ or "").splitlines()
        if line.strip().startswith("agent-conformance run ")
    ]
    assert len(given) == 1, given
    with serve(lambda _: example.app, tls=False) as host:
        command = given[0].replace("http://127.0.0.1:8000", host.url).split()[1:]
        done = agent_conformance(*command, "--report-dir", str(tmp_path), timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert all(a["exercised"] for a in report["coverage"]["agents"]), report["coverage"]
    assert report["summary"]["gate"]["headline"].endswith("-compliant")  # no "k of N agents"


@pytest.mark.parametrize("refuses", ["every call", "the optional argument"])
def test_an_mcp_tool_that_refuses_schema_valid_nonsense_is_not_the_hosts_failure(
    refuses: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Published MCP servers refuse what their schema allows but their domain does not (a sentence
    as a time zone): a refusal (isError) is the tool's to make, never a failure of
    WOA-5.3-MCP-TOOL-INVOCATION; a tool that refused every call was not exercised."""
    made = mcp_host._server

    def refusing(fault: str | None) -> Any:
        server = made(fault)
        server.remove_tool("quote")

        @server.tool(name="quote", description="The last price of a listed symbol.")
        def quote(
            symbol: Annotated[str, Field(pattern=r"^[A-Z]{1,5}$")],
            exchange: Annotated[str | None, Field(pattern=r"^[A-Z]{2,4}$")] = None,
        ) -> mcp_host.Quote:
            if refuses == "every call" or exchange is not None:
                raise ValueError(f"no listing for {symbol} on {exchange}")
            return mcp_host.Quote(symbol=symbol, price=101.25)

        return server

    monkeypatch.setattr(mcp_host, "_server", refusing)
    with serve(lambda _: mcp_host.create_app()) as host:
        code, output, report = _certify(host.url, host.cacert, tmp_path)
    results = {r["requirement"]: r for r in report["results"]}
    mcp = results["WOA-5.3-MCP-TOOL-INVOCATION"]
    agents = {a["id"]: a["exercised"] for a in report["coverage"]["agents"]}
    if refuses == "every call":
        assert (mcp["status"], mcp["skip"]) == ("skip", "inconclusive"), mcp["message"]
        assert agents == {"convert": True, "quote": False}
    else:
        assert mcp["status"] == "pass", mcp["message"]
        assert agents == {"convert": True, "quote": True}
    assert code == 0, output
