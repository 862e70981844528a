"""The hybrid retrieval engine of a Run: ingest (knowledge base) and search (steps 1–6).

ingest: papers → sections (chunks) → BM25 tokens + embeddings → PostgreSQL, plus the term graph.
search: normalise (1) → intent (2) → BM25 ‖ dense ‖ graph (3) → fusion (4) → rerank (5); then
`expand_sections` (6) grows hits to whole sections for the answer layer.

Two granularities: a chunk (`<paper>#<section>#<ordinal>`, sized for the embedding model) is what is
stored and embedded; a section (`<paper>#<section>`) is what BM25 scores and what fusion ranks. The
dense and graph legs score chunks and a section takes its best chunk's score; each hit is a section
shown by its best chunk, so hits never repeat a section.

Per Run, the in-memory part (BM25 index, term graph, normaliser with the Run's jieba words) is
built on the first search and cached; every search checks the Run's generation in PostgreSQL
(one indexed lookup) and reloads when another ingest — in this process or another — changed it.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sys
import time
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from psycopg_pool import AsyncConnectionPool

from agent.errors import StorageError
from agent.models import AggregatedPaper, KeywordPlan

from . import store
from .bm25 import BM25Index, build_index
from .fusion import FusionMethod, fuse, is_multilingual, weights_for
from .intent import classify
from .normalize import TOKENIZER_VERSION, Normalizer, TermVocabulary, get_segmenter
from .rerank import Reranker
from .sections import build_sections, join_pieces
from .termgraph import TermGraph
from .types import (
    LEGS,
    ExpandedSection,
    FullTextSection,
    FusionTrace,
    IngestReport,
    LegCandidate,
    RerankTrace,
    RetrievalResult,
    SectionHit,
    SectionRecord,
)

log = logging.getLogger(__name__)

LEG_TRACE_DEPTH = 10  # candidates per leg kept in a search result for the trace


class EmbedderLike(Protocol):
    name: str

    @property
    def dimension(self) -> int: ...

    def encode(self, texts: list[str]) -> np.ndarray: ...


class RunNotIndexed(StorageError, LookupError):
    """search/expand on a Run that was never ingested (or was deleted)."""


@dataclass
class SectionInfo:
    """One logical section (all chunks sharing paper + section name): the unit of BM25 and fusion."""

    paper_key: str
    section: str
    kind: str
    front: bool  # title or abstract: what a title or entity question boosts
    chunk_ids: list[str]


@dataclass
class RunContext:
    """The in-memory side of one Run's index."""

    run_id: str
    generation: int
    embed_model: str
    dim: int
    sections: int  # stored chunks
    normalizer: Normalizer
    keys: list[str]  # BM25 document index → section key "<paper>#<section>"
    info: dict[str, SectionInfo]
    bm25: BM25Index
    graph: TermGraph
    doc_freq: Counter[str]  # BM25 token → sections that contain it (for the question's term weights)

    def idf(self, token: str) -> float:
        """Lucene's BM25 idf of a token in this Run (0 when no section has it)."""
        df = self.doc_freq.get(token, 0)
        if not df:
            return 0.0
        n = len(self.keys)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))


def section_key(chunk_id: str) -> str:
    """'<paper>#<section>#<ordinal>' → '<paper>#<section>'."""
    return chunk_id.rsplit("#", 1)[0]


def _paper_row(ap: AggregatedPaper) -> dict[str, Any]:
    p = ap.paper
    return {
        "paper_key": ap.key,
        "title": p.title or "",
        "year": p.year,
        "doi": p.doi,
        "metadata": {
            k: v
            for k, v in {
                "pmid": p.pmid,
                "pmcid": p.pmcid,
                "venue": p.venue,
                "authors": [a.name for a in p.authors[:10]],
                "rank": ap.rank,
                "sources": [s.value for s in ap.sources],
            }.items()
            if v
        },
    }


class RetrievalEngine:
    def __init__(
        self,
        pool: AsyncConnectionPool,
        embedder: EmbedderLike,
        *,
        reranker: Reranker | None = None,
        bm25_backend: str = "bm25s",
        cache_runs: int = 8,
        weights: Mapping[str, Mapping[str, float]] | None = None,
        rerank_candidates: int = 30,
    ) -> None:
        self.pool = pool
        self.embedder = embedder
        self.reranker = reranker
        self.bm25_backend = bm25_backend
        self.weights = weights
        self.rerank_candidates = rerank_candidates
        self._cache: OrderedDict[str, RunContext] = OrderedDict()
        self._cache_size = cache_runs
        self._locks: dict[str, asyncio.Lock] = {}

    # ------------------------------------------------------------------------------------------
    # Ingest
    # ------------------------------------------------------------------------------------------

    async def ingest(
        self,
        run_id: str,
        papers: list[AggregatedPaper],
        *,
        plan: KeywordPlan | None = None,
        fulltext: dict[str, list[FullTextSection]] | None = None,
    ) -> IngestReport:
        """Index a Run's papers (idempotent: ingesting the same input again changes nothing)."""
        timings: dict[str, float] = {}
        started = time.perf_counter()
        unique: dict[str, AggregatedPaper] = {}
        for ap in papers:
            if ap.key in unique:
                log.warning("run %s: paper %s given twice; the first is indexed", run_id, ap.key)
                continue
            unique[ap.key] = ap
        papers = list(unique.values())
        model = self.embedder.name
        dim = int(self.embedder.dimension)
        vocabulary = TermVocabulary.from_plan(plan)
        segmenter = get_segmenter(vocabulary.words)

        def prepare() -> list[store.StoredRow]:
            rows: list[store.StoredRow] = []
            for ap in papers:
                for rec in build_sections(ap, (fulltext or {}).get(ap.key)):
                    tokens = segmenter.index_tokens(rec.text)
                    rows.append(
                        store.StoredRow(
                            rec,
                            tokens,
                            store.row_hash(rec, tokens, model, TOKENIZER_VERSION),
                            store.embed_hash(model, rec.embed_text),
                        )
                    )
            return rows

        t = time.perf_counter()
        rows = await asyncio.to_thread(prepare)
        timings["sections"] = time.perf_counter() - t

        async with store.RunLock(self.pool, run_id) as conn:
            if dim != 384:
                await store.ensure_hnsw_index(conn, dim)
            existing = await store.existing_hashes(conn, run_id)
            to_write = [r for r in rows if existing.get(r.record.section_id, ("", ""))[0] != r.content_hash]
            keep_ids = [r.record.section_id for r in rows]
            removed = len(set(existing) - set(keep_ids))

            t = time.perf_counter()
            reuse = await store.reusable_vectors(conn, run_id, sorted({r.embed_hash for r in to_write}))
            missing = list(dict.fromkeys(r.embed_hash for r in to_write if r.embed_hash not in reuse))
            texts = {r.embed_hash: r.record.embed_text for r in to_write}
            if missing:
                encoded = await asyncio.to_thread(self.embedder.encode, [texts[h] for h in missing])
                reuse.update(zip(missing, np.asarray(encoded, dtype=np.float32), strict=True))
            timings["embed"] = time.perf_counter() - t
            vectors = [reuse[r.embed_hash] for r in to_write]

            t = time.perf_counter()
            graph = await asyncio.to_thread(TermGraph.build, papers, [r.record for r in rows], plan)
            graph_json = graph.to_json()
            timings["graph"] = time.perf_counter() - t

            previous = await store.run_row(conn, run_id)
            plan_json = plan.model_dump(mode="json") if plan else None
            changed = (
                bool(to_write)
                or removed > 0
                or previous is None
                or previous["plan"] != plan_json
                or previous["papers"] != len(papers)
                or previous["embed_model"] != model
            )
            t = time.perf_counter()
            generation = await store.write_run(
                conn,
                run_id=run_id,
                embed_model=model,
                dim=dim,
                tokenizer=TOKENIZER_VERSION,
                plan=plan_json,
                papers=[_paper_row(ap) for ap in papers],
                rows=to_write,
                vectors=vectors,
                keep_ids=keep_ids,
                section_count=len(rows),
                graph=graph_json,
                changed=changed,
            )
            timings["write"] = time.perf_counter() - t
        self._cache.pop(run_id, None)
        timings["total"] = time.perf_counter() - started
        nodes, edges = graph.size
        return IngestReport(
            run_id=run_id,
            papers=len(papers),
            sections=len(rows),
            embedded=len(missing),
            reused=len(rows) - len(missing),
            removed=removed,
            graph_nodes=nodes,
            graph_edges=edges,
            generation=generation,
            timings=timings,
        )

    async def run_has_index(self, run_id: str) -> bool:
        async with self.pool.connection() as conn:
            return await store.run_generation(conn, run_id) is not None

    async def delete_run(self, run_id: str) -> bool:
        async with self.pool.connection() as conn:
            deleted = await store.delete_run(conn, run_id)
        self._cache.pop(run_id, None)
        return deleted

    # ------------------------------------------------------------------------------------------
    # The per-Run cache
    # ------------------------------------------------------------------------------------------

    async def _context(self, run_id: str) -> RunContext:
        async with self.pool.connection() as conn:
            generation = await store.run_generation(conn, run_id)
        if generation is None:
            self._cache.pop(run_id, None)
            raise RunNotIndexed(f"run {run_id!r} has no retrieval index; ingest it first")
        cached = self._cache.get(run_id)
        if cached is not None and cached.generation == generation:
            self._cache.move_to_end(run_id)
            return cached
        lock = self._locks.setdefault(run_id, asyncio.Lock())
        async with lock:
            cached = self._cache.get(run_id)
            if cached is not None and cached.generation == generation:
                return cached
            context = await self._load(run_id)
            self._cache[run_id] = context
            self._cache.move_to_end(run_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            return context

    async def _load(self, run_id: str) -> RunContext:
        started = time.perf_counter()
        async with self.pool.connection() as conn:
            run = await store.run_row(conn, run_id)
            if run is None:
                raise RunNotIndexed(f"run {run_id!r} has no retrieval index; ingest it first")
            # stored tokens from an older tokeniser are not used: the texts are cut again, as ingest does
            stale = run["tokenizer"] != TOKENIZER_VERSION
            rows = await store.load_index_rows(conn, run_id, with_text=stale)
            graph_data = await store.load_graph(conn, run_id)
        plan = KeywordPlan.model_validate(run["plan"]) if run["plan"] else None
        normalizer = Normalizer.for_plan(plan)

        def build() -> tuple[list[str], dict[str, SectionInfo], BM25Index, TermGraph, Counter[str]]:
            # BM25 scores whole sections (the paper title once, then every chunk): on SciFact that
            # is 0.695 nDCG@10 against 0.678 for chunks scored apart, since a claim's words are
            # spread over an abstract that the embedding window cuts in two.
            info: dict[str, SectionInfo] = {}
            tokens: dict[str, list[str]] = {}
            titles: dict[str, list[str]] = {}
            for row in rows:
                body = row["body"]
                # interned: 100,000 chunks repeat a small vocabulary millions of times
                toks = [
                    sys.intern(t)
                    for t in (normalizer.segmenter.index_tokens(body) if stale else body.split())
                ]
                key = section_key(row["section_id"])
                if row["kind"] == "title":
                    titles[row["paper_key"]] = toks
                entry = info.get(key)
                if entry is None:
                    front = row["kind"] == "title" or row["part"] == "abstract"
                    entry = info[key] = SectionInfo(row["paper_key"], row["section"], row["kind"], front, [])
                entry.chunk_ids.append(row["section_id"])
                if row["searchable"]:
                    tokens.setdefault(key, []).extend(toks)
            keys = list(tokens)
            docs = []
            doc_freq: Counter[str] = Counter()
            for key in keys:
                entry = info[key]
                title = [] if entry.kind == "title" else titles.get(entry.paper_key, [])
                docs.append(title + tokens[key])
                doc_freq.update(set(docs[-1]))
            index = build_index(docs, self.bm25_backend)
            graph = TermGraph.from_json(graph_data) if graph_data else TermGraph.build([], [], None)
            return keys, info, index, graph, doc_freq

        keys, info, index, graph, doc_freq = await asyncio.to_thread(build)
        log.info("run %s: loaded %d sections in %.2f s", run_id, len(keys), time.perf_counter() - started)
        return RunContext(
            run_id=run_id,
            generation=int(run["generation"]),
            embed_model=run["embed_model"],
            dim=int(run["dim"]),
            sections=int(run["sections"]),
            normalizer=normalizer,
            keys=keys,
            info=info,
            bm25=index,
            graph=graph,
            doc_freq=doc_freq,
        )

    # ------------------------------------------------------------------------------------------
    # Search
    # ------------------------------------------------------------------------------------------

    async def search(
        self,
        run_id: str,
        question: str,
        *,
        top_k: int = 10,
        rerank: bool = True,
        rerank_timeout: float = 5.0,
        legs: Sequence[str] = LEGS,
        fusion: FusionMethod = "weighted",
        candidates: int | None = None,
    ) -> RetrievalResult:
        """Steps 1–5 for one question on one Run.

        Hits are sections (one per paper + section name), each shown by its best chunk: the chunk
        the dense or graph leg ranked highest, else the one sharing most words with the question.
        `candidates` is each leg's depth (default max(100, 5·top_k)).
        """
        unknown = [leg for leg in legs if leg not in LEGS]
        if unknown:
            raise ValueError(f"unknown legs {unknown}; expected some of {', '.join(LEGS)}")
        timings: dict[str, float] = {}
        started = time.perf_counter()
        ctx = await self._context(run_id)
        timings["load"] = time.perf_counter() - started
        depth = candidates or max(100, 5 * top_k)

        t = time.perf_counter()
        trace = ctx.normalizer.normalize(question)
        timings["normalize"] = time.perf_counter() - t

        t = time.perf_counter()
        entities = ctx.graph.link(trace.whitespace_normalized)
        for node, surface in ctx.graph.link(trace.synonyms_canonicalized):
            if node not in {n for n, _ in entities}:
                entities.append((node, surface))
        intent = classify(trace, entities, legs=legs)
        active = [leg for leg in intent.strategy.legs if leg in legs]
        timings["intent"] = time.perf_counter() - t

        dense_task = (
            asyncio.create_task(self._dense(ctx, trace.normalized_text, depth)) if "dense" in active else None
        )
        results: dict[str, list[tuple[str, float]]] = {}
        best_chunk: dict[str, str] = {}  # section key → the chunk that represents it
        graph_paths: dict[str, list[str]] = {}
        try:
            if "bm25" in active:
                t = time.perf_counter()
                results["bm25"] = [(ctx.keys[i], s) for i, s in ctx.bm25.search(trace.bm25_tokens, depth)]
                timings["bm25"] = time.perf_counter() - t
            graph_chunks: list[tuple[str, float]] = []
            if "graph" in active:
                t = time.perf_counter()
                walked = ctx.graph.search(intent.entities, depth)
                graph_chunks = [(h.section_id, h.score) for h in walked]
                graph_paths = {section_key(h.section_id): h.path for h in reversed(walked)}  # best path wins
                results["graph"] = _by_section(graph_chunks, {})
                timings["graph"] = time.perf_counter() - t
            if dense_task is not None:
                dense_chunks, timings["embed"], timings["dense"] = await dense_task
                results["dense"] = _by_section(dense_chunks, best_chunk)
            _by_section(graph_chunks, best_chunk)  # graph picks the chunk only where dense did not
        finally:
            if dense_task is not None and not dense_task.done():
                dense_task.cancel()
        # keep the legs in a fixed order so fused ties break the same way every time
        results = {leg: results[leg] for leg in LEGS if leg in results}

        t = time.perf_counter()
        weights = weights_for(
            trace.language,
            multilingual_embedder=is_multilingual(ctx.embed_model),
            table=self.weights,
            overrides=intent.strategy.weight_overrides,
        )
        weights = {leg: w for leg, w in weights.items() if leg in results}
        boosts: dict[str, float] = {}
        if intent.strategy.boost_fields and intent.strategy.boost != 1.0:
            fields = set(intent.strategy.boost_fields)
            for ranked in results.values():
                for key, _ in ranked:
                    info = ctx.info.get(key)
                    if info and (info.kind in fields or ("abstract" in fields and info.front)):
                        boosts[key] = intent.strategy.boost
        fused = [f for f in fuse(results, weights, method=fusion, boosts=boosts) if f.section_id in ctx.info]
        timings["fusion"] = time.perf_counter() - t
        fusion_trace = FusionTrace(
            method=fusion,
            weights=weights,
            candidates=len(fused),
            multi_leg=sum(1 for f in fused if len(f.leg_scores) > 1),
            per_leg={leg: len(r) for leg, r in results.items()},
        )

        want_rerank = rerank and self.reranker is not None
        head = fused[: max(top_k, self.rerank_candidates if want_rerank else 0)]
        t = time.perf_counter()
        async with self.pool.connection() as conn:
            unresolved = [f.section_id for f in head if f.section_id not in best_chunk]
            if unresolved:
                best_chunk.update(await self._chunks_by_overlap(conn, ctx, unresolved, trace.bm25_tokens))
            rows = await store.fetch_sections(conn, run_id, [best_chunk[f.section_id] for f in head])
        timings["fetch"] = time.perf_counter() - t

        hits: list[SectionHit] = []
        for f in head:
            row = rows.get(best_chunk[f.section_id])
            if row is None:  # deleted by a re-ingest after this index was loaded
                continue
            hits.append(
                SectionHit(
                    section_id=row["section_id"],
                    paper_key=row["paper_key"],
                    section=row["section"],
                    ordinal=row["ordinal"],
                    text=row["text"],
                    score=f.score,
                    leg_scores=dict(f.leg_scores),
                    normalized_scores={leg: round(v, 4) for leg, v in f.normalized.items()},
                    legs=f.legs,
                    kind=row["kind"],
                    heading=row["heading"],
                    graph_path=graph_paths.get(f.section_id, []),
                )
            )

        rerank_trace = RerankTrace(status="skipped", message="not requested" if not rerank else "no reranker")
        if want_rerank and hits:
            assert self.reranker is not None
            titles = {h.section_id: rows[h.section_id]["title"] for h in hits}
            passages = [h.text if h.kind == "title" else f"{titles[h.section_id]}. {h.text}" for h in hits]
            outcome = await self.reranker.score_within(trace.normalized_text, passages, rerank_timeout)
            timings["rerank"] = outcome.seconds
            rerank_trace = RerankTrace(
                status=outcome.status,
                model=self.reranker.name,
                candidates=len(hits),
                message=outcome.message,
            )
            if outcome.scores is not None:
                for hit, score in zip(hits, outcome.scores, strict=True):
                    hit.rerank_score = score
                hits.sort(key=lambda h: -h.rerank_score if h.rerank_score is not None else float("inf"))
        timings["total"] = time.perf_counter() - started
        return RetrievalResult(
            run_id=run_id,
            question=question,
            normalization=trace,
            intent=intent,
            hits=hits[:top_k],
            fusion=fusion_trace,
            rerank=rerank_trace,
            timings=timings,
            leg_candidates={
                leg: [
                    LegCandidate(section_key=key, score=round(score, 4))
                    for key, score in ranked[:LEG_TRACE_DEPTH]
                ]
                for leg, ranked in results.items()
            },
            term_idf={token: round(ctx.idf(token), 4) for token in trace.bm25_tokens},
            leg_stats={
                leg: _score_stats([score for _, score in ranked]) for leg, ranked in results.items() if ranked
            },
        )

    async def _chunks_by_overlap(
        self, conn: Any, ctx: RunContext, keys: list[str], query_tokens: Sequence[str]
    ) -> dict[str, str]:
        """For sections only BM25 found: the chunk sharing most distinct words with the question."""
        wanted = set(query_tokens)
        pairs = [(ctx.info[k].paper_key, ctx.info[k].section) for k in keys]
        best: dict[str, tuple[int, str]] = {}
        for row in await store.fetch_whole_sections(conn, ctx.run_id, pairs):
            key = section_key(row["section_id"])
            overlap = len(wanted.intersection(ctx.normalizer.segmenter.index_tokens(row["text"])))
            if key not in best or overlap > best[key][0]:  # rows come in reading order: ties keep the first
                best[key] = (overlap, row["section_id"])
        return {key: chunk for key, (_, chunk) in best.items()}

    async def _dense(
        self, ctx: RunContext, text: str, k: int
    ) -> tuple[list[tuple[str, float]], float, float]:
        t = time.perf_counter()
        vector = (await asyncio.to_thread(self.embedder.encode, [text]))[0]
        embedded = time.perf_counter() - t
        if ctx.embed_model != self.embedder.name:
            log.warning(
                "run %s was embedded with %s but the engine uses %s; dense scores are not comparable",
                ctx.run_id,
                ctx.embed_model,
                self.embedder.name,
            )
        t = time.perf_counter()
        async with self.pool.connection() as conn:
            ranked = await store.dense_search(
                conn,
                ctx.run_id,
                np.asarray(vector, dtype=np.float32),
                k,
                dim=ctx.dim,
                run_sections=ctx.sections,
            )
        return ranked, embedded, time.perf_counter() - t

    # ------------------------------------------------------------------------------------------
    # Step 6: expansion
    # ------------------------------------------------------------------------------------------

    async def expand_sections(self, run_id: str, hits: list[SectionHit]) -> list[ExpandedSection]:
        """Each hit grown to its whole section (all its chunks in order), one entry per section, in hit order."""
        order: list[tuple[str, str]] = []
        by_key: dict[tuple[str, str], list[SectionHit]] = {}
        for hit in hits:
            key = (hit.paper_key, hit.section)
            if key not in by_key:
                by_key[key] = []
                order.append(key)
            by_key[key].append(hit)
        async with self.pool.connection() as conn:
            rows = await store.fetch_whole_sections(conn, run_id, order)
        chunks: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for row in rows:
            chunks.setdefault((row["paper_key"], row["section"]), []).append(row)
        expanded: list[ExpandedSection] = []
        for key in order:
            parts = chunks.get(key)
            if not parts:
                continue  # the Run was re-ingested without this section
            first = parts[0]
            group = by_key[key]
            reranked = [h.rerank_score for h in group if h.rerank_score is not None]
            expanded.append(
                ExpandedSection(
                    paper_key=key[0],
                    section=key[1],
                    kind=first["kind"],
                    heading=first["heading"],
                    text=join_pieces([p["text"] for p in parts]),
                    chunk_ids=[p["section_id"] for p in parts],
                    hit_ids=[h.section_id for h in group],
                    score=max(h.score for h in group),
                    rerank_score=max(reranked) if reranked else None,
                    title=first["title"],
                    year=first["year"],
                    doi=first["doi"],
                    metadata={
                        **(first["paper_metadata"] or {}),
                        **(first["metadata"] or {}),
                        "position": first["position"],  # the section's place in its paper
                    },
                )
            )
        return expanded

    def records_for(
        self, paper: AggregatedPaper, fulltext: list[FullTextSection] | None = None
    ) -> list[SectionRecord]:
        """The sections ingest would store for one paper (for previews and tests)."""
        return build_sections(paper, fulltext)


def _score_stats(scores: Sequence[float]) -> dict[str, float]:
    values = np.asarray(scores, dtype=np.float64)
    return {
        "top": round(float(values.max()), 4),
        "mean": round(float(values.mean()), 4),
        "std": round(float(values.std()), 4),
        "n": float(len(values)),
    }


def _by_section(
    ranked_chunks: Sequence[tuple[str, float]], best_chunk: dict[str, str]
) -> list[tuple[str, float]]:
    """A leg's chunk ranking as a section ranking (a section scores its best chunk), recording in
    `best_chunk` the chunk that earned it for sections that have none yet."""
    out: dict[str, float] = {}
    for chunk_id, score in ranked_chunks:
        key = section_key(chunk_id)
        if key not in out:
            out[key] = score
        best_chunk.setdefault(key, chunk_id)
    return sorted(out.items(), key=lambda kv: -kv[1])
