"""The engine on a real PostgreSQL: ingest (idempotent, scoped by Run), search, expansion, cache."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from agent.db import Database
from agent.models import AggregatedPaper, KeywordPlan, Paper
from tools.embeddings.sentence import Embedder
from tools.retrieval import store
from tools.retrieval.engine import RetrievalEngine, RunNotIndexed
from tools.retrieval.rerank import Reranker
from tools.retrieval.types import FullTextSection


async def test_ingest_is_idempotent_and_tracks_changes(
    database: Database,
    embedder: Embedder,
    papers: list[AggregatedPaper],
    plan: KeywordPlan,
    fulltext: dict[str, list[FullTextSection]],
) -> None:
    engine = RetrievalEngine(database.pool, embedder)
    assert not await engine.run_has_index("r1")
    first = await engine.ingest("r1", papers, plan=plan, fulltext=fulltext)
    assert first.papers == 3 and first.sections == first.embedded > 10
    assert first.generation == 1 and first.graph_nodes > 0
    again = await engine.ingest("r1", papers, plan=plan, fulltext=fulltext)
    assert (again.embedded, again.removed, again.generation, again.sections) == (0, 0, 1, first.sections)

    async with database.pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT count(*) AS n, count(DISTINCT dim) AS dims, min(dim) AS dim FROM retrieval_sections WHERE run_id = 'r1'"
        )
        row = await cursor.fetchone()
        assert row == {"n": first.sections, "dims": 1, "dim": 384}
        cursor = await conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'retrieval_sections_hnsw_384'"
        )
        assert "hnsw" in (await cursor.fetchone())["indexdef"]

    # without the full text, its sections go; vectors of unchanged text are reused, not recomputed
    smaller = await engine.ingest("r1", papers, plan=plan)
    assert smaller.removed == first.sections - smaller.sections > 0
    assert smaller.embedded == 0 and smaller.generation == 2

    # another Run is separate
    other = await engine.ingest("r2", papers[:1])
    assert other.generation == 1
    result = await engine.search("r2", "motor imagery", rerank=False)
    assert {h.paper_key for h in result.hits} == {"doi:10.1000/ecog"}

    assert await engine.delete_run("r1")
    assert not await engine.run_has_index("r1")
    assert not await engine.delete_run("r1")
    with pytest.raises(RunNotIndexed):
        await engine.search("r1", "speech")
    assert await engine.run_has_index("r2")


async def test_search_legs_traces_and_expansion(
    database: Database,
    embedder: Embedder,
    papers: list[AggregatedPaper],
    plan: KeywordPlan,
    fulltext: dict[str, list[FullTextSection]],
) -> None:
    engine = RetrievalEngine(database.pool, embedder)
    await engine.ingest("run", papers, plan=plan, fulltext=fulltext)

    result = await engine.search("run", "What sample sizes were used in ECoG speech decoding?", rerank=False)
    assert result.normalization.synonyms_canonicalized.endswith("electrocorticography speech decoding")
    assert result.intent.kind == "content" and "methods" in result.intent.strategy.boost_fields
    assert set(result.fusion.per_leg) == {"bm25", "dense", "graph"}
    assert result.fusion.weights["bm25"] == result.fusion.weights["dense"]
    top = result.hits[0]
    assert top.section_id == "doi:10.1000/ecog#abstract-methods#0"
    assert set(top.legs) == {"bm25", "dense", "graph"} and set(top.leg_scores) == set(top.legs)
    assert top.graph_path and top.rerank_score is None
    assert [h.score for h in result.hits] == sorted((h.score for h in result.hits), reverse=True)
    assert result.rerank.status == "skipped"
    assert {"normalize", "intent", "bm25", "dense", "embed", "graph", "fusion", "fetch", "total"} <= set(
        result.timings
    )

    # Chinese: BM25-heavy weights, the Chinese paper first
    zh = await engine.search("run", "脑机接口语音解码有多少受试者？", rerank=False)
    assert zh.normalization.language == "zh"
    assert zh.fusion.weights["bm25"] > zh.fusion.weights["dense"]
    assert zh.hits[0].paper_key == "doi:10.1000/zh"
    assert "脑机接口" in zh.normalization.bm25_tokens

    # single legs, and RRF
    bm25_only = await engine.search("run", "motor imagery EEG", legs=("bm25",), rerank=False, top_k=3)
    assert all(h.legs == ["bm25"] for h in bm25_only.hits)
    assert bm25_only.hits[0].paper_key == "doi:10.1000/eeg"
    rrf = await engine.search("run", "motor imagery EEG", fusion="rrf", rerank=False)
    assert rrf.fusion.method == "rrf" and rrf.hits[0].paper_key == "doi:10.1000/eeg"
    with pytest.raises(ValueError, match="unknown legs"):
        await engine.search("run", "x", legs=("bm25", "sparse"))

    # entity question: the author's paper through the graph
    who = await engine.search("run", "Which papers did Chang write?", rerank=False)
    assert who.intent.kind == "entity"
    assert who.hits[0].paper_key == "doi:10.1000/ecog" and "graph" in who.hits[0].legs

    # step 6: the methods hits become one whole section, chunks in order, with paper metadata
    methods = await engine.search(
        "run", "subdural grid electrodes over the left hemisphere", rerank=False, top_k=10
    )
    expanded = await engine.expand_sections("run", methods.hits)
    keys = [(e.paper_key, e.section) for e in expanded]
    assert len(keys) == len(set(keys))
    whole = next(e for e in expanded if e.section == "methods")
    assert whole.text == fulltext["doi:10.1000/ecog"][0].text
    assert whole.chunk_ids == [f"doi:10.1000/ecog#methods#{i}" for i in range(len(whole.chunk_ids))]
    assert len(whole.chunk_ids) >= 2 and set(whole.hit_ids) <= set(whole.chunk_ids)
    assert (whole.title, whole.year, whole.doi) == (
        "Speech decoding from high-gamma ECoG activity",
        2019,
        "10.1000/ecog",
    )
    assert whole.metadata["authors"] == ["Edward F Chang", "David Moses"]
    assert whole.metadata["position"] == 4  # after the title and the three abstract parts


async def test_cache_follows_reingest_from_another_engine(
    database: Database, embedder: Embedder, papers: list[AggregatedPaper]
) -> None:
    reader = RetrievalEngine(database.pool, embedder)
    writer = RetrievalEngine(database.pool, embedder)  # e.g. another server worker
    await writer.ingest("run", papers[:1])
    before = await reader.search("run", "motor imagery classification", legs=("bm25",), rerank=False)
    assert before.hits == []
    await writer.ingest("run", papers)
    after = await reader.search("run", "motor imagery classification", legs=("bm25",), rerank=False)
    assert after.hits and after.hits[0].paper_key == "doi:10.1000/eeg"


async def test_rerank_reorders_and_timeouts_keep_the_fused_order(
    database: Database, embedder: Embedder, papers: list[AggregatedPaper], tiny_reranker_dir: Path
) -> None:
    reranker = Reranker(str(tiny_reranker_dir))
    engine = RetrievalEngine(database.pool, embedder, reranker=reranker, rerank_candidates=5)
    await engine.ingest("run", papers)
    result = await engine.search("run", "speech decoding", top_k=3)
    assert result.rerank.status == "done" and result.rerank.candidates == 5
    scores = [h.rerank_score for h in result.hits]
    assert all(s is not None for s in scores) and scores == sorted(scores, reverse=True)
    assert len(result.hits) == 3
    fused = await engine.search("run", "speech decoding", top_k=3, rerank=False)
    assert fused.rerank.status == "skipped" and all(h.rerank_score is None for h in fused.hits)

    class Stuck(Reranker):
        def score(self, question, passages):  # type: ignore[no-untyped-def]
            import time

            time.sleep(0.5)
            return [1.0] * len(passages)

    slow = RetrievalEngine(database.pool, embedder, reranker=Stuck(str(tiny_reranker_dir)))
    timed_out = await slow.search("run", "speech decoding", top_k=3, rerank_timeout=0.05)
    assert timed_out.rerank.status == "timeout"
    assert [h.section_id for h in timed_out.hits] == [h.section_id for h in fused.hits]


class TinyEmbedder:
    """An 8-dimensional hashed bag of words: another dimension than the migration's 384."""

    name = "tiny-hashed-words"
    dimension = 8

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.full((len(texts), 8), 1e-3, dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                seed = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "little")
                out[i] += np.random.default_rng(seed).standard_normal(8).astype(np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


async def test_other_dimensions_and_the_hnsw_path(
    database: Database, papers: list[AggregatedPaper], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = RetrievalEngine(database.pool, TinyEmbedder())
    words = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "theta",
        "iota",
        "kappa",
        "lambda",
        "sigma",
        "omega",
    ]
    many = [
        AggregatedPaper(
            key=f"k{i}", paper=Paper(title=f"{words[i % 12]} {words[(i * 5) % 11]} {words[(i * 7) % 10]}")
        )
        for i in range(60)
    ]
    await engine.ingest("tiny", many + papers)
    question = "gamma kappa theta"
    vector = TinyEmbedder().encode([question])[0]
    async with database.pool.connection() as conn:
        cursor = await conn.execute("SELECT 1 FROM pg_indexes WHERE indexname = 'retrieval_sections_hnsw_8'")
        assert await cursor.fetchone() is not None
        cursor = await conn.execute(
            "EXPLAIN SELECT section_id FROM retrieval_sections WHERE run_id = 'tiny' AND dim = 8"
            " ORDER BY (embedding::vector(8)) <=> %s::vector(8) LIMIT 5",
            (vector,),
        )
        plan = " ".join(r["QUERY PLAN"] for r in await cursor.fetchall())
        assert "retrieval_sections_hnsw_8" in plan
    exact = await engine.search("tiny", question, legs=("dense",), rerank=False, top_k=5)
    monkeypatch.setattr(store, "EXACT_SEARCH_MAX_SECTIONS", 0)
    approximate = await engine.search("tiny", question, legs=("dense",), rerank=False, top_k=5)
    assert len(approximate.hits) == 5
    # at this size HNSW finds the exact neighbours (compare scores: equal titles tie)
    assert [h.leg_scores["dense"] for h in approximate.hits] == pytest.approx(
        [h.leg_scores["dense"] for h in exact.hits], abs=1e-5
    )
    assert exact.hits[0].leg_scores["dense"] > exact.hits[-1].leg_scores["dense"]


async def test_hits_are_whole_sections_shown_by_their_best_chunk(
    database: Database,
    embedder: Embedder,
    papers: list[AggregatedPaper],
    fulltext: dict[str, list[FullTextSection]],
) -> None:
    engine = RetrievalEngine(database.pool, embedder)
    await engine.ingest("run", papers, fulltext=fulltext)
    # one chunk of the long methods section names participant 17; BM25 scores the whole section
    result = await engine.search("run", "Participant 17", legs=("bm25",), rerank=False, top_k=20)
    keys = [(h.paper_key, h.section) for h in result.hits]
    assert len(keys) == len(set(keys))  # one hit per section, never two chunks of one section
    methods = next(h for h in result.hits if h.section == "methods")
    assert "Participant 17 " in methods.text  # the chunk sharing most words with the question
    assert methods.section_id == f"doi:10.1000/ecog#methods#{methods.ordinal}"
    # titles ride in front of every other section, so they are not searched on their own ...
    assert all(h.kind != "title" for h in result.hits)
    dense = await engine.search(
        "run", "Speech decoding from high-gamma ECoG activity", legs=("dense",), rerank=False
    )
    assert all(h.kind != "title" for h in dense.hits)
    # ... except for a paper that has nothing but a title
    await engine.ingest("bare", [AggregatedPaper(key="t", paper=Paper(title="Cortical speech maps"))])
    bare = await engine.search("bare", "cortical speech maps", rerank=False)
    assert [h.section_id for h in bare.hits] == ["t#title#0"]
    assert set(bare.hits[0].legs) == {"bm25", "dense"}
