"""The schema self-evolution algorithm (SDSI 6.2.2): intent induction, conflict detection and
patch packaging, rule-based and deterministic.

Intent induction (E-SDSI-6.2.2-RULE-INDUCTION): the key_name joins the two words that most of the
cluster's fragments share (stop words aside); the key_type is "integer" when most fragments carry
a number, else "string"; the key is optional with the type's neutral default; the
semantic_description quotes up to three real fragments as mapping examples, as the draft requires.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

__all__ = ["Candidate", "induce", "merge_description", "package"]

_WORD = re.compile(r"[a-z][a-z0-9]*")
_NUMBER = re.compile(r"\d+")
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "he",
        "she",
        "they",
        "them",
        "please",
        "need",
        "want",
        "would",
        "like",
        "could",
        "can",
        "should",
        "will",
        "just",
        "also",
        "some",
        "any",
        "more",
        "most",
        "very",
        "really",
        "get",
        "give",
        "have",
        "has",
        "had",
        "do",
        "does",
        "did",
        "not",
        "no",
        "yes",
        "so",
        "too",
        "than",
        "into",
        "about",
        "over",
        "only",
        "make",
        "sure",
        "let",
        "lets",
    ]
)
NEUTRAL: dict[str, Any] = {"integer": 0, "number": 0, "string": "", "boolean": False}


@dataclass(frozen=True)
class Candidate:
    """An induced key, before conflict detection."""

    key_name: str
    key_type: str
    examples: tuple[str, ...]

    def as_key(self, experimental: bool = True) -> dict[str, Any]:
        return {
            "key_name": self.key_name,
            "key_type": self.key_type,
            "required": False,
            "default_value": NEUTRAL[self.key_type],
            "semantic_description": describe(self),
            **({"experimental": True} if experimental else {}),
        }


def _value(text: str, key_type: str) -> Any:
    if key_type == "boolean":
        return True  # the wish was made
    if key_type == "integer":
        match = _NUMBER.search(text)
        return int(match.group()) if match else 0
    return " ".join(text.split())[:80]


def describe(candidate: Candidate) -> str:
    examples = "; ".join(
        f"{text!r} -> {_value(text, candidate.key_type)!r}" for text in candidate.examples
    )
    return (
        "Induced from recurring requests in the 'other' key. "
        f"Example mappings (from 'other'): {examples or 'none recorded'}."
    )


def induce(texts: list[str], cluster: int) -> Candidate:
    """Summarise a cluster's fragments (oldest first) into a candidate key."""
    counts: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    for text in texts:
        words = [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and len(w) > 1]
        for word in dict.fromkeys(words):
            counts[word] += 1
            first_seen.setdefault(word, len(first_seen))
    ranked = sorted(counts, key=lambda w: (-counts[w], first_seen[w]))[:2]
    ranked.sort(key=lambda w: first_seen[w])
    name = "_".join(ranked) if ranked else f"intent_{cluster}"
    numeric = sum(bool(_NUMBER.search(t)) for t in texts)
    key_type = "integer" if texts and numeric * 2 > len(texts) else "string"
    examples = tuple(dict.fromkeys(texts))[:3]
    return Candidate(name[:64], key_type, examples)


def merge_description(existing: dict[str, Any], candidate: Candidate) -> dict[str, Any]:
    """Conflict detection's merge (SHOULD): the existing key, type unchanged, its description
    refined."""
    refined = dict(existing)
    quoted = "; ".join(repr(t) for t in candidate.examples)
    refined["semantic_description"] = (
        f"{existing.get('semantic_description', '')} Also covers (from 'other'): {quoted}.".strip()
    )
    return refined


def package(
    patch_id: str,
    parent_schema_id: str,
    timestamp: str,
    expiration: str,
    new_keys: list[dict[str, Any]],
    modified_keys: list[dict[str, Any]],
    client_id: str | None,
) -> dict[str, Any]:
    """Patch packaging: patch_id, parent_schema_id, timestamp, expiration and the keys."""
    patch: dict[str, Any] = {
        "patch_id": patch_id,
        "parent_schema_id": parent_schema_id,
        "timestamp": timestamp,
        "expiration": expiration,
    }
    if new_keys:
        patch["new_keys"] = new_keys
    if modified_keys:
        patch["modified_keys"] = modified_keys
    if client_id is not None:
        patch["client_id"] = client_id
    return patch
