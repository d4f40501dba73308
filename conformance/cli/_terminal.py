"""What a run shows in the terminal: live progress per draft while checks run, then a table per
draft and one line per MUST or SHOULD failure.

On a terminal the progress is a live display (requirements judged, failing so far, the last one
judged); when stdout is not a terminal, or NO_COLOR is set, it is one plain line per draft as the
draft finishes; `--quiet` shows neither, only the verdict and where the reports are.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from rich.progress import BarColumn
from rich.progress import MofNCompleteColumn
from rich.progress import Progress
from rich.progress import TaskID
from rich.progress import TextColumn
from rich.progress import TimeElapsedColumn
from rich.table import Table

from ..report import Result
from ..report import ResultRecorded
from ..report import RunFinished
from ..report import RunStarted
from ..report import Status
from ..report import Summary
from ..report.outcome import told
from ..requirements import catalogue
from ._console import console

__all__ = ["RunDisplay"]

_SHORT = {"not-applicable": "n/a"}


#: Characters of a failure's message printed; the rest is in the reports, and the line says so.
_MESSAGE_CHARS = 160


def _escaped(text: str, *, property_value: bool = False) -> str:
    """`text` as a GitHub workflow command carries it (% and line breaks, and in a property : and
    ,)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def annotation(result: Result) -> str:
    """The GitHub Actions annotation of a failing requirement: an error at MUST, a warning
    otherwise."""
    kind = "error" if result.level == "MUST" else "warning"
    title = _escaped(
        f"{result.requirement} ({result.draft.upper()} {result.section}, {result.level})",
        property_value=True,
    )
    said = result.status.value + ": " + " ".join(result.message.split())[:1000]
    return f"::{kind} title={title}::{_escaped(said)}"


class RunDisplay:
    """A handler of run events that shows the run's progress and keeps its failures for the end."""

    def __init__(self, *, quiet: bool = False) -> None:
        self.quiet = quiet
        self.live = console.is_terminal and not os.environ.get("NO_COLOR") and not quiet
        self.failures: list[Result] = []
        self._progress: Progress | None = None
        self._tasks: dict[str, TaskID] = {}
        self._totals: Counter[str] = Counter()
        self._done: Counter[str] = Counter()
        self._judged: Counter[str] = Counter()
        self._failing: Counter[str] = Counter()
        #: why each draft's MUSTs were not judged, for a draft that ends untested
        self._unjudged: dict[str, Counter[str]] = {}
        #: repeated runs: how many were asked, and which stop condition ended them early
        self._repeat: dict[str, object] = {}

    def handle(self, event: object) -> None:
        if isinstance(event, RunStarted):
            self._repeat = dict(event.header.options.get("repeat") or {})
            self._totals = Counter(r.draft for r in catalogue() if r.draft in event.header.suites)
            if self.live:
                self._progress = Progress(
                    TextColumn("{task.description:>5}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("{task.fields[failing]}"),
                    TextColumn("[dim]{task.fields[last]}"),
                    TimeElapsedColumn(),
                    console=console,
                    transient=True,
                )
                self._tasks = {
                    d: self._progress.add_task(d.upper(), total=n, failing="", last="")
                    for d, n in self._totals.items()
                }
                self._progress.start()
        elif isinstance(event, ResultRecorded):
            self._record(event.result)
        elif isinstance(event, RunFinished) and self._progress is not None:
            self._progress.stop()

    def _record(self, result: Result) -> None:
        draft = result.draft
        self._done[draft] += 1
        self._judged[draft] += result.status in (Status.PASS, Status.FAIL, Status.WAIVED)
        if result.level == "MUST" and result.status in (Status.SKIP, Status.NOT_APPLICABLE):
            self._unjudged.setdefault(draft, Counter())[
                f"{result.status.value}: {result.message}"
            ] += 1
        if result.status in (Status.FAIL, Status.ERROR):
            self._failing[draft] += 1
            if result.level in ("MUST", "SHOULD"):
                self.failures.append(result)
        failing = f"[red]{self._failing[draft]} failing" if self._failing[draft] else ""
        if self._progress is not None:
            self._progress.update(
                self._tasks[draft], advance=1, failing=failing, last=result.requirement
            )
        elif not self.quiet and self._done[draft] == self._totals[draft]:
            console.print(
                f"{draft.upper()}: {self._judged[draft]} of {self._totals[draft]} requirements"
                f" judged, {self._failing[draft]} failing or erring",
                markup=False,
            )

    def finish(self, summary: Summary, reports: list[Path], seed: int | None = None) -> None:
        """The outcome, the table per draft, each MUST or SHOULD failure on one line, and where
        the reports are. A target that could not be certified at all gets its reason alone."""
        outcome = told(summary)
        where = ", ".join(str(p) for p in reports)
        if self.quiet:
            if summary.runs > 1:  # what the runs bound, a line a requirement that broke
                for result in self.failures:
                    console.out(f"{result.requirement}: {result.message.split('; ')[0]}")
            console.print(
                f"Compliance: {outcome.headline}. Reports: {reports[0].parent if reports else '-'}",
                markup=False,
            )
            _unexercised(summary)
            return
        if self._repeat.get("stopped"):
            console.print(
                f"Stopped after {summary.runs} of {self._repeat['asked']} runs:"
                f" {self._repeat['stopped']}.",
                markup=False,
            )
        if outcome.kind == "not-certified":
            console.print(f"Compliance: {outcome.headline}: {outcome.reason}", markup=False)
            console.print(f"Reports: {where}", markup=False)
            return
        table = Table(title=f"Compliance: {outcome.headline}", title_justify="left")
        table.add_column("draft")
        table.add_column(
            "level", no_wrap=True, min_width=len(max(outcome.drafts.values(), key=len, default=""))
        )
        for status in Status:
            table.add_column(_SHORT.get(status.value, status.value), justify="right")
        for draft, verdict in outcome.drafts.items():
            counts = summary.drafts.get(draft, {})
            table.add_row(
                draft.upper(),
                verdict,
                *(str(sum(c.get(s.value, 0) for c in counts.values())) for s in Status),
            )
        console.print(table)
        self._failures()
        _unexercised(summary)
        self._untested(summary)
        _flaky(self.failures, summary)
        console.print(
            f"{summary.untested_must} MUST-level requirements untested (a skip is never a pass)."
        )
        if seed is not None:
            console.print(f"Seed {seed}: --seed {seed} makes the same values again.")
        console.print(f"Reports: {where}", markup=False)

    def _failures(self) -> None:
        """Each MUST or SHOULD failure on one line; failures that say the same thing once, with
        how many more said it."""
        same: Counter[tuple[str, str]] = Counter(
            (r.status.value, " ".join(r.message.split())) for r in self.failures
        )
        shown: set[tuple[str, str]] = set()
        for result in sorted(
            self.failures,
            key=lambda r: (not (r.repeat or {}).get("flaky"), r.level != "MUST", r.requirement),
        ):
            message = " ".join(result.message.split())
            said = (result.status.value, message)
            if said in shown:
                continue
            shown.add(said)
            if len(message) > _MESSAGE_CHARS:  # its start and its end, where a cause is said
                message = (
                    f"{message[: _MESSAGE_CHARS // 2]} … {message[-_MESSAGE_CHARS // 2 :]}"
                    f" (cut; {len(message):,} characters in the reports)"
                )
            more = f" (and {same[said] - 1} more saying the same)" if same[said] > 1 else ""
            line = (
                f"{result.status.value.upper():5} {result.requirement} ({result.draft.upper()}"
                f" {result.section}, {result.level}){more}: {message}"
            )
            if console.is_terminal:  # one line, cut to the terminal's width
                console.print(line, markup=False, overflow="ellipsis", no_wrap=True)
            else:  # piped: the whole line, for a log
                console.out(line, highlight=False)
            if os.environ.get("GITHUB_ACTIONS") == "true":
                console.out(annotation(result), highlight=False)

    def _untested(self, summary: Summary) -> None:
        """For each draft that ends untested, why most of its MUSTs were not judged."""
        for draft, level in summary.levels.items():
            reasons = self._unjudged.get(draft)
            if level == "untested" and reasons:
                (why, count), *_ = reasons.most_common(1)
                line = f"UNTESTED {draft.upper()}: {count} MUST-level requirements {why}"
                console.out(" ".join(line.split())[: _MESSAGE_CHARS + 40], highlight=False)


#: Agents named one line each before the rest are counted.
_AGENT_LINES = 20


def _unexercised(summary: Summary) -> None:
    """One line for each advertised agent the run did not exercise, with why: partial coverage is
    never silent."""
    missing = summary.unexercised
    for agent in missing[:_AGENT_LINES]:
        console.out(f"AGENT {agent['id']!r} not exercised: {agent.get('why', '')}", highlight=False)
    if len(missing) > _AGENT_LINES:
        console.out(
            f"AGENT ... and {len(missing) - _AGENT_LINES} more not exercised (report.json:"
            " coverage.agents)",
            highlight=False,
        )


def _flaky(failures: list[Result], summary: Summary) -> None:
    """Over repeated runs: how many requirements were flaky, and what the clean MUSTs' worst
    bound is."""
    if summary.runs == 1:
        return
    flaky = sum(bool((r.repeat or {}).get("flaky")) for r in failures)
    console.out(
        f"Over {summary.runs} runs: {flaky} requirement(s) flaky (passed in some runs, failed in"
        " others).",
        highlight=False,
    )
