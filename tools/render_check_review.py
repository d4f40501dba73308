"""Render docs/check-review.md from docs/check-review.json: every check read against its sentence.

Each entry: the check, its requirement, what the sentence requires, what the check asserts, the
verdict (exact, over: it fails more than the sentence forbids, under: it misses what the sentence
forbids and it can observe), why, and the fix (made, or still to make). `--check` exits 1 when the
Markdown on disk differs from what this script renders.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "docs" / "check-review.json"
TARGET = ROOT / "docs" / "check-review.md"


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _fix(entry: dict[str, Any]) -> str:
    """The fix of a check that is not exact, as the table's last words."""
    return (
        " Fix: " + _cell(entry["fix"]) if entry["verdict"] != "exact" and entry.get("fix") else ""
    )


def _second(entry: dict[str, Any]) -> str:
    second = entry.get("second_reading")
    if not second:
        return ""
    said = f"{second['verdict']}" + (f" ({second['status']})" if second["status"] else "")
    example = second.get("counter_example") or ""
    answer = f" Answer: {second['resolution']}" if second.get("resolution") else ""
    return _cell((f"{said}: {example}" if example else said) + answer)


def _second_counts(entries: list[dict[str, Any]]) -> str:
    seconds = [e["second_reading"] for e in entries if e.get("second_reading")]
    told = {
        (v, s): sum(r["verdict"] == v and r["status"] == s for r in seconds)
        for v in ("over", "under")
        for s in ("fixed", "disputed", "open")
    }
    exact = sum(r["verdict"] == "exact" for r in seconds)
    return (
        f"{len(seconds)} read again: {exact} exact; "
        + "; ".join(
            f"{v} {told[v, 'fixed']} fixed, {told[v, 'disputed']} disputed, {told[v, 'open']} open"
            for v in ("over", "under")
        )
        + "."
    )


def render(entries: list[dict[str, Any]]) -> str:
    counts = {v: sum(e["verdict"] == v for e in entries) for v in ("exact", "over", "under")}
    lines = [
        "# Every check against its sentence",
        "",
        (
            "Made by `python tools/render_check_review.py` from `docs/check-review.json`; a test"
            " keeps both in step with"
        ),
        (
            "the registered checks. A check is *exact* when it fails what its sentence forbids and"
            " nothing more, *over* when"
        ),
        (
            "it fails a target the sentence does not forbid, *under* when it misses what the"
            " sentence forbids and it could see."
        ),
        "`status` says whether the fix is made (`fixed`) or still to make (`open`).",
        "",
        (
            f"{len(entries)} checks: {counts['exact']} exact, {counts['over']} over,"
            f" {counts['under']} under."
        ),
        "",
        (
            "Every MUST check has a second reading by a reader who neither wrote it nor saw the"
            " first (issue 38):"
        ),
        _second_counts(entries),
        "",
    ]
    for draft in ("WOA", "SDSI", "ACI"):
        mine = sorted(
            (e for e in entries if e["requirement"].startswith(draft)),
            key=lambda e: e["requirement"],
        )
        lines += [
            f"## {draft}",
            "",
            (
                "| requirement | check | level | verdict | status | the sentence requires | the"
                " check asserts | why / fix | second reading |"
            ),
            "|---|---|---|---|---|---|---|---|---|",
        ]
        lines += [
            f"| `{e['requirement']}` | `{e['check']}` | {e['level']} | {e['verdict']} |"
            f" {e.get('status', '')} | "
            f"{_cell(e['sentence_requires'])} | {_cell(e['check_asserts'])} | "
            f"{_cell(e['why'])}{_fix(e)} | {_second(e)} |"
            for e in mine
        ]
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    rendered = render(json.loads(SOURCE.read_text(encoding="utf-8")))
    if "--check" in sys.argv:
        return 0 if TARGET.exists() and TARGET.read_text(encoding="utf-8") == rendered else 1
    TARGET.write_text(rendered, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
