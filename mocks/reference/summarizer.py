"""WoA Appendix B's summarizer agent: its summaries (deterministic: the first `max_words` words of
the text) and its MCP tool."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel
from pydantic import Field

__all__ = ["Summary", "summarize", "summarizer_tool"]


def summarize(text: str, max_words: int = 40) -> str:
    words = text.split()
    return " ".join(words[:max_words]) + (" …" if len(words) > max_words else "")


class Summary(BaseModel):
    summary: str


def summarizer_tool(text: str, max_words: Annotated[int, Field(ge=10, le=500)] = 40) -> Summary:
    """The summarizer as an MCP tool: its result is the outputs schema's."""
    return Summary(summary=summarize(text, max_words))
