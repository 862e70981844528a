"""python -m evals.answers.train_reranker --out DIR [--epochs N] [--negatives N] [--max-seconds S]

Trains a cross-encoder (claim, passage) -> relevance from the packaged all-MiniLM-L6-v2 weights, on the
SciFact TRAIN split only, because no pretrained cross-encoder can be fetched on this machine and the
answerability decision needs a judge that tells a claim's source from a paper merely on its topic.

Data (`reranker_pairs`): one group per (claim, relevant abstract): the window of the abstract that
holds the claim's rationale, then one window of each of the claim's hard negative abstracts (the best
BM25 abstracts of the corpus that are not relevant).

Recipe, after a first recipe (binary cross-entropy over whole truncated abstracts, one learning rate
of 4e-5 for everything, one epoch) collapsed to the class prior:
- the model is a Hugging Face sequence-classification MiniLM (its pretrained pooler over [CLS] and a
  fresh one-logit head), so the folder written loads in `tools.retrieval.rerank.Reranker`;
- the fresh head learns at `--head-lr` (1e-3), the pretrained encoder at `--lr` (3e-5);
- the loss is listwise (softmax cross-entropy: the source passage against the claim's hard
  negatives, what "is the best paper the one that states the claim" asks) plus a class-balanced
  binary cross-entropy (`pos_weight` = negatives per positive) that keeps the score comparable across
  claims, which an abstention threshold needs;
- several epochs within `--max-seconds` of wall time; the held-out pair accuracy after every epoch.

Prints RESULT lines: training groups, seconds, and the held-out pair accuracy (a tenth of the train
claims, grouped by shared abstract, so no abstract is on both sides) beside BM25's on the same pairs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import AutoModel, AutoModelForSequenceClassification, AutoTokenizer

from evals.paths import DATA
from evals.retrieval.beir import BeirSet, load_beir
from tools.embeddings.sentence import resolve_model_path
from tools.retrieval.bm25 import build_index
from tools.retrieval.normalize import get_segmenter

from .reranker_pairs import SEED, Group, build_groups, held_out_claims, pair_accuracy, passage_of

DEFAULT_DATASET = DATA / "scifact"


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Recipe:
    epochs: int = 4
    groups_per_batch: int = 2
    max_length: int = 160
    lr: float = 3e-5  # pretrained encoder
    head_lr: float = 1e-3  # the fresh one-logit head
    bce_weight: float = 0.5  # share of the class-balanced binary loss beside the listwise one
    warmup: float = 0.05
    max_seconds: float = float("inf")
    pooling: str = "mean"  # or "cls": the sequence-classification model the product's reranker loads


class MeanPooledCrossEncoder(torch.nn.Module):
    """MiniLM's encoder over the (claim, passage) pair, mean-pooled as MiniLM was trained, and a
    one-logit head. Its folder is `encoder/` (a Hugging Face BertModel) and `head.pt`; the
    product's reranker (sequence-classification models) refuses it rather than misreading it."""

    def __init__(self, encoder: Any) -> None:
        super().__init__()
        self.encoder = encoder
        self.head = torch.nn.Linear(encoder.config.hidden_size, 1)

    def forward(self, **enc: Any) -> Any:
        hidden = self.encoder(**enc).last_hidden_state
        mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        return _Logits(self.head((hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)))

    def save_pretrained(self, folder: Path) -> None:
        self.encoder.save_pretrained(folder / "encoder")
        torch.save(self.head.state_dict(), folder / "head.pt")


@dataclass
class _Logits:
    logits: torch.Tensor


def new_model(pooling: str = "mean") -> tuple[Any, Any]:
    """A fresh cross-encoder from MiniLM: mean-pooled, or the [CLS] sequence-classification model."""
    base = resolve_model_path("all-MiniLM-L6-v2")
    tokenizer = AutoTokenizer.from_pretrained(base)
    if pooling == "mean":
        return MeanPooledCrossEncoder(AutoModel.from_pretrained(base)), tokenizer
    return AutoModelForSequenceClassification.from_pretrained(base, num_labels=1), tokenizer


def load_model(folder: Path) -> tuple[Any, Any]:
    """A folder `main` wrote, either kind."""
    tokenizer = AutoTokenizer.from_pretrained(folder)
    if (folder / "head.pt").exists():
        model = MeanPooledCrossEncoder(AutoModel.from_pretrained(folder / "encoder"))
        model.head.load_state_dict(torch.load(folder / "head.pt"))
        return model, tokenizer
    return AutoModelForSequenceClassification.from_pretrained(folder), tokenizer


def encode(tokenizer: Any, pairs: Sequence[tuple[str, str]], max_length: int) -> Any:
    """Claim first, passage second; only the passage is truncated."""
    return tokenizer(
        [a for a, _ in pairs],
        [b for _, b in pairs],
        truncation="only_second",
        max_length=max_length,
        padding=True,
        return_tensors="pt",
    )


def group_loss(logits: torch.Tensor, sizes: Sequence[int], bce_weight: float) -> torch.Tensor:
    """Listwise cross-entropy (the first passage of each group is the positive) plus a class-balanced
    binary cross-entropy over every passage."""
    listwise = []
    binary = []
    for chunk, size in zip(torch.split(logits, list(sizes)), sizes, strict=True):
        listwise.append(torch.nn.functional.cross_entropy(chunk[None, :], torch.zeros(1, dtype=torch.long)))
        labels = torch.zeros(size)
        labels[0] = 1.0
        weight = torch.tensor(float(max(1, size - 1)))
        binary.append(torch.nn.functional.binary_cross_entropy_with_logits(chunk, labels, pos_weight=weight))
    return torch.stack(listwise).mean() + bce_weight * torch.stack(binary).mean()


def optimizer_for(model: Any, recipe: Recipe) -> torch.optim.Optimizer:
    fresh = ("classifier.", "head.")
    head = [p for n, p in model.named_parameters() if n.startswith(fresh)]
    body = [p for n, p in model.named_parameters() if not n.startswith(fresh)]
    return torch.optim.AdamW(
        [{"params": body, "lr": recipe.lr}, {"params": head, "lr": recipe.head_lr}], weight_decay=0.01
    )


def train(
    groups: Sequence[Group],
    recipe: Recipe,
    *,
    check: Sequence[Group] = (),
    model: Any = None,
    tokenizer: Any = None,
    save: Callable[[Any, Any], None] | None = None,
) -> tuple[Any, Any, list[float]]:
    """Train on `groups`; returns the model, its tokenizer and the held-out accuracy after each epoch
    (`save` is called after every epoch, so a stopped run keeps its last one)."""
    if model is None:
        model, tokenizer = new_model(recipe.pooling)
    optimizer = optimizer_for(model, recipe)
    per_epoch = (len(groups) + recipe.groups_per_batch - 1) // recipe.groups_per_batch
    steps = recipe.epochs * per_epoch
    warmup = max(1, int(steps * recipe.warmup))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (steps - s) / max(1, steps - warmup)))
    )
    order = list(range(len(groups)))
    rng = random.Random(SEED)
    started = time.perf_counter()
    accuracies: list[float] = []
    step = 0
    for epoch in range(recipe.epochs):
        model.train()
        rng.shuffle(order)
        losses: list[float] = []
        for start in range(0, len(order), recipe.groups_per_batch):
            batch = [groups[i] for i in order[start : start + recipe.groups_per_batch]]
            enc = encode(tokenizer, [(g.claim, p) for g in batch for p in g.passages], recipe.max_length)
            loss = group_loss(
                model(**enc).logits.squeeze(-1), [len(g.passages) for g in batch], recipe.bce_weight
            )
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            losses.append(loss.item())
            step += 1
            if step % 50 == 0:
                say(
                    f"  epoch {epoch + 1} step {step}/{steps} loss {np.mean(losses[-50:]):.3f} "
                    f"({time.perf_counter() - started:.0f} s)"
                )
            if time.perf_counter() - started > recipe.max_seconds:
                break
        if check:
            accuracies.append(pair_accuracy(check, score_groups(model, tokenizer, check, recipe.max_length)))
            say(f"  epoch {epoch + 1}: held-out pair accuracy {accuracies[-1]:.4f}")
        if save is not None:
            save(model, tokenizer)
        if time.perf_counter() - started > recipe.max_seconds:
            say(f"  stopped after {time.perf_counter() - started:.0f} s (budget {recipe.max_seconds:.0f} s)")
            break
    return model, tokenizer, accuracies


def score_pairs(model: Any, tokenizer: Any, pairs: Sequence[tuple[str, str]], max_length: int) -> list[float]:
    """Raw logits, 32 pairs at a time, batched by length (less padding), in the order given."""
    model.eval()
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
    out = [0.0] * len(pairs)
    with torch.inference_mode():
        for start in range(0, len(order), 32):
            batch = order[start : start + 32]
            logits = model(**encode(tokenizer, [pairs[i] for i in batch], max_length)).logits
            for i, value in zip(batch, logits.reshape(-1).tolist(), strict=True):
                out[i] = value
    return out


def score_groups(model: Any, tokenizer: Any, groups: Sequence[Group], max_length: int) -> list[list[float]]:
    flat = score_pairs(model, tokenizer, [(g.claim, p) for g in groups for p in g.passages], max_length)
    out: list[list[float]] = []
    for group in groups:
        out.append(flat[: len(group.passages)])
        flat = flat[len(group.passages) :]
    return out


def bm25_scores(data: BeirSet, groups: Sequence[Group]) -> list[list[float]]:
    """BM25 (product tokenizer, whole abstracts over the corpus) for the same (claim, abstract) pairs."""
    segmenter = get_segmenter()
    docs = list(data.corpus)
    position = {d: i for i, d in enumerate(docs)}
    index = build_index([segmenter.index_tokens(passage_of(data.corpus[d])) for d in docs])
    out = []
    for group in groups:
        found = dict(index.search(segmenter.index_tokens(group.claim), len(docs)))
        out.append([found.get(position[d], 0.0) for d in group.docs])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.answers.train_reranker", description=__doc__.split("\n")[0]
    )
    defaults = Recipe()
    parser.add_argument("--out", required=True, help="folder for the trained model (outside the repository)")
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET))
    parser.add_argument("--negatives", type=int, default=7, help="hard negatives per claim")
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--groups-per-batch", type=int, default=defaults.groups_per_batch)
    parser.add_argument("--max-length", type=int, default=defaults.max_length)
    parser.add_argument("--lr", type=float, default=defaults.lr, help="encoder learning rate")
    parser.add_argument("--head-lr", type=float, default=defaults.head_lr, help="fresh head learning rate")
    parser.add_argument("--bce-weight", type=float, default=defaults.bce_weight)
    parser.add_argument(
        "--max-seconds", type=float, default=defaults.max_seconds, help="training wall budget"
    )
    parser.add_argument("--pooling", choices=("mean", "cls"), default=defaults.pooling)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (the machine is shared)")
    parser.add_argument(
        "--check", type=float, default=0.1, help="share of train claims held out for the check"
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    root = Path(args.dataset)
    data = load_beir(root, split="train")
    groups = build_groups(data, root, args.negatives)
    held = held_out_claims(data, args.check)
    fit_groups = [g for g in groups if g.qid not in held]
    check_groups = [g for g in groups if g.qid in held]
    test = load_beir(root, split="test")
    seen = {d for qid in data.qrels for d in data.qrels[qid]}
    shared = sum(1 for docs in test.qrels.values() if set(docs) & seen)
    say(
        f"{len(fit_groups)} training groups from {len(data.queries) - len(held)} train claims; "
        f"{len(check_groups)} held-out groups; {shared} of {len(test.qrels)} test claims have a source "
        "abstract that is relevant to some train claim"
    )
    recipe = Recipe(
        epochs=args.epochs,
        groups_per_batch=args.groups_per_batch,
        max_length=args.max_length,
        lr=args.lr,
        head_lr=args.head_lr,
        bce_weight=args.bce_weight,
        max_seconds=args.max_seconds,
        pooling=args.pooling,
    )
    out = Path(args.out).expanduser()

    def save(model: Any, tokenizer: Any) -> None:
        out.mkdir(parents=True, exist_ok=True)
        model.save_pretrained(out)
        tokenizer.model_max_length = args.max_length  # read by rerank.folder_max_length
        tokenizer.save_pretrained(out)

    started = time.perf_counter()
    model, tokenizer, accuracies = train(fit_groups, recipe, check=check_groups, save=save)
    seconds = time.perf_counter() - started
    save(model, tokenizer)
    bm25 = pair_accuracy(check_groups, bm25_scores(data, check_groups))
    accuracy = accuracies[-1] if accuracies else 0.0
    summary = vars(args) | {
        "groups": len(fit_groups),
        "seconds": round(seconds, 1),
        "held_out_pair_accuracy_per_epoch": [round(a, 4) for a in accuracies],
        "held_out_pair_accuracy_bm25": round(bm25, 4),
    }
    (out / "scholarmap_training.json").write_text(json.dumps(summary, indent=2))
    print(f"RESULT reranker_training_groups {len(fit_groups)}", flush=True)
    print(f"RESULT reranker_training_seconds {seconds:.1f}", flush=True)
    print(f"RESULT reranker_held_out_pair_accuracy {accuracy:.4f}", flush=True)
    print(f"RESULT bm25_held_out_pair_accuracy {bm25:.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
