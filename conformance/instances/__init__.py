"""Inputs the suite makes up: deterministic examples from an agent's JSON Schema (valid ones,
including boundary values, and near-misses that break one constraint each)."""

from .examples import Ungeneratable
from .examples import invalid_examples
from .examples import listed_values
from .examples import valid_examples

__all__ = ["Ungeneratable", "invalid_examples", "listed_values", "valid_examples"]
