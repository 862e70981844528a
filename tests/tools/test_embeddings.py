"""The embedder: the packaged MiniLM loads offline and gives sentence-transformers' vectors."""

import json
import subprocess
import sys
from pathlib import Path
from unittest import mock

import numpy as np
import pytest

from tools.embeddings.model_folder import plain_transformer_pooling
from tools.embeddings.sentence import Embedder, EmbeddingModelError, resolve_model_path

ROOT = Path(__file__).resolve().parents[2]


def test_packaged_model_resolves_to_a_local_folder():
    path = resolve_model_path("all-MiniLM-L6-v2")
    assert resolve_model_path("sentence-transformers/all-MiniLM-L6-v2") == path
    assert plain_transformer_pooling(path) == "mean"
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
    assert plain_transformer_pooling(str(tmp_path)) is None  # a Dense layer: sentence-transformers' job


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


TEXTS = ["brain-computer interface", "decoding speech from high-gamma ECoG activity", "脑机接口", "x"]


def test_onnx_backend_gives_the_torch_vectors_without_importing_torch(tmp_path):
    """The default backend exports once (in a child process) and then runs without torch."""
    script = (
        "import sys, numpy as np\n"
        "from pathlib import Path\n"
        "from tools.embeddings.sentence import Embedder\n"
        f"e = Embedder(backend='onnx', cache_dir=Path({str(tmp_path)!r}))\n"
        f"np.save({str(tmp_path / 'onnx.npy')!r}, e.encode({TEXTS!r}))\n"
        "print(type(e.model).__name__, 'torch' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["OnnxEncoder", "False"]
    exported = list(tmp_path.glob("*/export.json"))
    assert len(exported) == 1 and json.loads(exported[0].read_text())["cosine"] > 0.99999

    onnx = np.load(tmp_path / "onnx.npy")
    reference = Embedder("all-MiniLM-L6-v2", backend="torch").encode(TEXTS)
    np.testing.assert_allclose(onnx, reference, atol=1e-5)

    # the export is reused: a second encoder in this process loads it without any child process
    with mock.patch("subprocess.run", side_effect=AssertionError("exported twice")):
        int8 = Embedder(backend="onnx", precision="int8", cache_dir=tmp_path).encode(TEXTS)
    assert int8.shape == onnx.shape and np.allclose(np.linalg.norm(int8, axis=1), 1.0, atol=1e-5)
    assert np.all(np.sum(int8 * onnx, axis=1) > 0.85)  # quantised: close, not equal


def test_a_failed_export_falls_back_to_torch_or_is_a_clear_error(tmp_path, caplog):
    failed = subprocess.CompletedProcess([], 1, stdout="", stderr="RuntimeError: no exporter here")
    with mock.patch("tools.embeddings.onnx.subprocess.run", return_value=failed):
        embedder = Embedder("minilm", backend="auto", cache_dir=tmp_path / "auto")
        vectors = embedder.encode(["x"])
        assert type(embedder.model).__name__ == "_TransformerEncoder" and vectors.shape == (1, 384)
        assert "using torch" in caplog.text and "no exporter here" in caplog.text
        with pytest.raises(EmbeddingModelError, match="no exporter here"):
            Embedder("minilm", backend="onnx", cache_dir=tmp_path / "strict").encode(["x"])


def test_onnx_backend_refuses_a_pipeline_it_cannot_run(tmp_path):
    with pytest.raises(EmbeddingModelError, match="transformer \\+ pooling"):
        Embedder(str(tmp_path), backend="onnx").encode(["x"])
