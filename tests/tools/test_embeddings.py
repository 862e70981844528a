"""The embedder: the packaged MiniLM loads offline and gives sentence-transformers' vectors."""

import json

import numpy as np
import pytest

from tools.embeddings import Embedder, EmbeddingModelError, _plain_transformer_pooling, resolve_model_path


def test_packaged_model_resolves_to_a_local_folder():
    path = resolve_model_path("all-MiniLM-L6-v2")
    assert resolve_model_path("sentence-transformers/all-MiniLM-L6-v2") == path
    assert _plain_transformer_pooling(path) == "mean"
    assert resolve_model_path("BAAI/bge-m3") == "BAAI/bge-m3"  # other names go to sentence-transformers as is


def test_pooling_detection_refuses_unusual_pipelines(tmp_path):
    (tmp_path / "1_Pooling").mkdir()
    modules = [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"},
    ]
    (tmp_path / "modules.json").write_text(json.dumps(modules))
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_mean_tokens": True}))
    assert _plain_transformer_pooling(str(tmp_path)) is None  # a Dense layer: sentence-transformers' job


def test_vectors_match_sentence_transformers():
    from sentence_transformers import SentenceTransformer

    texts = ["brain-computer interface", "decoding speech from high-gamma ECoG activity", "脑机接口", "x"]
    ours = Embedder("all-MiniLM-L6-v2").encode(texts)
    reference = SentenceTransformer(resolve_model_path("all-MiniLM-L6-v2"), device="cpu").encode(
        texts, normalize_embeddings=True
    )
    assert ours.shape == (4, 384) and ours.dtype == np.float32
    np.testing.assert_allclose(ours, reference, atol=1e-5)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(EmbeddingModelError, match="could not load embedding model"):
        Embedder(str(tmp_path / "absent")).encode(["x"])
