"""python -m evals.answers.explore [--limit N]: would other evidence reach the abstention goal?

The shipped answerability model (`agent/ask/answerability.py`) reads lexical and dense evidence of
the best papers and reaches a train F1 of about 0.73 against a goal of 0.80. This program asks, on
the SciFact train split only, whether richer evidence of the same kind would help: for each of the
five best papers of a claim's search (the product's `search_question`) it measures

- `sentence_cosine`: the best cosine between the question and one sentence of the paper (the
  embedding model compares two sentences better than a sentence and an abstract);
- `token_alignment`: BERTScore-style recall, each question word-piece aligned to its most similar
  word-piece of the paper (the embedding model's contextual token vectors, idf-weighted); skipped
  when sentence-transformers cannot load the model;
- `paper_coverage` / `entity_coverage`: the share of the question's idf-weighted terms, and of its
  entities (words with digits or inner capitals: gene names, doses), the paper contains;
- `cue_match`: whether the paper has a sentence of the answer shape the question wants
  (`agent.ask.cues`);

then the best of each over the five papers and the value of the first paper. Every set is scored by
5-fold cross-validation on train (logistic regression as shipped, threshold chosen inside each
training fold). RESULT lines: `cv_f1_<set>` and `cv_auc_<set>`; `shipped` is the model's own
features. The test split is never read.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agent.ask.answer import judge_answerability
from agent.ask.answerability import FEATURES, fit_logistic
from agent.ask.cues import cue_matches, cues_for
from agent.ask.search import search_question
from agent.ask.text import split_sentences
from agent.llm import RulesLLM
from agent.models import AggregatedPaper, Paper
from evals.retrieval.__main__ import DEFAULT_CACHE, open_database
from evals.retrieval.beir import load_beir
from evals.retrieval.embedcache import CachingEmbedder
from tools.embeddings.sentence import get_embedder, resolve_model_path
from tools.retrieval.engine import RetrievalEngine
from tools.retrieval.normalize import get_segmenter

from .__main__ import ALWAYS, DEFAULT_DATASET, TOP_K, say
from .split import assign

PAPERS = 5
FOLDS = 5
_WORD = re.compile(r"[\w+-]+")


def entities(text: str) -> set[str]:
    """Words a paper must contain to be about the same thing: digits, inner capitals, acronyms."""
    found = set()
    for word in _WORD.findall(text):
        if any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:]):
            found.add(word.lower().strip("+-"))
    return {w for w in found if w}


class TokenAligner:
    """BERTScore-style recall with the embedding model's token vectors (None when it cannot load)."""

    def __init__(self, name: str, corpus_texts: Sequence[str]) -> None:
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(resolve_model_path(name), device="cpu")
        tokenizer = self.model.tokenizer
        df: Counter[int] = Counter()
        for text in corpus_texts:
            df.update(set(tokenizer(text, truncation=True, max_length=256)["input_ids"]))
        self.idf = {i: math.log((len(corpus_texts) + 1) / (n + 1)) for i, n in df.items()}
        self.default_idf = math.log(len(corpus_texts) + 1)
        self.cache: dict[str, tuple[list[int], np.ndarray]] = {}

    def tokens(self, texts: Sequence[str]) -> list[tuple[list[int], np.ndarray]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            vectors = self.model.encode(
                missing, output_value="token_embeddings", convert_to_numpy=False, show_progress_bar=False
            )
            for text, matrix in zip(missing, vectors, strict=True):
                ids = self.model.tokenizer(text, truncation=True, max_length=self.model.max_seq_length)[
                    "input_ids"
                ][1:-1]
                array = matrix.numpy()[1 : len(ids) + 1]
                array = array / np.maximum(np.linalg.norm(array, axis=1, keepdims=True), 1e-9)
                self.cache[text] = (ids, array)
        return [self.cache[t] for t in texts]

    def recall(self, question: str, paper: str) -> float:
        (q_ids, q), (_, p) = self.tokens([question, paper])
        if not q_ids or not len(p):
            return 0.0
        weights = np.array([self.idf.get(i, self.default_idf) for i in q_ids])
        return float((q @ p.T).max(axis=1) @ weights / weights.sum())


def paper_features(
    question: str,
    paper: str,
    idf: dict[str, float],
    embed: Callable[[list[str]], np.ndarray],
    aligner: TokenAligner | None,
) -> dict[str, float]:
    segmenter = get_segmenter()
    sentences = [s for s in split_sentences(paper) if s.strip()] or [paper]
    vectors = embed([question, *sentences])
    total = sum(idf.values()) or 1.0
    present = set(segmenter.index_tokens(paper))
    wanted = entities(question)
    lowered = paper.lower()
    cues = cues_for(question)
    return {
        "sentence_cosine": float((vectors[1:] @ vectors[0]).max()),
        "token_alignment": aligner.recall(question, paper) if aligner else 0.0,
        "paper_coverage": sum(w for t, w in idf.items() if t in present) / total,
        "entity_coverage": sum(1 for e in wanted if e in lowered) / len(wanted) if wanted else 1.0,
        "cue_match": 1.0 if cues and any(cue_matches(s, cues) for s in sentences) else 0.0,
    }


def train_claims_and_run(args: argparse.Namespace) -> tuple[Any, Any, dict[str, Any], dict[str, str]]:
    """The train claims, the answerable/unanswerable split, the Run's corpus (the relevant abstracts of
    the unanswerable claims removed) and each paper's title + abstract: what every exploration scores."""
    root = Path(args.dataset)
    train = load_beir(root, split="train", limit_queries=args.limit)
    full = load_beir(root, split="test")
    split = assign({**load_beir(root, split="train").qrels, **full.qrels})
    corpus = {doc: body for doc, body in full.corpus.items() if doc not in split.removed_docs}
    texts = {doc: f"{body['title']}. {body['text'] or ''}" for doc, body in corpus.items()}
    return train, split, corpus, texts


async def collect(args: argparse.Namespace) -> tuple[list[dict[str, float]], list[int]]:
    """Each train claim's shipped features plus the candidate ones, and whether it is answerable."""
    train, split, corpus, texts = train_claims_and_run(args)
    embedder = CachingEmbedder(get_embedder(args.embed_model), Path(args.cache_dir))
    sentences = CachingEmbedder(
        embedder.inner, None
    )  # sentence vectors stay in memory, not in the cache file
    aligner: TokenAligner | None = None
    try:
        aligner = TokenAligner(args.embed_model, list(texts.values()))
    except (ImportError, OSError, ValueError) as exc:
        say(f"token alignment skipped: {exc}")
    rows: list[dict[str, float]] = []
    labels: list[int] = []
    async with open_database(args.database_url) as db:
        engine: Any = RetrievalEngine(db.pool, embedder)  # the ask and search protocols
        digest = hashlib.sha1("\x00".join(sorted(corpus)).encode()).hexdigest()[:10]
        run_id = f"eval-answers-{digest}"
        papers = [
            AggregatedPaper(key=doc, paper=Paper(title=body["title"], abstract=body["text"] or None))
            for doc, body in corpus.items()
        ]
        await engine.ingest(run_id, papers)
        for i, (qid, claim) in enumerate(train.queries.items()):
            found = await search_question(engine, run_id, claim, llm=RulesLLM(), top_k=TOP_K, rerank=False)
            sections = await engine.expand_sections(run_id, found.hits) if found.hits else []
            shipped = judge_answerability(found, sections, ALWAYS).features  # as `ask` decides
            keys = list(dict.fromkeys(h.paper_key for h in found.result.hits))[:PAPERS]
            idf = found.result.term_idf or dict.fromkeys(found.result.normalization.bm25_tokens, 1.0)
            per_paper = [paper_features(claim, texts[k], idf, sentences.encode, aligner) for k in keys]
            row = {name: shipped.get(name, 0.0) for name in FEATURES}
            for name in per_paper[0] if per_paper else {}:
                values = [p[name] for p in per_paper]
                row[f"best_{name}"] = max(values)
                row[f"first_{name}"] = values[0]
            rows.append(row)
            labels.append(0 if qid in split.unanswerable else 1)
            if (i + 1) % 100 == 0:
                say(f"  train: {i + 1}/{len(train.queries)} claims")
        embedder.flush()
        await engine.delete_run(run_id)
    return rows, labels


def abstention_f1(probabilities: np.ndarray, labels: np.ndarray, threshold: float) -> float:
    abstained = probabilities < threshold
    hit = int((abstained & (labels == 0)).sum())
    precision = hit / abstained.sum() if abstained.sum() else 0.0
    recall = hit / (labels == 0).sum() if (labels == 0).sum() else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Probability that an answerable claim scores above an unanswerable one (ties count half)."""
    pos, neg = scores[labels == 1], scores[labels == 0]
    if not len(pos) or not len(neg):
        return 0.0
    greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(greater / (len(pos) * len(neg)))


def _probability(
    rows: Sequence[dict[str, float]],
    idx: np.ndarray,
    features: Sequence[str],
    model: tuple[np.ndarray, np.ndarray, np.ndarray, float],
) -> np.ndarray:
    mean, scale, coef, intercept = model
    x = np.array([[rows[i].get(n, 0.0) for n in features] for i in idx])
    z = intercept + ((x - mean) / scale) @ coef
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


def cross_validate(
    rows: Sequence[dict[str, float]], labels: Sequence[int], features: Sequence[str]
) -> tuple[float, float]:
    """Out-of-fold abstention F1 (threshold chosen on each training part) and AUC."""
    y = np.asarray(labels)
    fold = np.array([i % FOLDS for i in range(len(rows))])
    out = np.zeros(len(rows))
    thresholds = [step / 100 for step in range(5, 96)]
    predicted = np.zeros(len(rows), dtype=bool)
    for k in range(FOLDS):
        train_idx, held = np.where(fold != k)[0], np.where(fold == k)[0]
        mean, scale, coef, intercept = fit_logistic(
            [rows[i] for i in train_idx], [int(v) for v in y[train_idx]], features=features
        )
        model = (np.array(mean), np.array(scale), np.array(coef), intercept)
        fitted = _probability(rows, train_idx, features, model)
        best = max(thresholds, key=lambda t: abstention_f1(fitted, y[train_idx], t))
        out[held] = _probability(rows, held, features, model)
        predicted[held] = out[held] >= best
    abstained = ~predicted
    hit = int((abstained & (y == 0)).sum())
    precision = hit / abstained.sum() if abstained.sum() else 0.0
    recall = hit / (y == 0).sum() if (y == 0).sum() else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return f1, auc(out, y)


async def main_async(args: argparse.Namespace) -> int:
    rows, labels = await collect(args)
    shipped = list(FEATURES)
    candidates = sorted(k for k in rows[0] if k not in shipped)
    sets: dict[str, list[str]] = {"shipped": shipped}
    sets |= {name: [*shipped, name] for name in candidates}
    sets["shipped_and_all"] = [*shipped, *candidates]
    sets["new_only"] = candidates
    for name, features in sets.items():
        f1, area = cross_validate(rows, labels, features)
        print(f"RESULT cv_f1_{name} {f1:.4f}", flush=True)
        print(f"RESULT cv_auc_{name} {area:.4f}", flush=True)
    return 0


def parse_args(
    argv: list[str] | None = None, prog: str = "python -m evals.answers.explore", doc: str = __doc__
) -> argparse.Namespace:
    """The options every exploration takes (`explore_head` passes its own name and docstring)."""
    parser = argparse.ArgumentParser(prog=prog, description=doc.split("\n")[0])
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET), help="SciFact in BEIR layout")
    parser.add_argument("--limit", type=int, help="only the first N train claims (a quick run)")
    parser.add_argument("--embed-model", default="all-MiniLM-L6-v2")
    parser.add_argument("--database-url", help="PostgreSQL with pgvector (default: embedded)")
    parser.add_argument("--cache-dir", default=str(DEFAULT_CACHE), help="document embedding cache")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(main_async(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
