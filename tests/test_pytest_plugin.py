"""The pytest plugin, as a team's pytest run meets it (pytester, a pytest process of its own):
one item per requirement named after its ID, failures with the sentence and evidence, skips with
their reason, the baseline honoured, in-process (--agent-app) and over the network
(--agent-target); inert otherwise."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conformance.requirements import catalogue
from mocks.serve import serve_host
from tests.command import OTHER_PLUGINS_OFF

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[1]
APP = 'from mocks.host import create_app\napp = create_app("https://agent.test"{fault})\n'
#: The user's project certifying its app on WoA, as its pytest command line says it.
ON_WOA = ("-p", "no:cacheprovider", "--agent-app", "agent_app:app", "--agent-suite", "woa")
APP_ON_WOA = (*ON_WOA, *OTHER_PLUGINS_OFF)
TOKEN = "Bearer s3cr3t-t0ken"


def _outcomes(result: pytest.RunResult) -> dict[str, int]:
    return result.parseoutcomes()


def test_the_plugin_is_inert_without_its_options(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_mine="def test_mine():\n    assert True\n")
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    assert _outcomes(result).get("passed") == 1, result.stdout.str()


def test_an_in_process_app_gets_one_item_per_requirement(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # room for each skip's reason beside its node ID
    pytester.makepyfile(agent_app=APP.format(fault=""))
    result = pytester.runpytest_subprocess(*ON_WOA, "-v")
    outcomes = _outcomes(result)
    assert "failed" not in outcomes and outcomes["passed"] > 40, outcomes
    assert sum(outcomes.values()) == len(catalogue().for_draft("woa"))  # WoA's requirements
    result.stdout.fnmatch_lines(
        [
            "agent-conformance/woa/4::WOA-4-VERSION-1 PASSED*",
            (
                "agent-conformance/woa/8.1::WOA-8.1-CLIENT-VALIDATES-CERTIFICATES SKIPPED"
                " (not-applicable*"
            ),
        ]
    )


def test_the_items_are_the_requirements_of_the_revision_given(pytester: pytest.Pytester) -> None:
    """--agent-revision: an app whose woa_version breaks -00's WOA-4-VERSION-1 passes a revision
    that drops that sentence, and the items are that revision's requirements (tests/requirements/
    revision.py makes it)."""
    from tests.requirements.revision import ADDED
    from tests.requirements.revision import made_revision

    folder = made_revision(pytester.path)
    pytester.makepyfile(agent_app=APP.format(fault=', "woa-4-version-1"'))
    result = pytester.runpytest_subprocess(*APP_ON_WOA, "--agent-revision", str(folder), "-v")
    outcomes = _outcomes(result)
    assert "failed" not in outcomes, result.stdout.str()
    assert sum(outcomes.values()) == len(catalogue().for_draft("woa"))  # one out, one in
    result.stdout.fnmatch_lines([f"agent-conformance/woa/*::{ADDED} SKIPPED*"])
    assert "WOA-4-VERSION-1" not in result.stdout.str()


@pytest.mark.timeout(300)
def test_a_failure_shows_its_sentence_and_evidence_and_a_baseline_absorbs_it(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(agent_app=APP.format(fault=', "woa-4-version-1"'))
    result = pytester.runpytest_subprocess(*APP_ON_WOA)
    assert _outcomes(result)["failed"] == 1
    result.stdout.fnmatch_lines(
        [
            "*WOA-4-VERSION-1 (WOA 4, MUST, *): fail*",
            "*sentence:*woa_version*",
            "*evidence: GET https://agent.test/.well-known/woa.json -> 200*",
        ]
    )
    pytester.makefile(
        ".json",
        baseline=json.dumps(
            {
                "format": "agent-conformance-baseline/1",
                "expected_failures": {"WOA-4-VERSION-1": "migrating"},
            }
        ),
    )
    absorbed = pytester.runpytest_subprocess(*APP_ON_WOA, "--agent-baseline", "baseline.json")
    assert "failed" not in _outcomes(absorbed)


def test_a_should_that_fails_is_an_expected_failure_and_the_session_passes_as_run_exits_0(
    pytester: pytest.Pytester,
) -> None:
    """The session's status is `run`'s exit code: a SHOULD-level failure leaves a run
    MUST-compliant and exiting 0, so its item is an expected failure (x, its reason shown with
    -rx), not a failure that turns a gate red where `run` keeps it green."""
    pytester.makepyfile(agent_app=APP.format(fault=', "woa-7-caching-headers"'))
    result = pytester.runpytest_subprocess(*APP_ON_WOA, "-rx")
    assert result.ret == 0, result.stdout.str()
    assert _outcomes(result).get("xfailed") == 1 and "failed" not in _outcomes(result)
    result.stdout.fnmatch_lines(
        [
            "agent-conformance: MUST-compliant (run would exit 0)*",
            "XFAIL *WOA-7-CACHING-HEADERS - SHOULD fail: no caching header*",
        ]
    )


def test_an_app_that_names_its_public_origin_is_invoked_there_when_allowed(
    pytester: pytest.Pytester,
) -> None:
    """An app whose document names its public origin, not the in-process one: its agents are
    invoked through the app once that origin is allowed, where they were each a skip."""
    # the user's project holds its app (examples/ is not installed with the suite)
    pytester.makepyfile(
        fastapi_host=(ROOT / "examples" / "fastapi_host.py").read_text(),
        agent_app='from fastapi_host import create_app\napp = create_app("https://agents.example.com")\n',
    )
    valid = ("-k", "WOA-5.2-VALID-INPUT-ACCEPTED", "-rs")
    result = pytester.runpytest_subprocess(*APP_ON_WOA, *valid)
    assert _outcomes(result).get("skipped") == 1
    result.stdout.fnmatch_lines(["*not on the target's origin*"])
    allowed = ("--agent-allow-origin", "https://agents.example.com")
    result = pytester.runpytest_subprocess(*APP_ON_WOA, *valid, *allowed)
    assert _outcomes(result).get("passed") == 1, result.stdout.str()


def test_a_target_over_the_network(pytester: pytest.Pytester) -> None:
    with serve_host() as host:
        result = pytester.runpytest_subprocess(
            *("-p", "no:cacheprovider", *OTHER_PLUGINS_OFF),
            "--agent-target",
            host.url,
            "--agent-cacert",
            str(host.cacert),
            "--agent-suite",
            "woa",
            "-k",
            "WOA-4",
        )
    outcomes = _outcomes(result)
    assert "failed" not in outcomes and outcomes["passed"] > 20, outcomes


def test_a_ca_given_as_an_argument_of_its_own_that_hides_the_projects_configuration_is_refused(
    pytester: pytest.Pytester,
) -> None:
    """pytest picks its rootdir before loading plugins: `--agent-cacert /tmp/.../ca.pem` made the
    CA a test path, the rootdir /tmp, and the project's pyproject.toml unread (its node IDs and
    options gone). That is a usage error saying to write `--agent-cacert=PATH`, which works."""
    pytester.makepyprojecttoml("[tool.pytest.ini_options]\naddopts = '-p no:cacheprovider'\n")
    with serve_host() as host:
        on = ("--agent-target", host.url, "--agent-suite", "woa", *OTHER_PLUGINS_OFF)
        refused = pytester.runpytest_subprocess(*on, "--agent-cacert", str(host.cacert))
        taken = pytester.runpytest_subprocess(
            *on, f"--agent-cacert={host.cacert}", "-k", "WOA-4-", "-v"
        )
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(
        [f"*did not read {pytester.path / 'pyproject.toml'}: write --agent-cacert={host.cacert}"]
    )
    assert taken.ret == 0, taken.stdout.str()
    taken.stdout.fnmatch_lines(["configfile: pyproject.toml", "pyproject.toml::woa::4::WOA-4-*"])


def test_a_protected_host_on_plain_http_loopback_as_run_certifies_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--agent-header and --agent-allow-http-loopback, as run's --header and
    --allow-http-loopback: the header goes with every request and its value nowhere the session
    writes; plain HTTP on loopback is waived, never a pass."""
    from mocks.host import create_app
    from mocks.serve import serve

    def guarded(base: str) -> Any:  # the reference host, behind a bearer token
        app = create_app(base)

        async def only_with_the_token(scope: Any, receive: Any, send: Any) -> None:
            headers = dict(scope.get("headers", ()))
            if scope["type"] == "http" and headers.get(b"authorization") != TOKEN.encode():
                await send({"type": "http.response.start", "status": 401, "headers": []})
                await send({"type": "http.response.body", "body": b""})
                return
            await app(scope, receive, send)

        return only_with_the_token

    monkeypatch.setenv("COLUMNS", "200")  # room for each skip's reason beside its node ID
    with serve(guarded, tls=False) as host:
        result = pytester.runpytest_subprocess(
            *("-p", "no:cacheprovider", *OTHER_PLUGINS_OFF, "--agent-target", host.url),
            *("--agent-suite", "woa", "--agent-header", f"Authorization: {TOKEN}"),
            *("--agent-allow-http-loopback", "-v", "-rs", "--junitxml", "junit.xml"),
        )
    assert result.ret == 0, result.stdout.str()
    # the header reaches the MCP agent too (the SDK's client had sent it no header: a 401)
    assert "failed" not in _outcomes(result) and "xfailed" not in _outcomes(result)
    result.stdout.fnmatch_lines(
        ["*::WOA-8.1-HOST-USES-HTTPS SKIPPED (waived: plain HTTP on loopb*"]
    )
    # -rs names each skip's requirement, not the plugin's line that raised it
    result.stdout.fnmatch_lines(["SKIPPED *::WOA-8.1-HOST-USES-HTTPS: waived: plain HTTP*"])
    written = result.stdout.str() + result.stderr.str() + (pytester.path / "junit.xml").read_text()
    assert "s3cr3t" not in written


def test_items_follow_pytests_conventions(pytester: pytest.Pytester) -> None:
    """The issue's list: the right collection count, markers per draft and level (-m "woa and
    must"), a node ID per draft and section, and a JUnit classname from it."""
    pytester.makepyfile(agent_app=APP.format(fault=""))
    woa_must = [r for r in catalogue().for_draft("woa") if r.level == "MUST"]
    result = pytester.runpytest_subprocess(
        *APP_ON_WOA, "-m", "woa and must", "-v", "--junitxml", "junit.xml"
    )
    result.stdout.fnmatch_lines(
        [
            (
                f"*collected {len(catalogue().for_draft('woa'))} items / * deselected /"
                f" {len(woa_must)} selected*"
            ),
            "agent-conformance/woa/4::WOA-4-VERSION-1 PASSED*",
        ]
    )
    assert sum(_outcomes(result).get(k, 0) for k in ("passed", "skipped", "failed")) == len(
        woa_must
    )
    junit = (pytester.path / "junit.xml").read_text()
    assert 'classname="agent-conformance.woa.4" name="WOA-4-VERSION-1"' in junit


def test_one_certification_a_session_under_xdist_and_each_item_its_own_time(
    pytester: pytest.Pytester,
) -> None:
    """Under -n 2 the controller certifies once and its workers read its results (the app counts
    how many times its document was fetched); each item's time is its own checks', not the
    certification's."""
    pytester.makepyfile(
        agent_app=APP.format(fault="")
        + (
            "import pathlib\n"
            "inner = app\n"
            "async def app(scope, receive, send):\n"
            "    conditional = any(k == b'if-none-match' for k, _ in scope.get('headers', []))\n"
            "    document = scope['type'] == 'http' and scope['path'] == '/.well-known/woa.json'\n"
            "    if document and not conditional:\n"
            "        with pathlib.Path('fetched').open('a') as log:\n"
            "            log.write('x')\n"
            "    await inner(scope, receive, send)\n"
        )
    )
    result = pytester.runpytest_subprocess(*APP_ON_WOA, "-n", "2", "--junitxml", "junit.xml")
    assert _outcomes(result).get("passed", 0) > 20, result.stdout.str()
    assert (pytester.path / "fetched").read_text() == "x"  # one certification, by the controller
    result.stdout.fnmatch_lines(["*agent-conformance: the certification took * s*"])
    times = [
        float(t)
        for t in re.findall(
            r'<testcase [^>]*time="([\d.]+)"', (pytester.path / "junit.xml").read_text()
        )
    ]
    assert len(times) == len(catalogue().for_draft("woa")) and max(times) < sum(times)


def test_a_node_id_the_plugin_prints_runs_that_requirement_again(pytester: pytest.Pytester) -> None:
    """Items hang from the project's configuration file, so that a node ID from the output (or a
    CI's JUnit report) passed back to pytest selects that requirement alone."""
    pytester.makepyfile(agent_app=APP.format(fault=""))
    pytester.makepyprojecttoml("[tool.pytest.ini_options]\n")
    node = "pyproject.toml::woa::5.2::WOA-5.2-AGENT-MISMATCH-400"
    listed = pytester.runpytest_subprocess(*APP_ON_WOA, "-v")
    listed.stdout.fnmatch_lines([f"{node} PASSED*"])
    again = pytester.runpytest_subprocess(*APP_ON_WOA, node, "-v")
    assert _outcomes(again) == {"passed": 1}, again.stdout.str()
    draft = pytester.runpytest_subprocess(*APP_ON_WOA, "pyproject.toml::woa::4")
    assert sum(_outcomes(draft).values()) == len(
        [r for r in catalogue().for_draft("woa") if r.section == "4"]
    )


@pytest.mark.parametrize(
    ("plugin", "cli"),
    [
        (
            ("--agent-callable", "my_sdsi:server", "--agent-suite", "sdsi"),
            ("--agent-callable", "my_sdsi:server", "--suite", "sdsi"),
        ),
        (
            ("--agent-target", "https://a.example", "--agent-role", "bogus"),
            ("--target", "https://a.example", "--role", "bogus"),
        ),
        (
            ("--agent-callable", "my_sdsi:server", "--agent-suite", "woa"),
            ("--agent-callable", "my_sdsi:server", "--suite", "woa"),
        ),
        (
            ("--agent-callable", "my_sdsi:server", "--agent-app", "agent_app:app"),
            ("--agent-callable", "my_sdsi:server", "--target", "https://a.example"),
        ),
    ],
)
def test_the_plugin_refuses_what_the_command_line_refuses_in_the_same_words(
    pytester: pytest.Pytester, plugin: tuple[str, ...], cli: tuple[str, ...]
) -> None:
    from tests.command import agent_conformance

    pytester.makepyfile(my_sdsi="def server(operation, input):\n    return {}\n")
    refused = pytester.runpytest_subprocess("-p", "no:cacheprovider", *OTHER_PLUGINS_OFF, *plugin)
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    said = refused.stderr.str().strip().splitlines()[0].removeprefix("ERROR: ")
    command = agent_conformance("run", *cli, cwd=pytester.path)
    assert command.returncode == 2
    in_cli = command.stderr.strip().splitlines()[-1].removeprefix("agent-conformance: ")

    def spelled(text: str) -> str:
        return re.sub(r"--agent-(suite|scenario|target|app|role)\b", r"--\1", text)

    assert spelled(said) == spelled(in_cli).replace("--target", "--app"), (said, in_cli)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (
            ("--agent-app", "fastapi_host:app", "--agent-suite", "aci"),
            "untested (run would exit 2)",
        ),
        (("--agent-target", "https://127.0.0.1:9"), "not certified (run would exit 2): target"),
        (("--agent-app", "no_such_module:app"), "not certified (run would exit 2): the app"),
    ],
)
def test_a_session_that_certifies_nothing_fails_in_one_line_and_runs_the_projects_tests(
    pytester: pytest.Pytester, options: tuple[str, ...], said: str
) -> None:
    """The CLI would exit 2; the session fails with the outcome in one line, no INTERNALERROR,
    and the project's own test still runs."""
    pytester.makepyfile(
        fastapi_host=(ROOT / "examples" / "fastapi_host.py").read_text(),  # no ACI agent
        test_mine="def test_mine():\n    pass\n",
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", *OTHER_PLUGINS_OFF, *options, "-rN"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert _outcomes(result)["passed"] >= 1  # test_mine
    assert [line for line in result.stdout.lines if said in line], result.stdout.str()
