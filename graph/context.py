"""What the graph's nodes may use at run time. Passed as LangGraph's run context, never checkpointed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.ask.knowledge import build_retrieval_engine
from agent.db import Database
from agent.llm import LLM
from agent.runs.store import RunStore
from agent.settings import Settings


@dataclass
class GraphContext:
    settings: Settings
    store: RunStore
    llm: LLM
    sources: Any = None  # agent.search.sources.SourceClients, opened by whoever runs the graph
    database: Database | None = None
    retrieval: Any = None  # tools.retrieval.engine.RetrievalEngine, created on first `ask`
    options: dict[str, Any] = field(default_factory=dict)  # per-conversation knobs: sources, max_per_source
    # False where the thread is not kept (`scholarmap run`'s in-memory conversation): its Runs name no thread
    record_thread: bool = True

    def retrieval_engine(self) -> Any:
        """The hybrid retrieval engine, built on first use (loading the embedding model takes seconds)."""
        if self.retrieval is None:
            if self.database is None:
                raise RuntimeError("questions need the database, which is not available")

            self.retrieval, _notes = build_retrieval_engine(self.settings, self.database)
        return self.retrieval
