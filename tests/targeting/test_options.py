"""A run's options are built in one place (issue 23): run_options checks and normalises what a
user gave alike for the CLI, the pytest plugin, fleet, rejudge, mutate and the tests, and names
the option at fault."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from conformance.targeting import SUITES
from conformance.targeting import OptionsUnusable
from conformance.targeting import run_options

ROOT = Path(__file__).parents[1]


def test_nothing_but_run_options_builds_a_run_s_options() -> None:
    built = [
        f"{p.relative_to(ROOT)}:{n}"
        for folder in ("conformance", "bench")
        for p in (ROOT / folder).rglob("*.py")
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bRunOptions\(", line) and p.name != "target.py"
    ]
    assert built == []


def test_what_a_user_gives_is_normalised() -> None:
    options = run_options(
        "https://agents.example/base/",
        suites="all",
        roles=("host",),
        allowed_origins=("https://other.example/",),
        headers=("Authorization: Bearer x",),
        levels=("must",),
        seed=7,
    )
    assert options.target == "https://agents.example/base" and options.suites == SUITES
    assert options.roles == ("host", "any") and options.allowed_origins == (
        "https://other.example",
    )
    assert (
        options.headers == (("Authorization", "Bearer x"),)
        and options.selection.levels == ("MUST",)
        and options.seed == 7
    )
    # a fresh seed each run
    assert run_options("https://a.example").seed != run_options("https://a.example").seed


@pytest.mark.parametrize(
    "target, given, option",
    [
        ("ftp://agents.example", {}, "target"),
        ("https://agents.example/?q=1", {}, "target"),
        ("https://agents.example", {"suites": "wao"}, "suite"),
        ("https://agents.example", {"suites": "woa", "scenarios": ("flight_booking",)}, "scenario"),
        ("https://agents.example", {"suites": "all", "binding": "a2a"}, "binding"),
        ("https://agents.example", {"headers": ("no colon",)}, "header"),
        # the URL's credentials would replace the header on the wire, and the evidence would show
        # a request never sent
        ("https://u:pw@agents.example", {"headers": ("authorization: Bearer t",)}, "header"),
        ("https://agents.example", {"allowed_origins": ("not a url",)}, "allow-origin"),
        ("https://agents.example", {"requirements": ("WOA-0-NOTHING",)}, "requirement"),
        ("https://agents.example", {"levels": ("sometimes",)}, "level"),
        ("https://agents.example", {"cacert": "/nonexistent/ca.pem"}, "cacert"),
        ("https://agents.example", {"baseline": "/nonexistent/baseline.json"}, "baseline"),
    ],
)
def test_an_option_that_cannot_be_used_is_named(
    target: str, given: dict[str, object], option: str
) -> None:
    with pytest.raises(OptionsUnusable) as raised:
        run_options(target, **given)  # type: ignore[arg-type]
    assert raised.value.option == option


def test_in_process_and_client_targets_are_left_as_given() -> None:
    assert run_options(
        "python -m my.client {document}", client_command="python -m my.client {document}"
    ).target.startswith("python")


def test_the_a2a_binding_without_its_extra_names_the_extra_and_exits_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from typer.testing import CliRunner

    from conformance.cli import app

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "a2a" else found(name, *a)
    )
    with pytest.raises(OptionsUnusable, match=r"pip install 'agent-conformance\[a2a\]'"):
        run_options("https://agents.example", suites="aci", binding="a2a")
    result = CliRunner().invoke(
        app, ["run", "--target", "https://agents.example", "--suite", "aci", "--binding", "a2a"]
    )
    assert result.exit_code == 2 and "agent-conformance[a2a]" in result.output


def test_what_a_run_records_of_its_options_reads_back_whole(tmp_path: Path) -> None:
    """read(record(options)) == options for every field a run records: a re-judged run is the run
    that was recorded (a header's value is never recorded: only its name comes back)."""
    import dataclasses

    from conformance.targeting import RunOptions

    baseline = tmp_path / "baseline.json"
    baseline.write_text(
        '{"format": "agent-conformance-baseline/1",'
        ' "expected_failures": {"WOA-7-CACHING-HEADERS": "the CDN strips it"}}'
    )
    given = run_options(
        "https://agents.example",
        suites=("woa", "sdsi"),
        roles=("host", "server"),
        allowed_origins=("https://other.example",),
        headers=("Authorization: Bearer CANARY",),
        levels=("must",),
        sections=("4", "5.2"),
        exclude=("WOA-4-VERSION-1",),
        baseline=baseline,
        scenarios=("flight_booking",),
        seed=99,
        timeout=3.5,
        max_body=1234,
        allow_http_loopback=True,
        max_experimental_keys=4,
        strict=True,
        parallel=2,
        check_timeout=7.0,
        budget=42.0,
        max_probes=5,
        require_every_agent=True,
    )
    recorded = json.loads(json.dumps(given.recorded()))  # as it lies in a file
    assert "CANARY" not in json.dumps(recorded)
    again = RunOptions.from_recorded(given.target, given.suites, recorded)
    for option in dataclasses.fields(RunOptions):
        if option.name == "headers":
            assert [n for n, _ in again.headers] == [n for n, _ in given.headers]
        elif option.compare and option.name != "record":
            assert getattr(again, option.name) == getattr(given, option.name), option.name
    # and every field that differs from its default is one the record names
    defaults = RunOptions("https://agents.example")
    changed = {
        f.name
        for f in dataclasses.fields(RunOptions)
        if f.compare and getattr(given, f.name) != getattr(defaults, f.name)
    }
    assert changed - {"target", "suites", "headers"} <= set(recorded) | {"check_timeout"}


def test_run_options_names_every_field_it_takes() -> None:
    """No option reaches RunOptions unchecked through a catch-all: run_options takes each field
    by name and type (the selection through its four parts), none through **kwargs."""
    import dataclasses
    import inspect

    from conformance.targeting import RunOptions

    taken = inspect.signature(run_options).parameters
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in taken.values())
    assert {f.name for f in dataclasses.fields(RunOptions)} - {"selection"} <= set(taken)
    assert {"levels", "requirements", "sections", "exclude"} <= set(taken)
