"""python -m evals.answers.explore_head: does a learned MiniLM interaction head, claim-specific term
pairs or the rank list's shape reach the abstention goal? (issue 18, the abstention item)

`python -m evals.answers.explore` found that no single piece of lexical or dense evidence moves the
train cross-validated F1 of the answerability model by more than 0.011. This program tries three
other kinds, on the SciFact train split only (the test split is never read), each beside the shipped
features (`agent.ask.answerability.FEATURES`):

- `head`: a learned interaction head over the frozen all-MiniLM-L6-v2 embeddings. For each claim, u is
  the claim's embedding and v that of the paper among the search's first three whose title + abstract
  is closest to it; the head is an L2 logistic regression over [u*v, |u-v|] (768 dimensions,
  standardised) predicting answerable. It is nested: inside each outer training part the penalty is
  chosen by inner 5-fold AUC and the answerability model is fitted on the head's *out-of-fold* scores,
  so the held-out fold sees a head that never saw it.
- `pair_cov_*` / `wpair_cov_*` / `rare_pair_*`: the share (plain or idf-product weighted) of the
  claim's content-term pairs that co-occur in one sentence of the first paper (or the best of the
  first three), and whether the two rarest terms do: the claim's relation, not only its topic.
- `dense_gap5`, `dense_gap10`, `dense_above_<t>`, `bm25_gap5`, `bm25_gap10`, `fused_gap3`,
  `fused_gap_last`: the shape of each leg's ranked list (the 1st against the k-th, how many candidates
  pass a raw cosine).

Scoring as in `explore`: 5-fold CV (fold = claim index mod 5), threshold at the best F1 of each
training part. The head is also scored with grouped folds (`_grouped`: claims that share a source
abstract in one fold, outer and inner), because by index it can recognise an abstract it saw with
another claim of the same source. RESULT lines `cv_f1_<set>` and `cv_auc_<set>`.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import itertools
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agent.ask.answer import judge_answerability
from agent.ask.answerability import FEATURES, fit_logistic
from agent.ask.search import search_question
from agent.ask.text import split_sentences
from agent.llm import RulesLLM
from agent.models import AggregatedPaper, Paper
from evals.retrieval.__main__ import open_database
from evals.retrieval.embedcache import CachingEmbedder
from tools.embeddings.sentence import get_embedder
from tools.retrieval.engine import RetrievalEngine
from tools.retrieval.normalize import get_segmenter

from .__main__ import ALWAYS, TOP_K, say
from .explore import (
    FOLDS,
    _probability,
    abstention_f1,
    auc,
    cross_validate,
    parse_args,
    train_claims_and_run,
)

HEAD_PAPERS = 3  # v is the closest of this many papers
NEW_PREFIXES: tuple[str, ...] = (
    "pair_",
    "wpair_",
    "rare_pair",
    "dense_gap5",
    "dense_gap10",
    "dense_above",
    "bm25_gap5",
    "bm25_gap10",
    "fused_",
)
PENALTIES = (30.0, 100.0, 300.0, 1000.0)  # L2 on standardised features; chosen inside each fold


def pair_features(idf: dict[str, float], papers: Sequence[str]) -> dict[str, float]:
    """Do the claim's content-term pairs co-occur in one sentence of the first (best of three) paper?"""
    segmenter = get_segmenter()
    weights = {t: w for t, w in idf.items() if w > 0}
    terms = sorted(weights, key=lambda t: -weights[t])
    pairs = list(itertools.combinations(terms, 2))
    total = sum(weights[a] * weights[b] for a, b in pairs)
    out: dict[str, float] = {}
    best = {"pair_cov": 0.0, "wpair_cov": 0.0, "rare_pair": 0.0}
    for rank, text in enumerate(papers[:HEAD_PAPERS]):
        sentences = [set(segmenter.index_tokens(s)) for s in split_sentences(text) if s.strip()]
        together = [p for p in pairs if any(p[0] in s and p[1] in s for s in sentences)]
        values = {
            "pair_cov": len(together) / len(pairs) if pairs else 1.0,
            "wpair_cov": sum(weights[a] * weights[b] for a, b in together) / total if total else 1.0,
            "rare_pair": 1.0 if not pairs or pairs[0] in together else 0.0,
        }
        if rank == 0:
            out |= {f"{k}_first": v for k, v in values.items()}
        best = {k: max(best[k], values[k]) for k in best}
    return out | {f"{k}_best": v for k, v in best.items()}


def shape_features(legs: dict[str, list[float]], fused: Sequence[float]) -> dict[str, float]:
    """How the ranked lists fall off: the 1st against the k-th, candidates above a raw cosine."""
    out: dict[str, float] = {}
    dense, bm25 = legs.get("dense", []), legs.get("bm25", [])
    if dense:
        out["dense_gap5"] = dense[0] - dense[min(4, len(dense) - 1)]
        out["dense_gap10"] = dense[0] - dense[min(9, len(dense) - 1)]
        for floor in (0.4, 0.5, 0.6):
            out[f"dense_above_{floor}"] = float(sum(1 for s in dense if s >= floor))
    if bm25 and bm25[0] > 0:
        out["bm25_gap5"] = (bm25[0] - bm25[min(4, len(bm25) - 1)]) / bm25[0]
        out["bm25_gap10"] = (bm25[0] - bm25[min(9, len(bm25) - 1)]) / bm25[0]
    if fused:
        out["fused_gap3"] = fused[0] - fused[min(2, len(fused) - 1)]
        out["fused_gap_last"] = fused[0] - fused[-1]
    return out


def source_groups(qrels: Sequence[Sequence[str]]) -> np.ndarray:
    """Group id of each claim: claims that share a relevant abstract (transitively) are one group."""
    parent = list(range(len(qrels)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, docs in enumerate(qrels):
        for doc in docs:
            if doc in first:
                parent[root(i)] = root(first[doc])
            else:
                first[doc] = i
    ids: dict[int, int] = {}
    return np.array([ids.setdefault(root(i), len(ids)) for i in range(len(qrels))])


async def collect(
    args: argparse.Namespace,
) -> tuple[list[dict[str, float]], list[int], np.ndarray, np.ndarray]:
    """Each train claim's shipped and candidate features, label, interaction vector and source group."""
    train, split, corpus, texts = train_claims_and_run(args)
    embedder = CachingEmbedder(get_embedder(args.embed_model), Path(args.cache_dir))
    paper_vectors = CachingEmbedder(embedder.inner, None)  # whole abstracts stay out of the cache file
    rows: list[dict[str, float]] = []
    labels: list[int] = []
    interactions: list[np.ndarray] = []
    async with open_database(args.database_url) as db:
        engine: Any = RetrievalEngine(db.pool, embedder)
        digest = hashlib.sha1("\x00".join(sorted(corpus)).encode()).hexdigest()[:10]
        run_id = f"eval-answers-head-{digest}"
        papers = [
            AggregatedPaper(key=doc, paper=Paper(title=body["title"], abstract=body["text"] or None))
            for doc, body in corpus.items()
        ]
        await engine.ingest(run_id, papers)
        for i, (qid, claim) in enumerate(train.queries.items()):
            found = await search_question(engine, run_id, claim, llm=RulesLLM(), top_k=TOP_K, rerank=False)
            sections = await engine.expand_sections(run_id, found.hits) if found.hits else []
            row = dict(judge_answerability(found, sections, ALWAYS).features)
            result = found.result
            keys = list(dict.fromkeys(h.paper_key for h in result.hits))
            idf = result.term_idf or dict.fromkeys(result.normalization.bm25_tokens, 1.0)
            row |= pair_features(idf, [texts[k] for k in keys])
            legs = {leg: [c.score for c in cands] for leg, cands in result.leg_candidates.items()}
            row |= shape_features(legs, [h.score for h in result.hits])
            vectors = paper_vectors.encode([claim, *[texts[k] for k in keys[:HEAD_PAPERS]]])
            vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
            u = vectors[0]
            v = vectors[1 + int(np.argmax(vectors[1:] @ u))] if len(vectors) > 1 else np.zeros_like(u)
            interactions.append(np.concatenate([u * v, np.abs(u - v)]))
            rows.append(row)
            labels.append(0 if qid in split.unanswerable else 1)
            if (i + 1) % 100 == 0:
                say(f"  train: {i + 1}/{len(train.queries)} claims")
        embedder.flush()
        await engine.delete_run(run_id)
    groups = source_groups([sorted(train.qrels[qid]) for qid in train.queries])
    return rows, labels, np.stack(interactions), groups


def _head(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    names = [str(j) for j in range(x.shape[1])]
    mean, scale, coef, intercept = fit_logistic(
        [dict(zip(names, r, strict=True)) for r in x.tolist()],
        y.tolist(),
        features=names,
        l2=l2,
        iterations=15,
    )
    return np.array(mean), np.array(scale), np.array(coef), intercept


def _head_score(model: tuple[np.ndarray, np.ndarray, np.ndarray, float], x: np.ndarray) -> np.ndarray:
    mean, scale, coef, intercept = model
    return intercept + ((x - mean) / scale) @ coef


def _folds(n: int, groups: np.ndarray | None) -> np.ndarray:
    """Fold of each claim: by index, or by group (claims sharing a source abstract stay together)."""
    return np.arange(n) % FOLDS if groups is None else np.asarray(groups) % FOLDS


def _out_of_fold(x: np.ndarray, y: np.ndarray, l2: float, groups: np.ndarray | None = None) -> np.ndarray:
    fold = _folds(len(x), groups)
    scores = np.zeros(len(x))
    for k in range(FOLDS):
        scores[fold == k] = _head_score(_head(x[fold != k], y[fold != k], l2), x[fold == k])
    return scores


def nested_head(
    rows: Sequence[dict[str, float]],
    labels: Sequence[int],
    x: np.ndarray,
    groups: np.ndarray | None = None,
) -> tuple[float, float, float, list[float]]:
    """Out-of-fold F1 and AUC of the shipped features plus the head, the head's own AUC, the penalties.

    With `groups`, folds (outer and inner) keep each group together. A constant `x` gives the
    shipped model alone under the same folds."""
    y = np.asarray(labels)
    fold = _folds(len(rows), groups)
    probability = np.zeros(len(rows))
    predicted = np.zeros(len(rows), dtype=bool)
    head_only = np.zeros(len(rows))
    chosen: list[float] = []
    features = [*FEATURES, "head"]
    for k in range(FOLDS):
        train_idx, held = np.where(fold != k)[0], np.where(fold == k)[0]
        inner_groups = None if groups is None else np.asarray(groups)[train_idx]
        l2 = max(
            PENALTIES,
            key=lambda p: auc(_out_of_fold(x[train_idx], y[train_idx], p, inner_groups), y[train_idx]),
        )
        chosen.append(l2)
        inner = _out_of_fold(x[train_idx], y[train_idx], l2, inner_groups)
        outer = _head_score(_head(x[train_idx], y[train_idx], l2), x[held])
        head_only[held] = outer
        scored = [dict(r) for r in rows]
        for i, value in [*zip(train_idx, inner, strict=True), *zip(held, outer, strict=True)]:
            scored[i]["head"] = float(value)
        mean, scale, coef, intercept = fit_logistic(
            [scored[i] for i in train_idx], [int(v) for v in y[train_idx]], features=features
        )
        model = (np.array(mean), np.array(scale), np.array(coef), intercept)
        fitted = _probability(scored, train_idx, features, model)
        best = max((s / 100 for s in range(5, 96)), key=lambda t: abstention_f1(fitted, y[train_idx], t))
        probability[held] = _probability(scored, held, features, model)
        predicted[held] = probability[held] >= best
    abstained = ~predicted
    hit = int((abstained & (y == 0)).sum())
    precision = hit / abstained.sum() if abstained.sum() else 0.0
    recall = hit / (y == 0).sum() if (y == 0).sum() else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return f1, auc(probability, y), auc(head_only, y), chosen


async def main_async(args: argparse.Namespace) -> int:
    rows, labels, x, groups = await collect(args)
    shipped = list(FEATURES)
    candidates = sorted({k for r in rows for k in r if k.startswith(NEW_PREFIXES)})
    sets: dict[str, list[str]] = {"shipped": shipped} | {c: [*shipped, c] for c in candidates}
    sets["shipped_and_all_lexical"] = [*shipped, *candidates]
    for name, features in sets.items():
        f1, area = cross_validate(rows, labels, features)
        print(f"RESULT cv_f1_{name} {f1:.4f}", flush=True)
        print(f"RESULT cv_auc_{name} {area:.4f}", flush=True)
    # by claim index (as `explore`), then with claims of one source abstract in one fold: the head
    # can learn an abstract's neighbourhood from one claim and recognise it in another of the same
    # source, which a new Run's papers never allow
    for suffix, folds in (("", None), ("_grouped", groups)):
        if folds is not None:
            f1, area, _, _ = nested_head(rows, labels, np.zeros((len(rows), 1)), folds)
            print(f"RESULT cv_f1_shipped{suffix} {f1:.4f}", flush=True)
            print(f"RESULT cv_auc_shipped{suffix} {area:.4f}", flush=True)
        f1, area, head_area, penalties = nested_head(rows, labels, x, folds)
        say(f"head{suffix}: penalties chosen per outer fold {penalties}")
        print(f"RESULT cv_f1_head{suffix} {f1:.4f}", flush=True)
        print(f"RESULT cv_auc_head{suffix} {area:.4f}", flush=True)
        print(f"RESULT cv_auc_head_alone{suffix} {head_area:.4f}", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(main_async(parse_args(argv, "python -m evals.answers.explore_head", __doc__)))


if __name__ == "__main__":
    sys.exit(main())
