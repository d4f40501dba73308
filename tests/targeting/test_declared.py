"""A run's options are declared once (targeting/declared.py): every keyword of run_options a user
gives has its declaration, and the command line, the pytest plugin and fleet offer them from it."""

from __future__ import annotations

import inspect
from typing import Any

import typer

from conformance.cli.run import run
from conformance.targeting import run_options
from conformance.targeting.declared import GIVEN

#: run_options' keywords no user gives by a flag: the target, what an entry point hands over in
#: process, and the body cap (a bound of the suite's, not a choice)
NOT_GIVEN = {"target", "transport", "observed", "replay", "max_body"}


def test_every_option_a_user_gives_is_declared() -> None:
    taken = set(inspect.signature(run_options).parameters)
    assert taken - NOT_GIVEN == set(GIVEN)


def test_run_offers_every_declared_option_with_its_help_and_limits() -> None:
    alone = typer.Typer()
    alone.command()(run)
    offered = {p.opts[0]: p for p in typer.main.get_command(alone).params}
    for given in GIVEN.values():
        option: Any = offered[f"--{given.flag}"]
        assert option.help == given.help, given.flag
        assert option.multiple == given.repeatable, given.flag
        assert option.min == given.minimum, given.flag
        assert option.max == given.maximum, given.flag


def test_the_plugin_offers_the_options_marked_for_it() -> None:
    from conformance import pytest_plugin

    class Parser:
        def __init__(self) -> None:
            self.offered: set[str] = set()

        def getgroup(self, *_: str) -> Parser:
            return self

        def addoption(self, name: str, **_: Any) -> None:
            self.offered.add(name)

    parser = Parser()
    pytest_plugin.pytest_addoption(parser)  # type: ignore[arg-type]
    assert {f"--agent-{g.flag}" for g in GIVEN.values() if g.plugin} <= parser.offered
