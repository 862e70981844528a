"""The BM25 leg: both backends behind one interface, on the shared tokeniser."""

from __future__ import annotations

import pytest

from tools.retrieval.bm25 import build_index
from tools.retrieval.normalize import Segmenter

DOCS = [
    "Speech decoding from high-gamma ECoG activity in epilepsy patients",
    "Deep learning for EEG motor imagery classification",
    "High-gamma activity tracks speech perception in the superior temporal gyrus",
    "",
    "脑机接口的汉语语音解码研究",
]


@pytest.mark.parametrize("backend", ["bm25s", "rank_bm25"])
def test_backends_rank_alike(backend: str) -> None:
    segmenter = Segmenter()
    index = build_index([segmenter.index_tokens(d) for d in DOCS], backend)
    assert index.size == len(DOCS) and index.backend == backend
    hits = index.search(segmenter.index_tokens("decoding speech from ECoG"), 10)
    assert hits[0][0] == 0
    assert all(score > 0 for _, score in hits)
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    assert index.search(segmenter.index_tokens("语音解码"), 3)[0][0] == 4
    assert index.search(["neverseen"], 5) == []
    assert index.search([], 5) == []
    assert len(index.search(segmenter.index_tokens("gamma"), 1)) == 1


def test_backends_agree_on_the_order_of_clear_cases() -> None:
    segmenter = Segmenter()
    tokens = [segmenter.index_tokens(d) for d in DOCS]
    query = segmenter.index_tokens("high-gamma speech")
    a = [i for i, _ in build_index(tokens, "bm25s").search(query, 5)]
    b = [i for i, _ in build_index(tokens, "rank_bm25").search(query, 5)]
    assert a[:2] == b[:2] and set(a[:2]) == {0, 2}


def test_empty_corpus_and_unknown_backend() -> None:
    assert build_index([], "bm25s").search(["x"], 5) == []
    assert build_index([], "rank_bm25").search(["x"], 5) == []
    with pytest.raises(ValueError, match="unknown BM25 backend"):
        build_index([["x"]], "lucene")
