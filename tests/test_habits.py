"""The habits CI enforces (issue 23), run by the README's test command: ruff (lint, lines of 100
columns at most, and its formatter) and mypy --strict over the whole tree (the suite, the mocks,
the tests, the tools and the bench), all clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
TREE = ("conformance", "mocks", "tests", "tools", "bench")


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=540
    )


def test_ruff_finds_nothing() -> None:
    done = _run("ruff", "check", *TREE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_tree_is_as_ruffs_formatter_writes_it() -> None:
    done = _run("ruff", "format", "--check", *TREE)
    assert done.returncode == 0, "run: ruff format .\n" + done.stdout + done.stderr


@pytest.mark.timeout(600)
def test_mypy_strict_finds_nothing(tmp_path: Path) -> None:
    """pyproject.toml's [tool.mypy] names the files (the whole tree) and strict mode; a cache of
    its own, so that a stale cache in the checkout never hides an error."""
    done = _run("mypy", "--cache-dir", str(tmp_path / "cache"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_reference_agents_are_rooms_of_small_handlers() -> None:
    """No function of mocks/reference/ over 80 lines (issue 39): the reference host is a state
    object with one handler per route, grouped by draft, not one function of twenty closures."""
    import ast

    long = [
        f"{path.name}:{node.name} ({(node.end_lineno or node.lineno) - node.lineno + 1} lines)"
        for path in sorted((ROOT / "mocks" / "reference").glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (node.end_lineno or node.lineno) - node.lineno + 1 > 80
    ]
    assert long == []
