"""The ranking score: each documented component, the weights, batching, the LLM judgement, the real model."""

from __future__ import annotations

import math
import re
import zlib

import numpy as np
import pytest
from pydantic import ValidationError

from agent.llm import RulesLLM, ScriptedLLM
from agent.models import AggregatedPaper, Paper, Source, SourceEvidence
from agent.search.ranking import EMBED_BATCH, RankingWeights, rank, score_papers

NOW = 2026


class BagOfWords:
    """A deterministic stand-in embedder: hashed word counts, L2-normalised. Records batch sizes."""

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.calls: list[int] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls.append(len(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, zlib.crc32(word.encode()) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


def agg(
    key: str,
    ranks: dict[Source, int],
    *,
    title: str = "A paper",
    year: int | None = 2020,
    citations: int | None = None,
    abstract: str | None = None,
) -> AggregatedPaper:
    return AggregatedPaper(
        key=key,
        paper=Paper(title=title, year=year, citation_count=citations, abstract=abstract),
        evidence=[SourceEvidence(source=s, rank=r) for s, r in ranks.items()],
    )


def only(**weights: float) -> RankingWeights:
    """Weights with every coefficient zero except the ones given."""
    zero = dict.fromkeys(
        ("source_weight", "rrf", "agreement", "recency", "citations", "semantic", "llm"), 0.0
    )
    return RankingWeights(**{**zero, **weights})


def test_components_follow_the_documented_formula() -> None:
    papers = [
        agg("a", {Source.PUBMED: 1, Source.OPENALEX: 3}, year=2018, citations=99),
        agg("b", {Source.OPENALEX: 1}, year=None, citations=0),
    ]
    weights = RankingWeights()
    scored = {p.key: p.score for p in score_papers(papers, goal="", weights=weights, now_year=NOW)}
    a, b = scored["a"], scored["b"]
    k = weights.rrf_k
    ceiling = 1.0 / (k + 1) + 0.6 / (k + 1)  # the two sources present in this Run
    assert a.source_weight == pytest.approx(1.0)
    assert b.source_weight == pytest.approx(0.6)
    assert a.rrf == pytest.approx((1.0 / (k + 1) + 0.6 / (k + 3)) / ceiling)
    assert b.rrf == pytest.approx((0.6 / (k + 1)) / ceiling)
    assert (a.agreement, b.agreement) == (1.0, 0.0)
    assert a.recency == pytest.approx(0.5 ** (8 / weights.recency_half_life))
    assert b.recency == 0.0
    assert (a.citations, b.citations) == (pytest.approx(1.0), 0.0)
    assert a.semantic == b.semantic == 0.0  # no goal: no similarity
    expected = (
        0.10 * a.source_weight + 0.30 * a.rrf + 0.15 * a.agreement + 0.10 * a.recency + 0.10 * a.citations
    )
    assert a.total == pytest.approx(expected, abs=1e-6)
    assert a.llm_relevance is None


def test_default_source_weights_order_pubmed_s2_openalex() -> None:
    papers = [agg(f"{s.value}", {s: 1}) for s in (Source.OPENALEX, Source.SEMANTIC_SCHOLAR, Source.PUBMED)]
    ranked = score_papers(papers, goal="", now_year=NOW)
    assert [p.key for p in ranked] == ["pubmed", "semantic_scholar", "openalex"]
    assert [p.rank for p in ranked] == [1, 2, 3]


def test_agreement_lifts_a_paper_found_by_every_source() -> None:
    papers = [
        agg("alone", {Source.PUBMED: 1}),
        agg("everywhere", {Source.PUBMED: 4, Source.SEMANTIC_SCHOLAR: 4, Source.OPENALEX: 4}),
    ]
    ranked = score_papers(papers, goal="", weights=only(agreement=1.0, rrf=0.1), now_year=NOW)
    assert ranked[0].key == "everywhere"
    assert ranked[0].score.agreement == 1.0


def test_recency_and_log_citations() -> None:
    papers = [
        agg("old", {Source.PUBMED: 1}, year=1990, citations=10_000),
        agg("new", {Source.PUBMED: 2}, year=2025, citations=10),
    ]
    by_recency = score_papers(papers, goal="", weights=only(recency=1.0), now_year=NOW)
    assert [p.key for p in by_recency] == ["new", "old"]
    assert by_recency[0].score.recency == pytest.approx(0.5 ** (1 / 8))
    by_citations = score_papers(papers, goal="", weights=only(citations=1.0), now_year=NOW)
    assert [p.key for p in by_citations] == ["old", "new"]
    assert by_citations[1].score.citations == pytest.approx(math.log1p(10) / math.log1p(10_000))


def test_semantic_similarity_uses_title_and_abstract_in_batches() -> None:
    embedder = BagOfWords()
    goal = "deep learning arrhythmia detection from electrocardiogram"
    papers = [
        agg(f"filler-{i}", {Source.OPENALEX: i + 1}, title=f"Soil microbes sample {i}")
        for i in range(2 * EMBED_BATCH + 10)
    ]
    papers.append(
        agg(
            "hit",
            {Source.OPENALEX: 999},
            title="Arrhythmia detection",
            abstract="Deep learning on the electrocardiogram.",
        )
    )
    ranked = score_papers(
        papers, goal=goal, weights=only(semantic=1.0, semantic_top_n=None), embedder=embedder, now_year=NOW
    )
    assert ranked[0].key == "hit"
    assert 0.5 < ranked[0].score.semantic <= 1.0
    # one goal encode, then batches no larger than EMBED_BATCH covering every paper
    assert embedder.calls[0] == 1
    assert max(embedder.calls[1:]) <= EMBED_BATCH
    assert sum(embedder.calls[1:]) == len(papers)


def test_semantic_is_a_second_stage_over_the_top_n() -> None:
    embedder = BagOfWords()
    goal = "arrhythmia detection"
    papers = [agg(f"p{i}", {Source.PUBMED: i + 1}, title=f"Soil sample {i}") for i in range(10)]
    papers[2] = agg("p2", {Source.PUBMED: 3}, title="Arrhythmia detection")
    papers[8] = agg("p8", {Source.PUBMED: 9}, title="Arrhythmia detection")
    weights = RankingWeights(semantic_top_n=5)
    ranked = score_papers(papers, goal=goal, weights=weights, embedder=embedder, now_year=NOW)
    # only the 5 best by the other components were embedded (plus the goal)
    assert embedder.calls == [1, 5]
    assert ranked[0].key == "p2" and ranked[0].score.semantic > 0.9
    # p8 was outside the candidates: no similarity, and it cannot overtake them
    p8 = next(p for p in ranked if p.key == "p8")
    assert p8.score.semantic == 0.0 and p8.rank > 5
    assert {p.key for p in ranked[:5]} == {"p0", "p1", "p2", "p3", "p4"}


def test_ranking_is_deterministic_and_leaves_input_untouched() -> None:
    papers = [agg(f"p{i}", {Source.PUBMED: i + 1}) for i in range(5)] + [agg("tie", {Source.PUBMED: 1})]
    before = [p.model_dump() for p in papers]
    first = score_papers(papers, goal="x", embedder=BagOfWords(), now_year=NOW)
    second = score_papers(list(reversed(papers)), goal="x", embedder=BagOfWords(), now_year=NOW)
    assert [p.key for p in first] == [p.key for p in second]
    assert [p.rank for p in first] == list(range(1, 7))
    assert [p.model_dump() for p in papers] == before
    assert [p.key for p in first[:2]] == ["p0", "tie"]  # equal scores: best source rank, then key
    # without copies the same papers come back scored, in the same order
    in_place = score_papers(papers, goal="x", embedder=BagOfWords(), now_year=NOW, copy=False)
    assert all(any(p is q for q in papers) for p in in_place)
    assert [p.model_dump() for p in in_place] == [p.model_dump() for p in first]


def test_weights_validation() -> None:
    with pytest.raises(ValidationError):
        RankingWeights(sources={Source.PUBMED: -1.0})
    with pytest.raises(ValidationError):
        RankingWeights(rrf_k=0)
    with pytest.raises(ValidationError):
        RankingWeights(unknown=1.0)


async def test_empty_list() -> None:
    assert await rank([], goal="anything", embedder=BagOfWords()) == []


# -- the LLM judgement --------------------------------------------------------------------------------


def judged_papers() -> list[AggregatedPaper]:
    return [agg(f"p{i}", {Source.PUBMED: i + 1}, title=f"Paper {i}") for i in range(6)]


async def test_llm_judgement_reorders_the_top_k_only() -> None:
    def reply(call):  # the model finds the third paper of the batch the most relevant
        assert "Research goal" in call.user and "Paper 0" in call.user
        return {
            "judgements": [
                {"index": 0, "relevance": 0.0},
                {"index": 1, "relevance": 0.1},
                {"index": 2, "relevance": 1.0},
            ]
        }

    llm = ScriptedLLM(replies={"judge_relevance": reply})
    ranked = await rank(
        judged_papers(), goal="speech decoding", embedder=BagOfWords(), llm=llm, llm_top_k=3, now_year=NOW
    )
    assert ranked[0].key == "p2"
    assert ranked[0].score.llm_relevance == 1.0
    assert {p.key for p in ranked if p.score.llm_relevance is not None} == {"p0", "p1", "p2"}
    assert len(llm.calls) == 1
    assert [p.rank for p in ranked] == list(range(1, 7))
    # an irrelevant judgement pushes a paper below the unjudged ones
    assert [p.key for p in ranked][-1] == "p0"


async def test_llm_judgement_skipped_without_a_model_or_on_invalid_output() -> None:
    baseline = await rank(judged_papers(), goal="g", embedder=BagOfWords(), now_year=NOW)
    rules = await rank(
        judged_papers(), goal="g", embedder=BagOfWords(), llm=RulesLLM(), llm_top_k=3, now_year=NOW
    )
    broken_llm = ScriptedLLM(replies={"judge_relevance": "not json"})
    broken = await rank(
        judged_papers(), goal="g", embedder=BagOfWords(), llm=broken_llm, llm_top_k=3, now_year=NOW
    )
    for ranked in (rules, broken):
        assert [p.key for p in ranked] == [p.key for p in baseline]
        assert all(p.score.llm_relevance is None for p in ranked)
    assert len(broken_llm.calls) == 2  # one retry on invalid JSON, then the ranking goes on


# -- the real model ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def minilm():
    from tools.embeddings.sentence import get_embedder

    embedder = get_embedder()
    embedder.encode(["warm up"])
    return embedder


async def test_packaged_minilm_ranks_the_relevant_paper_first(minilm) -> None:
    goal = "decoding imagined speech from intracranial EEG with deep learning"
    papers = [
        agg("soil", {Source.PUBMED: 1}, title="Nitrogen cycling in agricultural soils under drought"),
        agg(
            "bci",
            {Source.PUBMED: 2},
            title="Neural decoding of attempted speech from cortical recordings",
            abstract="We decode words from electrocorticography with a recurrent neural network.",
        ),
        agg("market", {Source.PUBMED: 3}, title="Stock market volatility forecasting with GARCH models"),
    ]
    ranked = await rank(papers, goal=goal, embedder=minilm, now_year=NOW)
    assert ranked[0].key == "bci"
    assert ranked[0].score.semantic > ranked[1].score.semantic + 0.2
