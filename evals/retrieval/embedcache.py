"""An on-disk cache of document embeddings, so re-running the benchmark does not re-encode a corpus
(all-MiniLM-L6-v2 encodes ~25 SciFact abstracts a second on two cores: minutes per run)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import numpy as np


class CachingEmbedder:
    """Wraps an embedder; same `name`, `dimension` and `encode`, with vectors remembered by text hash."""

    def __init__(self, inner: Any, cache_dir: Path | None) -> None:
        self.inner = inner
        self.name = inner.name
        self._path = None
        self._vectors: dict[str, np.ndarray] = {}
        self._dirty = False
        if cache_dir is not None:
            slug = re.sub(r"[^\w.-]+", "_", self.name)
            self._path = Path(cache_dir) / f"{slug}.npz"
            if self._path.exists():
                with np.load(self._path) as data:
                    self._vectors = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))

    @property
    def dimension(self) -> int:
        return int(self.inner.dimension)

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha1(text.encode()).hexdigest()

    def encode(self, texts: list[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        missing = list(dict.fromkeys(k for k in keys if k not in self._vectors))
        if missing:
            by_key = dict(zip(keys, texts, strict=True))
            vectors = self.inner.encode([by_key[k] for k in missing])
            self._vectors.update(zip(missing, np.asarray(vectors, dtype=np.float32), strict=True))
            self._dirty = True
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([self._vectors[k] for k in keys])

    def flush(self) -> None:
        if self._path is None or not self._dirty:
            return
        self._path.parent.mkdir(parents=True, exist_ok=True)
        keys = np.array(list(self._vectors), dtype=object).astype(str)
        tmp = self._path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=keys, vectors=np.stack(list(self._vectors.values())))
        tmp.replace(self._path)
        self._dirty = False
