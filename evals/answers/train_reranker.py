"""python -m evals.answers.train_reranker --out DIR [--epochs N] [--negatives N] [--max-length N]

Trains a cross-encoder (claim, paper) -> relevance from the packaged all-MiniLM-L6-v2 weights, on the
SciFact TRAIN split only, because no pretrained cross-encoder can be fetched on this machine and the
answerability decision needs a judge that tells a claim's source from a paper merely on its topic.

Pairs: every train claim with each of its relevant abstracts (label 1) and with the best-scoring
non-relevant abstracts of a BM25 search over the whole corpus (label 0: the hard negatives a search
puts first, the same kind of paper the Run's search offers when the source is missing). Passages are
written as the engine writes them for its reranker ("title. text"). The transformer starts from
MiniLM's encoder, a fresh one-logit head on its [CLS] vector, binary cross-entropy, AdamW with linear
warm-up and decay. The folder written is a Hugging Face sequence-classification model that
`tools.retrieval.rerank.Reranker` loads (set `reranker_model` to it); keep it outside the repository.

Prints RESULT lines: training pairs, seconds, and the pair accuracy on a held-out tenth of the train
claims (grouped by shared abstract, so no abstract is on both sides).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from evals.paths import DATA
from evals.retrieval.beir import BeirSet, load_beir
from tools.embeddings.sentence import resolve_model_path
from tools.retrieval.bm25 import build_index
from tools.retrieval.normalize import get_segmenter

DEFAULT_DATASET = DATA / "scifact"
SEED = 13


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Pair:
    qid: str
    claim: str
    passage: str
    label: float


def passage_of(body: dict[str, str]) -> str:
    """The engine's reranker passage for an abstract: "title. text"."""
    return f"{body['title']}. {body['text']}" if body.get("title") else body["text"]


def hard_negatives(data: BeirSet, per_claim: int) -> dict[str, list[str]]:
    """Each claim's best BM25 abstracts (product tokenizer) that are not among its relevant ones,
    topped up with random abstracts when the search finds fewer."""
    segmenter = get_segmenter()
    docs = list(data.corpus)
    index = build_index([segmenter.index_tokens(passage_of(data.corpus[d])) for d in docs])
    rng = random.Random(SEED)
    out: dict[str, list[str]] = {}
    for qid, claim in data.queries.items():
        found = index.search(segmenter.index_tokens(claim), per_claim + len(data.qrels[qid]) + 2)
        chosen = [docs[i] for i, score in found if score > 0 and docs[i] not in data.qrels[qid]][:per_claim]
        # a claim with few lexical neighbours still gets its share of negatives: random abstracts
        others = [d for d in docs if d not in data.qrels[qid] and d not in chosen]
        out[qid] = chosen + rng.sample(others, min(len(others), per_claim - len(chosen)))
    return out


def build_pairs(data: BeirSet, per_claim: int) -> list[Pair]:
    negatives = hard_negatives(data, per_claim)
    pairs: list[Pair] = []
    for qid, claim in data.queries.items():
        pairs += [Pair(qid, claim, passage_of(data.corpus[d]), 1.0) for d in data.qrels[qid]]
        pairs += [Pair(qid, claim, passage_of(data.corpus[d]), 0.0) for d in negatives[qid]]
    return pairs


def held_out_claims(data: BeirSet, share: float) -> set[str]:
    """About `share` of the claims, whole groups of claims that share an abstract (`split.assign`'s
    components), so the held-out check never sees an abstract the training saw as relevant."""
    groups: dict[str, list[str]] = {}
    doc_group: dict[str, str] = {}
    for qid in sorted(data.qrels, key=lambda q: (len(q), q)):
        anchor = next((doc_group[d] for d in data.qrels[qid] if d in doc_group), qid)
        groups.setdefault(anchor, []).append(qid)
        for doc in data.qrels[qid]:
            doc_group.setdefault(doc, anchor)
    anchors = sorted(groups)
    random.Random(SEED).shuffle(anchors)
    held: set[str] = set()
    for anchor in anchors:
        if len(held) >= share * len(data.qrels):
            break
        held.update(groups[anchor])
    return held


def pair_accuracy(model: Any, tokenizer: Any, pairs: Sequence[Pair], max_length: int) -> float:
    """Share of (claim, relevant, non-relevant) triples of one claim ranked the right way round."""
    scores = score_pairs(model, tokenizer, [(p.claim, p.passage) for p in pairs], max_length)
    by_claim: dict[str, tuple[list[float], list[float]]] = {}
    for pair, value in zip(pairs, scores, strict=True):
        pos, neg = by_claim.setdefault(pair.qid, ([], []))
        (pos if pair.label else neg).append(value)
    right = total = 0
    for pos, neg in by_claim.values():
        for a in pos:
            for b in neg:
                right += a > b
                total += 1
    return right / total if total else 0.0


def score_pairs(model: Any, tokenizer: Any, pairs: Sequence[tuple[str, str]], max_length: int) -> list[float]:
    model.eval()
    out: list[float] = []
    with torch.inference_mode():
        for start in range(0, len(pairs), 32):
            batch = pairs[start : start + 32]
            enc = tokenizer(
                [a for a, _ in batch],
                [b for _, b in batch],
                truncation="only_second",
                max_length=max_length,
                padding=True,
                return_tensors="pt",
            )
            out += model(**enc).logits.squeeze(-1).tolist()
    return out


def train(
    pairs: Sequence[Pair], *, epochs: int, batch_size: int, max_length: int, lr: float
) -> tuple[Any, Any]:
    base = resolve_model_path("all-MiniLM-L6-v2")
    tokenizer = AutoTokenizer.from_pretrained(base)
    model = AutoModelForSequenceClassification.from_pretrained(base, num_labels=1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    steps = epochs * ((len(pairs) + batch_size - 1) // batch_size)
    warmup = max(1, steps // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (steps - s) / max(1, steps - warmup)))
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    order = list(range(len(pairs)))
    rng = random.Random(SEED)
    step = 0
    started = time.perf_counter()
    for epoch in range(epochs):
        model.train()
        rng.shuffle(order)
        for start in range(0, len(order), batch_size):
            batch = [pairs[i] for i in order[start : start + batch_size]]
            enc = tokenizer(
                [p.claim for p in batch],
                [p.passage for p in batch],
                truncation="only_second",
                max_length=max_length,
                padding=True,
                return_tensors="pt",
            )
            logits = model(**enc).logits.squeeze(-1)
            loss = loss_fn(logits, torch.tensor([p.label for p in batch]))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            step += 1
            if step % 50 == 0:
                say(
                    f"  epoch {epoch + 1} step {step}/{steps} loss {loss.item():.3f} "
                    f"({time.perf_counter() - started:.0f} s)"
                )
    return model, tokenizer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.answers.train_reranker", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", required=True, help="folder for the trained model (outside the repository)")
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET))
    parser.add_argument("--negatives", type=int, default=4, help="hard negatives per claim")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--max-length", type=int, default=256)
    parser.add_argument("--lr", type=float, default=4e-5)
    parser.add_argument(
        "--check", type=float, default=0.1, help="share of train claims held out for the check"
    )
    args = parser.parse_args(argv)
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    data = load_beir(Path(args.dataset), split="train")
    pairs = build_pairs(data, args.negatives)
    held = held_out_claims(data, args.check)
    fit_pairs = [p for p in pairs if p.qid not in held]
    check_pairs = [p for p in pairs if p.qid in held]
    test = load_beir(Path(args.dataset), split="test")
    seen = {d for qid in data.qrels for d in data.qrels[qid]}
    shared = sum(1 for docs in test.qrels.values() if set(docs) & seen)
    say(
        f"{len(fit_pairs)} training pairs from {len(data.queries) - len(held)} train claims; "
        f"{len(check_pairs)} held-out pairs; {shared} of {len(test.qrels)} test claims have a source "
        "abstract that is relevant to some train claim"
    )
    started = time.perf_counter()
    model, tokenizer = train(
        fit_pairs, epochs=args.epochs, batch_size=args.batch_size, max_length=args.max_length, lr=args.lr
    )
    seconds = time.perf_counter() - started
    accuracy = pair_accuracy(model, tokenizer, check_pairs, args.max_length)
    out = Path(args.out).expanduser()
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.model_max_length = args.max_length  # read by rerank.folder_max_length
    tokenizer.save_pretrained(out)
    (out / "scholarmap_training.json").write_text(
        json.dumps(
            vars(args)
            | {
                "pairs": len(fit_pairs),
                "seconds": round(seconds, 1),
                "held_out_pair_accuracy": round(accuracy, 4),
            },
            indent=2,
        )
    )
    print(f"RESULT reranker_training_pairs {len(fit_pairs)}", flush=True)
    print(f"RESULT reranker_training_seconds {seconds:.1f}", flush=True)
    print(f"RESULT reranker_held_out_pair_accuracy {accuracy:.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
