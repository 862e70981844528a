"""Can the Run answer this question? A calibrated decision from the fused evidence, not from its ranks.

Fusion min-max scales every leg over its own candidates, so the best passage of a Run that knows
nothing about the question still scores 1.0: ranks say which passage is best, never whether it is
good. The decision therefore reads the raw evidence of the best few papers (`evidence_features`):
raw cosine similarity and how far it stands out (`dense_best`, `dense_margin`, `dense_gap`), the share
of the question's idf-weighted terms a top paper or a single sentence of it contains (`coverage_*`,
`sentence_*`), how far the best BM25 section stands above the rest (`bm25_margin`, `bm25_gap`), the
share of question terms the Run has never seen (`absent_terms`: "caffeine sleep mice" over BCI
papers), and whether BM25 and the dense leg agree on the best paper (`legs_agree`, `legs_near`).

A small logistic model over the features `FEATURES` names (standardised) gives P(answerable); `ModelFile` holds its
coefficients, the threshold and how both were fitted (`python -m evals.answers --fit`, SciFact train
split, relevant abstracts removed for half of the claims). What SciFact taught: a related paper on the
same topic is hard to tell from the source paper with these signals (train CV F1 0.73, dense and
agreement features add nothing once the lexical margins are in); a cross-encoder's score would be
the next feature to offer. Dense features are in the units of the embedding model the model was
fitted with; another model gets a note saying so.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, Field

from tools import logistic
from tools.logistic import LogisticModel, read_model
from tools.retrieval.normalize import get_segmenter
from tools.retrieval.types import RetrievalResult

MODEL_PATH = Path(__file__).with_name("answerability.json")
# chosen by forward selection with 5-fold cross-validation on the SciFact train split (abstention F1
# 0.733); every candidate of `evidence_features`, dense ones and leg agreement included, was offered
FEATURES: tuple[str, ...] = ("bm25_margin", "coverage_gap", "query_terms", "sentence_bigrams", "absent_terms")
TOP_PAPERS = 3  # the decision reads the best evidence of this many papers
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])|(?<=[。！？；])")


class ModelFile(LogisticModel):
    """The fitted decision as product data (`tools.logistic.LogisticModel`): answerable when
    P(answerable) >= threshold; the dense features are in the units of `embed_model`."""

    embed_model: str  # the dense features' units


class Answerability(BaseModel):
    """The decision with its evidence, as the answer stream and the trace show it."""

    answerable: bool
    probability: float | None = None  # None when no model applies (then a rule decided)
    threshold: float | None = None
    features: dict[str, float] = Field(default_factory=dict)
    reason: str = ""


def _paper_texts(result: RetrievalResult, titles: Mapping[str, str]) -> list[tuple[str, str]]:
    """The top papers' retrieved text (title + the hits of that paper), best paper first."""
    texts: dict[str, list[str]] = {}
    for hit in result.hits:
        if hit.paper_key not in texts:
            if len(texts) >= TOP_PAPERS:
                continue
            texts[hit.paper_key] = [titles.get(hit.paper_key, "")]
        texts[hit.paper_key].append(hit.text)
    return [(key, " ".join(parts)) for key, parts in texts.items()]


def evidence_features(
    result: RetrievalResult,
    titles: Mapping[str, str] | None = None,
    section_texts: Mapping[str, str] | None = None,
) -> dict[str, float]:
    """The decision's candidate features for one search result (a model uses the ones it names).

    `titles` maps paper keys to titles; `section_texts` may give a paper's whole retrieved sections
    (the hits hold only their best chunk), keyed by paper.
    """
    top = result.hits[: max(TOP_PAPERS * 2, 6)]
    dense = [h.leg_scores["dense"] for h in top if "dense" in h.leg_scores]
    dense_best = max(dense) if dense else 0.0
    dense_candidates = [c.score for c in result.leg_candidates.get("dense", [])]
    bm25_candidates = [c.score for c in result.leg_candidates.get("bm25", [])]
    floor = dense_candidates[-1] if dense_candidates else dense_best
    idf = result.term_idf or dict.fromkeys(result.normalization.bm25_tokens, 1.0)
    total = sum(idf.values())
    segmenter = get_segmenter()
    coverages: list[float] = []
    rare = [t for t, w in sorted(idf.items(), key=lambda kv: -kv[1]) if w > 0][:3]
    rare_best = 0.0
    sentence_best = 0.0
    bigram_best = 0.0
    query = list(result.normalization.bm25_tokens)
    query_bigrams = {(a, b) for a, b in zip(query, query[1:], strict=False)}
    for key, text in _paper_texts(result, titles or {}):
        text = (section_texts or {}).get(key, text)
        present = set(segmenter.index_tokens(text))
        covered = sum(weight for token, weight in idf.items() if token in present)
        coverages.append(covered / total if total > 0 else 0.0)
        if rare:
            rare_best = max(rare_best, sum(1 for t in rare if t in present) / len(rare))
        # the single sentence that says most of the question: a claim paraphrases one sentence of
        # its source, while a merely related paper spreads the same words over many
        for sentence in _SENTENCE.split(text):
            tokens = segmenter.index_tokens(sentence)
            if not tokens:
                continue
            words = set(tokens)
            if total > 0:
                sentence_best = max(sentence_best, sum(w for t, w in idf.items() if t in words) / total)
            if query_bigrams:
                pairs = set(zip(tokens, tokens[1:], strict=False))
                bigram_best = max(bigram_best, len(query_bigrams & pairs) / len(query_bigrams))
    ranked = sorted(coverages, reverse=True)
    absent = sum(1 for weight in idf.values() if weight <= 0) / len(idf) if idf else 1.0
    leaders = {
        leg: [_paper_of(c.section_key) for c in cands[:3]]
        for leg, cands in result.leg_candidates.items()
        if cands
    }
    bm25_lead, dense_lead = leaders.get("bm25", []), leaders.get("dense", [])
    agree = 1.0 if bm25_lead and dense_lead and bm25_lead[0] == dense_lead[0] else 0.0
    near = (
        1.0
        if bm25_lead and dense_lead and (dense_lead[0] in bm25_lead or bm25_lead[0] in dense_lead)
        else 0.0
    )
    b1 = bm25_candidates[0] if bm25_candidates else 0.0
    return {
        "dense_best": round(dense_best, 4),
        "dense_margin": round(dense_best - floor, 4),
        "dense_gap": round(dense_candidates[0] - dense_candidates[1], 4)
        if len(dense_candidates) > 1
        else 0.0,
        "coverage_best": round(ranked[0] if ranked else 0.0, 4),
        "coverage_first": round(coverages[0] if coverages else 0.0, 4),
        "coverage_gap": round(ranked[0] - ranked[1], 4)
        if len(ranked) > 1
        else round(ranked[0] if ranked else 0.0, 4),
        "bm25_per_idf": round(b1 / total, 4) if total > 0 else 0.0,
        "bm25_gap": round((b1 - bm25_candidates[1]) / b1, 4) if len(bm25_candidates) > 1 and b1 > 0 else 0.0,
        "bm25_margin": round((b1 - bm25_candidates[-1]) / b1, 4) if bm25_candidates and b1 > 0 else 0.0,
        "rare_terms": round(rare_best, 4),
        "sentence_coverage": round(sentence_best, 4),
        "sentence_bigrams": round(bigram_best, 4),
        "bm25_z": _z(result.leg_stats.get("bm25")),
        "dense_z": _z(result.leg_stats.get("dense")),
        "bm25_nqc": _nqc(result.leg_stats.get("bm25")),
        "absent_terms": round(absent, 4),
        "query_terms": round(math.log1p(len(idf)), 4),
        "legs_agree": agree,
        # what the evidence could measure: a model fitted with the dense leg and the Run's idf
        # does not apply to a search that had neither (a BM25-only engine, a test double)
        "measured": 1.0 if dense_candidates and result.term_idf else 0.0,
        "legs_near": near,
    }


def _z(stats: Mapping[str, float] | None) -> float:
    """How many standard deviations the best candidate stands above the leg's candidates."""
    if not stats or stats.get("std", 0.0) <= 1e-9:
        return 0.0
    return round((stats["top"] - stats["mean"]) / stats["std"], 4)


def _nqc(stats: Mapping[str, float] | None) -> float:
    """Normalised query commitment: the spread of the leg's scores relative to their mean."""
    if not stats or stats.get("mean", 0.0) <= 1e-9:
        return 0.0
    return round(stats["std"] / stats["mean"], 4)


def _paper_of(section_key: str) -> str:
    return section_key.split("#", 1)[0]


def probability(model: ModelFile, features: Mapping[str, float]) -> float:
    return model.probability(features)


@lru_cache(maxsize=4)
def load_model(path: Path = MODEL_PATH) -> ModelFile | None:
    """The fitted model, or None when the file is missing or unreadable (then a rule decides)."""
    return read_model(path, ModelFile)


def decide(
    features: Mapping[str, float], model: ModelFile | None = None, *, embed_model: str | None = None
) -> Answerability:
    """Answerable or not. Without a model: answerable when a top paper covers half the question's
    weighted terms or the best passage is a close paraphrase (cosine ≥ 0.6)."""
    values = dict(features)
    if model is None or not values.get("measured", 1.0):
        ok = values.get("coverage_best", 0.0) >= 0.5 or values.get("dense_best", 0.0) >= 0.6
        return Answerability(
            answerable=ok,
            features=values,
            reason=(
                "no fitted answerability model"
                if model is None
                else "the search had no dense leg or term weights, which the fitted model needs"
            )
            + "; rule: term coverage ≥ 0.5 or cosine ≥ 0.6",
        )
    p = probability(model, values)
    reason = f"P(answerable) {p:.2f} against threshold {model.threshold:.2f}"
    if embed_model and embed_model != model.embed_model:
        reason += f" (fitted with {model.embed_model}; this Run uses {embed_model}, so dense features differ)"
    return Answerability(
        answerable=p >= model.threshold,
        probability=round(p, 4),
        threshold=model.threshold,
        features=values,
        reason=reason,
    )


# ----------------------------------------------------------------------------------------------
# Fitting (used by evals/answers; numpy only)
# ----------------------------------------------------------------------------------------------


def fit_logistic(
    rows: Sequence[Mapping[str, float]],
    labels: Sequence[int],
    *,
    features: Sequence[str] = FEATURES,
    l2: float = 1.0,
    iterations: int = 50,
) -> tuple[list[float], list[float], list[float], float]:
    """`tools.logistic.fit_logistic` over the answerability features by default; labels are 1 for
    answerable, 0 for not."""
    return logistic.fit_logistic(rows, labels, features=features, l2=l2, iterations=iterations)
