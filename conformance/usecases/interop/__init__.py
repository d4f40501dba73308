"""Interop: implementations run against each other, both sides judged, as a matrix.

manifest.py   the implementations, each as `run` reaches it
pairs.py      one pair through the judging proxy, and its cell
matrix.py     every compatible pair (threads, or Dask), interop.json and interop.md
"""

from .manifest import Implementation
from .manifest import ManifestUnusable
from .manifest import read_manifest
from .matrix import interop_matrix
from .pairs import PAIRINGS
from .pairs import Pair

__all__ = [
    "PAIRINGS",
    "Implementation",
    "ManifestUnusable",
    "Pair",
    "interop_matrix",
    "read_manifest",
]
