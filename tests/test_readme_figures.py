"""The README's figures are the project's: the catalogue, the vectors, the errata register, the
checks and the faults that prove them, counted where they live (a user reads the README first;
figures that drift say the rest may have drifted too). Measured figures (times, mutation scores)
are dated by the runs that made them and are not held here."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from conformance.checks import CHECKS
from conformance.requirements import catalogue
from conformance.vectors import check_vectors
from conformance.vectors import vectors_root
from mocks.faults.catalogue import FAULTS
from mocks.faults.woa_client import CLIENT_FAULTS
from mocks.hostile.catalogue import HOSTILE

ROOT = Path(__file__).resolve().parents[1]
#: The README's text with its line breaks folded, so a figure may wrap
README = re.sub(r"\s+", " ", (ROOT / "README.md").read_text())


def test_the_catalogue_and_the_vectors() -> None:
    drafts = Counter(r.draft for r in catalogue())
    assert (
        f"({sum(drafts.values())} requirements: SDSI {drafts['sdsi']}, WoA {drafts['woa']},"
        f" ACI {drafts['aci']})"
    ) in README
    traces = len(list((vectors_root() / "dsp").glob("*.trace.json")))
    assert f"{len(check_vectors().outcomes)} golden vectors, {traces} golden DSP traces" in README


def test_the_errata_register() -> None:
    entries = json.loads((ROOT / "conformance" / "errata" / "register.json").read_text())
    drafts = Counter(e["draft"] for e in entries)
    kinds = Counter(e["kind"] for e in entries)
    assert f"the errata register ({len(entries)} entries" in README
    assert (
        f"{len(entries)} entries (SDSI {drafts['sdsi']}, WoA {drafts['woa']}, ACI {drafts['aci']};"
        f" {kinds['slip']} editorial slips, {kinds['gap']} gaps, {kinds['ambiguity']} ambiguities,"
        f" {kinds['interpretation']} readings of a requirement's level or scope,"
        f" {kinds['duplicate']} duplicated texts, {kinds['figure-repair']} broken figures)"
    ) in README


def test_the_checks_and_what_proves_them() -> None:
    assert f"Each of the {len(CHECKS)} checks" in README
    assert f"({len(FAULTS)} faults of the host, {len(CLIENT_FAULTS)} of the WoA client)" in README
    assert README.count(f"{len(HOSTILE)} hostile targets") == 2


def test_the_command_line_sample_is_what_the_command_prints(tmp_path: Path) -> None:
    """The README's first sample, run again: the same lines but for the port, the seed and the
    reports' folder."""
    from typer.testing import CliRunner

    from conformance.cli import app

    command = "agent-conformance run --mock --fault woa-7-caching-headers"
    sample = (ROOT / "README.md").read_text().split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    printed = CliRunner().invoke(app, [*command.split()[1:], "--report-dir", str(tmp_path)]).output

    def steady(text: str) -> list[str]:
        text = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", text)
        text = re.sub(r"(--seed |Seed )\d+", r"\1N", text)
        return text.replace(f"{tmp_path}/", "reports/").splitlines()

    assert steady(printed) == steady(sample)


def test_the_repeat_sample_prints_what_the_readme_shows(tmp_path: Path) -> None:
    """The README's --repeat --quiet sample, run again: its lines, but for the count of runs that
    broke the rule (the coin is drawn per request, and requests go concurrently)."""
    from tests.command import agent_conformance

    command = (
        "agent-conformance run --mock --suite woa --fault woa-5.2-agent-mismatch-400"
        " --fault-rate 0.2 --repeat 20 --quiet"
    )
    sample = (ROOT / "README.md").read_text().split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    done = agent_conformance(*command.split()[1:], "--report-dir", str(tmp_path), cwd=ROOT)

    def steady(text: str) -> list[str]:
        text = re.sub(r"\d+ of 20 runs broke it, violation rate <= [\d.]+%", "K of 20 ...", text)
        return text.replace(str(tmp_path), "reports").splitlines()

    assert steady(done.stdout) == steady(sample), done.stdout
    assert done.returncode == 1
