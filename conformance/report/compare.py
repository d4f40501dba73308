"""The comparison matrix: requirements by implementations, from several report.json files.

One column per report (its target, or its file name when two targets are the same), one row per
requirement any of them judged, the status in each cell, a link to that report's evidence for it
(report.html#ID beside the report.json); a draft a report did not run is `not run`, never a
difference, and rows whose statuses differ among the reports that ran them are marked, with a
"disagreements only" view. The header says which suite version and which draft revisions each
report was made with, and warns when they differ for a draft two reports both ran.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from dataclasses import replace
from html import escape
from pathlib import Path
from typing import Any

from .writers.markdown import escaped

__all__ = ["Column", "Matrix", "ReportUnreadable", "load_matrix"]

_ORDER = {"MUST": 0, "SHOULD": 1, "MAY": 2}
_SYMBOL = {
    "pass": "✅ pass",
    "fail": "❌ fail",
    "error": "⚠️ error",
    "skip": "skip",
    "not-applicable": "n/a",
    "waived": "waived",
    "not-run": "not run",
}


class ReportUnreadable(ValueError):
    """A file that is not a report.json of agent-conformance (a usage error)."""


@dataclass(frozen=True)
class Column:
    label: str
    path: str
    tool_version: str
    drafts: dict[str, str]
    level: str
    statuses: dict[str, str]  # requirement -> status (the worst of its results)
    ran: frozenset[str] = frozenset()  # the drafts the report ran

    def status(self, requirement: str) -> str:
        """Its status, `not-run` when the report did not run the requirement's draft, `—` when it
        has none."""
        if requirement in self.statuses:
            return self.statuses[requirement]
        return "not-run" if requirement.split("-")[0].lower() not in self.ran else "—"

    def evidence(self, requirement: str, output: Path) -> str | None:
        """The link from `output` (where the comparison is written) to this report's row for
        `requirement`."""
        page = Path(self.path).parent / "report.html"
        if requirement not in self.statuses or not page.is_file():
            return None
        return Path(os.path.relpath(page, output)).as_posix() + f"#{requirement}"


@dataclass(frozen=True)
class Matrix:
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, str, str], ...]  # (requirement, draft + section, level)

    @property
    def warnings(self) -> list[str]:
        notes = []
        versions = {c.tool_version for c in self.columns}
        if len(versions) > 1:
            notes.append(
                f"the reports come from different suite versions ({', '.join(sorted(versions))}):"
                " they may judge with different checks"
            )
        for draft in sorted({d for c in self.columns for d in c.drafts}):
            revisions = {
                c.drafts[draft] for c in self.columns if draft in c.drafts and draft in c.ran
            }
            if len(revisions) > 1:
                notes.append(
                    f"the reports certify {draft.upper()} against different revisions"
                    f" ({', '.join(sorted(revisions))})"
                )
        return notes

    def differs(self, requirement: str) -> bool:
        """Whether the reports that ran the requirement's draft disagree on it."""
        return len({s for c in self.columns if (s := c.status(requirement)) != "not-run"}) > 1

    def markdown(self) -> str:
        lines = ["# agent-conformance comparison", ""]
        lines += [
            f"- **{escaped(c.label)}**: {escaped(c.level)}; agent-conformance"
            f" {escaped(c.tool_version)};"
            f" {escaped(', '.join(c.drafts.values()) or 'draft revisions not recorded')}"
            for c in self.columns
        ]
        lines += (
            [""]
            + [f"> **Warning:** {escaped(w)}" for w in self.warnings]
            + ([""] if self.warnings else [])
        )
        lines += [
            "| | Requirement | Section | Level | "
            + " | ".join(escaped(c.label) for c in self.columns)
            + " |",
            "|---|---|---|---|" + "---|" * len(self.columns),
        ]
        for requirement, section, level in self.rows:
            mark = "≠" if self.differs(requirement) else ""
            cells = " | ".join(_SYMBOL.get(c.status(requirement), "—") for c in self.columns)
            lines.append(f"| {mark} | `{requirement}` | {section} | {level} | {cells} |")
        differing = sum(self.differs(r) for r, _, _ in self.rows)
        lines += [
            "",
            (
                f"{differing} of {len(self.rows)} requirements differ between the implementations"
                " (marked ≠)."
            ),
        ]
        return "\n".join(lines) + "\n"

    def html(self, output: Path = Path(".")) -> str:
        """The matrix as a page written into `output` (each cell links to its report's evidence
        from there)."""
        head = "".join(
            f"<th>{escape(c.label)}<br><small>{escape(c.level)} ·"
            f" {escape(c.tool_version)}</small></th>"
            for c in self.columns
        )
        rows = []
        for requirement, section, level in self.rows:
            cells = "".join(
                _cell(c.status(requirement), c.evidence(requirement, output)) for c in self.columns
            )
            marked = ' class="differs"' if self.differs(requirement) else ""
            rows.append(
                f"<tr{marked}><td><code>{escape(requirement)}</code></td><td>{escape(section)}</td><td>{escape(level)}</td>{cells}</tr>"
            )
        warnings = "".join(f'<p class="warning">Warning: {escape(w)}</p>' for w in self.warnings)
        revisions = "".join(
            f"<li>{escape(c.label)}:"
            f" {escape(', '.join(c.drafts.values()) or 'draft revisions not recorded')}</li>"
            for c in self.columns
        )
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src'
            " 'unsafe-inline'\">"
            "<title>agent-conformance comparison</title><style>body{font:14px"
            " system-ui,sans-serif;margin:20px}"
            "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:4px"
            " 8px}tr.differs{background:#fff8c5}"
            ".pass{color:#1a7f37}.fail{color:#cf222e;font-weight:600}.error{color:#bc4c00}.skip,.not-applicable,.none{color:#6e7781}"
            ".warning{color:#9a6700;font-weight:600}#only:checked~table tbody"
            " tr:not(.differs){display:none}"
            "</style></head><body><h1>agent-conformance comparison</h1>"
            f'<ul>{revisions}</ul>{warnings}<input type="checkbox" id="only"> <label'
            ' for="only">disagreements only</label>'
            f"<table><thead><tr><th>Requirement</th><th>Section</th><th>Level</th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table><p>Rows that differ are"
            " highlighted.</p></body></html>\n"
        )


_WORST = ("error", "fail", "waived", "pass", "skip", "not-applicable")


def _cell(status: str, link: str | None) -> str:
    text = f'<a href="{escape(link)}">{escape(status)}</a>' if link else escape(status)
    return f'<td class="{escape(status if status != "—" else "none")}">{text}</td>'


def _column(path: Path, data: Any) -> Column:
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("results"), list)
        or not isinstance(data.get("header"), dict)
    ):
        raise ReportUnreadable(f"{path} is not a report.json of agent-conformance")
    statuses: dict[str, str] = {}
    for result in data["results"]:
        requirement, status = str(result.get("requirement")), str(result.get("status"))
        known = statuses.get(requirement)
        if known is None or (_WORST.index(status) if status in _WORST else 99) < (
            _WORST.index(known) if known in _WORST else 99
        ):
            statuses[requirement] = status
    header = data["header"]
    ran = frozenset(str(s) for s in header.get("suites") or ()) or frozenset(
        r.split("-")[0].lower() for r in statuses
    )
    return Column(
        str(header.get("target", path.name)),
        str(path),
        str(header.get("tool_version", "?")),
        dict(header.get("drafts") or {}),
        _verdict(data.get("summary", {})),
        statuses,
        ran,
    )


def _verdict(summary: dict[str, Any]) -> str:
    """What a report's outcome says (its gate's headline and exit code), or, in a report written
    before outcomes, its level."""
    gate = summary.get("gate") or {}
    if "headline" in gate:
        return f"{gate['headline']} (exit {gate['exit_code']})"
    return str(summary.get("level", "?"))


def load_matrix(paths: list[Path]) -> Matrix:
    """The matrix of the reports at `paths`. Raises `ReportUnreadable`."""
    columns = []
    for path in paths:
        try:
            columns.append(_column(path, json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError) as error:
            raise ReportUnreadable(f"{path} cannot be read as a report.json: {error}") from None
    labels = [c.label for c in columns]
    columns = [
        c if labels.count(c.label) == 1 else replace(c, label=f"{c.label} ({c.path})")
        for c in columns
    ]
    from ..requirements import catalogue

    judged = {r for c in columns for r in c.statuses}
    known = [r for r in catalogue() if r.id in judged]
    rows: list[tuple[str, str, str]] = sorted(
        ((r.id, f"{r.draft.upper()} {r.section}", str(r.level)) for r in known),
        key=lambda row: (row[0].split("-")[0], _ORDER[row[2]], row[0]),
    )
    rows += sorted((r, "?", "?") for r in judged - {r.id for r in known})
    return Matrix(tuple(columns), tuple(rows))
