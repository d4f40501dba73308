"""Agent code certified without a server (run --agent-callable, the pytest plugin's
--agent-callable): an ACI invoked agent and an SDSI server agent as functions, each clean and
each with a fault caught alone; async functions; the usage errors; the ACI -01 hackathon code's
shape through five lines of glue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from tests.command import OTHER_PLUGINS_OFF

runner = CliRunner()
SCENARIOS = ["--scenario", "flight_booking", "--scenario", "photo_retouch"]


def _certify(tmp_path: Path, reference: str, *more: str) -> tuple[int, str, dict[str, Any]]:
    result = runner.invoke(
        app, ["run", "--agent-callable", reference, "--report-dir", str(tmp_path), *more]
    )
    report = (
        json.loads((tmp_path / "report.json").read_text())
        if (tmp_path / "report.json").exists()
        else {}
    )
    return result.exit_code, result.output, report


def misnamed(operation: str, given: dict[str, Any]) -> Any:
    """A server whose operations leave out execute."""


misnamed.operations = ("get_schema_template",)  # type: ignore[attr-defined]


def _failing(report: dict[str, Any]) -> set[str]:
    return {r["requirement"] for r in report["results"] if r["status"] in ("fail", "error")}


@pytest.mark.parametrize(
    ("reference", "suite", "broken"),
    [
        ("examples.aci_callable:agent", ["--suite", "aci"], set()),
        (
            "examples.aci_callable:agent_that_ignores_the_context_uri",
            ["--suite", "aci"],
            {"ACI-5.2-CONTEXT-URI-RESOLVED"},
        ),
        ("examples.sdsi_callable:server", ["--suite", "sdsi", *SCENARIOS], set()),
        (
            "examples.sdsi_callable:server_that_accepts_any_payload",
            ["--suite", "sdsi", *SCENARIOS],
            {"SDSI-3.1-SERVER-VALIDATES-PAYLOAD"},
        ),
    ],
)
def test_a_function_is_certified_clean_and_its_fault_is_caught_alone(
    reference: str, suite: list[str], broken: set[str], tmp_path: Path
) -> None:
    code, output, report = _certify(tmp_path, reference, *suite)
    assert _failing(report) == broken, output
    assert code == 0 and report["header"]["options"]["in_process"]
    wire = next(
        r
        for r in report["results"]
        if r["requirement"] in ("ACI-6-AGENTCONTEXT-CONFIDENTIALITY", "SDSI-7-HTTPS")
    )
    assert wire["status"] == "skip" and "in-process" in wire["message"]  # no wire to judge


def test_a_coroutine_function_is_awaited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "async_agent.py").write_text(
        "from examples.aci_callable import agent as sync_agent\n\nasync def agent(agent_context):\n"
        "    return sync_agent(agent_context)\n"
    )
    # module:function resolves from the current directory, as uvicorn resolves an app
    monkeypatch.chdir(tmp_path)
    code, output, report = _certify(tmp_path / "reports", "async_agent:agent", "--suite", "aci")
    assert code == 0 and _failing(report) == set(), output


def test_a_server_without_the_optional_patches_says_so_and_6_2_is_not_applicable(
    tmp_path: Path,
) -> None:
    code, output, report = _certify(
        tmp_path, "examples.sdsi_callable:server_without_patches", "--suite", "sdsi", *SCENARIOS
    )
    assert code == 0 and _failing(report) == set(), output
    statuses = {r["requirement"]: r for r in report["results"]}
    for requirement in (
        "SDSI-6.2.1-HEAT-INCREMENT",
        # these judge a server that fires at all: not applicable either, not a skip that counts as
        # an untested MUST
        "SDSI-6.2.1-FRAGMENT-ENCODED",
        "SDSI-6.2.1-SIMILARITY-CLUSTERING",
    ):
        result = statuses[requirement]
        assert result["status"] == "not-applicable" and "get_schema_updates" in result["message"]


def test_a_server_that_refuses_every_payload_passes_no_rule_on_its_refusals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refusal says something of validation only where the template's conforming payload was
    served, and a refusal has no result: these rules are inconclusive, not passed."""
    (tmp_path / "refuses.py").write_text(
        "from examples.sdsi_callable import server as served\n\n"
        "def server(operation, given):\n"
        "    if operation == 'execute':\n"
        "        raise ValueError('this server executes nothing')\n"
        "    return served(operation, given)\n"
    )
    monkeypatch.chdir(tmp_path)
    _, output, report = _certify(
        tmp_path / "reports", "refuses:server", "--suite", "sdsi", *SCENARIOS
    )
    statuses = {r["requirement"]: r for r in report["results"]}
    for requirement in (
        "SDSI-3.1-SERVER-VALIDATES-PAYLOAD",
        "SDSI-3.2-RESULT-STRUCTURED",
        "SDSI-7-OTHER-SANITIZED",
        "SDSI-4.3-OTHER-ACCEPTED",
    ):
        assert statuses[requirement]["status"] == "skip", (requirement, output)
        assert statuses[requirement]["skip"] == "inconclusive"


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["--agent-callable", "examples.aci_callable:agent", "--suite", "woa"], "--suite aci"),
        (["--agent-callable", "examples.sdsi_callable:server", "--suite", "sdsi"], "--scenario"),
        (["--agent-callable", "examples.aci_callable", "--suite", "aci"], "module:attribute"),
        (["--agent-callable", "examples.aci_callable:nothing", "--suite", "aci"], "cannot load"),
        (
            [
                *("--agent-callable", "tests.callables.test_callables:misnamed"),
                *("--suite", "sdsi", *SCENARIOS),
            ],
            ".operations names what it answers",
        ),
        (
            ["--agent-callable", "examples.aci_callable:agent", "--suite", "aci", "--mock"],
            "takes no --mock",
        ),
    ],
)
def test_what_cannot_be_certified_is_a_usage_error(arguments: list[str], says: str) -> None:
    result = runner.invoke(app, ["run", *arguments])
    assert result.exit_code == 2 and says in result.output, result.output


def test_the_hackathon_codes_shape_is_certified_through_five_lines_of_glue(tmp_path: Path) -> None:
    glue = (Path(__file__).parent / "acp_glue.py").read_text().strip().splitlines()
    assert len(glue) <= 5
    code, output, report = _certify(tmp_path, "tests.callables.acp_glue:agent", "--suite", "aci")
    # -01 resolves no ContextURI (it carries "Context/ContextURI" through as text): a SHOULD of -02
    assert code == 0 and _failing(report) == {"ACI-5.2-CONTEXT-URI-RESOLVED"}, output
    assert report["summary"]["levels"]["aci"] == "MUST-compliant"


pytest_plugins = ["pytester"]


def test_the_pytest_plugin_certifies_a_function(pytester: pytest.Pytester) -> None:
    example = Path(__file__).parents[2] / "examples" / "aci_callable.py"
    # the user's own module, in the project they run pytest in
    pytester.makepyfile(my_agents=example.read_text())
    result = pytester.runpytest_subprocess(
        *("-p", "no:cacheprovider", *OTHER_PLUGINS_OFF),
        *("--agent-callable", "my_agents:agent", "--agent-suite", "aci"),
    )
    outcomes = result.parseoutcomes()
    assert "failed" not in outcomes and outcomes["passed"] >= 5, outcomes


def test_an_agent_that_declines_a_subtask_not_its_own_breaks_no_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No sentence of ACI 5.2 or 5.3 bars an agent from declining a subtask: what it returns is
    judged, not that it returned."""
    (tmp_path / "choosy.py").write_text(
        "from examples.aci_callable import agent as answer\n\n"
        "def agent(agent_context):\n"
        "    if agent_context.get('Dependencies'):\n"
        "        raise ValueError('this agent takes no subtask that depends on another')\n"
        "    return answer(agent_context)\n"
    )
    monkeypatch.chdir(tmp_path)
    code, output, report = _certify(tmp_path / "reports", "choosy:agent", "--suite", "aci")
    assert code == 0 and _failing(report) == set(), output
    dependencies = next(
        r for r in report["results"] if r["requirement"] == "ACI-5.2-DEPENDENCIES-PRESERVED"
    )
    # judged on the subtasks it took; the declined ones are judged by no rule
    assert dependencies["status"] == "pass"


def test_a_function_that_never_returns_meets_the_request_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "stuck.py").write_text(
        "import time\n\ndef agent(agent_context):\n    time.sleep(3600)\n"
    )
    monkeypatch.chdir(tmp_path)
    code, output, report = _certify(
        tmp_path / "reports", "stuck:agent", "--suite", "aci", "--timeout", "0.5", "--budget", "60"
    )
    assert code in (1, 4), output  # the run ends, with a report, whatever the function does
    assert report["summary"]["completion"] == "complete"
