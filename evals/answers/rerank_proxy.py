"""python -m evals.answers.rerank_proxy --model DIR: does a cross-encoder's score lift abstention?

The engine evaluation (`python -m evals.answers`) needs SciFact's sections embedded (about 15
CPU-minutes) and PostgreSQL; this proxy asks the same question in minutes, without either. The Run is
SciFact minus the relevant abstracts of half of the claims (`split.assign`, as the engine
evaluation), searched with BM25 (product tokenizer) over whole abstracts. For each claim:

- lexical evidence of the BM25 list: how far the first abstract stands above the 2nd and the 10th,
  the share of the claim's idf-weighted terms the first abstract and its best sentence hold, the
  lead of that coverage over the next abstract, the number of claim terms and the share the Run
  has never seen;
- the cross-encoder's logit for each of the first five abstracts (the best over the abstract's
  windows, `reranker_pairs.windows`): the best of the five, the first abstract's, and the lead of
  the best over the next.

Logistic models (`answerability.fit_logistic`) are fitted on the train claims, the threshold at the
best train F1; train is also scored by 5-fold cross-validation with folds grouped by shared source
abstract. Test figures are reported on all claims and on the unseen ones (no source abstract is
relevant to any train claim: a cross-encoder trained on train has never seen their source).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from agent.ask.answerability import fit_logistic
from evals.retrieval.beir import BeirSet, load_beir
from tools.retrieval.bm25 import build_index
from tools.retrieval.normalize import get_segmenter
from tools.retrieval.sections import split_sentences

from .explore_head import source_groups
from .reranker_pairs import abstract_sentences, passage_of, windows
from .split import assign
from .train_reranker import DEFAULT_DATASET, load_model, score_pairs

PAPERS = 5  # the cross-encoder scores this many abstracts per claim
LEXICAL = ("bm25_gap", "bm25_margin", "coverage_first", "coverage_gap", "sentence_coverage", "query_terms",
           "absent_terms")  # fmt: skip
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "lexical": LEXICAL,
    "lexical+ce_best": (*LEXICAL, "ce_best"),
    "lexical+ce_best+ce_first+ce_lead": (*LEXICAL, "ce_best", "ce_first", "ce_lead"),
    "ce_best+ce_first+ce_lead": ("ce_best", "ce_first", "ce_lead"),
}


@dataclass
class Claim:
    qid: str
    split: str
    answerable: bool
    seen: bool  # a source abstract is relevant to some train claim
    relevant: set[str]
    papers: list[str]  # BM25 order over the Run
    features: dict[str, float] = field(default_factory=dict)
    ce: list[float] = field(default_factory=list)  # logits of papers[:PAPERS]


def lexical_features(
    claims: dict[str, Claim], queries: dict[str, str], corpus: dict[str, dict[str, str]]
) -> None:
    """BM25 over the Run's abstracts; fills each claim's papers and lexical features."""
    segmenter = get_segmenter()
    docs = list(corpus)
    tokens = [segmenter.index_tokens(passage_of(corpus[d])) for d in docs]
    index = build_index(tokens)
    df: dict[str, int] = {}
    for doc_tokens in tokens:
        for token in set(doc_tokens):
            df[token] = df.get(token, 0) + 1
    for qid, claim in claims.items():
        query = list(dict.fromkeys(segmenter.index_tokens(queries[qid])))
        idf = {t: math.log(1 + (len(docs) - df[t] + 0.5) / (df[t] + 0.5)) if t in df else 0.0 for t in query}
        total = sum(idf.values()) or 1.0
        found = index.search(query, 10)
        claim.papers = [docs[i] for i, _ in found]
        scores = [s for _, s in found] or [0.0]
        coverage = []
        sentence_best = 0.0
        for i, _ in found[:3]:
            doc, present = docs[i], set(tokens[i])
            coverage.append(sum(w for t, w in idf.items() if t in present) / total)
            for sentence in split_sentences(corpus[doc]["text"]):
                words = set(segmenter.index_tokens(sentence))
                sentence_best = max(sentence_best, sum(w for t, w in idf.items() if t in words) / total)
        coverage += [0.0] * (2 - len(coverage))
        b1 = scores[0] or 1.0
        claim.features = {
            "bm25_gap": (scores[0] - scores[1]) / b1 if len(scores) > 1 else 1.0,
            "bm25_margin": (scores[0] - scores[-1]) / b1,
            "coverage_first": coverage[0],
            "coverage_gap": coverage[0] - max(coverage[1:]),
            "sentence_coverage": sentence_best,
            "query_terms": math.log1p(len(query)),
            "absent_terms": sum(1 for w in idf.values() if w <= 0) / max(1, len(idf)),
        }


def cross_encoder_features(
    claims: dict[str, Claim], queries: dict[str, str], score: Callable[[list[tuple[str, str]]], list[float]],
    paper_windows: dict[str, list[str]],
) -> None:  # fmt: skip
    """The best window logit of each of the first PAPERS abstracts, and the claim's ce_* features."""
    pairs: list[tuple[str, str]] = []
    owners: list[tuple[str, int]] = []
    for qid, claim in claims.items():
        for rank, doc in enumerate(claim.papers[:PAPERS]):
            for window in paper_windows[doc]:
                pairs.append((queries[qid], window))
                owners.append((qid, rank))
    logits = score(pairs)
    best: dict[tuple[str, int], float] = {}
    for owner, value in zip(owners, logits, strict=True):
        best[owner] = max(best.get(owner, -math.inf), value)
    for qid, claim in claims.items():
        claim.ce = [best[(qid, r)] for r in range(min(PAPERS, len(claim.papers)))]
        ranked = sorted(claim.ce, reverse=True) or [0.0]
        claim.features |= {
            "ce_best": ranked[0],
            "ce_first": claim.ce[0] if claim.ce else 0.0,
            "ce_lead": ranked[0] - ranked[1] if len(ranked) > 1 else 0.0,
        }


def f1_of(abstain: Sequence[bool], unanswerable: Sequence[bool]) -> tuple[float, float, float]:
    tp = sum(1 for a, u in zip(abstain, unanswerable, strict=True) if a and u)
    p = tp / sum(abstain) if any(abstain) else 0.0
    r = tp / sum(unanswerable) if any(unanswerable) else 0.0
    return (2 * p * r / (p + r) if p + r else 0.0), p, r


def fit_and_threshold(
    train: Sequence[Claim], features: Sequence[str]
) -> Callable[[Sequence[Claim]], np.ndarray]:
    """The logistic model on `train` and its best-F1 threshold; returns claims -> abstain decisions."""
    labels = [1 if c.answerable else 0 for c in train]
    mean, scale, coef, intercept = fit_logistic([c.features for c in train], labels, features=features)

    def probability(claims: Sequence[Claim]) -> np.ndarray:
        x = np.array([[c.features[f] for f in features] for c in claims]).reshape(len(claims), len(features))
        return 1 / (1 + np.exp(-(intercept + ((x - mean) / np.array(scale)) @ np.array(coef))))

    p_train = probability(train)
    unanswerable = [not c.answerable for c in train]
    threshold = max((t / 100 for t in range(5, 96)), key=lambda t: f1_of(list(p_train < t), unanswerable)[0])
    return lambda claims: probability(claims) < threshold


def cross_validated_f1(train: Sequence[Claim], features: Sequence[str], folds: int = 5) -> float:
    """Out-of-fold abstention F1 on train, folds grouped by shared source abstract."""
    fold = source_groups([sorted(c.relevant) for c in train]) % folds
    abstain = np.zeros(len(train), dtype=bool)
    for k in range(folds):
        inside = [c for c, f in zip(train, fold, strict=True) if f != k]
        outside = [i for i, f in enumerate(fold) if f == k]
        abstain[outside] = fit_and_threshold(inside, features)([train[i] for i in outside])
    return f1_of(list(abstain), [not c.answerable for c in train])[0]


def build_claims(root: Path) -> tuple[dict[str, Claim], dict[str, str], dict[str, dict[str, str]]]:
    splits: dict[str, BeirSet] = {s: load_beir(root, split=s) for s in ("train", "test")}
    qrels = {q: r for data in splits.values() for q, r in data.qrels.items()}
    queries = {q: t for data in splits.values() for q, t in data.queries.items()}
    removed = assign(qrels)
    seen = {d for rels in splits["train"].qrels.values() for d in rels}
    claims = {
        qid: Claim(qid, name, qid not in removed.unanswerable, bool(set(rels) & seen), set(rels), [])
        for name, data in splits.items()
        for qid, rels in data.qrels.items()
    }
    corpus = {d: body for d, body in splits["train"].corpus.items() if d not in removed.removed_docs}
    return claims, queries, corpus


def scorer(
    model_folder: Path, max_length: int, cache: Path | None
) -> Callable[[list[tuple[str, str]]], list[float]]:
    """The cross-encoder's logits for (claim, window) pairs; with `cache`, read from it when it exists
    (a rerun of the fits costs no inference), else computed and written to it."""
    if cache is not None and cache.exists():
        known = json.loads(cache.read_text())
        return lambda pairs: [known[f"{a}\x00{b}"] for a, b in pairs]
    model, tokenizer = load_model(model_folder)

    def score(pairs: list[tuple[str, str]]) -> list[float]:
        logits = score_pairs(model, tokenizer, pairs, max_length)
        if cache is not None:
            cache.write_text(json.dumps({f"{a}\x00{b}": v for (a, b), v in zip(pairs, logits, strict=True)}))
        return logits

    return score


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.answers.rerank_proxy", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--model", required=True, help="a cross-encoder folder (train_reranker --out)")
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET))
    parser.add_argument("--max-length", type=int, default=160)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--scores", help="JSON file of the claims' cross-encoder logits: read if it exists, else written"
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    root = Path(args.dataset)
    claims, queries, corpus = build_claims(root)
    lexical_features(claims, queries, corpus)
    sentences = abstract_sentences(root, corpus)
    paper_windows = {d: [w for w, _ in windows(corpus[d]["title"], sentences[d])] for d in corpus}
    score = scorer(Path(args.model), args.max_length, Path(args.scores) if args.scores else None)
    started = time.perf_counter()
    cross_encoder_features(claims, queries, score, paper_windows)
    say(f"cross-encoder features: {time.perf_counter() - started:.0f} s")
    train = [c for c in claims.values() if c.split == "train"]
    test = [c for c in claims.values() if c.split == "test"]
    unseen = [c for c in test if not c.seen]
    for name, features in FEATURE_SETS.items():
        abstain = fit_and_threshold(train, features)
        cv = cross_validated_f1(train, features)
        train_f1 = f1_of(list(abstain(train)), [not c.answerable for c in train])[0]
        f1, p, r = f1_of(list(abstain(test)), [not c.answerable for c in test])
        unseen_f1 = f1_of(list(abstain(unseen)), [not c.answerable for c in unseen])[0]
        seen_f1 = f1_of(
            list(abstain([c for c in test if c.seen])), [not c.answerable for c in test if c.seen]
        )[0]
        say(f"{name}: train CV {cv:.3f}, train {train_f1:.3f}, test {f1:.3f} ({p:.3f} / {r:.3f}), "
            f"unseen {unseen_f1:.3f} ({len(unseen)}), seen {seen_f1:.3f}")  # fmt: skip
        for label, value in (("cv_f1", cv), ("train_f1", train_f1), ("test_f1", f1), ("test_precision", p),
                             ("test_recall", r), ("test_unseen_f1", unseen_f1), ("test_seen_f1", seen_f1)):  # fmt: skip
            print(f"RESULT proxy_{name}_{label} {value:.4f}", flush=True)
    answerable_test = [c for c in test if c.answerable and c.papers]
    bm25_first = np.mean([c.papers[0] in c.relevant for c in answerable_test])
    reranked = np.mean([c.papers[int(np.argmax(c.ce))] in c.relevant for c in answerable_test])
    print(f"RESULT proxy_test_first_paper_relevant_bm25 {bm25_first:.4f}", flush=True)
    print(f"RESULT proxy_test_first_paper_relevant_reranked {reranked:.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
