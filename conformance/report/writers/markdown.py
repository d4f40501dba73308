"""summary.md: the verdict, counts and failures in Markdown, for a pull-request comment or a CI step
summary.

GitHub caps a comment at 65,536 characters; the lists are cut well below that, saying how much
was cut. Everything a target could have put in a string (messages, ids, the target's URL) is
escaped, so that neither HTML nor Markdown from a target renders."""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any
from typing import ClassVar

from ..compliance import ONE_RUN
from ..compliance import Summary
from ..model import Result
from ..model import RunHeader
from ..model import Status
from ..outcome import told
from ..redaction import KEPT
from ._collect import Collected
from ._collect import pass_k_said

__all__ = ["MarkdownWriter", "escaped"]

_LIST_LIMIT = 100


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+!|~])")


def escaped(text: str) -> str:
    """`text` as inert Markdown: HTML escaped, Markdown's punctuation backslashed, on one line."""
    return _MARKDOWN.sub(r"\\\1", html.escape(" ".join(text.split()), quote=False))


def _details(opening: str, header: str, rows: list[str]) -> list[str]:
    """A table folded under <details>: `opening` (with its summary), the header row, the rows."""
    separator = "|---" * header.count(" | ") + "|---|"
    return [opening, "", header, separator, *rows, "", "</details>", ""]


def _cell(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return escaped(text if len(text) <= limit else text[: limit - 1] + "…")


def _table(results: list[Result]) -> list[str]:
    lines = [
        "| Requirement | Level | Section | Sentence | Status | Message |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| `{r.requirement}` | {r.level}{'' if r.basis in ('keyword', '') else f' ({r.basis})'} |"
        f" {r.draft.upper()} {r.section} | {_cell(r.quote, 160)} | {r.status.value} |"
        f" {_cell(r.message)} |"
        for r in results[:_LIST_LIMIT]
    ]
    if len(results) > _LIST_LIMIT:
        lines.append(f"\n… and {len(results) - _LIST_LIMIT} more: see report.json.")
    return lines


class MarkdownWriter(Collected):
    filename: ClassVar[str] = "summary.md"

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        order = {"MUST": 0, "SHOULD": 1, "MAY": 2}
        ranked = sorted(results, key=lambda r: (order.get(r.level, 3), r.requirement))
        problems = [r for r in ranked if r.status in (Status.FAIL, Status.ERROR)]
        waived = [r for r in ranked if r.status is Status.WAIVED]
        outcome = told(summary)
        lines = [
            f"## {outcome.icon} agent-conformance: **{escaped(outcome.headline)}**"
            + (f" ({summary.waived} waived)" if summary.waived else ""),
            "",
            f"Exit code {outcome.code}: {escaped(outcome.reason)}",
            "",
            *(
                [f"**Warning: {KEPT}: this report holds them; do not publish it.**", ""]
                if header.options.get("credentials") == KEPT
                else []
            ),
            (
                f"Target {escaped(header.target)} · drafts"
                f" {', '.join(header.as_dict()['drafts'].values())} · binding"
                f" {escaped(header.binding)} · agent-conformance {header.tool_version} ·"
                f" {header.started}"
            ),
            "",
            "Per draft: "
            + " · ".join(
                f"{draft.upper()} **{escaped(verdict)}**"
                for draft, verdict in outcome.drafts.items()
            ),
            "",
            "| Level | " + " | ".join(s.value for s in Status) + " |",
            "|---|" + "---|" * len(Status),
        ]
        for level in ("MUST", "SHOULD", "MAY"):
            lines.append(
                f"| {level} | " + " | ".join(str(summary.count(level, s)) for s in Status) + " |"
            )
        lines += [
            "",
            (
                f"{summary.untested_must} MUST-level requirements were not tested (skip); a skip is"
                " never a pass."
            ),
            "",
        ]
        kinds = Counter(r.skip.value for r in ranked if r.skip is not None)
        if kinds:
            lines += [
                "Skips by kind: "
                + " · ".join(f"{kind} {count}" for kind, count in kinds.most_common()),
                "",
            ]
        if problems:
            lines += ["### Failures and errors", "", *_table(problems), ""]
        if waived:
            lines += ["### Waived", "", *_table(waived), ""]
        if summary.claims:
            lines += _details(
                "<details><summary>What the document claims, and what the run verified</summary>",
                "| Agent | Claims | Verified | Detail |",
                [
                    f"| {_cell(c['agent'], 80)} | {c['kind']} {_cell(c['name'], 120)} |"
                    f" {c['verified']} | {_cell(c['detail'], 200)} |"
                    for c in summary.claims[:_LIST_LIMIT]
                ],
            )
        if summary.coverage:
            exercised = len(summary.coverage) - len(summary.unexercised)
            lines += _details(
                f"<details{' open' if summary.unexercised else ''}><summary>Agents: {exercised}"
                f" of {len(summary.coverage)} exercised</summary>",
                "| Agent | Exercised | Requirements judged on it | Why not |",
                [
                    f"| {_cell(a['id'], 80)} | {'yes' if a['exercised'] else '**no**'} |"
                    f" {len(a['requirements'])} | {_cell(a.get('why', ''), 200)} |"
                    for a in summary.coverage[:_LIST_LIMIT]
                ],
            )
        lines += _repeated(summary, ranked)
        untested = [r for r in ranked if r.status is Status.SKIP and r.level == "MUST"]
        if untested:
            lines += [
                "<details><summary>MUST-level requirements not tested</summary>",
                "",
                *_table(untested),
                "",
                "</details>",
                "",
            ]
        return "\n".join(lines)


def _repeated(summary: Summary, ranked: list[Result]) -> list[str]:
    """Over repeated runs, every judged requirement's rate and bound, the flaky ones first; after
    one run, what it bounds."""
    if summary.runs == 1:
        return [f"_{ONE_RUN}._", ""]
    judged = sorted(
        (r for r in ranked if r.repeat and r.repeat["rate"] is not None),
        key=lambda r: (not _repeat(r)["flaky"], -(_repeat(r)["rate"] or 0), r.requirement),
    )
    lines = [
        f"### Over {summary.runs} runs",
        "",
        (
            "| Requirement | Level | Runs | Failures | Errors | Violation rate | Upper bound (95%)"
            " | pass^k (all of k runs pass) | Flaky |"
        ),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [_repeat_row(r.requirement, r.level, _repeat(r)) for r in judged[:_LIST_LIMIT]]
    method = (
        f"Bounds: {_repeat(judged[0])['method']}, at {_repeat(judged[0])['confidence']:.0%}."
        if judged
        else ""
    )
    return [*lines, "", method, ""]


def _repeat(result: Result) -> dict[str, Any]:
    """What a result over repeated runs holds (only results that have it are asked)."""
    assert result.repeat is not None
    return result.repeat


def _repeat_row(requirement: str, level: str, repeat: dict[str, Any]) -> str:
    flaky = "**flaky**" if repeat["flaky"] else ""
    return (
        f"| `{requirement}` | {level} | {repeat['runs']} | {repeat['failures']} "
        f"| {repeat['errors']} | "
        f"{repeat['rate']:.1%} | {repeat['upper_bound']:.1%} | {pass_k_said(repeat['pass_k'])}"
        f" | {flaky} |"
    )
