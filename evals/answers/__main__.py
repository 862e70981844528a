"""python -m evals.answers [--dataset DIR] [--fit] [--limit N] [--skip-zh]

Answers a researcher can trust, measured on SciFact through the product's own `agent.ask.answer.ask`:

1. One Run holds the SciFact corpus minus the relevant abstracts of half of the claims (`split.py`):
   those claims are unanswerable, the others answerable.
2. Every claim of a split is asked (no language model: the extractive answer). The answer's
   answerability decision is compared with the truth (abstention = "unanswerable" is the positive
   class), and for answerable claims the answer's citations (at most 5) with the relevant abstracts.
3. `--fit` fits the answerability model on the train split (logistic regression over the evidence
   features of `agent.ask.answerability`, threshold at the best train abstention F1) and writes it to
   `agent/ask/answerability.json`; the test split is then answered with that file, as the product does.
4. 30 Chinese questions written for SciFact claims (`zh_questions.jsonl`): nDCG@10 of each Chinese
   question against its English claim, both through the product's search (with the English query
   terms of `agent.language.chinese_sentences` for the Chinese one).

RESULT lines per split: <split>_abstention_f1 / _precision / _recall, <split>_citation_accuracy
(answerable claims the answer answered: any of ≤ 5 citations relevant), <split>_citation_accuracy_all
(every answerable claim; an abstention counts as a miss), <split>_first_citation_share and, beside it,
<split>_retrieval_p_at_1 (the retrieval's top paper). Then zh_ndcg10, en_ndcg10, zh_en_ndcg_ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import importlib.util
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.ask.answer import AskCitation, AskStart, ask
from agent.ask.answerability import (
    FEATURES,
    MODEL_PATH,
    ModelFile,
    decide,
    load_model,
)
from agent.ask.search import search_question
from agent.llm import RulesLLM
from agent.models import AggregatedPaper, Paper
from evals.paths import DATA
from evals.retrieval.__main__ import DEFAULT_CACHE, open_database
from evals.retrieval.beir import BeirSet, load_beir
from evals.retrieval.embedcache import CachingEmbedder
from evals.retrieval.metrics import mean, ndcg_at_k
from tools.embeddings.sentence import get_embedder
from tools.logistic import fitted
from tools.retrieval.engine import RetrievalEngine

from .split import assign

DEFAULT_DATASET = DATA / "scifact"
ZH_QUESTIONS = Path(__file__).with_name("zh_questions.jsonl")
TOP_K = 8  # as `scholarmap ask`
MAX_CITATIONS = 5
# an always-answerable model: the run that collects features and citations for every claim
ALWAYS = ModelFile(
    features=list(FEATURES),
    mean=[0.0] * len(FEATURES),
    scale=[1.0] * len(FEATURES),
    coef=[0.0] * len(FEATURES),
    intercept=0.0,
    threshold=0.0,
    embed_model="",
)


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def result(name: str, value: float) -> None:
    print(f"RESULT {name} {value:.4f}", flush=True)


@dataclass
class Asked:
    qid: str
    answerable_truth: bool
    answerable: bool
    features: dict[str, float]
    cited: list[str]  # paper keys, in citation order
    top_paper: str | None
    relevant: set[str] = field(default_factory=set)


async def ask_claim(
    engine: Any, run_id: str, qid: str, claim: str, model: ModelFile | None
) -> tuple[bool, dict[str, float], list[str], str | None]:
    answerable = False
    features: dict[str, float] = {}
    cited: list[str] = []
    top: str | None = None
    async for chunk in ask(
        run_id, claim, engine=engine, llm=RulesLLM(), top_k=TOP_K, rerank=False, answerability_model=model
    ):
        if isinstance(chunk, AskStart):
            answerable = bool(chunk.answerable)
            features = dict(chunk.answerability.features) if chunk.answerability else {}
        elif isinstance(chunk, AskCitation):
            cited.append(chunk.paper_key)
    result_ = await engine.search(run_id, claim, top_k=1, rerank=False)
    top = result_.hits[0].paper_key if result_.hits else None
    return answerable, features, cited, top


async def ask_split(
    engine: Any,
    run_id: str,
    data: BeirSet,
    unanswerable: set[str],
    model: ModelFile | None,
) -> list[Asked]:
    out: list[Asked] = []
    for i, (qid, claim) in enumerate(data.queries.items()):
        answerable, features, cited, top = await ask_claim(engine, run_id, qid, claim, model)
        out.append(
            Asked(qid, qid not in unanswerable, answerable, features, cited, top, set(data.qrels[qid]))
        )
        if (i + 1) % 100 == 0:
            say(f"  {data.split}: {i + 1}/{len(data.queries)} claims")
    return out


@dataclass
class Figures:
    precision: float
    recall: float
    f1: float
    citation_accuracy: float
    citation_accuracy_all: float
    first_citation_share: float
    retrieval_p_at_1: float


def score(asked: Sequence[Asked], decisions: Sequence[bool]) -> Figures:
    """Abstention (positive = abstained on an unanswerable claim) and citation figures."""
    abstained = [not d for d in decisions]
    truth_unanswerable = [not a.answerable_truth for a in asked]
    tp = sum(1 for x, y in zip(abstained, truth_unanswerable, strict=True) if x and y)
    predicted = sum(abstained)
    actual = sum(truth_unanswerable)
    precision = tp / predicted if predicted else 0.0
    recall = tp / actual if actual else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    answered = [a for a, d in zip(asked, decisions, strict=True) if a.answerable_truth and d]
    answerable = [a for a in asked if a.answerable_truth]

    def cites_relevant(a: Asked) -> bool:
        return bool(a.relevant & set(a.cited[:MAX_CITATIONS]))

    return Figures(
        precision,
        recall,
        f1,
        mean([1.0 if cites_relevant(a) else 0.0 for a in answered]),
        sum(1 for a in answered if cites_relevant(a)) / len(answerable) if answerable else 0.0,
        mean([1.0 if a.cited and a.cited[0] in a.relevant else 0.0 for a in answered]),
        mean([1.0 if a.top_paper in a.relevant else 0.0 for a in answered]),
    )


def report(split: str, figures: Figures) -> None:
    result(f"{split}_abstention_f1", figures.f1)
    result(f"{split}_abstention_precision", figures.precision)
    result(f"{split}_abstention_recall", figures.recall)
    result(f"{split}_citation_accuracy", figures.citation_accuracy)
    result(f"{split}_citation_accuracy_all", figures.citation_accuracy_all)
    result(f"{split}_first_citation_share", figures.first_citation_share)
    result(f"{split}_retrieval_p_at_1", figures.retrieval_p_at_1)


def fit(asked: Sequence[Asked], embed_model: str, data_note: str) -> ModelFile:
    """The logistic model on the train claims, its threshold at the best train abstention F1."""
    rows = [a.features for a in asked]
    labels = [1 if a.answerable_truth else 0 for a in asked]
    model = ModelFile(**fitted(rows, labels, features=FEATURES).model_dump(), embed_model=embed_model)
    best = (-1.0, 0.5)
    for step in range(5, 96):
        threshold = step / 100
        candidate = model.model_copy(update={"threshold": threshold})
        f1 = score(asked, [decide(a.features, candidate).answerable for a in asked]).f1
        if f1 > best[0] + 1e-9:
            best = (f1, threshold)
    model = model.model_copy(update={"threshold": best[1]})
    figures = score(asked, [decide(a.features, model).answerable for a in asked])
    return model.model_copy(
        update={
            "fitted_on": data_note,
            "train_metrics": {
                "abstention_f1": round(figures.f1, 4),
                "abstention_precision": round(figures.precision, 4),
                "abstention_recall": round(figures.recall, 4),
                "citation_accuracy": round(figures.citation_accuracy, 4),
            },
        }
    )


async def chinese_ndcg(
    engine: Any, run_id: str, data: BeirSet, queries: dict[str, str]
) -> tuple[float, float, int]:
    """Mean nDCG@10 of the Chinese questions and of their English claims, same search path."""
    if importlib.util.find_spec("agent.language.chinese_sentences") is None:
        say("zh: agent.language.chinese_sentences is not installed; Chinese questions skipped")
        return 0.0, 0.0, 0
    items = [
        json.loads(line) for line in ZH_QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    zh_scores: list[float] = []
    en_scores: list[float] = []
    for item in items:
        qid = str(item["claim_id"])
        relevant = data.qrels[qid]
        for text, scores in ((item["question"], zh_scores), (queries[qid], en_scores)):
            found = await search_question(engine, run_id, text, llm=RulesLLM(), top_k=10, rerank=False)
            ranked = list(dict.fromkeys(h.paper_key for h in found.hits))
            scores.append(ndcg_at_k(ranked, relevant, 10))
    return mean(zh_scores), mean(en_scores), len(items)


def write_model(path: Path, model: ModelFile) -> None:
    path.write_text(model.model_dump_json(indent=2) + "\n", encoding="utf-8")


def dump(path: Path, splits: dict[str, list[Asked]]) -> None:
    """Each claim's features, truth and citations, for fitting experiments outside this program."""
    with path.open("w", encoding="utf-8") as fh:
        for name, asked in splits.items():
            for a in asked:
                row = {"split": name, "qid": a.qid, "truth": a.answerable_truth, "features": a.features}
                row |= {"cited": a.cited, "top": a.top_paper, "relevant": sorted(a.relevant)}
                fh.write(json.dumps(row) + "\n")


async def main_async(args: argparse.Namespace) -> int:
    root = Path(args.dataset)
    model_path = Path(args.model)
    train = load_beir(root, split="train", limit_queries=args.limit)
    test = load_beir(root, split="test", limit_queries=args.limit)
    full = load_beir(root, split="test")  # the whole corpus
    everything = {**load_beir(root, split="train").qrels, **full.qrels}
    split = assign(everything)
    corpus = {doc: body for doc, body in full.corpus.items() if doc not in split.removed_docs}
    say(
        f"SciFact: {len(full.corpus)} abstracts, {len(split.removed_docs)} removed "
        f"(relevant to {len(split.unanswerable)} of {len(everything)} claims)"
    )
    embedder = CachingEmbedder(get_embedder(args.embed_model), Path(args.cache_dir))
    async with open_database(args.database_url) as db:
        engine = RetrievalEngine(db.pool, embedder)
        digest = hashlib.sha1("\x00".join(sorted(corpus)).encode()).hexdigest()[:10]
        run_id = f"eval-answers-{digest}"
        papers = [
            AggregatedPaper(key=doc, paper=Paper(title=body["title"], abstract=body["text"] or None))
            for doc, body in corpus.items()
        ]
        report_ = await engine.ingest(run_id, papers)
        embedder.flush()
        say(f"indexed {report_.sections} sections ({report_.embedded} embedded now)")

        say("train: asking every claim")
        train_asked = await ask_split(engine, run_id, train, split.unanswerable, ALWAYS)
        if args.fit:
            note = (
                f"SciFact train split ({len(train_asked)} claims; relevant abstracts removed for "
                f"{sum(1 for a in train_asked if not a.answerable_truth)}), L2 logistic regression "
                "(Newton, l2=1) on standardised features; threshold = best train abstention F1; "
                f"top_k={TOP_K}, no rerank; python -m evals.answers --fit"
            )
            fitted = fit(train_asked, embedder.name, note)
            write_model(model_path, fitted)
            load_model.cache_clear()
            coefficients = dict(zip(FEATURES, fitted.coef, strict=True))
            say(f"wrote {model_path}: threshold {fitted.threshold}, coefficients {coefficients}")
        model = load_model(model_path)
        if model is None:
            say("no fitted model (run with --fit); the fallback rule decides")
        report("train", score(train_asked, [decide(a.features, model).answerable for a in train_asked]))

        say("test: asking every claim with the stored model")
        test_asked = await ask_split(engine, run_id, test, split.unanswerable, model)
        report("test", score(test_asked, [a.answerable for a in test_asked]))
        if args.dump:
            dump(Path(args.dump), {"train": train_asked, "test": test_asked})

        if not args.skip_zh:
            zh, en, n = await chinese_ndcg(engine, run_id, full, full.queries)
            if n:
                say(f"zh: {n} Chinese questions")
                result("zh_ndcg10", zh)
                result("en_ndcg10", en)
                result("zh_en_ndcg_ratio", zh / en if en else 0.0)
        embedder.flush()
        if not args.keep:
            await engine.delete_run(run_id)
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evals.answers", description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", default=str(DEFAULT_DATASET), help="SciFact in BEIR layout")
    parser.add_argument(
        "--fit", action="store_true", help="fit the answerability model on train and store it"
    )
    parser.add_argument(
        "--model", default=str(MODEL_PATH), help="answerability model file (read; --fit writes it)"
    )
    parser.add_argument("--limit", type=int, help="only the first N claims of each split (a quick run)")
    parser.add_argument("--skip-zh", action="store_true", help="skip the Chinese questions")
    parser.add_argument("--embed-model", default="all-MiniLM-L6-v2")
    parser.add_argument("--database-url", help="PostgreSQL with pgvector (default: embedded)")
    parser.add_argument("--cache-dir", default=str(DEFAULT_CACHE), help="document embedding cache")
    parser.add_argument("--keep", action="store_true", help="keep the evaluation Run in the database")
    parser.add_argument("--dump", help="write each claim's features, truth and citations to this JSONL file")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(main_async(parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
