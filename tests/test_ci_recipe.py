"""docs/github-actions.md works as printed: its shell steps run against the reference host, the
summary lands in GITHUB_STEP_SUMMARY, every artifact path exists, and the gate step exits with the
run's code; the GitLab snippet's junit path is one the run writes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from mocks.serve import serve_host

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "github-actions.md").read_text()
LEFT_TO_THE_USER = ("Install agent-conformance", "Start the agent under test")


def _blocks() -> list[dict[str, Any]]:
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", DOC, re.S)]


def _run_steps(workdir: Path, env: dict[str, str]) -> tuple[int, Path]:
    workflow = _blocks()[0]
    job = workflow["jobs"]["conformance"]
    outputs: dict[str, dict[str, str]] = {}
    summary, output = workdir / "step-summary.md", workdir / "step-output"
    code = 0
    for step in job["steps"]:
        if "run" not in step or step.get("name") in LEFT_TO_THE_USER:
            continue
        output.write_text("")
        script = re.sub(r"\$\{\{ steps\.(\w+)\.outputs\.(\w+) \}\}", lambda m: outputs[m.group(1)][m.group(2)], step["run"])
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=workdir, timeout=300,
                              env={**env, "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary)})
        if "id" in step:
            outputs[step["id"]] = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        code = done.returncode
        if code:
            break
    return code, summary


@pytest.mark.parametrize(("fault", "expected"), [(None, 0), ("woa-4-version-1", 1)])
def test_the_github_workflow_steps_run_as_printed(tmp_path: Path, fault: str | None, expected: int) -> None:
    bin_dir = str(Path(sys.executable).parent)
    with serve_host(fault) as host:
        env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "AGENT_URL": host.url, "AGENT_CACERT": str(host.cacert),
               "BASELINE": ""}
        code, summary = _run_steps(tmp_path, env)
    assert code == expected
    assert summary.read_text().startswith("## ")
    job = _blocks()[0]["jobs"]["conformance"]
    upload = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact"))
    for pattern in upload["with"]["path"].split():
        assert list(tmp_path.glob(pattern)), pattern


def test_the_gitlab_snippet_reads_the_junit_file_the_run_writes() -> None:
    gitlab = _blocks()[1]["agent-conformance"]
    assert gitlab["artifacts"]["reports"]["junit"] == "reports/junit.xml"
    assert any("agent-conformance run" in line and "--report-dir reports" in line for line in gitlab["script"])
