"""The conversation as a LangGraph state machine.

    route ─▶ understand ─▶ clarify (interrupt) ─▶ understand … ─▶ confirm (interrupt) ─▶ keywords
          │                   └─ accepted, no answers ────────────▶┘                      │
          │                                     rejected ◀──────────┘                     │
          │                                     review (interrupt) ◀─ edits ─┐ ◀──────────┘
          │                                        └─ accepted ─▶ search (a new Run) ─▶ END
          ├─▶ ask (hybrid retrieval on the active Run, streamed) ─▶ END
          └─▶ map (academic map of the active Run) ─▶ END

Each user message starts a new pass from `route`; the thread's Runs and active Run persist in the
checkpointed state, so a thread can search many times and ask about any of its Runs.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.graph import END, START, StateGraph

from graph import nodes
from graph.context import GraphContext
from graph.state import ConversationState


def build_graph(checkpointer: Any = None) -> Any:
    """Compile the conversation graph; `checkpointer` is an AsyncPostgresSaver in production."""
    builder = StateGraph(ConversationState, context_schema=GraphContext)
    builder.add_node("route", nodes.route)
    builder.add_node("no_run", nodes.no_run)
    builder.add_node("understand", nodes.understand)
    builder.add_node("clarify", nodes.clarify)
    builder.add_node("confirm", nodes.confirm)
    builder.add_node("keywords", nodes.keywords)
    builder.add_node("review", nodes.review)
    builder.add_node("search", nodes.search)
    builder.add_node("ask", nodes.ask)
    builder.add_node("map", nodes.map_run)

    builder.add_edge(START, "route")
    builder.add_conditional_edges("route", nodes.after_route, ["understand", "ask", "map", "no_run"])
    builder.add_edge("no_run", END)
    builder.add_conditional_edges("understand", nodes.after_understand, ["clarify", "confirm"])
    builder.add_conditional_edges("clarify", nodes.after_clarify, ["understand", "confirm"])
    builder.add_conditional_edges("confirm", nodes.after_confirm, ["understand", "keywords"])
    builder.add_edge("keywords", "review")
    builder.add_conditional_edges("review", nodes.after_review, ["review", "search"])
    builder.add_edge("search", END)
    builder.add_edge("ask", END)
    builder.add_edge("map", END)
    return builder.compile(checkpointer=checkpointer)


async def postgres_checkpointer(pool: Any) -> Any:
    """An AsyncPostgresSaver on the project's pool, its tables created if needed."""
    saver = AsyncPostgresSaver(pool)
    # Several workers start at once on one database: their first setups would race on CREATE TABLE.
    # The lock is polled, not waited for: the setup's CREATE INDEX CONCURRENTLY waits for every open
    # transaction, and a worker blocked in pg_advisory_lock is one (a deadlock PostgreSQL cannot see).
    async with pool.connection() as conn:
        while not await _try_setup_lock(conn):
            await asyncio.sleep(0.1)
        try:
            await saver.setup()
        finally:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))
    return saver


_SETUP_LOCK = 0x5C401B  # arbitrary constant shared by every ScholarMap process (next to agent.db's)


async def _try_setup_lock(conn: Any) -> bool:
    cursor = await conn.execute("SELECT pg_try_advisory_lock(%s) AS taken", (_SETUP_LOCK,))
    row = await cursor.fetchone()
    return bool(row["taken"] if isinstance(row, dict) else row[0])
