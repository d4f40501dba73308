"""A broken rule found in a message."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["UNMAPPED", "Violation"]

#: Stands for a schema error whose subschema names no requirement: a defect of the schema files.
UNMAPPED = "UNMAPPED"


@dataclass(frozen=True, order=True)
class Violation:
    requirement: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.requirement} at {self.path}: {self.message}"
