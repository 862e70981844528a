"""The BM25 leg behind one interface, with two backends: bm25s (default) and rank-bm25.

Both take pre-tokenised documents (see `normalize.Segmenter.index_tokens`) and return the top k
(document index, score) pairs. bm25s precomputes every term's scores into a sparse matrix, so a
query costs a few column sums; rank-bm25 recomputes BM25 for every document at every query. The
benchmark (`python -m evals.retrieval`) prints both on the same tokens — bm25s is the default
because it is orders of magnitude faster at equal quality (see the README table).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

import numpy as np

log = logging.getLogger(__name__)

BACKENDS = ("bm25s", "rank_bm25")

# Lucene's defaults, which the published SciFact BM25 figures use.
DEFAULT_K1 = 1.5
DEFAULT_B = 0.75


class BM25Index(Protocol):
    backend: str
    size: int

    def search(self, query_tokens: Sequence[str], k: int) -> list[tuple[int, float]]:
        """The best k documents with a positive score, best first."""
        ...


def _top_k(scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    if scores.size == 0 or k <= 0:
        return []
    k = min(k, scores.size)
    idx = np.argpartition(-scores, k - 1)[:k]
    idx = idx[np.argsort(-scores[idx], kind="stable")]
    return [(int(i), float(scores[i])) for i in idx if scores[i] > 0]


class Bm25sIndex:
    backend = "bm25s"

    def __init__(
        self, corpus_tokens: Sequence[Sequence[str]], *, k1: float = DEFAULT_K1, b: float = DEFAULT_B
    ) -> None:
        # one of two BM25 backends, chosen by settings: only the chosen one is imported
        import bm25s

        self.size = len(corpus_tokens)
        self._retriever = bm25s.BM25(k1=k1, b=b, method="lucene")
        self._vocab: set[str] = set()
        if self.size:
            # An empty document would be dropped by bm25s' vocabulary builder; a placeholder token
            # keeps document indices aligned with ours.
            docs = [list(toks) if toks else ["\x00"] for toks in corpus_tokens]
            self._retriever.index(docs, show_progress=False)
            self._vocab = set(self._retriever.vocab_dict)

    def search(self, query_tokens: Sequence[str], k: int) -> list[tuple[int, float]]:
        tokens = [t for t in query_tokens if t in self._vocab]
        if not tokens or not self.size:
            return []
        return _top_k(np.asarray(self._retriever.get_scores(tokens), dtype=np.float32), k)


class RankBm25Index:
    backend = "rank_bm25"

    def __init__(
        self, corpus_tokens: Sequence[Sequence[str]], *, k1: float = DEFAULT_K1, b: float = DEFAULT_B
    ) -> None:
        # one of two BM25 backends, chosen by settings: only the chosen one is imported
        from rank_bm25 import BM25Okapi

        self.size = len(corpus_tokens)
        self._bm25 = BM25Okapi([list(t) for t in corpus_tokens], k1=k1, b=b) if self.size else None

    def search(self, query_tokens: Sequence[str], k: int) -> list[tuple[int, float]]:
        if self._bm25 is None or not query_tokens:
            return []
        return _top_k(np.asarray(self._bm25.get_scores(list(query_tokens)), dtype=np.float32), k)


def build_index(corpus_tokens: Sequence[Sequence[str]], backend: str = "bm25s", **params: float) -> BM25Index:
    if backend == "bm25s":
        return Bm25sIndex(corpus_tokens, **params)
    if backend in ("rank_bm25", "rank-bm25"):
        return RankBm25Index(corpus_tokens, **params)
    raise ValueError(f"unknown BM25 backend {backend!r}; expected one of {', '.join(BACKENDS)}")
