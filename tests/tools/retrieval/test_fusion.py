"""Step 4: fusion arithmetic, language-dependent weights, boosts, per-leg evidence."""

from __future__ import annotations

import pytest

from tools.retrieval.fusion import DEFAULT_WEIGHTS, fuse, is_multilingual, weights_for

BM25 = [("a", 10.0), ("b", 6.0), ("c", 2.0)]
DENSE = [("c", 0.9), ("d", 0.7), ("a", 0.5)]


def test_weighted_fusion_min_max_normalises_each_leg() -> None:
    fused = fuse({"bm25": BM25, "dense": DENSE}, {"bm25": 0.5, "dense": 0.5})
    scores = {f.section_id: round(f.score, 6) for f in fused}
    # bm25: a 1.0, b 0.5, c 0.0; dense: c 1.0, d 0.5, a 0.0
    assert scores == {"a": 0.5, "b": 0.25, "c": 0.5, "d": 0.25}
    # ties keep first appearance (bm25 listed first), so the order is stable
    assert [f.section_id for f in fused] == ["a", "c", "b", "d"]
    a = fused[0]
    assert a.leg_scores == {"bm25": 10.0, "dense": 0.5} and a.legs == ["bm25", "dense"]
    assert a.normalized == {"bm25": 1.0, "dense": 0.0}


def test_rrf() -> None:
    fused = fuse({"bm25": BM25, "dense": DENSE}, {"bm25": 1.0, "dense": 1.0}, method="rrf", rrf_k=60)
    scores = {f.section_id: f.score for f in fused}
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 63)
    assert scores["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert scores["b"] == pytest.approx(1 / 62)
    assert scores["d"] == pytest.approx(1 / 62)
    weighted = fuse({"bm25": BM25, "dense": DENSE}, {"bm25": 0.9, "dense": 0.1}, method="rrf")
    assert weighted[0].section_id == "a"
    with pytest.raises(ValueError):
        fuse({"bm25": BM25}, {"bm25": 1.0}, method="max")  # type: ignore[arg-type]


def test_boosts_single_values_and_empty_legs() -> None:
    fused = fuse({"bm25": BM25, "dense": DENSE}, {"bm25": 0.5, "dense": 0.5}, boosts={"b": 3.0})
    assert fused[0].section_id == "b" and fused[0].score == pytest.approx(0.75)
    single = fuse({"bm25": [("x", 4.0)], "dense": []}, {"bm25": 1.0, "dense": 1.0})
    assert [(f.section_id, f.score) for f in single] == [("x", 1.0)]
    flat = fuse({"bm25": [("x", 2.0), ("y", 2.0)]}, {"bm25": 1.0})
    assert [f.score for f in flat] == [1.0, 1.0]
    assert fuse({}, {"bm25": 1.0}) == []


def test_chinese_leans_on_bm25_unless_the_embedder_reads_chinese() -> None:
    zh = weights_for("zh")
    assert zh["bm25"] > 4 * zh["dense"]
    assert weights_for("zh", multilingual_embedder=True) == DEFAULT_WEIGHTS["en"]
    assert weights_for("en") == DEFAULT_WEIGHTS["en"]
    assert weights_for("mixed")["bm25"] > weights_for("mixed")["dense"]
    assert weights_for("en", overrides={"graph": 2.0})["graph"] == pytest.approx(
        2 * DEFAULT_WEIGHTS["en"]["graph"]
    )
    assert is_multilingual("BAAI/bge-m3") and is_multilingual("paraphrase-multilingual-mpnet-base-v2")
    assert not is_multilingual("all-MiniLM-L6-v2")

    # a broken dense leg (it ranks BM25's worst first and misses its best) cannot sink a good BM25
    # ranking under the Chinese weights
    bm25 = [(f"s{i}", 10.0 - i) for i in range(10)]
    dense = [(f"s{9 - i}", 0.6 - 0.01 * i) for i in range(7)]  # s9, s8, ... s3
    fused = fuse({"bm25": bm25, "dense": dense}, zh)
    assert [f.section_id for f in fused[:3]] == ["s0", "s1", "s2"]
    equal = fuse({"bm25": bm25, "dense": dense}, {"bm25": 1.0, "dense": 1.0}, method="rrf")
    assert equal[0].section_id != "s0"  # what equal-weight RRF does instead
