"""Building a Run's knowledge base engine from settings: the one place the retrieval stack is assembled.

The CLI (`scholarmap ask`), the graph's `ask` node and the server all get their engine here, so the
embedding model, the reranker and their offline behaviour are decided once.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from agent.db import Database
from agent.settings import Settings
from tools.embeddings.sentence import EmbeddingModelError

__all__ = ["EmbeddingModelError", "build_retrieval_engine", "local_reranker", "reranker_is_local"]

log = logging.getLogger(__name__)


def reranker_is_local(name: str) -> bool:
    """Is the cross-encoder on this machine (a folder, or in the Hugging Face cache)?

    A model that is neither would be downloaded on first use, which an offline machine cannot do and
    which would hold a question until the attempt times out.
    """
    if Path(name).expanduser().is_dir():
        return True
    try:
        # imported on first use: a heavy optional dependency, kept out of processes that never need it
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(name, "config.json"), str)
    except Exception:  # an invalid repo id, or no huggingface_hub: treat as not available
        return False


def local_reranker(name: str) -> tuple[Any, str | None]:
    """(the configured Reranker, None) when its model is local, else (None, a note saying why not)."""
    if not reranker_is_local(name):
        return None, f"reranker model {name} is not on this machine; answering without rerank"
    # imported on first use: a heavy optional dependency, kept out of processes that never need it
    from tools.retrieval.rerank import Reranker

    return Reranker(name), None


def build_retrieval_engine(
    settings: Settings, database: Database, *, embedder: Any = None, rerank: bool = True
) -> tuple[Any, list[str]]:
    """The hybrid retrieval engine on the project's database; returns (engine, notes for the user)."""
    # imported on first use: a heavy optional dependency, kept out of processes that never need it
    from tools.embeddings.sentence import get_embedder

    # imported on first use: a heavy optional dependency, kept out of processes that never need it
    from tools.retrieval.engine import RetrievalEngine

    notes: list[str] = []
    reranker = None
    if rerank:
        reranker, note = local_reranker(settings.reranker_model)
        if note:
            notes.append(note)
    embedder = embedder or get_embedder(
        settings.embedding_model, backend=settings.embedding_backend, cache_dir=settings.model_cache_dir
    )
    engine = RetrievalEngine(database.pool, embedder, reranker=reranker)
    return engine, notes


async def index_run(
    engine: Any, store: Any, run_id: str, *, data: Any = None, fulltext: dict[str, Any] | None = None
) -> Any:
    """Ingest a stored Run's merged papers (and any full texts) into its knowledge base; the report.

    `data` is the Run already loaded by the caller (`RunStore.load_run`), to avoid reading it twice.
    """
    data = data if data is not None else store.load_run(run_id)
    return await engine.ingest(run_id, data.aggregated, plan=data.keywords, fulltext=fulltext or {})
