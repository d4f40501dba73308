"""Fleets: certify many targets into one folder of per-target reports, a fleet summary and the
matrix.

    agent-conformance fleet --targets hosts.txt [--jobs N] [--scheduler tcp://HOST:PORT] \
        [--report-dir D]

A targets file holds one URL a line (`#` comments), or a JSON list of objects with per-target
options: {"target": URL, "suite": "woa", "cacert": PATH, "timeout": S, "budget": S,
"allow_http_loopback": true, "role": ["host"], "header": ["Authorization: Bearer T"], ...}: any
option a run takes (targeting/declared.py), by its flag or its keyword, checked as `run` checks
it. Each target is one task: `certify_one` runs the ordinary run into D/<target's slug>/ and
returns its verdict. Locally the tasks run in threads, `jobs` at a time;
with a scheduler each is a task on Dask distributed, retried once if its worker dies. A target's
own budget bounds it, so a hanging target never stalls the others; results arrive as tasks finish;
a target whose folder already holds a complete report is not certified again.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import TypeVar

from ..report.redaction import plain
from ..report.redaction import public
from ..targeting.declared import GIVEN
from ..targeting.declared import keyword_of
from .spread import in_threads
from .spread import on_dask
from .spread import until

__all__ = ["TargetSpec", "certify_one", "fleet_results", "read_targets", "slug"]

T = TypeVar("T")


@dataclass(frozen=True)
class TargetSpec:
    """One target of a fleet, and its own options as run_options' keywords."""

    target: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, target: str, **options: Any) -> TargetSpec:
        """`target` with `options` named by flag or keyword ("suite", "allow-origin",
        "allowed_origins"); ValueError names one a run does not take."""
        unknown = [name for name in options if keyword_of(name) is None]
        if unknown:
            raise ValueError(
                f"{', '.join(unknown)}: not an option of a run (`agent-conformance run --help`)"
            )
        taken = []
        for name, value in options.items():
            keyword = str(keyword_of(name))
            if isinstance(value, list):
                value = tuple(value)
            elif GIVEN[keyword].kind is Path and value is not None:
                value = Path(value)
            taken.append((keyword, value))
        return cls(target, tuple(taken))


def read_targets(path: Path) -> list[TargetSpec]:
    """The targets of a fleet file: one URL a line, or a JSON list of per-target options."""
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        entries = json.loads(text)
        if not all(isinstance(e, dict) and isinstance(e.get("target"), str) for e in entries):
            raise ValueError("each entry of a JSON targets file is an object with a target URL")
        return [
            TargetSpec.of(e["target"], **{k: v for k, v in e.items() if k != "target"})
            for e in entries
        ]
    return [
        TargetSpec(line.strip())
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def slug(target: str) -> str:
    """A folder name for a target URL: host, port and path, with everything else a dash (and no
    credential of its userinfo or query)."""
    shown = public(target).split("://", 1)[-1].replace("<redacted>@", "")
    return re.sub(r"[^A-Za-z0-9._-]+", "-", shown).strip("-")[:120] or "target"


def _complete(folder: Path) -> dict[str, Any] | None:
    try:
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    summary = report.get("summary", {})
    return summary if summary.get("completion") == "complete" else None


def _unjudged(spec: TargetSpec, folder: Path, code: int, problem: str) -> dict[str, Any]:
    """A target's row when its run could not judge it: no level, the exit code, the reason (no
    credential of the target's URL in it)."""
    hidden = plain()
    hidden.url(spec.target)
    problem = hidden.text(problem)
    return {
        "target": public(spec.target),
        "folder": folder.name,
        "level": None,
        "exit_code": code,
        "problem": problem,
    }


def certify_one(spec: TargetSpec, out: str, stop: threading.Event | None = None) -> dict[str, Any]:
    """Certify one target into out/<slug>/ (a complete earlier report is kept); its verdict.
    Never raises. `stop`, once set (a signal), cuts the run short."""
    from ..engine.runner import TargetUnreachable
    from ..engine.runner import run
    from ..report.outcome import told
    from ..report.writers import writers_for
    from ..targeting import OptionsUnusable
    from ..targeting import run_options

    folder = Path(out) / slug(spec.target)
    earlier = _complete(folder)
    if earlier is not None:
        return {
            "target": public(spec.target),
            "folder": folder.name,
            "level": earlier.get("level"),
            "verdict": earlier.get("gate", {}).get("headline", earlier.get("level")),
            "exit_code": earlier.get("gate", {}).get("exit_code"),
            "reused": True,
        }
    try:
        options = run_options(spec.target, **dict(spec.options))
        summary = asyncio.run(until(run(options, writers_for(folder)), stop))
    except OptionsUnusable as error:
        return _unjudged(spec, folder, 2, str(error))
    except TargetUnreachable as error:
        return _unjudged(spec, folder, 2, f"unreachable: {error}")
    except Exception as error:  # one target's defect is that target's row, never the fleet's end
        return _unjudged(spec, folder, 3, f"{type(error).__name__}: {error}")
    return {
        "target": public(spec.target),
        "folder": folder.name,
        "level": summary.told_level,
        "verdict": told(summary).headline,
        "exit_code": told(summary).code,
    }


def fleet_results(
    specs: list[TargetSpec],
    out: Path,
    *,
    jobs: int = 4,
    scheduler: str | None = None,
    progress: Callable[[dict[str, Any]], None] = lambda _: None,
) -> list[dict[str, Any]]:
    """Certify every target of `specs` into `out`; the rows in the targets' order, reported to
    `progress` as they finish."""
    out.mkdir(parents=True, exist_ok=True)
    rows: dict[str, dict[str, Any]] = {}
    running = (
        on_dask(
            scheduler, certify_one, specs, lambda spec: f"certify-{slug(spec.target)}", str(out)
        )
        if scheduler
        else in_threads(certify_one, specs, jobs, str(out))
    )
    for row in running:
        rows[row["target"]] = row
        progress(row)
    ordered = [rows[public(s.target)] for s in specs if public(s.target) in rows]
    (out / "fleet.json").write_text(json.dumps(ordered, indent=2) + "\n", encoding="utf-8")
    lines = [
        "# agent-conformance fleet",
        "",
        "| Target | Verdict | Exit | Report |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {r['target']} | {r.get('verdict') or r.get('problem', '-')} | {r['exit_code']} |"
        f" {r['folder']}/ |"
        for r in ordered
    ]
    (out / "fleet.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ordered
