"""The pytest plugin: certify an agent inside a team's own pytest run, one test per requirement.

    pytest --agent-target https://agents.example.com [--agent-cacert=CA.pem]
    pytest --agent-app my_service.main:app     # in-process (httpx's ASGI transport, no socket)
           [--agent-suite woa|sdsi|aci|all] [--agent-role R ...] [--agent-baseline FILE]

Registered through the `pytest11` entry point and inert unless --agent-target, --agent-app or
--agent-callable is given. The certification runs once a session, when the session starts (under
pytest-xdist, in the controller, whose workers read its results); each requirement is then an item
named after its ID: `pass` passes, `fail` and `error` fail with the sentence, the message and the
evidence (at SHOULD level, on which `run` exits 0, they are expected failures: `x`, their reason
shown with -rx), and `skip`, `not-applicable` and `waived` are skips with their reason. Each item
reports the time its own check took; the certification's whole time is a line of the terminal
summary.

The session keeps the command line's rules: the same option mistakes are refused in the same words
(target/sources.py), and the session fails, with the run's outcome in one line, whenever `run`
would not exit 0 (nothing certified, an unreachable target, an app that cannot be loaded, a run
cut short), while the project's own tests still run. Items hang from the project's pytest
configuration file (pyproject.toml, pytest.ini, tox.ini, setup.cfg, or a conftest.py at the root):
`pyproject.toml::woa::5.2::WOA-5.2-AGENT-MISMATCH-400`, a node ID pytest takes back to run that
requirement alone; a project with none of them gets `agent-conformance/woa/5.2::...` IDs, which
it cannot.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import shutil
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from .report import Collect
from .report import Result
from .report import Status
from .report.outcome import Outcome
from .report.outcome import told
from .requirements import Catalogue
from .requirements import Requirement
from .targeting import OptionsUnusable
from .targeting import RunOptions
from .targeting import run_options
from .targeting.declared import GIVEN
from .targeting.declared import Given
from .targeting.sources import PLUGIN
from .targeting.sources import Sources
from .targeting.sources import refused

__all__ = ["RequirementFailed", "RequirementItem"]

_RESULTS = pytest.StashKey[dict[str, list[Result]]]()
_SECONDS = pytest.StashKey[float]()
_FILE = pytest.StashKey[Path]()
#: The run's outcome (its headline, exit code and reason), or why nothing could be certified.
_OUTCOME = pytest.StashKey[Outcome]()
_COLLECTED = pytest.StashKey[bool]()
#: Where the items hang from, most preferred first (the ini file pytest found comes before all).
_ANCHORS = ("pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg", "conftest.py")
#: The name under which an xdist controller hands its workers the file of its results.
_HANDED = "agent_conformance_results"
_SUITES = ("woa", "sdsi", "aci")


class RequirementFailed(Exception):
    """A requirement the target breaks (or whose check could not reach a verdict)."""

    def __init__(self, results: list[Result]) -> None:
        super().__init__(results[0].message)
        self.results = results


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup(
        "agent-conformance", "certify an agent against the SDSI, WoA and ACI drafts"
    )
    group.addoption("--agent-target", help="The agent's origin, e.g. https://agents.example.com")
    group.addoption(
        "--agent-app",
        help=(
            "An ASGI app to certify in-process, module:attribute (its origin is https://agent.test)"
        ),
    )
    group.addoption(
        "--agent-callable",
        help=(
            "Agent code to certify without a server, module:function: an ACI invoked agent"
            " (--agent-suite aci) or an SDSI server agent (--agent-suite sdsi, with"
            " --agent-scenario)"
        ),
    )
    for given in GIVEN.values():
        if given.plugin:
            group.addoption(f"--agent-{given.flag}", **_as_pytest_option(given))


def _as_pytest_option(given: Given) -> dict[str, Any]:
    """A run option as the plugin offers it (targeting/declared.py declares it once)."""
    if given.repeatable:
        return {"action": "append", "default": None, "help": given.help}
    made: dict[str, Any] = {"default": given.default, "help": given.help}
    if given.kind is bool:
        return {**made, "action": "store_true"}
    if given.choices:
        made["choices"] = given.choices
    elif given.kind is not str:
        made["type"] = given.kind
    return made


def _enabled(config: pytest.Config) -> bool:
    return bool(
        config.getoption("--agent-target")
        or config.getoption("--agent-app")
        or config.getoption("--agent-callable")
    )


def _suites(config: pytest.Config) -> tuple[str, ...]:
    suite = config.getoption("--agent-suite")
    return _SUITES if suite == "all" else (suite,)


def pytest_configure(config: pytest.Config) -> None:
    for draft in _SUITES:
        config.addinivalue_line(
            "markers", f"{draft}: a requirement of the {draft.upper()} draft (agent-conformance)"
        )
    for level in ("must", "should", "may"):
        config.addinivalue_line(
            "markers", f"{level}: a requirement at {level.upper()} level (agent-conformance)"
        )
    if _enabled(config):
        _refused(config)


def _refused(config: pytest.Config) -> None:
    """The command line's refusals, in the plugin's spelling: a usage error before anything runs."""
    try:
        refused(
            Sources(
                target=bool(config.getoption("--agent-target")),
                app=bool(config.getoption("--agent-app")),
                agent_callable=bool(config.getoption("--agent-callable")),
                suite=config.getoption("--agent-suite"),
                scenarios=tuple(config.getoption("--agent-scenario") or ()),
            ),
            PLUGIN,
        )
    except OptionsUnusable as error:
        raise pytest.UsageError(str(error)) from None
    _configuration_not_read(config)
    # each option's value, as the command line checks it before anything starts
    _options("https://agents.example", **_given(config))


#: The files pytest reads its configuration from, and the section each must hold.
_CONFIGURATIONS = {
    "pytest.ini": "",
    ".pytest.ini": "",
    "pyproject.toml": "[tool.pytest",
    "tox.ini": "[pytest]",
    "setup.cfg": "[tool:pytest]",
}


def _configuration_not_read(config: pytest.Config) -> None:
    """A usage error where pytest missed the project's configuration file because of an option of
    ours: it picks its rootdir before it loads plugins, so the value of `--agent-cacert
    /tmp/ca.pem` (two arguments) is a test path to it, and a path outside the project moves the
    rootdir away from the project's file (its options, its node IDs). `--agent-cacert=PATH` is
    one argument, which pytest leaves alone."""
    if config.inipath is not None:
        return
    here = config.invocation_params.dir.resolve()
    args = [str(a) for a in config.invocation_params.args]
    flags = {f"--agent-{g.flag}" for g in GIVEN.values() if g.plugin}
    outside = [
        (flag, value)
        for flag, value in itertools.pairwise(args)
        if flag in flags
        and (here / value).exists()
        and not (here / value).resolve().is_relative_to(here)
    ]
    missed = [
        folder / name
        for folder in (here, *here.parents)
        for name, section in _CONFIGURATIONS.items()
        if (folder / name).is_file()
        and section in (folder / name).read_text(encoding="utf-8", errors="replace")
    ]
    if outside and missed:
        flag, value = outside[0]
        raise pytest.UsageError(
            f"pytest took {value} (after {flag}) for a test path when it chose its rootdir, and"
            f" so did not read {missed[0]}: write {flag}={value}"
        )


def _given(config: pytest.Config) -> dict[str, Any]:
    """run_options' keywords from the plugin's options, those given (every way of giving a target
    alike; the rest are run_options' defaults)."""
    given = {g.keyword: config.getoption(f"--agent-{g.flag}") for g in GIVEN.values() if g.plugin}
    return {
        keyword: tuple(value) if isinstance(value, list) else value
        for keyword, value in given.items()
        if value is not None
    }


def _catalogue(config: pytest.Config) -> Catalogue:
    """The requirements of the revisions the session certifies (--agent-revision)."""
    return _options("https://agents.example", **_given(config)).catalogue()


def _anchor(config: pytest.Config) -> Path | None:
    """The project's file the items hang from: its pytest configuration file, if it has one."""
    if config.inipath is not None:
        return Path(config.inipath)
    return next((config.rootpath / n for n in _ANCHORS if (config.rootpath / n).is_file()), None)


class _Group(pytest.Collector):
    """A draft, or a section of one: node IDs read FILE::woa::5.2::ID, JUnit classnames
    FILE.woa.5.2."""

    def __init__(self, *, requirements: list[Requirement], depth: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.requirements, self.depth = requirements, depth

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        return _grouped(self, self.requirements, self.depth)


class RequirementsFile(pytest.File):
    """The project's configuration file, as the collector of the requirements of the chosen
    drafts."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        self.config.stash[_COLLECTED] = True
        suites = _suites(self.config)
        return _grouped(self, [r for r in _catalogue(self.config) if r.draft in suites], 0)


def _grouped(
    parent: pytest.Collector, requirements: list[Requirement], depth: int
) -> list[pytest.Item | pytest.Collector]:
    """Under a file, a group per draft; under a draft, a group per section; under that, the
    items."""
    if depth == 2:
        return [_item(parent, r) for r in requirements]
    groups: dict[str, list[Requirement]] = {}
    for requirement in requirements:
        name = requirement.draft if depth == 0 else requirement.section
        groups.setdefault(name, []).append(requirement)
    return [
        _Group.from_parent(parent, name=name, requirements=members, depth=depth + 1)
        for name, members in groups.items()
    ]


def _item(parent: pytest.Collector, requirement: Requirement, **where: Any) -> RequirementItem:
    item = RequirementItem.from_parent(parent, name=requirement.id, **where)
    item.add_marker(requirement.draft)
    item.add_marker(requirement.level.lower())
    return item


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """The project's configuration file, when pytest's arguments reach it (a node ID of one
    requirement, a draft, or the whole project), collects the requirements."""
    config = parent.config
    if _enabled(config) and file_path == _anchor(config):
        return RequirementsFile.from_parent(parent, path=file_path)
    return None


def _leaves(node: pytest.Item | pytest.Collector) -> list[pytest.Item]:
    if isinstance(node, pytest.Item):
        return [node]
    return [leaf for child in node.collect() for leaf in _leaves(child)]


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Where pytest's arguments did not reach the configuration file (`pytest tests/`), the items
    of the chosen drafts are added all the same, under it, marked with their draft and level
    (-m "woa and must"), and reported as collected, so that pytest's count holds them."""
    if not _enabled(config) or config.stash.get(_COLLECTED, False):
        return
    anchor, suites = _anchor(config), _suites(config)
    if anchor is not None:
        added = _leaves(RequirementsFile.from_parent(session, path=anchor))
    else:
        added = [
            _item(session, r, nodeid=f"agent-conformance/{r.draft}/{r.section}::{r.id}")
            for r in _catalogue(config)
            if r.draft in suites
        ]
    config.hook.pytest_collectreport(
        report=pytest.CollectReport(
            "agent-conformance", "passed", None, list[pytest.Item | pytest.Collector](added)
        )
    )
    # -k and -m select among them afterwards (pytest's own hook runs after this one)
    items.extend(added)


def _options(target: str, **given: Any) -> RunOptions:
    """run_options, an option it cannot use a usage error under the plugin's own spelling
    (--agent-...)."""
    try:
        return run_options(target, **given)
    except OptionsUnusable as error:
        raise pytest.UsageError(
            error.why if error.whole else f"{PLUGIN(error.option)} {error.why}"
        ) from None


async def _certify(config: pytest.Config) -> tuple[dict[str, list[Result]], Outcome]:
    from .engine.runner import run
    from .harness.inprocess import IN_PROCESS_ORIGIN
    from .harness.inprocess import in_process
    from .harness.inprocess import lifespan
    from .harness.inprocess import load_app

    collect = Collect()
    common = _given(config)
    reference, function = config.getoption("--agent-app"), config.getoption("--agent-callable")
    if function:
        from .harness.callables import KINDS
        from .harness.callables import callable_app
        from .harness.callables import load_function

        suite = config.getoption("--agent-suite")
        loaded = load_function(function)
        app = callable_app(
            loaded,
            suite,
            agent_id=getattr(loaded, "__name__", "agent"),
            scenarios=common.get("scenarios", ()),
        )
        summary = await run(
            _options(
                IN_PROCESS_ORIGIN, transport=in_process(app), **{**common, "roles": (KINDS[suite],)}
            ),
            [collect],
        )
    elif reference:
        app = load_app(reference)
        async with lifespan(app):
            summary = await run(
                _options(IN_PROCESS_ORIGIN, transport=in_process(app), **common), [collect]
            )
    else:
        summary = await run(_options(config.getoption("--agent-target"), **common), [collect])
    grouped: dict[str, list[Result]] = {}
    for result in collect.results:
        grouped.setdefault(result.requirement, []).append(result)
    return grouped, told(summary)


def _results(config: pytest.Config) -> dict[str, list[Result]]:
    """The certification's results: made here once (a session without xdist, or its controller), or
    read from the file the controller handed an xdist worker."""
    if _RESULTS not in config.stash:
        handed = getattr(config, "workerinput", {}).get(_HANDED)
        if handed:
            stored = json.loads(Path(handed).read_text(encoding="utf-8"))
            config.stash[_RESULTS] = {
                requirement: [Result.from_dict(r) for r in results]
                for requirement, results in stored.items()
            }
        else:
            started = time.perf_counter()
            config.stash[_RESULTS], config.stash[_OUTCOME] = _certified(config)
            config.stash[_SECONDS] = time.perf_counter() - started
    return config.stash[_RESULTS]


def _certified(config: pytest.Config) -> tuple[dict[str, list[Result]], Outcome]:
    """The certification's results and outcome; a target that cannot be certified at all (it does
    not answer, the app cannot be loaded, a signal) is an outcome too, and no item's result."""
    from .engine.runner import RunInterrupted
    from .engine.runner import TargetUnreachable
    from .harness.inprocess import AppUnusable

    try:
        return asyncio.run(_certify(config))
    except (TargetUnreachable, AppUnusable, RunInterrupted) as error:
        why = {
            TargetUnreachable: "target unreachable",
            AppUnusable: "the app cannot be certified",
            RunInterrupted: "interrupted by",
        }[type(error)]
        return {}, Outcome(2, "not-certified", f"{why}: {error}", "not certified")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Certify before any item runs (in an xdist controller, before its workers start), so that no
    item carries the certification's time and no worker certifies again."""
    if _enabled(session.config) and not hasattr(session.config, "workerinput"):
        _results(session.config)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist: hand each worker the controller's results, in a file of the session's."""
    config = node.config
    if not _enabled(config):
        return
    if _FILE not in config.stash:
        folder = Path(tempfile.mkdtemp(prefix="agent-conformance-plugin-"))
        results = _results(config)
        stored = {r: [x.as_dict() for x in results[r]] for r in results}
        (folder / "results.json").write_text(json.dumps(stored), encoding="utf-8")
        config.stash[_FILE] = folder / "results.json"
    node.workerinput[_HANDED] = str(config.stash[_FILE])


def pytest_unconfigure(config: pytest.Config) -> None:
    if _FILE in config.stash:
        shutil.rmtree(config.stash[_FILE].parent, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    """A requirement's item lasts as long as its own checks took, not the time to read a result;
    its skip is told at the item (`-rs`: the requirement's node ID and the reason), not at the line
    of this plugin that raised it."""
    outcome = yield
    if isinstance(item, RequirementItem) and call.when == "call":
        results = _results(item.config).get(item.name, [])
        report = outcome.get_result()
        report.duration = sum(r.duration_ms for r in results) / 1000
        if report.skipped and isinstance(report.longrepr, tuple):
            report.longrepr = (str(item.config.rootpath / item.nodeid), None, report.longrepr[2])


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A session whose certification would not exit 0 under `run` fails, even when no item did
    (nothing certified, a run cut short): the project's CI cannot pass over nothing judged."""
    outcome = session.config.stash.get(_OUTCOME, None)
    if outcome is not None and outcome.code and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if _SECONDS in config.stash:
        terminalreporter.write_line(
            f"agent-conformance: the certification took {config.stash[_SECONDS]:.1f} s"
            " (each requirement's item reports its own checks' time)"
        )
    outcome = config.stash.get(_OUTCOME, None)
    if outcome is not None:
        terminalreporter.write_line(
            f"agent-conformance: {outcome.headline} (run would exit {outcome.code}):"
            f" {outcome.reason}",
            red=bool(outcome.code),
            green=not outcome.code,
        )


class RequirementItem(pytest.Item):
    """One requirement of the drafts, judged by the run the first item starts."""

    def runtest(self) -> None:
        results = _results(self.config).get(self.name, [])
        outcome = self.config.stash.get(_OUTCOME, None)
        if not results and outcome is not None and outcome.kind == "not-certified":
            pytest.skip(f"not certified: {outcome.reason}")
        if not results:
            pytest.skip("the run made no result for this requirement")
        bad = [r for r in results if r.status in (Status.FAIL, Status.ERROR)]
        if any(r.level == "MUST" for r in bad):
            raise RequirementFailed(bad)
        if bad:  # `run` exits 0 on a SHOULD that failed or erred, and so does the session
            pytest.xfail(
                "; ".join(f"{r.level} {r.status.value}: {r.message}" for r in bad)
                + " (not a MUST: run would exit 0 on it)"
            )
        if all(r.status is not Status.PASS for r in results):
            pytest.skip(f"{results[0].status.value}: {results[0].message}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if not isinstance(excinfo.value, RequirementFailed):
            return str(super().repr_failure(excinfo))
        lines = []
        for result in excinfo.value.results:
            lines += [
                (
                    f"{result.requirement} ({result.draft.upper()} {result.section},"
                    f" {result.level}, {result.basis}): {result.status.value}"
                ),
                f"  sentence: {result.quote}",
                f"  {result.message}",
            ]
            lines += [
                f"  evidence: {e.method} {e.url} -> {e.status if e.status is not None else e.error}"
                for e in result.evidence[:5]
            ]
        return "\n".join(lines)

    def reportinfo(self) -> tuple[str, int | None, str]:
        requirement = _catalogue(self.config)[self.name]
        # the domain is not the node ID's end: pytest would print its dots as "::" (WOA-4::1-...)
        return (
            f"{requirement.draft_name} section {requirement.section}",
            None,
            f"{self.name} ({requirement.level})",
        )
