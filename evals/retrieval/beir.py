"""Reading a dataset in BEIR layout: corpus.jsonl, queries.jsonl, qrels/<split>.tsv."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path


@dataclass
class BeirSet:
    name: str
    corpus: dict[str, dict[str, str]]  # doc id → {"title", "text"}
    queries: dict[str, str]  # query id → text (only the judged ones of the split)
    qrels: dict[str, dict[str, int]]  # query id → doc id → grade
    split: str


def default_split(root: Path) -> str:
    for split in ("test", "dev"):
        if (root / "qrels" / f"{split}.tsv").exists():
            return split
    raise FileNotFoundError(f"{root}/qrels has neither test.tsv nor dev.tsv")


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8") as fh:
        reader = csv.reader(fh, delimiter="\t")
        for row in reader:
            if not row or row[0] == "query-id":
                continue
            qid, doc, grade = row[0], row[1], int(float(row[2])) if len(row) > 2 else 1
            qrels.setdefault(qid, {})[doc] = grade
    return qrels


def load_beir(
    root: Path,
    *,
    split: str | None = None,
    limit_queries: int | None = None,
    limit_docs: int | None = None,
) -> BeirSet:
    """Load a BEIR folder. `limit_queries` keeps the first N judged queries; `limit_docs` keeps the
    documents judged for them plus the first N others (a quick slice that still has distractors)."""
    root = Path(root)
    split = split or default_split(root)
    qrels = read_qrels(root / "qrels" / f"{split}.tsv")
    queries: dict[str, str] = {}
    with (root / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                record = json.loads(line)
                if str(record["_id"]) in qrels:
                    queries[str(record["_id"])] = record["text"]
    if limit_queries is not None:
        queries = dict(list(queries.items())[:limit_queries])
    qrels = {q: qrels[q] for q in queries}
    judged = {doc for rels in qrels.values() for doc in rels}
    corpus: dict[str, dict[str, str]] = {}
    others = 0
    with (root / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            record = json.loads(line)
            doc = str(record["_id"])
            if limit_docs is not None and doc not in judged:
                if others >= limit_docs:
                    continue
                others += 1
            corpus[doc] = {"title": record.get("title") or "", "text": record.get("text") or ""}
    return BeirSet(root.name, corpus, queries, qrels, split)
