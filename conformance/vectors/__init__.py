"""Golden vectors: the drafts' figures and appendix examples, and variants that break one rule each.

The vector files live in the project's vectors/ folder (shipped inside the installed package as
conformance/_data/vectors). `check_vectors()` judges every case with the suite's own validators
and says where the verdict differs from the one the file expects, naming the file and the case.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from ..requirements import catalogue
from ..schemas import schema_names
from ..validation import Violation
from ..validation import validate_message

__all__ = [
    "Case",
    "CaseOutcome",
    "VectorReport",
    "check_vectors",
    "message_vector_files",
    "vectors_root",
]

#: The folders of message vectors (one draft each); vectors/dsp holds the oracle's traces instead.
MESSAGE_GROUPS = ("sdsi", "woa", "aci")


def vectors_root() -> Path:
    """The installed vectors, or the checkout's vectors/ folder in a development install."""
    packaged = Path(__file__).resolve().parent.parent / "_data" / "vectors"
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[2] / "vectors"


def message_vector_files(root: Path | None = None) -> list[Path]:
    """The message vector files, sorted (not the oracle's traces in dsp/)."""
    root = root or vectors_root()
    return sorted(path for group in MESSAGE_GROUPS for path in (root / group).glob("*.json"))


@cache
def _file_validator() -> Draft202012Validator:
    text = (
        resources.files(__package__).joinpath("vector-file.schema.json").read_text(encoding="utf-8")
    )
    return Draft202012Validator(json.loads(text))


@dataclass(frozen=True)
class Case:
    file: str
    index: int
    description: str
    data: Any
    valid: bool
    requirements: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.file} case {self.index} ({self.description!r})"


@dataclass(frozen=True)
class CaseOutcome:
    case: Case
    violations: tuple[Violation, ...]
    problem: str | None = None  # None when the verdict is the one the file expects


@dataclass
class VectorReport:
    files: int = 0
    outcomes: list[CaseOutcome] = field(default_factory=list)
    file_errors: list[str] = field(default_factory=list)

    @property
    def failures(self) -> list[str]:
        return self.file_errors + [
            f"{o.case.where}: {o.problem}" for o in self.outcomes if o.problem
        ]

    @property
    def invalid_cases(self) -> int:
        return sum(1 for o in self.outcomes if not o.case.valid)


def _read(path: Path, root: Path) -> tuple[dict[str, Any] | None, list[str]]:
    name = path.relative_to(root).as_posix()
    try:
        vector = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return None, [f"{name}: not a readable JSON file: {error}"]
    errors = []
    for defect in _file_validator().iter_errors(vector):
        where = list(defect.absolute_path)
        case = f" case {where[1]}" if len(where) > 1 and where[0] == "cases" else ""
        errors.append(f"{name}{case}: malformed at /{'/'.join(map(str, where))}: {defect.message}")
    if not errors and vector["schema"] not in schema_names():
        errors.append(f"{name}: names the unknown schema {vector['schema']!r}")
    return (None if errors else vector), errors


def _cases(vector: dict[str, Any], name: str) -> Iterator[Case]:
    for index, raw in enumerate(vector["cases"]):
        yield Case(
            name, index, raw["description"], raw["data"], raw["valid"], tuple(raw["requirements"])
        )


def _judge(case: Case, schema: str, context: dict[str, Any]) -> CaseOutcome:
    violations = tuple(validate_message(schema, case.data, **context))
    unknown = [r for r in case.requirements if r not in catalogue()]
    found = {v.requirement for v in violations}
    if unknown:
        problem = f"names requirements that are not in the catalogue: {unknown}"
    elif case.valid and violations:
        problem = "expected valid, but: " + "; ".join(map(str, violations))
    elif not case.valid and found != set(case.requirements):
        problem = (
            f"expected to break exactly {sorted(case.requirements)}, but broke"
            f" {sorted(found) or 'nothing'}"
            + (": " + "; ".join(map(str, violations)) if violations else "")
        )
    else:
        problem = None
    return CaseOutcome(case, violations, problem)


def check_vectors(root: Path | None = None) -> VectorReport:
    """Judge every case of every vector file under `root` (default: `vectors_root()`)."""
    root = root or vectors_root()
    report = VectorReport()
    for path in message_vector_files(root):
        report.files += 1
        vector, errors = _read(path, root)
        report.file_errors.extend(errors)
        if vector is not None:
            name = path.relative_to(root).as_posix()
            report.outcomes.extend(
                _judge(c, vector["schema"], vector.get("context", {})) for c in _cases(vector, name)
            )
    if report.files == 0:
        report.file_errors.append(f"{root}: no vector files found")
    return report
