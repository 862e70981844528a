"""python -m evals.retrieval --dataset DIR [--limit-queries N] [--rerank-model PATH] [--synthetic N]

Prints `RESULT <name> <value>` lines (and a table on stderr):
  retrieval_<set>_<method>_ndcg10 / _recall100   for bm25, dense, fused (weighted), rrf, fused_rerank
  retrieval_<set>_bm25_<backend>_qps             the BM25 leg alone, bm25s against rank-bm25, same tokens
  retrieval_synthetic<N>_p50_ms / _p95_ms        a hybrid query (three legs, no rerank) on N sections
  retrieval_synthetic<N>_ingest_sections_per_s   ingest without embedding (tokenise, graph, COPY, HNSW)
  retrieval_synthetic<N>_embed_sections_per_s    the embedding model alone on the same kind of sections

PostgreSQL: SCHOLARMAP_DATABASE_URL or --database-url when given, else an embedded pgserver in a
temporary folder that is removed afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from agent.db import Database, start_embedded
from agent.settings import load_settings
from tools.embeddings.sentence import get_embedder
from tools.retrieval.engine import RetrievalEngine
from tools.retrieval.rerank import Reranker

from .beir import load_beir
from .bench import METHODS, bm25_speed, evaluate, papers_of
from .embedcache import CachingEmbedder
from .synthetic import run_synthetic

DEFAULT_CACHE = (
    Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "scholarmap" / "retrieval-eval"
)


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def result(name: str, value: float) -> None:
    print(f"RESULT {name} {value:.4f}", flush=True)


@asynccontextmanager
async def open_database(url: str | None) -> AsyncIterator[Database]:
    url = url or os.environ.get("SCHOLARMAP_DATABASE_URL")
    server = None
    tmp = None
    if not url:
        tmp = Path(tempfile.mkdtemp(prefix="smret-", dir="/tmp"))  # short: unix socket paths are limited
        url, server = start_embedded(tmp / "pg")
    db = await Database.open(
        load_settings(data_dir=(tmp or Path(tempfile.gettempdir())) / "data", database_url=url)
    )
    try:
        yield db
    finally:
        await db.close()
        if server is not None:
            server.cleanup()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


async def run_dataset(args: argparse.Namespace, db: Database) -> dict[str, float]:
    data = load_beir(
        Path(args.dataset), split=args.split, limit_queries=args.limit_queries, limit_docs=args.limit_docs
    )
    name = args.name or data.name
    say(f"{name}: {len(data.corpus)} documents, {len(data.queries)} queries ({data.split})")
    embedder = CachingEmbedder(
        get_embedder(args.embed_model), None if args.no_cache else Path(args.cache_dir)
    )
    reranker = Reranker(args.rerank_model) if args.rerank_model else None
    engine = RetrievalEngine(db.pool, embedder, reranker=reranker, bm25_backend=args.bm25_backend)
    digest = hashlib.sha1("\x00".join(sorted(data.corpus)).encode()).hexdigest()[:10]
    run_id = f"eval-{name}-{digest}"
    report = await engine.ingest(run_id, papers_of(data))
    embedder.flush()
    say(
        f"ingested {report.sections} sections ({report.embedded} embedded now) in {report.timings['total']:.1f} s"
    )

    figures: dict[str, float] = {}
    methods = [m for m in args.methods.split(",") if m]
    for method_name in methods:
        method = METHODS[method_name]
        if method.rerank and reranker is None:
            say(f"{method_name}: skipped (no --rerank-model)")
            continue
        scores = await evaluate(engine, run_id, data, method, progress=say)
        figures[f"{method_name}_ndcg10"] = scores.ndcg10
        figures[f"{method_name}_recall100"] = scores.recall100
        result(f"retrieval_{name}_{method_name}_ndcg10", scores.ndcg10)
        result(f"retrieval_{name}_{method_name}_recall100", scores.recall100)
        say(
            f"{method_name:>13}: nDCG@10 {scores.ndcg10:.4f}  R@100 {scores.recall100:.4f}  ({scores.seconds:.1f} s)"
        )
    embedder.flush()

    if not args.skip_speed:
        for speed in bm25_speed(data):
            result(f"retrieval_{name}_bm25_{speed.backend}_qps", speed.qps)
            figures[f"bm25_{speed.backend}_qps"] = speed.qps
            say(
                f"BM25 {speed.backend:>9}: {speed.qps:,.0f} queries/s (index {speed.build_seconds:.2f} s),"
                f" nDCG@10 {speed.ndcg10:.4f}, R@100 {speed.recall100:.4f}"
            )
    if not args.keep:
        await engine.delete_run(run_id)
    return figures


async def main_async(args: argparse.Namespace) -> int:
    async with open_database(args.database_url) as db:
        if args.dataset:
            await run_dataset(args, db)
        if args.synthetic:
            report = await run_synthetic(
                db.pool, get_embedder(args.embed_model), args.synthetic, progress=say
            )
            prefix = f"retrieval_synthetic{args.synthetic}"
            result(f"{prefix}_p50_ms", report.p50_ms)
            result(f"{prefix}_p95_ms", report.p95_ms)
            result(f"{prefix}_ingest_sections_per_s", report.ingest_sections_per_s)
            result(f"{prefix}_embed_sections_per_s", report.embed_sections_per_s)
            say(
                f"synthetic {report.sections} sections: ingest {report.ingest_seconds:.1f} s"
                f" ({report.ingest_sections_per_s:,.0f} sections/s without embedding; steps {report.ingest_timings});"
                f" embedding model alone {report.embed_sections_per_s:,.1f} sections/s;"
                f" first query (cache load) {report.cold_load_seconds:.2f} s;"
                f" hybrid query p50 {report.p50_ms:.1f} ms, p95 {report.p95_ms:.1f} ms, mean {report.mean_ms:.1f} ms;"
                f" step p50 (ms) { {k: round(v, 2) for k, v in report.step_p50_ms.items()} }"
            )
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m evals.retrieval", description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", help="folder in BEIR layout (corpus.jsonl, queries.jsonl, qrels/)")
    parser.add_argument("--name", help="name used in RESULT lines (default: the folder name)")
    parser.add_argument("--split", help="qrels split (default: test, else dev)")
    parser.add_argument("--limit-queries", type=int, help="only the first N judged queries")
    parser.add_argument("--limit-docs", type=int, help="only the judged documents plus N others")
    parser.add_argument("--methods", default="bm25,dense,fused,rrf,fused_rerank", help="comma-separated")
    parser.add_argument("--rerank-model", help="cross-encoder folder or id for fused_rerank")
    parser.add_argument("--embed-model", default="all-MiniLM-L6-v2")
    parser.add_argument("--bm25-backend", default="bm25s", choices=["bm25s", "rank_bm25"])
    parser.add_argument("--synthetic", type=int, metavar="N", help="latency/ingest benchmark on N sections")
    parser.add_argument("--synthetic-questions", type=int, default=200, help="questions timed (default 200)")
    parser.add_argument(
        "--embed-sample", type=int, default=200, help="sections for the embedding-speed sample"
    )
    parser.add_argument("--database-url", help="PostgreSQL with pgvector (default: embedded)")
    parser.add_argument("--cache-dir", default=str(DEFAULT_CACHE), help="document embedding cache")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the embedding cache")
    parser.add_argument("--skip-speed", action="store_true", help="skip the BM25 backend speed comparison")
    parser.add_argument("--keep", action="store_true", help="keep the evaluation Run in the database")
    args = parser.parse_args(argv)
    if not args.dataset and not args.synthetic:
        parser.error("give --dataset DIR and/or --synthetic N")
    unknown = [m for m in args.methods.split(",") if m and m not in METHODS]
    if unknown:
        parser.error(f"unknown methods {unknown}; choose from {', '.join(METHODS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(main_async(parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
