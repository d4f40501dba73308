"""The comparison matrix: requirements by implementations, from several report.json files.

One column per report (its target, or its file name when two targets are the same), one row per
requirement any of them judged, the status in each cell; rows whose statuses differ are marked.
The header says which suite version and which draft revisions each report was made with, and
warns when they differ: a matrix of different suite versions compares different checks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from .writers.markdown import escaped

__all__ = ["Column", "Matrix", "ReportUnreadable", "load_matrix"]

_ORDER = {"MUST": 0, "SHOULD": 1, "MAY": 2}
_SYMBOL = {"pass": "✅ pass", "fail": "❌ fail", "error": "⚠️ error", "skip": "skip", "not-applicable": "n/a", "waived": "waived"}


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


@dataclass(frozen=True)
class Matrix:
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, str, str], ...]  # (requirement, draft + section, level)

    @property
    def warnings(self) -> list[str]:
        notes = []
        versions = {c.tool_version for c in self.columns}
        if len(versions) > 1:
            notes.append(f"the reports come from different suite versions ({', '.join(sorted(versions))}): they may judge with different checks")
        revisions = {json.dumps(c.drafts, sort_keys=True) for c in self.columns if c.drafts}
        if len(revisions) > 1:
            notes.append("the reports certify against different draft revisions")
        return notes

    def differs(self, requirement: str) -> bool:
        return len({c.statuses.get(requirement, "—") for c in self.columns}) > 1

    def markdown(self) -> str:
        lines = ["# agent-conformance comparison", ""]
        lines += [f"- **{escaped(c.label)}**: {escaped(c.level)}; agent-conformance {escaped(c.tool_version)}; "
                  f"{escaped(', '.join(c.drafts.values()) or 'draft revisions not recorded')}" for c in self.columns]
        lines += [""] + [f"> **Warning:** {escaped(w)}" for w in self.warnings] + ([""] if self.warnings else [])
        lines += ["| | Requirement | Section | Level | " + " | ".join(escaped(c.label) for c in self.columns) + " |",
                  "|---|---|---|---|" + "---|" * len(self.columns)]
        for requirement, section, level in self.rows:
            mark = "≠" if self.differs(requirement) else ""
            cells = " | ".join(_SYMBOL.get(c.statuses.get(requirement, ""), "—") for c in self.columns)
            lines.append(f"| {mark} | `{requirement}` | {section} | {level} | {cells} |")
        differing = sum(self.differs(r) for r, _, _ in self.rows)
        lines += ["", f"{differing} of {len(self.rows)} requirements differ between the implementations (marked ≠)."]
        return "\n".join(lines) + "\n"

    def html(self) -> str:
        head = "".join(f"<th>{escape(c.label)}<br><small>{escape(c.level)} · {escape(c.tool_version)}</small></th>" for c in self.columns)
        rows = []
        for requirement, section, level in self.rows:
            cells = "".join(f'<td class="{escape(c.statuses.get(requirement, "none"))}">{escape(c.statuses.get(requirement, "—"))}</td>'
                            for c in self.columns)
            marked = ' class="differs"' if self.differs(requirement) else ""
            rows.append(f"<tr{marked}><td><code>{escape(requirement)}</code></td><td>{escape(section)}</td><td>{escape(level)}</td>{cells}</tr>")
        warnings = "".join(f"<p class=\"warning\">Warning: {escape(w)}</p>" for w in self.warnings)
        revisions = "".join(f"<li>{escape(c.label)}: {escape(', '.join(c.drafts.values()) or 'draft revisions not recorded')}</li>"
                            for c in self.columns)
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
                "<title>agent-conformance comparison</title><style>body{font:14px system-ui,sans-serif;margin:20px}"
                "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:4px 8px}tr.differs{background:#fff8c5}"
                ".pass{color:#1a7f37}.fail{color:#cf222e;font-weight:600}.error{color:#bc4c00}.skip,.not-applicable,.none{color:#6e7781}"
                ".warning{color:#9a6700;font-weight:600}</style></head><body><h1>agent-conformance comparison</h1>"
                f"<ul>{revisions}</ul>{warnings}<table><thead><tr><th>Requirement</th><th>Section</th><th>Level</th>{head}</tr></thead>"
                f"<tbody>{''.join(rows)}</tbody></table><p>Rows that differ are highlighted.</p></body></html>\n")


_WORST = ("error", "fail", "waived", "pass", "skip", "not-applicable")


def _column(path: Path, data: Any) -> Column:
    if not isinstance(data, dict) or not isinstance(data.get("results"), list) or not isinstance(data.get("header"), dict):
        raise ReportUnreadable(f"{path} is not a report.json of agent-conformance")
    statuses: dict[str, str] = {}
    for result in data["results"]:
        requirement, status = str(result.get("requirement")), str(result.get("status"))
        known = statuses.get(requirement)
        if known is None or (_WORST.index(status) if status in _WORST else 99) < (_WORST.index(known) if known in _WORST else 99):
            statuses[requirement] = status
    header = data["header"]
    return Column(str(header.get("target", path.name)), str(path), str(header.get("tool_version", "?")),
                  dict(header.get("drafts") or {}), str(data.get("summary", {}).get("level", "?")), statuses)


def load_matrix(paths: list[Path]) -> Matrix:
    """The matrix of the reports at `paths`. Raises `ReportUnreadable`."""
    columns = []
    for path in paths:
        try:
            columns.append(_column(path, json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError) as error:
            raise ReportUnreadable(f"{path} cannot be read as a report.json: {error}") from None
    labels = [c.label for c in columns]
    columns = [c if labels.count(c.label) == 1 else Column(f"{c.label} ({c.path})", *[getattr(c, f) for f in
               ("path", "tool_version", "drafts", "level", "statuses")]) for c in columns]
    from ..requirements import catalogue

    judged = {r for c in columns for r in c.statuses}
    known = [r for r in catalogue() if r.id in judged]
    rows: list[tuple[str, str, str]] = sorted(((r.id, f"{r.draft.upper()} {r.section}", str(r.level)) for r in known),
                                              key=lambda row: (row[0].split("-")[0], _ORDER[row[2]], row[0]))
    rows += sorted((r, "?", "?") for r in judged - {r.id for r in known})
    return Matrix(tuple(columns), tuple(rows))
