"""`python -m evals.strategy.headings`: every heading the generator would write, its features and its label.

A calibrated decision of which recognised headings a query writes as `"X"[Mesh]` (the features of
`evals.strategy.heading_features`) is fitted and compared here, on the training splits only
(`clef_train` and the `librarian` topics). It was tried for issue 16 and not shipped: fitted on the
training topics it raised their cross-validated precision by about 0.01, and on titles it had not seen
it moved nothing (README). The commands stay so that new evidence can be tested the same way:

- `--dump FILE`: one JSON line per candidate heading (before the decision) of every required block:
  split, topic, heading, the features of `heading_features`, and the labels `expert` (the expert or
  librarian searched this descriptor) and `expert_explode` (... this descriptor or one above or below
  it in a tree); `--splits` chooses the splits (default: the training ones).
- `--table`: the share of headings with each feature value that the experts used (which kinds of
  headings they do not search), on the dumped rows.
- `--compare`: the cross-validated precision and recall (mean over `SEEDS` fold assignments) of the
  model over `FEATURES`, and of the model with each candidate of `heading_evidence.CANDIDATES` added:
  evidence worth a decision raises precision at the same recall.
- `--fit`: an L2 logistic model over `FEATURES`, cross-validated by topic (`FOLDS` folds); the
  threshold is the one whose cross-validated topic-mean precision is highest while topic-mean recall
  falls by at most `MAX_RECALL_LOSS`; its cross-validated figures printed, the model written to
  `--model FILE` when given.

Topic-level figures are simulated from the rows as `python -m evals.strategy` computes them: a
descriptor is written when any of its candidates is kept; precision = expert descriptors written /
descriptors written, recall = expert descriptors written / expert descriptors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import mean
from typing import Any

from evals.strategy.heading_evidence import CANDIDATES, HeadingEvidence
from evals.strategy.heading_features import block_headings, heading_features
from evals.strategy.metrics import expert_blocks, mesh_headings
from evals.strategy.pubmed_syntax import parse
from evals.strategy.runner import DEFAULT_MESH, _select
from evals.strategy.topics import BOOLEAN_QUERIES, Topic, load_topics
from evals.strategy.vocabulary import MeshVocabulary
from tools.logistic import LogisticModel, fitted

TRAINING = ("clef_train", "librarian")
FOLDS = 5
MAX_RECALL_LOSS = 0.01  # the recall a threshold may cost, topic mean, cross-validated
SEEDS = (16, 1, 2, 3, 4, 5, 6, 7)  # fold assignments a comparison averages over (one is noise)
# offered to the model: every candidate feature of `heading_features` except the block size, which
# only restates `alone`
FEATURES: tuple[str, ...] = (
    "tree_A",
    "tree_B",
    "tree_C",
    "tree_D",
    "tree_E",
    "tree_F03",
    "tree_F",
    "tree_G",
    "tree_H",
    "tree_I",
    "tree_J",
    "tree_K",
    "tree_L",
    "tree_M01",
    "tree_N",
    "tree_Z",
    "role_condition",
    "role_intervention",
    "role_method",
    "role_population",
    "role_outcome",
    "role_setting",
    "via_heading",
    "via_entry",
    "via_acronym",
    "via_other",
    "via_noexp",
    "depth",
    "branches",
    "words",
    "heading_words",
    "longer_phrase",
    "alone",
    "parent_of_another",
    "child_of_another",
    "unwritten",
)


async def _plan(title: str) -> Any:
    from agent.keywords.plan import plan_search
    from agent.llm import RulesLLM
    from evals.strategy.generate import _product_sources

    return (await plan_search(title, RulesLLM(), _product_sources())).keywords


def topic_rows(
    topic: Topic, plan: Any, vocabulary: MeshVocabulary, evidence: HeadingEvidence | None = None
) -> list[dict[str, Any]]:
    """The candidate headings of a topic's plan with their features (and the candidate evidence of
    `heading_evidence`, which the model does not use) and labels."""
    evidence = evidence or HeadingEvidence(vocabulary)
    expert = parse(topic.expert_query)
    _, filters = expert_blocks(expert)
    used = mesh_headings(expert, vocabulary, leave_out=filters).resolved
    rows = []
    for concept in plan.concepts:
        terms = plan.terms_of(concept.id)
        if not (concept.enabled and concept.required and terms):
            continue
        block = block_headings(terms, concept.role)
        for heading in block:
            ui = vocabulary.resolve(heading.descriptor.heading) or "?" + heading.descriptor.heading
            rows.append(
                {
                    "split": topic.split,
                    "topic": topic.id,
                    "expert_headings": len(used),
                    "heading": heading.descriptor.heading,
                    "ui": ui,
                    "noexp": heading.noexp,
                    "term": heading.term.canonical,
                    "concept": concept.id,
                    "features": heading_features(heading, concept, block) | evidence.of(heading, topic.title),
                    "expert": ui in used,
                    "expert_explode": any(vocabulary.related(ui, e) for e in used),
                }
            )
    return rows


def dump(
    splits: Sequence[str], mesh: Path, data: Path = BOOLEAN_QUERIES, limit: int = 0
) -> list[dict[str, Any]]:
    """The rows of every topic of `splits` (the first `limit` of each when `limit` > 0)."""
    vocabulary = MeshVocabulary.load(mesh)
    evidence = HeadingEvidence(vocabulary)
    rows: list[dict[str, Any]] = []
    for topic in _select(load_topics(data), tuple(splits), limit):
        rows += topic_rows(topic, asyncio.run(_plan(topic.title)), vocabulary, evidence)
    return rows


def _value(name: str, value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def table(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Per feature value: headings, share the experts used (exact, exploded)."""
    counts: dict[tuple[str, str], list[tuple[bool, bool]]] = defaultdict(list)
    for row in rows:
        for name, value in row["features"].items():
            counts[(name, _value(name, value))].append((row["expert"], row["expert_explode"]))
    lines = [f"{'feature':<22}{'value':>6}{'headings':>10}{'used':>8}{'explode':>9}"]
    for (name, value), labels in sorted(counts.items()):
        if name.startswith(("tree_", "role_", "via_")) and value == "0":
            continue
        used = mean(a for a, _ in labels)
        related = mean(b for _, b in labels)
        lines.append(f"{name:<22}{value:>6}{len(labels):>10}{used:>8.3f}{related:>9.3f}")
    everything = [r["expert"] for r in rows]
    lines.append(f"{'all':<28}{len(everything):>10}{mean(everything) if everything else 0:>8.3f}")
    return lines


def simulate(rows: Sequence[dict[str, Any]], keep: Callable[[dict[str, Any]], bool]) -> tuple[float, float]:
    """Topic-mean (precision, recall) of the headings `keep` writes (precision over topics writing one)."""
    topics: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        topics[(row["split"], row["topic"])].append(row)
    precisions, recalls = [], []
    for members in topics.values():
        written = {r["ui"] for r in members if keep(r)}
        used = {r["ui"] for r in members if r["expert"]}
        hits = len(written & used)
        if members[0]["expert_headings"]:
            recalls.append(hits / members[0]["expert_headings"])
            if written:
                precisions.append(hits / len(written))
    return (mean(precisions) if precisions else 0.0), (mean(recalls) if recalls else 0.0)


def _model(rows: Sequence[dict[str, Any]], l2: float, features: Sequence[str] | None = None) -> LogisticModel:
    names = features if features is not None else FEATURES
    return fitted([r["features"] for r in rows], [int(r["expert"]) for r in rows], features=names, l2=l2)


def cross_validated(
    rows: Sequence[dict[str, Any]], l2: float, seed: int = 16, features: Sequence[str] | None = None
) -> list[float]:
    """Each row's probability from a model (over `features`, default `FEATURES`) fitted on the other
    folds' topics."""
    topics = sorted({(r["split"], r["topic"]) for r in rows})
    random.Random(seed).shuffle(topics)
    fold = {topic: index % FOLDS for index, topic in enumerate(topics)}
    scores = [0.0] * len(rows)
    for k in range(FOLDS):
        model = _model([r for r in rows if fold[(r["split"], r["topic"])] != k], l2, features)
        for i, row in enumerate(rows):
            if fold[(row["split"], row["topic"])] == k:
                scores[i] = model.probability(row["features"])
    return scores


def choose_threshold(
    rows: Sequence[dict[str, Any]], scores: Sequence[float]
) -> tuple[float, dict[str, float]]:
    """The threshold with the best cross-validated precision among those costing at most
    `MAX_RECALL_LOSS` recall (0.0: write every heading, the figures before the decision)."""
    score_of = {id(r): s for r, s in zip(rows, scores, strict=True)}
    base_p, base_r = simulate(rows, lambda r: True)
    best = (base_p, 0.0, base_r)
    for step in range(1, 60):
        threshold = step / 100

        def keep(row: dict[str, Any], at: float = threshold) -> bool:
            return score_of[id(row)] >= at

        p, r = simulate(rows, keep)
        if r >= base_r - MAX_RECALL_LOSS and p > best[0] + 1e-9:
            best = (p, threshold, r)
    precision, threshold, recall = best
    return threshold, {
        "precision_before": round(base_p, 4),
        "recall_before": round(base_r, 4),
        "cv_precision": round(precision, 4),
        "cv_recall": round(recall, 4),
    }


def compare(
    rows: Sequence[dict[str, Any]], candidates: Sequence[str] = CANDIDATES, l2: float = 1.0
) -> list[str]:
    """Cross-validated precision and recall at the chosen threshold, mean over `SEEDS`: the model over
    `FEATURES`, then with each candidate added."""
    lines = [f"{'features':<26}{'cv_precision':>14}{'cv_recall':>11}"]
    for extra in ["", *candidates]:
        features = [*FEATURES, extra] if extra else list(FEATURES)
        figures = [choose_threshold(rows, cross_validated(rows, l2, seed, features))[1] for seed in SEEDS]
        precision = mean(f["cv_precision"] for f in figures)
        recall = mean(f["cv_recall"] for f in figures)
        lines.append(f"{'+ ' + extra if extra else 'FEATURES':<26}{precision:>14.4f}{recall:>11.4f}")
    return lines


def fit(rows: Sequence[dict[str, Any]], l2: float = 1.0) -> LogisticModel:
    threshold, figures = choose_threshold(rows, cross_validated(rows, l2))
    splits = sorted({r["split"] for r in rows})
    return _model(rows, l2).model_copy(
        update={
            "threshold": threshold,
            "fitted_on": (
                f"{len(rows)} candidate headings of {'+'.join(splits)}, labels: the expert/librarian "
                f"used the descriptor; L2 logistic regression (Newton, l2={l2}) on standardised "
                f"features; threshold = best {FOLDS}-fold topic-grouped cross-validated topic-mean "
                f"precision with recall loss <= {MAX_RECALL_LOSS}; python -m evals.strategy.headings --fit"
            ),
            "train_metrics": figures,
        }
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.strategy.headings", description=__doc__)
    parser.add_argument("--splits", default=",".join(TRAINING), help="comma-separated (default: %(default)s)")
    parser.add_argument("--mesh", type=Path, default=DEFAULT_MESH)
    parser.add_argument("--dump", type=Path, metavar="FILE", help="write the rows as JSON lines")
    parser.add_argument("--rows", type=Path, metavar="FILE", help="read rows dumped before instead")
    parser.add_argument("--limit", type=int, default=0, metavar="N", help="only the first N topics per split")
    parser.add_argument("--table", action="store_true", help="print the precision of each feature value")
    logging.getLogger("agent.llm").setLevel(logging.ERROR)  # "rules fallback" once per topic is noise
    parser.add_argument("--compare", action="store_true", help="CV figures with each candidate added")
    parser.add_argument("--fit", action="store_true", help="fit the model, print its CV figures")
    parser.add_argument("--model", type=Path, metavar="FILE", help="with --fit: write the model here")
    args = parser.parse_args(argv)
    splits = [s for s in args.splits.split(",") if s]
    if (args.fit or args.compare) and not set(splits) <= set(TRAINING):
        print(f"error: the model is fitted on {', '.join(TRAINING)} only", file=sys.stderr)
        return 2
    if args.rows:
        lines = args.rows.read_text(encoding="utf-8").splitlines()
        rows = [json.loads(line) for line in lines if line.strip()]
    else:
        rows = dump(splits, args.mesh, limit=args.limit)
    if args.dump:
        args.dump.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
        print(f"{len(rows)} candidate headings written to {args.dump}")
    if args.table:
        print("\n".join(table(rows)))
    if args.compare:
        print("\n".join(compare(rows)))
    if args.fit:
        model = fit(rows)
        print(f"threshold {model.threshold}, {model.train_metrics}")
        if args.model:
            args.model.write_text(model.model_dump_json(indent=2) + "\n", encoding="utf-8")
            print(f"model written to {args.model}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
