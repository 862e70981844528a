"""Rank a Run's merged papers by a documented, configurable score, and keep the breakdown on each paper.

Every component is a number in [0, 1] stored as is in the paper's `ScoreBreakdown`, so a ranking can be
explained ("semantic 0.71, two sources agree") and re-weighted later from the stored Run:

- `source_weight` = max over the sources that found the paper of `w_s / max(w)`. The defaults trust
  PubMed (curated, MEDLINE-indexed) over Semantic Scholar over OpenAlex (broadest, least filtered).
- `rrf` — weighted reciprocal-rank fusion of the per-source ranks,
  `Σ_s w_s / (k + rank_s)`, divided by its largest possible value in this Run, `Σ_s w_s / (k + 1)` over
  the sources present, so a paper ranked first everywhere scores 1.
- `agreement` = `(n_sources(paper) − 1) / (n_sources(run) − 1)`: a paper found independently by several
  databases is more likely on target (0 when the Run has one source).
- `recency` = `0.5 ** (age / half_life)` with `age = max(0, now_year − year)`; 0 when the year is unknown.
- `citations` = `log1p(citations) / log1p(max citations in the Run)`; log-scaled so that a classic with
  20,000 citations does not drown a relevant paper with 40.
- `semantic` = cosine similarity (clipped at 0) of the embedding of "title. start of the abstract"
  (`agent.search.similarity.embedding_text`) to the embedding of the confirmed research goal (MiniLM by
  default, int8 ONNX for a Run: as good on SciFact at half the cost; encoded in batches, partly while
  the sources still search); 0 when there is no goal. Embedding is by far the most expensive step (tens of ms per paper on a small CPU), so it is
  a second stage: only the best `semantic_top_n` papers by the other components get it (0 for the
  rest). Since it can only add to a score, those candidates stay above the rest and are re-ordered
  among themselves; `semantic_top_n=None` embeds every paper.

    total = Σ_c weight_c · component_c  (+ llm · (llm_relevance − 0.5) for papers the LLM judged)

With an LLM available and `llm_top_k > 0`, the top K papers by that total are judged by the model
(prompt `judge_relevance`) on a 0-1 scale; a judgement above 0.5 lifts a paper and one below lowers
it, papers that were not judged are treated as a neutral 0.5. Ties go to the better best source rank,
then to the key, so a ranking is reproducible. Papers get `rank` 1..N.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from agent.llm import LLM
from agent.models import AggregatedPaper, ScoreBreakdown, Source
from agent.search.similarity import Encoder, GoalSimilarity, StagePriority, paper_text
from agent.settings import Settings

log = logging.getLogger(__name__)

EMBED_BATCH = 256  # texts per encode call: bounds memory for 6,000-paper Runs, still amortises overhead
JUDGE_BATCH = 10  # papers per LLM judgement call


def ranking_embedder(settings: Settings) -> Any:
    """The process-wide embedder the Run ranking uses (loaded lazily on first use)."""
    # imported on first use: a heavy optional dependency, kept out of processes that never need it
    from tools.embeddings.sentence import get_embedder

    return get_embedder(
        settings.embedding_model,
        backend=settings.embedding_backend,
        precision=settings.ranking_precision,
        cache_dir=settings.model_cache_dir,
    )


class RankingWeights(BaseModel):
    """The knobs of the ranking score (see the module docstring for the formula)."""

    model_config = ConfigDict(extra="forbid")

    sources: dict[Source, float] = Field(
        default_factory=lambda: {Source.PUBMED: 1.0, Source.SEMANTIC_SCHOLAR: 0.8, Source.OPENALEX: 0.6}
    )
    rrf_k: float = Field(60.0, gt=0, description="the k of reciprocal-rank fusion; larger flattens ranks")
    recency_half_life: float = Field(8.0, gt=0, description="years after which recency halves")
    source_weight: float = Field(0.10, ge=0)
    rrf: float = Field(0.30, ge=0)
    agreement: float = Field(0.15, ge=0)
    recency: float = Field(0.10, ge=0)
    citations: float = Field(0.10, ge=0)
    semantic: float = Field(0.25, ge=0)
    llm: float = Field(0.50, ge=0, description="scale of the LLM judgement's lift or penalty")
    semantic_top_n: int | None = Field(
        200,
        ge=1,
        description="papers (best by the other components) whose similarity is computed; None = all",
    )

    @field_validator("sources")
    @classmethod
    def _positive(cls, value: dict[Source, float]) -> dict[Source, float]:
        if any(w < 0 for w in value.values()):
            raise ValueError("source weights must not be negative")
        return value

    def weight_of(self, source: Source) -> float:
        return self.sources.get(source, 0.0)


# ----------------------------------------------------------------------------------------------
# components
# ----------------------------------------------------------------------------------------------


def _source_ranks(paper: AggregatedPaper) -> dict[Source, int]:
    """The best rank each source gave the paper (a source may list one work twice)."""
    ranks: dict[Source, int] = {}
    for evidence in paper.evidence:
        rank = evidence.rank or 10**6
        ranks[evidence.source] = min(rank, ranks.get(evidence.source, rank))
    return ranks


@dataclass(frozen=True)
class RunScale:
    """What the first-stage components are normalised by: the Run's sources and its most cited paper."""

    sources: frozenset[Source]
    max_citations: int
    now_year: int


FIRST_STAGE = ("source_weight", "rrf", "agreement", "recency", "citations")


class _FirstStage:
    """The first-stage components of one Run's scale, in `FIRST_STAGE` order (plain floats: the ranking
    calls this for every paper and the prefetch for every work it has seen, again after each page)."""

    def __init__(self, weights: RankingWeights, scale: RunScale) -> None:
        self.weight = {source: weights.weight_of(source) for source in Source}
        self.rrf_k = weights.rrf_k
        self.half_life = weights.recency_half_life
        self.now_year = scale.now_year
        self.max_weight = max((self.weight[s] for s in scale.sources), default=0.0) or 1.0
        self.rrf_ceiling = sum(self.weight[s] / (weights.rrf_k + 1) for s in scale.sources) or 1.0
        self.n_sources = len(scale.sources)
        self.log_max_citations = math.log1p(scale.max_citations) if scale.max_citations else 0.0

    def __call__(
        self, ranks: Mapping[Source, int], year: int | None, citation_count: int | None
    ) -> tuple[float, float, float, float, float]:
        weight, n_sources = self.weight, self.n_sources
        return (
            max((weight[s] for s in ranks), default=0.0) / self.max_weight,
            sum(weight[s] / (self.rrf_k + r) for s, r in ranks.items()) / self.rrf_ceiling,
            (len(ranks) - 1) / (n_sources - 1) if n_sources > 1 else 0.0,
            0.5 ** (max(0, self.now_year - year) / self.half_life) if year else 0.0,
            math.log1p(citation_count or 0) / self.log_max_citations if self.log_max_citations else 0.0,
        )


def first_stage_score(
    ranks: Mapping[Source, int],
    year: int | None,
    citation_count: int | None,
    *,
    weights: RankingWeights,
    scale: RunScale,
) -> ScoreBreakdown:
    """Every component but the semantic and the LLM's, with their total (see the module docstring)."""
    return _first_stage_breakdown(_FirstStage(weights, scale)(ranks, year, citation_count), weights)


def _first_stage_breakdown(values: tuple[float, ...], weights: RankingWeights) -> ScoreBreakdown:
    components = ScoreBreakdown(**dict(zip(FIRST_STAGE, values, strict=True)))
    components.total = _total(components, weights)
    return components


def first_stage_priority(weights: RankingWeights, now_year: int | None = None) -> StagePriority:
    """The first-stage total as `SimilarityPrefetch` asks for it, scaled by what the Run has seen so far.

    The prefetch then guesses the semantic candidates with the ranking's own formula: on the benchmark
    Run, 194 of the 200 before the last PubMed page arrives (fused ranks and agreement alone: 143).
    """
    year_now = now_year or datetime.now(UTC).year
    factors = [getattr(weights, name) for name in FIRST_STAGE]
    stages: dict[tuple[frozenset[Source], int], _FirstStage] = {}  # one per scale the prefetch has seen

    def priority(
        ranks: Mapping[Source, int],
        year: int | None,
        citation_count: int | None,
        sources: frozenset[Source],
        max_citations: int,
    ) -> float:
        stage = stages.get((sources, max_citations))
        if stage is None:
            scale = RunScale(sources=sources, max_citations=max_citations, now_year=year_now)
            stage = stages[(sources, max_citations)] = _FirstStage(weights, scale)
        values = stage(ranks, year, citation_count)
        return sum(factor * value for factor, value in zip(factors, values, strict=True))

    return priority


def score_papers(
    papers: Sequence[AggregatedPaper],
    *,
    goal: str,
    weights: RankingWeights | None = None,
    embedder: Encoder | None = None,
    similarity: GoalSimilarity | None = None,
    now_year: int | None = None,
    copy: bool = True,
) -> list[AggregatedPaper]:
    """Copies of `papers` with every component but the LLM's computed, sorted best first, ranked 1..N.

    `embedder=None` uses the packaged MiniLM model; the caller may pass any object with `encode`, or a
    `similarity` for `goal` that may already know some texts (computed while the Run searched).
    `copy=False` scores the given papers themselves (a caller that has no other use for them).
    """
    weights = weights or RankingWeights()
    # shallow copies: only `score` and `rank` are replaced, never mutated in place, so inputs stay intact
    out = [p.model_copy() for p in papers] if copy else list(papers)
    if not out:
        return out

    scale = RunScale(
        sources=frozenset(e.source for p in out for e in p.evidence),
        max_citations=max((p.paper.citation_count or 0 for p in out), default=0),
        now_year=now_year or datetime.now(UTC).year,
    )
    # stage 1: every component but the semantic one
    stage = _FirstStage(weights, scale)
    best_rank: dict[int, int] = {}  # the tie-break, by id() of the copies in `out`
    for paper in out:
        ranks = _source_ranks(paper)
        best_rank[id(paper)] = min(ranks.values(), default=10**6)
        paper.score = _first_stage_breakdown(
            stage(ranks, paper.paper.year, paper.paper.citation_count), weights
        )
    _sort_and_number(out, best_rank)

    # stage 2: semantic similarity of the best `semantic_top_n` (adding it can only lift a paper, so the
    # candidates stay above the rest and only their order changes)
    if goal.strip() and weights.semantic > 0:
        if similarity is None:
            if embedder is None:
                # imported on first use: a heavy optional dependency, kept out of processes that never need it
                from tools.embeddings.sentence import get_embedder

                embedder = get_embedder()
            similarity = GoalSimilarity(goal, embedder, batch=EMBED_BATCH)
        candidates = out if weights.semantic_top_n is None else out[: weights.semantic_top_n]
        values = similarity.similarity([paper_text(p.paper) for p in candidates])
        for paper, value in zip(candidates, values.tolist(), strict=True):
            paper.score.semantic = float(value)
            paper.score.total = _total(paper.score, weights)
        _sort_and_number(out, best_rank)
    return out


def _total(score: ScoreBreakdown, weights: RankingWeights) -> float:
    total = (
        weights.source_weight * score.source_weight
        + weights.rrf * score.rrf
        + weights.agreement * score.agreement
        + weights.recency * score.recency
        + weights.citations * score.citations
        + weights.semantic * score.semantic
    )
    if score.llm_relevance is not None:
        total += weights.llm * (score.llm_relevance - 0.5)
    return round(total, 6)  # rounding keeps totals comparable across platforms' float noise


def _best_rank(paper: AggregatedPaper) -> int:
    return min((e.rank or 10**6 for e in paper.evidence), default=10**6)


def _sort_and_number(papers: list[AggregatedPaper], best_rank: Mapping[int, int] | None = None) -> None:
    """Best total first; ties to the better best source rank (`best_rank` by id(), when known), then key."""
    if best_rank is None:
        best_rank = {id(p): _best_rank(p) for p in papers}
    papers.sort(key=lambda p: (-p.score.total, best_rank[id(p)], p.key))
    for position, paper in enumerate(papers, start=1):
        paper.rank = position


# ----------------------------------------------------------------------------------------------
# the LLM judgement
# ----------------------------------------------------------------------------------------------


class Judgement(BaseModel):
    model_config = ConfigDict(extra="ignore")

    index: int
    relevance: float = Field(ge=0.0, le=1.0)
    reason: str = ""


class Judgements(BaseModel):
    model_config = ConfigDict(extra="ignore")

    judgements: list[Judgement] = Field(default_factory=list)


async def judge_relevance(papers: Sequence[AggregatedPaper], *, goal: str, llm: LLM) -> dict[str, float]:
    """The model's 0-1 relevance of each paper to the goal, by paper key; papers it skipped are absent.

    Judged in batches of `JUDGE_BATCH`; a batch the model cannot answer is skipped (logged), never fatal:
    the ranking without the judgement is still a ranking.
    """
    out: dict[str, float] = {}
    for start in range(0, len(papers), JUDGE_BATCH):
        batch = list(papers[start : start + JUDGE_BATCH])
        listing = [
            {
                "index": i,
                "title": p.paper.title,
                "abstract": (p.paper.abstract or "")[:800],
                "year": p.paper.year,
            }
            for i, p in enumerate(batch)
        ]
        completion = await llm.complete_or_fallback(
            "judge_relevance",
            {"goal": goal, "papers": json.dumps(listing, ensure_ascii=False)},
            Judgements,
            Judgements,
        )
        if completion.note:
            log.warning(
                "relevance judgement skipped for papers %d-%d: %s",
                start + 1,
                start + len(batch),
                completion.note,
            )
        for judgement in completion.value.judgements:
            if 0 <= judgement.index < len(batch):
                out[batch[judgement.index].key] = judgement.relevance
    return out


async def rank(
    papers: list[AggregatedPaper],
    *,
    goal: str,
    weights: RankingWeights | None = None,
    embedder: Encoder | None = None,
    similarity: GoalSimilarity | None = None,
    llm: LLM | None = None,
    llm_top_k: int = 0,
    now_year: int | None = None,
    copy: bool = True,
) -> list[AggregatedPaper]:
    """Score and rank `papers` (copies unless `copy=False`), best first with `rank` 1..N.

    The embedding work runs in a worker thread so an event loop serving other requests stays responsive.
    With `llm` available and `llm_top_k > 0` the top K are judged by the model and re-sorted.
    """
    weights = weights or RankingWeights()
    ranked = await asyncio.to_thread(
        score_papers,
        papers,
        goal=goal,
        weights=weights,
        embedder=embedder,
        similarity=similarity,
        now_year=now_year,
        copy=copy,
    )
    if llm is None or not llm.available or llm_top_k <= 0 or not goal.strip() or not ranked:
        return ranked
    judged = await judge_relevance(ranked[:llm_top_k], goal=goal, llm=llm)
    if not judged:
        return ranked
    for paper in ranked:
        if paper.key in judged:
            paper.score.llm_relevance = judged[paper.key]
            paper.score.total = _total(paper.score, weights)
    _sort_and_number(ranked)
    return ranked
