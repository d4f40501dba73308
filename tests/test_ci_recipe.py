"""docs/github-actions.md works as printed: its shell steps run against the reference host, the
summary lands in GITHUB_STEP_SUMMARY, every artifact path exists, and the gate step exits with the
run's code; the GitLab snippet's junit path is one the run writes."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import yaml

from mocks.serve import serve_host

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "github-actions.md").read_text()
LEFT_TO_THE_USER = ("Start the agent under test",)


def _blocks() -> list[dict[str, Any]]:
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", DOC, re.S)]


@pytest.fixture(scope="module")
def installer(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """What the install step needs to run as printed, offline: AGENT_CONFORMANCE names a wheel
    built from the checkout, and a fresh venv whose dependencies are this one's (a .pth file), so
    that pip fetches nothing."""
    from hatchling.builders.wheel import WheelBuilder

    folder = tmp_path_factory.mktemp("ci")
    wheel = next(
        WheelBuilder(str(ROOT)).build(directory=str(folder / "dist"), versions=["standard"])
    )
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True, timeout=120)
    site = next((folder / "venv" / "lib").glob("python*/site-packages"))
    (site / "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    # the dependencies are this venv's, and so may be a non-editable agent-conformance: the wheel is
    # installed anyway
    return {
        "AGENT_CONFORMANCE": wheel,
        "PATH": f"{folder / 'venv' / 'bin'}:{os.environ['PATH']}",
        "PIP_NO_INDEX": "1",
        "PIP_NO_DEPS": "1",
        "PIP_FORCE_REINSTALL": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }


def _run_steps(workdir: Path, env: dict[str, str]) -> tuple[int, Path, str]:
    """Every step with a shell, in order as GitHub runs them: after a failing step only `if:
    always()` ones. The job's outcome is the last step's exit code (the gate); what the steps
    printed, joined."""
    job = _blocks()[0]["jobs"]["conformance"]
    outputs: dict[str, dict[str, str]] = {}
    summary, output = workdir / "step-summary.md", workdir / "step-output"
    code, failed, printed = 0, False, []
    for step in job["steps"]:
        if (
            "run" not in step
            or step.get("name") in LEFT_TO_THE_USER
            or (failed and step.get("if") != "always()")
        ):
            continue
        output.write_text("")
        script = re.sub(
            r"\$\{\{ steps\.(\w+)\.outputs\.(\w+) \}\}",
            lambda m: outputs.get(m.group(1), {}).get(m.group(2), ""),
            step["run"],
        )
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
            cwd=workdir,
            timeout=300,
            env={
                **env,
                **{k: v for k, v in job["env"].items() if k not in env},
                "GITHUB_OUTPUT": str(output),
                "GITHUB_STEP_SUMMARY": str(summary),
            },
            capture_output=True,
            text=True,
        )
        printed.append(done.stdout + done.stderr)
        if "id" in step:
            outputs[step["id"]] = dict(
                line.split("=", 1) for line in output.read_text().splitlines() if "=" in line
            )
        code, failed = done.returncode, failed or done.returncode != 0
    return code, summary, "\n".join(printed)


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("fault", "expected"), [(None, 0), ("woa-4-version-1", 1)])
def test_the_github_workflow_steps_run_as_printed(
    tmp_path: Path, installer: dict[str, str], fault: str | None, expected: int
) -> None:
    with serve_host(fault) as host:
        env = {
            **os.environ,
            **installer,
            "AGENT_URL": host.url,
            "AGENT_CACERT": str(host.cacert),
            "BASELINE": "",
            "GITHUB_ACTIONS": "true",
        }
        code, summary, printed = _run_steps(tmp_path, env)
    assert code == expected, printed
    # the install step's own command
    assert (Path(installer["PATH"].split(":")[0]) / "agent-conformance").exists(), printed
    assert summary.read_text().startswith("## ")
    assert ("::error title=WOA-4-VERSION-1 (WOA 4%2C MUST)::fail" in printed) == bool(fault)
    job = _blocks()[0]["jobs"]["conformance"]
    upload = next(
        s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact")
    )
    for pattern in upload["with"]["path"].split():
        assert list(tmp_path.glob(pattern)), pattern


@pytest.mark.timeout(600)
def test_an_unreachable_agent_still_gets_a_summary_and_the_gate(
    tmp_path: Path, installer: dict[str, str]
) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        url = f"https://127.0.0.1:{closed.getsockname()[1]}"
    env = {**os.environ, **installer, "AGENT_URL": url, "AGENT_CACERT": "", "BASELINE": ""}
    code, summary, printed = _run_steps(tmp_path, env)
    assert code == 2, printed
    assert "nothing could be certified" in summary.read_text()


def test_the_gitlab_snippet_reads_the_junit_file_the_run_writes() -> None:
    gitlab = _blocks()[1]["agent-conformance"]
    assert gitlab["artifacts"]["reports"]["junit"] == "reports/junit.xml"
    assert any(
        "agent-conformance run" in line and "--report-dir reports" in line
        for line in gitlab["script"]
    )
