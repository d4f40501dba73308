"""The floors of the house (issue 23): every package of the suite imports only from its own floor
and those below (ARCHITECTURE.md draws them), the suite never imports its mocks, no module
imports one that imports it back (counting imports inside functions), and the mocks take the
suite's public data and harness, never its checks. Imports are read as text (a regular
expression, not `ast`, which is unreliable in an xdist worker whose recursion limit a test moved
on Python 3.11)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)|import[ \t]+([\w.]+))",
    re.M,
)


def _modules(package: str) -> dict[str, Path]:
    found = {}
    for path in (ROOT / package).rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules `module` imports: a package's submodules by name, not the package, for `from .
    import x`."""
    found = set()
    for source, names, plain in _IMPORT.findall(path.read_text(encoding="utf-8")):
        if plain:
            target = plain
        else:
            dots = len(source) - len(source.lstrip("."))
            base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            target = (
                ".".join([*base[: len(base) - dots + 1], source.lstrip(".")]).strip(".")
                if dots
                else source
            )
            submodules = {
                f"{target}.{n}"
                for n in re.findall(r"\w+", names.split(" as ")[0] if "(" not in names else names)
            }
            if submodules & set(known):
                found |= submodules & set(known)
                continue
        while target not in known and "." in target:
            target = target.rsplit(".", 1)[0]
        if target in known or target.split(".")[0] == "mocks":
            found.add(target)
    found.discard(module)
    return found


def _graph() -> dict[str, set[str]]:
    known = _modules("conformance")
    return {m: _imports(m, p, known) for m, p in known.items()}


#: The floors, top down: a package may import from its own floor and the floors below, never above.
FLOORS = {
    "cli": 10,
    "pytest_plugin": 10,  # how users ask: the command line, the pytest plugin
    # what they ask for: repeat, fleet, proxy, fuzz, mutate, rejudge, attest, the references
    "usecases": 9,
    "engine": 8,  # a run: lanes of checks, results to handlers, the gate
    "checks": 7,  # one function per requirement
    "targeting": 6,  # what a check gets: the run's options, the target, the address policy
    "spy": 5,
    "driver": 5,
    "harness": 5,  # the suite's own servers and drivers of a client under test
    "bindings": 4,
    "instances": 4,  # how the suite speaks to a target; the inputs it makes up
    "recording": 3,
    "vectors": 3,  # recorded evidence; golden vectors
    "report": 2,
    "validation": 2,
    "errata": 2,
    "oracle": 2,  # results and writers; message validation
    "requirements": 1,
    "schemas": 1,  # the catalogue and the drafts' message schemas
}


def _floor(module: str) -> int:
    parts = module.split(".")
    return FLOORS[parts[1]] if len(parts) > 1 else 0


def test_every_package_imports_only_its_floor_and_below() -> None:
    graph = _graph()
    assert set(FLOORS) == {m.split(".")[1] for m in graph if "." in m} | {"pytest_plugin"}
    upward = [
        (m, t)
        for m, targets in graph.items()
        for t in targets
        if t.startswith("conformance") and _floor(t) > _floor(m)
    ]
    assert upward == []


def test_the_engine_names_no_drafts_check_module() -> None:
    """The engine reaches the drafts' checks through the registry alone (the WoA invocations
    through `invocations_of`, which checks/woa registers), never a module of one draft."""
    drafts = ("conformance.checks.woa", "conformance.checks.sdsi", "conformance.checks.aci")
    assert [
        (m, t)
        for m, targets in _graph().items()
        if m.startswith("conformance.engine")
        for t in targets
        if t.startswith(drafts)
    ] == []


def test_the_suite_never_imports_its_mocks() -> None:
    assert [
        (m, t) for m, targets in _graph().items() for t in targets if t.split(".")[0] == "mocks"
    ] == []


def test_no_import_circle() -> None:
    graph = _graph()
    circles, state = [], {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = "open"
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                circles.append([*trail[trail.index(target) :], target])
            elif target in graph and target not in state:
                visit(target, [*trail, target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_the_mocks_take_no_check() -> None:
    known = {**_modules("conformance"), **_modules("mocks")}
    taken = [
        (m, t)
        for m, p in _modules("mocks").items()
        for t in _imports(m, p, known)
        if t.startswith("conformance.checks")
    ]
    assert taken == []


#: The mocks' floors, bottom up: the reference agents know no fault; the faults break them; the
#: host with a fault, the commands and the loopback servers put the two together.
MOCK_FLOORS = {
    "mocks.minimal": 1,
    "mocks.reference": 2,
    "mocks.faults": 3,
    "mocks.variants": 3,
    "mocks.host": 4,
    "mocks.woa_client": 4,
    "mocks.serve": 5,
    "mocks.woa_client_daemon": 5,
    "mocks.aci_figures": 6,
    "mocks.hostile": 6,
    "mocks.references": 7,
}


def _mock_floor(module: str) -> int:
    return next(
        f
        for package, f in MOCK_FLOORS.items()
        if module == package or module.startswith(package + ".")
    )


def test_the_reference_agents_know_no_fault_and_the_mocks_point_down() -> None:
    mocks = {
        m: p for m, p in _modules("mocks").items() if m not in ("mocks", "mocks.woa_client_forward")
    }
    upward = [
        (m, t)
        for m, p in mocks.items()
        for t in _imports(m, p, mocks)
        if t in mocks and _mock_floor(t) > _mock_floor(m)
    ]
    assert upward == []
