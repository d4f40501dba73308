"""A broken rule found in a message."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TRUNCATED", "UNMAPPED", "Violation"]

#: Stands for a schema error whose subschema names no requirement: a defect of the schema files.
UNMAPPED = "UNMAPPED"
#: Stands for the schema errors past the cap, not listed: a rule none of the listed ones names may
#: still be broken among them, so no check takes their absence for a pass.
TRUNCATED = "TRUNCATED"


@dataclass(frozen=True, order=True)
class Violation:
    requirement: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.requirement} at {self.path}: {self.message}"
