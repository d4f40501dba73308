"""`agent-conformance rejudge DIR`: judge a recording again with the current checks, contacting nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import typer

from .. import __version__
from ..recording import Replay
from ..report import Result, ResultRecorded
from ..report.writers import FORMATS
from ..runner import DEFAULT_ROLES, RunOptions, TargetUnreachable
from ..runner import run as run_suite
from ._console import console, fail_usage
from ._lifecycle import interruptible
from ._terminal import RunDisplay
from .run import finish, prepared_writers, written

__all__ = ["rejudge"]


def _options(replay: Replay) -> RunOptions:
    recorded: dict[str, Any] = replay.meta.get("options", {})
    roles: tuple[str, ...] = tuple(recorded.get("roles") or DEFAULT_ROLES)
    return RunOptions(target=str(replay.meta["target"]), suites=tuple(replay.meta.get("drafts", {})) or ("woa", "sdsi", "aci"),
                      binding=str(recorded.get("binding", "woa-rest")), roles=roles,
                      timeout=float(recorded.get("timeout", 10.0)), allow_http_loopback=bool(recorded.get("allow_http_loopback")),
                      allowed_origins=tuple(recorded.get("allowed_origins") or ()), scenarios=tuple(recorded.get("scenarios") or ()),
                      max_experimental_keys=int(recorded.get("max_experimental_keys", 10)), strict=bool(recorded.get("strict")),
                      check_timeout=recorded.get("check_timeout"), budget=float(recorded.get("budget", 300.0)),
                      seed=int(replay.meta.get("seed", 0)), replay=replay)


class _Collect:
    def __init__(self) -> None:
        self.results: dict[str, list[Result]] = {}

    def handle(self, event: object) -> None:
        if isinstance(event, ResultRecorded):
            self.results.setdefault(event.result.requirement, []).append(event.result)


def rejudge(
    recording: Annotated[Path, typer.Argument(exists=True, file_okay=False, help="A folder written by `run --record`.")],
    report_dir: Annotated[Path, typer.Option(file_okay=False, help="Where to write the new reports.")] = Path("reports/rejudged"),
) -> None:
    """Judge a recorded run again with this version's checks, answering every request from the recording: nothing is
    contacted. Prints which verdicts changed since the recording; a check that needs traffic the recording lacks is a
    skip, "not in the recording". The exit code is run's."""
    try:
        replay = Replay.load(recording)
    except (OSError, ValueError, KeyError) as error:
        fail_usage(f"{recording} is not a recording: {error}")
    if replay.meta.get("suite_version") != __version__:
        console.print(f"The recording was made by agent-conformance {replay.meta.get('suite_version')}; judging with {__version__}.",
                      markup=False)
    options = _options(replay)
    writers = prepared_writers(report_dir, list(FORMATS))
    collect, display = _Collect(), RunDisplay()
    try:
        summary = asyncio.run(interruptible(run_suite(options, [*writers, collect, display])))
    except TargetUnreachable as error:
        fail_usage(f"the recording holds no answer to the first request: {error}")
    display.finish(summary, written(report_dir, list(FORMATS)))
    before = replay.previous_results()
    changed = [(requirement, [r["status"] for r in before.get(requirement, [])], [r.status.value for r in now], now[0].message)
               for requirement, now in collect.results.items() if [r["status"] for r in before.get(requirement, [])] != [r.status.value for r in now]]
    console.print(f"{len(changed)} verdicts changed since the recording" + (":" if changed else "."), markup=False)
    for requirement, old, new, message in changed:
        console.print(f"  {requirement}: {', '.join(old) or 'not judged'} -> {', '.join(new)}: {message[:160]}", markup=False)
    finish(summary)
