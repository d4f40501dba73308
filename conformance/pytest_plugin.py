"""The pytest plugin: certify an agent inside a team's own pytest run, one test per requirement.

    pytest --agent-target https://agents.example.com [--agent-cacert CA.pem]
    pytest --agent-app my_service.main:app            # in-process through httpx's ASGI transport,
                                                      no socket
           [--agent-suite woa|sdsi|aci|all] [--agent-role R ...] [--agent-baseline FILE]

Registered through the `pytest11` entry point and inert unless --agent-target or --agent-app is
given. The certification runs once a session, when the session starts (under pytest-xdist, in the
controller, whose workers read its results); each requirement is then an item named after its ID:
`pass` passes, `fail` and `error` fail with the sentence, the message and the evidence, and
`skip`, `not-applicable` and `waived` are skips with their reason. Each item reports the time its
own check took; the certification's whole time is a line of the terminal summary.
"""

from __future__ import annotations

import asyncio
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
from .requirements import catalogue
from .target import DEFAULT_ROLES
from .target import OptionsUnusable
from .target import RunOptions
from .target import run_options

__all__ = ["RequirementFailed", "RequirementItem"]

_RESULTS = pytest.StashKey[dict[str, list[Result]]]()
_SECONDS = pytest.StashKey[float]()
_FILE = pytest.StashKey[Path]()
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
    group.addoption(
        "--agent-scenario",
        action="append",
        default=None,
        help="An SDSI scenario the callable serves (repeatable)",
    )
    group.addoption(
        "--agent-suite", default="all", choices=(*_SUITES, "all"), help="Which draft (default: all)"
    )
    group.addoption(
        "--agent-role", action="append", default=None, help="Roles to certify in (repeatable)"
    )
    group.addoption(
        "--agent-baseline",
        type=Path,
        default=None,
        help="Expected failures (agent-conformance baseline)",
    )
    group.addoption(
        "--agent-cacert",
        type=Path,
        default=None,
        help="Trust this CA certificate (PEM) for --agent-target",
    )
    group.addoption(
        "--agent-timeout", type=float, default=10.0, help="Seconds for each request (default 10)"
    )
    group.addoption(
        "--agent-allow-origin",
        action="append",
        default=None,
        help=(
            "Another origin the suite may call (repeatable): one the agent's document names, such"
            " as the public origin of an app certified in-process"
        ),
    )


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


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """One item a requirement of the chosen drafts: node ID agent-conformance/DRAFT/SECTION::ID
    (JUnit's classname is then agent-conformance.DRAFT.SECTION), marked with its draft and level
    (-m "woa and must"), and reported as collected, so that pytest's count holds them."""
    if not _enabled(config):
        return
    suites, added = _suites(config), list[pytest.Item]()
    for requirement in catalogue():
        if requirement.draft not in suites:
            continue
        item = RequirementItem.from_parent(
            session,
            name=requirement.id,
            nodeid=f"agent-conformance/{requirement.draft}/{requirement.section}::{requirement.id}",
        )
        item.add_marker(requirement.draft)
        item.add_marker(requirement.level.lower())
        added.append(item)
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
            error.why if error.whole else f"--agent-{error.option} {error.why}"
        ) from None


async def _certify(config: pytest.Config) -> dict[str, list[Result]]:
    from .engine.runner import run
    from .harness.inprocess import IN_PROCESS_ORIGIN
    from .harness.inprocess import in_process
    from .harness.inprocess import lifespan
    from .harness.inprocess import load_app

    collect = Collect()
    common: dict[str, Any] = {
        "suites": _suites(config),
        "roles": tuple(config.getoption("--agent-role") or DEFAULT_ROLES),
        "timeout": config.getoption("--agent-timeout"),
        "baseline": config.getoption("--agent-baseline"),
        "allowed_origins": tuple(config.getoption("--agent-allow-origin") or ()),
    }
    reference, function = config.getoption("--agent-app"), config.getoption("--agent-callable")
    if function:
        from .harness.callables import KINDS
        from .harness.callables import callable_app
        from .harness.callables import load_function

        suite = config.getoption("--agent-suite")
        if suite not in KINDS:
            raise pytest.UsageError(
                "--agent-callable certifies an ACI invoked agent (--agent-suite aci) or an SDSI"
                " server (--agent-suite sdsi)"
            )
        loaded = load_function(function)
        scenarios = tuple(config.getoption("--agent-scenario") or ())
        app = callable_app(
            loaded, suite, agent_id=getattr(loaded, "__name__", "agent"), scenarios=scenarios
        )
        await run(
            _options(
                IN_PROCESS_ORIGIN,
                transport=in_process(app),
                scenarios=scenarios,
                **{**common, "roles": (KINDS[suite],)},
            ),
            [collect],
        )
    elif reference:
        app = load_app(reference)
        async with lifespan(app):
            await run(_options(IN_PROCESS_ORIGIN, transport=in_process(app), **common), [collect])
    else:
        await run(
            _options(
                config.getoption("--agent-target"),
                cacert=config.getoption("--agent-cacert"),
                **common,
            ),
            [collect],
        )
    grouped: dict[str, list[Result]] = {}
    for result in collect.results:
        grouped.setdefault(result.requirement, []).append(result)
    return grouped


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
            config.stash[_RESULTS] = asyncio.run(_certify(config))
            config.stash[_SECONDS] = time.perf_counter() - started
    return config.stash[_RESULTS]


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
    """A requirement's item lasts as long as its own checks took, not the time to read a result."""
    outcome = yield
    if isinstance(item, RequirementItem) and call.when == "call":
        results = _results(item.config).get(item.name, [])
        outcome.get_result().duration = sum(r.duration_ms for r in results) / 1000


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if _SECONDS in config.stash:
        terminalreporter.write_line(
            f"agent-conformance: the certification took {config.stash[_SECONDS]:.1f} s"
            " (each requirement's item reports its own checks' time)"
        )


class RequirementItem(pytest.Item):
    """One requirement of the drafts, judged by the run the first item starts."""

    def runtest(self) -> None:
        results = _results(self.config).get(self.name, [])
        if not results:
            pytest.skip("the run made no result for this requirement")
        bad = [r for r in results if r.status in (Status.FAIL, Status.ERROR)]
        if bad:
            raise RequirementFailed(bad)
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
        requirement = catalogue()[self.name]
        # the domain is not the node ID's end: pytest would print its dots as "::" (WOA-4::1-...)
        return (
            f"{requirement.draft_name} section {requirement.section}",
            None,
            f"{self.name} ({requirement.level})",
        )
