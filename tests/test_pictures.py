"""Docstring pictures stay pictures: a table, a diagram or a usage block in a docstring is laid out
by hand, one entry a line, a cell that wraps aligned under its column. A rewrap tool run over the
tree once turned some into prose (issue 39); this finds what such a run leaves behind:

    under a full-width line, a continuation   runner.py's "or, for" / "a"
    at no column where a word of it starts
    under a full-width line, a short          command.py's "kept" / "across" / "the runs"
    continuation, another below it

A full-width line is one of 90 columns or more: what a rewrap leaves is found where it wrapped."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parents[1]
TREE = ("conformance", "mocks", "tests", "tools", "bench", "examples")
FULL = 90
ORPHAN = 25


def _starts(line: str) -> set[int]:
    return {m.start() for m in re.finditer(r"(?:(?<=\s)|^)\S", line)}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def rewrapped(docstring: str) -> Iterator[tuple[str, str]]:
    """(the line above, the line) for each trace of a rewrap in `docstring` (as written, its lines
    indented as in the file)."""
    lines = docstring.splitlines()
    for n in range(1, len(lines)):
        above, line = lines[n - 1], lines[n]
        if not line.strip() or not above.strip() or len(above) < FULL:
            continue
        if _indent(line) <= _indent(above) or _indent(above) < 4:
            continue  # not a continuation inside a block
        after = lines[n + 1] if n + 1 < len(lines) else ""
        if _indent(line) not in _starts(above) or (
            len(line.strip()) <= ORPHAN and after.strip() and _indent(after) == _indent(line)
        ):
            yield above.strip(), line.strip()


def _docstrings(path: Path) -> Iterator[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            text = ast.get_docstring(node, clean=False)
            if text:
                yield getattr(node, "name", "<module>"), text


def test_no_docstring_picture_is_rewrapped_into_prose() -> None:
    found = [
        f"{path.relative_to(ROOT)} {name}: {above[-40:]!r} / {line!r}"
        for folder in TREE
        for path in sorted((ROOT / folder).rglob("*.py"))
        for name, text in _docstrings(path)
        for above, line in rewrapped(text)
    ]
    assert found == []


def test_the_finder_finds_what_a_rewrap_leaves() -> None:
    """The pictures the rewrap broke, as it left them and as they are laid out again."""
    wide = "    RunOptions ──> probe (GET the WoA document; Unreachable ends the run before it"
    picture = f"{wide}),\n                   or, for a client driven by --client-command\n"
    assert list(rewrapped(picture)) == []
    broken = f"{wide}), or, for\n        a\n                   client driven by --client-command\n"
    assert [line for _, line in rewrapped(broken)] == ["a"]
    cell = " " * 47
    orphaned = (
        f"    WOA_CLIENT_CACHE_DIR{' ' * 23}a folder the client may keep its cache in, kept\n"
        f"{cell}across\n{cell}the runs of one scenario\n"
    )
    assert [line for _, line in rewrapped(orphaned)] == ["across"]
