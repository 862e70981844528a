"""Quality and BM25 speed on a BEIR-layout set, measured through the real engine and PostgreSQL.

The corpus is ingested as one Run (document = paper: title + text as its abstract), so every
figure comes from the code the product runs: chunking, tokeniser, pgvector search, fusion,
rerank. A document's rank is the rank of its best section.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agent.models import AggregatedPaper, Paper
from tools.retrieval.bm25 import build_index
from tools.retrieval.engine import RetrievalEngine
from tools.retrieval.normalize import Normalizer, get_segmenter
from tools.retrieval.sections import build_sections

from .beir import BeirSet
from .metrics import mean, ndcg_at_k, recall_at_k


@dataclass(frozen=True)
class Method:
    name: str
    legs: tuple[str, ...]
    fusion: str = "weighted"
    rerank: bool = False


METHODS: dict[str, Method] = {
    "bm25": Method("bm25", ("bm25",)),
    "dense": Method("dense", ("dense",)),
    "fused": Method("fused", ("bm25", "dense")),
    "rrf": Method("rrf", ("bm25", "dense"), fusion="rrf"),
    "fused_rerank": Method("fused_rerank", ("bm25", "dense"), rerank=True),
}


@dataclass
class Scores:
    ndcg10: float
    recall100: float
    seconds: float
    per_query: dict[str, float] = field(default_factory=dict)  # nDCG@10 by query id


def papers_of(data: BeirSet) -> list[AggregatedPaper]:
    return [
        AggregatedPaper(key=doc_id, paper=Paper(title=doc["title"], abstract=doc["text"] or None))
        for doc_id, doc in data.corpus.items()
    ]


def doc_ranking(paper_keys: Sequence[str]) -> list[str]:
    """Documents in the order of their best section."""
    return list(dict.fromkeys(paper_keys))


async def evaluate(
    engine: RetrievalEngine,
    run_id: str,
    data: BeirSet,
    method: Method,
    *,
    depth: int = 300,
    rerank_timeout: float = 120.0,
    progress: Callable[[str], None] | None = None,
) -> Scores:
    ndcgs: dict[str, float] = {}
    recalls: list[float] = []
    started = time.perf_counter()
    for i, (qid, text) in enumerate(data.queries.items()):
        result = await engine.search(
            run_id,
            text,
            top_k=depth,
            rerank=method.rerank,
            rerank_timeout=rerank_timeout,
            legs=method.legs,
            fusion=method.fusion,  # type: ignore[arg-type]
            candidates=depth,
        )
        ranked = doc_ranking([h.paper_key for h in result.hits])
        ndcgs[qid] = ndcg_at_k(ranked, data.qrels[qid], 10)
        recalls.append(recall_at_k(ranked, data.qrels[qid], 100))
        if progress and (i + 1) % 100 == 0:
            progress(f"{method.name}: {i + 1}/{len(data.queries)} queries")
    return Scores(mean(list(ndcgs.values())), mean(recalls), time.perf_counter() - started, ndcgs)


@dataclass
class Bm25Speed:
    backend: str
    qps: float
    build_seconds: float
    ndcg10: float
    recall100: float


def bm25_speed(
    data: BeirSet, backends: Sequence[str] = ("bm25s", "rank_bm25"), *, k: int = 300
) -> list[Bm25Speed]:
    """The BM25 leg alone on the same tokens with each backend: queries per second (one query at a
    time, as the engine searches) and the quality each gives."""
    segmenter = get_segmenter()
    ids: list[str] = []
    tokens: list[list[str]] = []
    for paper in papers_of(data):
        # the engine's BM25 documents: each searchable section whole, the paper title in front
        records = build_sections(paper)
        title = [segmenter.index_tokens(r.text) for r in records if r.kind == "title"]
        sections: dict[str, list[str]] = {}
        for record in records:
            if record.searchable:
                if record.section not in sections:
                    sections[record.section] = list(title[0]) if title and record.kind != "title" else []
                sections[record.section] += segmenter.index_tokens(record.text)
        for section_tokens in sections.values():
            ids.append(paper.key)
            tokens.append(section_tokens)
    normalizer = Normalizer.for_plan(None)
    queries = {qid: normalizer.normalize(text).bm25_tokens for qid, text in data.queries.items()}
    out: list[Bm25Speed] = []
    for backend in backends:
        t = time.perf_counter()
        index = build_index(tokens, backend)
        build = time.perf_counter() - t
        rankings: dict[str, list[str]] = {}
        t = time.perf_counter()
        for qid, q in queries.items():
            rankings[qid] = [ids[i] for i, _ in index.search(q, k)]
        elapsed = time.perf_counter() - t
        ranked = {qid: doc_ranking(r) for qid, r in rankings.items()}
        out.append(
            Bm25Speed(
                backend,
                len(queries) / elapsed if elapsed > 0 else float("inf"),
                build,
                mean([ndcg_at_k(ranked[q], data.qrels[q], 10) for q in queries]),
                mean([recall_at_k(ranked[q], data.qrels[q], 100) for q in queries]),
            )
        )
    return out
