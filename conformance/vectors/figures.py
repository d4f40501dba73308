"""Pull the JSON figures out of the drafts, so that golden vectors provably equal what the drafts
print.

SDSI figures are found by their captions, WoA appendix objects by the sentence before them, and
ACI figures by their titles; ACI's figures are repaired into JSON as the errata register says.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

from ..requirements.drafts import DRAFT_FILES
from ..requirements.drafts import _draft_source

__all__ = ["aci_figure", "sdsi_figure", "woa_object"]

_DECODER = json.JSONDecoder()


def _lines(draft: str, directory: Path | None) -> list[str]:
    furniture = re.compile(r"^(Gaikwad Expires|Internet-Draft WoA)")
    return [ln for ln in _draft_source(draft, directory).splitlines() if not furniture.match(ln)]


@cache
def sdsi_figure(number: int, directory: Path | None = None) -> Any:
    """The JSON object printed just above the caption "Figure `number`:" of the SDSI draft."""
    lines = _lines("sdsi", directory)
    caption = next(i for i, ln in enumerate(lines) if ln.startswith(f"Figure {number}:"))
    start = max(i for i in range(caption) if lines[i] == "{")
    return json.loads("\n".join(lines[start:caption]))


@cache
def woa_object(after: str, occurrence: int = 1, directory: Path | None = None) -> Any:
    """The JSON object that follows the `occurrence`-th line containing `after` in the WoA draft."""
    text = "\n".join(_lines("woa", directory))
    position = -1
    for _ in range(occurrence):
        position = text.index(after, position + 1)
    start = text.index("{", position + len(after))
    value, _end = _DECODER.raw_decode(text, start)
    return value


@cache
def aci_figure(title: str, directory: Path | None = None) -> Any:
    """The ACI figure titled `title`, repaired: wrapped in braces, its trailing comma dropped."""
    root = ET.fromstring(_draft_source("aci", directory).encode("utf-8"))
    figure = next(f for f in root.iter("figure") if f.get("title") == title)
    art = "".join(figure.find("artwork").itertext()).strip()  # type: ignore[union-attr]
    return json.loads("{" + art.rstrip().removesuffix(",") + "}")


assert set(DRAFT_FILES) == {"sdsi", "woa", "aci"}
