"""SQL for the retrieval index: writing a Run's sections, papers and graph, and reading them back.

All statements are scoped by run_id. Writes of one ingest commit together (a search never sees half
a Run), under a per-Run advisory lock so two ingests of the same Run cannot interleave.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from psycopg import AsyncConnection
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from .types import SectionRecord

# Runs up to this many sections are searched exactly (a scan of the Run's rows through the primary
# key); larger ones through the HNSW index, which filters by Run after the approximate search.
EXACT_SEARCH_MAX_SECTIONS = 20_000
HNSW_EF_SEARCH = 100
ANALYZE_AFTER_ROWS = 2_000

_COLUMNS = (
    "run_id",
    "section_id",
    "paper_key",
    "section",
    "kind",
    "ordinal",
    "position",
    "heading",
    "text",
    "tokens",
    "searchable",
    "metadata",
    "content_hash",
    "embed_hash",
    "dim",
    "embedding",
)
_TYPES = [
    "text",
    "text",
    "text",
    "text",
    "text",
    "int4",
    "int4",
    "text",
    "text",
    "text",
    "bool",
    "jsonb",
    "text",
    "text",
    "int4",
    "vector",
]


@dataclass
class StoredRow:
    record: SectionRecord
    tokens: list[str]
    content_hash: str
    embed_hash: str


def embed_hash(model: str, embed_text: str) -> str:
    return hashlib.sha256(f"{model}\x00{embed_text}".encode()).hexdigest()[:32]


def row_hash(record: SectionRecord, tokens: Sequence[str], model: str, tokenizer: str) -> str:
    """Of every field that is stored: equal hashes mean the stored row is already right."""
    payload = json.dumps(
        [record.model_dump(mode="json"), list(tokens), model, tokenizer], ensure_ascii=False, sort_keys=True
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def _lock_key(run_id: str) -> int:
    # a signed 64-bit key from the run id (pg_advisory_lock takes bigint)
    return int.from_bytes(hashlib.sha256(f"retrieval:{run_id}".encode()).digest()[:8], "big", signed=True)


async def ensure_hnsw_index(conn: AsyncConnection[Any], dim: int) -> None:
    """A partial HNSW index for a dimension other than the migration's 384 (created once, on demand)."""
    dim = int(dim)
    await conn.execute(
        f"CREATE INDEX IF NOT EXISTS retrieval_sections_hnsw_{dim} ON retrieval_sections "
        f"USING hnsw ((embedding::vector({dim})) vector_cosine_ops) WHERE dim = {dim}"
    )


class RunLock:
    """Holds one pooled connection and the Run's advisory lock for the duration of an ingest."""

    def __init__(self, pool: AsyncConnectionPool, run_id: str) -> None:
        self.pool = pool
        self.key = _lock_key(run_id)
        self._cm: Any = None
        self.conn: AsyncConnection[Any] | None = None

    async def __aenter__(self) -> AsyncConnection[Any]:
        self._cm = self.pool.connection()
        self.conn = await self._cm.__aenter__()
        await self.conn.execute("SELECT pg_advisory_lock(%s)", (self.key,))
        return self.conn

    async def __aexit__(self, *exc_info: Any) -> None:
        assert self.conn is not None
        try:
            await self.conn.execute("SELECT pg_advisory_unlock(%s)", (self.key,))
        finally:
            await self._cm.__aexit__(*exc_info)


async def existing_hashes(conn: AsyncConnection[Any], run_id: str) -> dict[str, tuple[str, str]]:
    cursor = await conn.execute(
        "SELECT section_id, content_hash, embed_hash FROM retrieval_sections WHERE run_id = %s", (run_id,)
    )
    return {r["section_id"]: (r["content_hash"], r["embed_hash"]) for r in await cursor.fetchall()}


async def reusable_vectors(
    conn: AsyncConnection[Any], run_id: str, hashes: Sequence[str]
) -> dict[str, np.ndarray]:
    if not hashes:
        return {}
    cursor = await conn.execute(
        "SELECT DISTINCT ON (embed_hash) embed_hash, embedding FROM retrieval_sections"
        " WHERE run_id = %s AND embed_hash = ANY(%s)",
        (run_id, list(hashes)),
    )
    return {
        r["embed_hash"]: np.asarray(r["embedding"].to_numpy(), dtype=np.float32)
        for r in await cursor.fetchall()
    }


async def write_run(
    conn: AsyncConnection[Any],
    *,
    run_id: str,
    embed_model: str,
    dim: int,
    tokenizer: str,
    plan: dict[str, Any] | None,
    papers: Sequence[dict[str, Any]],
    rows: Sequence[StoredRow],
    vectors: Sequence[np.ndarray],
    keep_ids: Sequence[str],
    section_count: int,
    graph: dict[str, Any],
    changed: bool,
) -> int:
    """Write one ingest in one transaction; returns the Run's generation after it."""
    async with conn.transaction():
        cursor = await conn.execute(
            "SELECT generation FROM retrieval_runs WHERE run_id = %s FOR UPDATE", (run_id,)
        )
        row = await cursor.fetchone()
        generation = (row["generation"] + (1 if changed else 0)) if row else 1
        await conn.execute(
            "INSERT INTO retrieval_runs (run_id, generation, embed_model, dim, tokenizer, plan, papers, sections)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (run_id) DO UPDATE SET generation = EXCLUDED.generation,"
            " embed_model = EXCLUDED.embed_model, dim = EXCLUDED.dim, tokenizer = EXCLUDED.tokenizer,"
            " plan = EXCLUDED.plan, papers = EXCLUDED.papers, sections = EXCLUDED.sections,"
            " ingested_at = CASE WHEN %s THEN now() ELSE retrieval_runs.ingested_at END",
            (
                run_id,
                generation,
                embed_model,
                dim,
                tokenizer,
                Jsonb(plan) if plan is not None else None,
                len(papers),
                section_count,
                changed,
            ),
        )
        # rows that are gone, and rows about to be rewritten
        await conn.execute(
            "DELETE FROM retrieval_sections WHERE run_id = %s AND NOT (section_id = ANY(%s))",
            (run_id, list(keep_ids)),
        )
        if rows:
            await conn.execute(
                "DELETE FROM retrieval_sections WHERE run_id = %s AND section_id = ANY(%s)",
                (run_id, [r.record.section_id for r in rows]),
            )
            cur = conn.cursor()
            async with cur.copy(
                f"COPY retrieval_sections ({', '.join(_COLUMNS)}) FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(_TYPES)
                for stored, vector in zip(rows, vectors, strict=True):
                    rec = stored.record
                    await copy.write_row(
                        (
                            run_id,
                            rec.section_id,
                            rec.paper_key,
                            rec.section,
                            rec.kind,
                            rec.ordinal,
                            rec.position,
                            rec.heading,
                            rec.text,
                            " ".join(stored.tokens),
                            rec.searchable,
                            rec.metadata,
                            stored.content_hash,
                            stored.embed_hash,
                            dim,
                            vector,
                        )
                    )
        await conn.execute("DELETE FROM retrieval_papers WHERE run_id = %s", (run_id,))
        if papers:
            cur = conn.cursor()
            async with cur.copy(
                "COPY retrieval_papers (run_id, paper_key, title, year, doi, metadata) FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["text", "text", "text", "int4", "text", "jsonb"])
                for p in papers:
                    await copy.write_row(
                        (run_id, p["paper_key"], p["title"], p["year"], p["doi"], p["metadata"])
                    )
        await conn.execute(
            "INSERT INTO retrieval_graphs (run_id, generation, data) VALUES (%s, %s, %s)"
            " ON CONFLICT (run_id) DO UPDATE SET generation = EXCLUDED.generation, data = EXCLUDED.data",
            (run_id, generation, Jsonb(graph)),
        )
    if len(rows) >= ANALYZE_AFTER_ROWS:
        # fresh statistics right away: with stale ones the planner estimates a few rows for a Run
        # that now has 100,000 and scans them all instead of using the HNSW index (136 ms vs 10 ms)
        await conn.execute("ANALYZE retrieval_sections")
    return generation


# ----------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------


async def run_row(conn: AsyncConnection[Any], run_id: str) -> dict[str, Any] | None:
    cursor = await conn.execute(
        "SELECT run_id, generation, embed_model, dim, tokenizer, plan, papers, sections"
        " FROM retrieval_runs WHERE run_id = %s",
        (run_id,),
    )
    return await cursor.fetchone()


async def run_generation(conn: AsyncConnection[Any], run_id: str) -> int | None:
    cursor = await conn.execute("SELECT generation FROM retrieval_runs WHERE run_id = %s", (run_id,))
    row = await cursor.fetchone()
    return None if row is None else int(row["generation"])


async def load_index_rows(
    conn: AsyncConnection[Any], run_id: str, *, with_text: bool = False
) -> list[dict[str, Any]]:
    """What the in-memory BM25 index needs, chunk by chunk in reading order: ids, kind, whether the
    chunk is searchable and belongs to the abstract, and its tokens (or its text, to re-tokenise)."""
    cursor = await conn.execute(
        f"SELECT section_id, paper_key, section, kind, searchable, metadata->>'part' AS part,"
        f" {'text' if with_text else 'tokens'} AS body"
        " FROM retrieval_sections WHERE run_id = %s ORDER BY paper_key, position, ordinal",
        (run_id,),
    )
    return await cursor.fetchall()


async def load_graph(conn: AsyncConnection[Any], run_id: str) -> dict[str, Any] | None:
    cursor = await conn.execute("SELECT data FROM retrieval_graphs WHERE run_id = %s", (run_id,))
    row = await cursor.fetchone()
    return None if row is None else row["data"]


async def dense_search(
    conn: AsyncConnection[Any],
    run_id: str,
    vector: np.ndarray,
    k: int,
    *,
    dim: int,
    run_sections: int,
) -> list[tuple[str, float]]:
    """Nearest sections of one Run by cosine similarity (1 − cosine distance), best first."""
    dim = int(dim)
    if run_sections <= EXACT_SEARCH_MAX_SECTIONS:
        # The plain column does not match the HNSW expression index, so this is always exact.
        cursor = await conn.execute(
            "SELECT section_id, 1 - (embedding <=> %s) AS score FROM retrieval_sections"
            " WHERE run_id = %s AND searchable ORDER BY embedding <=> %s LIMIT %s",
            (vector, run_id, vector, k),
        )
        return [(r["section_id"], float(r["score"])) for r in await cursor.fetchall()]
    async with conn.transaction():
        # ef_search bounds the candidates HNSW returns before the run_id filter; keep it above k
        await conn.execute(f"SET LOCAL hnsw.ef_search = {max(HNSW_EF_SEARCH, int(k) * 2)}")
        # an explicit sort is what the alternative plan needs; penalising it keeps the planner on HNSW
        await conn.execute("SET LOCAL enable_sort = off")
        cursor = await conn.execute(
            f"SELECT section_id, 1 - ((embedding::vector({dim})) <=> %s::vector({dim})) AS score"
            f" FROM retrieval_sections WHERE run_id = %s AND dim = {dim} AND searchable"
            f" ORDER BY (embedding::vector({dim})) <=> %s::vector({dim}) LIMIT %s",
            (vector, run_id, vector, k),
        )
        rows = [(r["section_id"], float(r["score"])) for r in await cursor.fetchall()]
    if len(rows) < min(k, run_sections) // 2:
        # other Runs crowded this one out of the approximate candidates: fall back to exact
        cursor = await conn.execute(
            "SELECT section_id, 1 - (embedding <=> %s) AS score FROM retrieval_sections"
            " WHERE run_id = %s AND searchable ORDER BY embedding <=> %s LIMIT %s",
            (vector, run_id, vector, k),
        )
        rows = [(r["section_id"], float(r["score"])) for r in await cursor.fetchall()]
    return rows


async def fetch_sections(
    conn: AsyncConnection[Any], run_id: str, section_ids: Sequence[str]
) -> dict[str, dict[str, Any]]:
    if not section_ids:
        return {}
    cursor = await conn.execute(
        "SELECT s.section_id, s.paper_key, s.section, s.kind, s.ordinal, s.heading, s.text, p.title"
        " FROM retrieval_sections s JOIN retrieval_papers p USING (run_id, paper_key)"
        " WHERE s.run_id = %s AND s.section_id = ANY(%s)",
        (run_id, list(section_ids)),
    )
    return {r["section_id"]: r for r in await cursor.fetchall()}


async def fetch_whole_sections(
    conn: AsyncConnection[Any], run_id: str, keys: Sequence[tuple[str, str]]
) -> list[dict[str, Any]]:
    """Every chunk of the given (paper_key, section) pairs, in reading order, with paper metadata."""
    if not keys:
        return []
    cursor = await conn.execute(
        "SELECT s.section_id, s.paper_key, s.section, s.kind, s.ordinal, s.position, s.heading, s.text,"
        " s.metadata, p.title, p.year, p.doi, p.metadata AS paper_metadata"
        " FROM retrieval_sections s"
        " JOIN unnest(%s::text[], %s::text[]) AS w(paper_key, section) USING (paper_key, section)"
        " JOIN retrieval_papers p ON p.run_id = s.run_id AND p.paper_key = s.paper_key"
        " WHERE s.run_id = %s ORDER BY s.paper_key, s.position, s.ordinal",
        ([k[0] for k in keys], [k[1] for k in keys], run_id),
    )
    return await cursor.fetchall()


async def delete_run(conn: AsyncConnection[Any], run_id: str) -> bool:
    cursor = await conn.execute("DELETE FROM retrieval_runs WHERE run_id = %s", (run_id,))
    return (cursor.rowcount or 0) > 0
