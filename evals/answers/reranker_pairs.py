"""The training groups of `train_reranker`: a claim, the passage of its source that states it, and the
passages of the papers a search confuses with it.

Why windows and not whole abstracts: a cross-encoder that fits two CPU cores reads about 160 word
pieces, and a SciFact abstract is twice that; truncating it keeps the background and cuts the result
that states the claim, so a whole-abstract pair asks the model to learn from a passage that does not
contain its label. Each abstract is cut at sentence ends into windows of a few sentences behind its
title (as the engine puts the title in front of every chunk it reranks). The positive is the window
that holds the claim's first rationale sentence (SciFact's evidence annotation of the TRAIN claims,
`queries.jsonl` metadata, indexed into the original sentence lists of `original/scifact_hf_csv.zip`);
a relevant abstract without a rationale, and every negative abstract, offers its window that shares
most of the claim's terms (the window a max-over-windows score would pick). Negatives are the best
BM25 abstracts of the whole corpus that are not relevant: the kind of paper the Run's search puts
first when the source is missing.
"""

from __future__ import annotations

import csv
import io
import json
import random
import tokenize
import zipfile
from ast import literal_eval
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from evals.retrieval.beir import BeirSet
from tools.retrieval.bm25 import build_index
from tools.retrieval.normalize import get_segmenter
from tools.retrieval.sections import split_sentences

SEED = 13
WINDOW_WORDS = 70  # sentence words per window: title + window + claim stay inside ~160 word pieces


@dataclass
class Group:
    """One claim with one relevant passage (first) and its hard negative passages."""

    qid: str
    claim: str
    passages: list[str] = field(default_factory=list)  # passages[0] is the positive
    docs: list[str] = field(default_factory=list)  # the abstract of each passage


def windows(title: str, sentences: Sequence[str], max_words: int = WINDOW_WORDS) -> list[tuple[str, range]]:
    """Consecutive sentences joined up to `max_words` words, each behind the title: (passage, the
    indices of the sentences it holds). A sentence longer than the budget is a window of its own."""
    out: list[tuple[str, range]] = []
    start, words = 0, 0
    for i, sentence in enumerate(sentences):
        length = len(sentence.split())
        if i > start and words + length > max_words:
            out.append((_join(title, sentences[start:i]), range(start, i)))
            start, words = i, 0
        words += length
    if start < len(sentences):
        out.append((_join(title, sentences[start:]), range(start, len(sentences))))
    return out or [(title, range(0))]


def _join(title: str, sentences: Sequence[str]) -> str:
    text = " ".join(sentences)
    return f"{title}. {text}" if title else text


def abstract_sentences(root: Path, corpus: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    """Each abstract's sentences: SciFact's own lists when the original export is there (the
    rationale indices point into them), else the product's sentence splitter over the text."""
    out = {doc: split_sentences(body["text"]) for doc, body in corpus.items()}
    archive = root / "original" / "scifact_hf_csv.zip"
    if not archive.exists():
        return out
    csv.field_size_limit(1 << 30)
    with zipfile.ZipFile(archive) as zipped, zipped.open("corpus_train.csv") as fh:
        for row in csv.DictReader(io.TextIOWrapper(fh, encoding="utf-8")):
            if row["doc_id"] in out:
                out[row["doc_id"]] = string_literals(row["abstract"])
    return out


def string_literals(text: str) -> list[str]:
    """The strings of a numpy-printed list (`['a'\\n 'b']`: no commas, so not a Python literal)."""
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return [literal_eval(t.string) for t in tokens if t.type == tokenize.STRING]


def rationales(root: Path) -> dict[str, dict[str, list[int]]]:
    """claim id -> abstract id -> the indices of its rationale sentences (queries.jsonl metadata)."""
    out: dict[str, dict[str, list[int]]] = {}
    with (root / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            record = json.loads(line)
            for doc, evidence in (record.get("metadata") or {}).items():
                indices = sorted({i for item in evidence for i in item.get("sentences", [])})
                if indices:
                    out.setdefault(str(record["_id"]), {})[str(doc)] = indices
    return out


class WindowPicker:
    """Chooses the window of an abstract a claim is judged against."""

    def __init__(self, data: BeirSet, sentences: dict[str, list[str]]) -> None:
        self.segmenter = get_segmenter()
        self.windows = {doc: windows(data.corpus[doc]["title"], sentences[doc]) for doc in data.corpus}

    def best(self, claim: str, doc: str) -> str:
        """The window sharing most of the claim's terms (the first on a tie)."""
        terms = set(self.segmenter.index_tokens(claim))
        return max(
            (w for w, _ in self.windows[doc]), key=lambda w: len(terms & set(self.segmenter.index_tokens(w)))
        )

    def holding(self, doc: str, sentence: int) -> str | None:
        return next((w for w, span in self.windows[doc] if sentence in span), None)


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


def passage_of(body: dict[str, str]) -> str:
    """The engine's reranker passage for a whole abstract: "title. text"."""
    return f"{body['title']}. {body['text']}" if body.get("title") else body["text"]


def build_groups(data: BeirSet, root: Path, per_claim: int) -> list[Group]:
    """One group per (claim, relevant abstract): its positive window, then one window of each of the
    claim's hard negative abstracts."""
    picker = WindowPicker(data, abstract_sentences(root, data.corpus))
    evidence = rationales(root)
    negatives = hard_negatives(data, per_claim)
    groups: list[Group] = []
    for qid, claim in data.queries.items():
        negative_windows = [picker.best(claim, d) for d in negatives[qid]]
        for doc in data.qrels[qid]:
            if doc not in data.corpus:
                continue
            first = evidence.get(qid, {}).get(doc, [None])[0]
            positive = (picker.holding(doc, first) if first is not None else None) or picker.best(claim, doc)
            groups.append(Group(qid, claim, [positive, *negative_windows], [doc, *negatives[qid]]))
    return groups


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


def pair_accuracy(groups: Iterable[Group], scores: Sequence[Sequence[float]]) -> float:
    """Share of (positive, negative) passages of one group that the scores order the right way."""
    right = total = 0
    for group, values in zip(groups, scores, strict=True):
        assert len(values) == len(group.passages)
        right += sum(values[0] > v for v in values[1:])
        total += len(values) - 1
    return right / total if total else 0.0
