"""`agent-conformance rejudge DIR`: judge a recording again with the current checks, contacting
nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from .. import __version__
from ..engine.runner import TargetUnreachable
from ..recording import Replay
from ..report import Collect
from ..report.writers import FORMATS
from ..usecases.rejudge import changed_verdicts
from ..usecases.rejudge import rejudge as rejudge_recording
from ._console import console
from ._console import fail_usage
from ._lifecycle import interruptible
from ._options import ReportDir
from ._terminal import RunDisplay
from .run import finish
from .run import prepared_writers
from .run import written

__all__ = ["rejudge"]


def rejudge(
    recording: Annotated[
        Path,
        typer.Argument(exists=True, file_okay=False, help="A folder written by `run --record`."),
    ],
    report_dir: ReportDir = Path("reports/rejudged"),
) -> None:
    """Judge a recorded run again with this version's checks, answering every request from the
    recording: nothing is contacted. Prints which verdicts changed since the recording; a check
    that needs traffic the recording lacks is a skip, "not in the recording" (not counted as a
    change). A recording of `proxy --record` is its traffic judged again. The exit code is run's."""
    try:
        replay = Replay.load(recording)
    except (OSError, ValueError, KeyError, RecursionError) as error:
        fail_usage(f"{recording} is not a recording: {error}")
    if replay.meta.get("suite_version") != __version__:
        console.print(
            f"The recording was made by agent-conformance {replay.meta.get('suite_version')};"
            f" judging with {__version__}.",
            markup=False,
        )
    writers = prepared_writers(report_dir, list(FORMATS))
    collect, display = Collect(), RunDisplay()
    try:
        summary = asyncio.run(
            interruptible(
                rejudge_recording(
                    replay, [*writers, collect, display], {"replayed_from": str(recording)}
                )
            )
        )
    except TargetUnreachable as error:
        fail_usage(f"the recording holds no answer to the first request: {error}")
    display.finish(summary, written(report_dir, list(FORMATS)))
    before = {
        requirement: [r["status"] for r in results]
        for requirement, results in replay.previous_results().items()
    }
    changed = changed_verdicts(before, collect.results)
    console.print(
        f"{len(changed)} verdicts changed since the recording" + (":" if changed else "."),
        markup=False,
    )
    for requirement, old, new, message in changed:
        console.print(
            f"  {requirement}: {', '.join(old) or 'not judged'} -> {', '.join(new)}:"
            f" {message[:160]}",
            markup=False,
        )
    finish(summary)
