"""The conversation graph driven in this process: the one way the terminal commands use the graph.

`scholarmap chat`, `run` and `ask` hold no conversation logic of their own: each builds a `GraphContext`,
sends its input through `LocalConversation`, shows the graph's custom-stream events, and answers the
graph's pauses (a person at the terminal for `chat` and `run`, automatic replies for `run --yes`). The
server drives the very same graph through `server.streaming.threads.ThreadManager`, which adds the
event log, locking and PostgreSQL that a single terminal process does not need.

The checkpointer is PostgreSQL for `chat` (a thread can be continued later) and in memory otherwise
(`run` and `ask` work without the database: nothing outlives the command but the Run's files).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from graph.build import build_graph
from graph.context import GraphContext

EventHandler = Callable[[dict[str, Any]], None]
Replier = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class LocalConversation:
    """One thread of the graph, run in this process; see the module docstring."""

    def __init__(self, context: GraphContext, *, checkpointer: Any = None, thread_id: str | None = None):
        self.context = context
        self.graph = build_graph(checkpointer if checkpointer is not None else InMemorySaver())
        self.thread_id = thread_id or f"th_{secrets.token_hex(8)}"
        self.config: dict[str, Any] = {"configurable": {"thread_id": self.thread_id}}

    async def pending(self) -> dict[str, Any] | None:
        """The payload of the pause the thread waits on (`kind`: clarification, confirmation, review)."""
        snapshot = await self.graph.aget_state(self.config)
        for task in snapshot.tasks or ():
            for item in task.interrupts or ():
                return dict(item.value)
        return None

    async def values(self) -> dict[str, Any]:
        """The thread's state (`graph.state.ConversationState`)."""
        return dict((await self.graph.aget_state(self.config)).values or {})

    async def send(self, graph_input: Any, on_event: EventHandler) -> dict[str, Any] | None:
        """One pass of the graph on `graph_input` (a new message, or a `Command(resume=...)`).

        Each custom-stream event goes to `on_event` as it comes; returns the pause the pass stopped at,
        or None when it ran to the end. A node's exception propagates unchanged.
        """
        async for chunk in self.graph.astream(
            graph_input, self.config, context=self.context, stream_mode="custom"
        ):
            if isinstance(chunk, dict):
                on_event(chunk)
        return await self.pending()

    async def reply(self, payload: dict[str, Any], on_event: EventHandler) -> dict[str, Any] | None:
        """Resume the pending pause with a reply (`graph.interrupts`: a reply model's JSON)."""
        return await self.send(Command(resume=payload), on_event)

    async def converse(self, graph_input: Any, on_event: EventHandler, answer: Replier) -> dict[str, Any]:
        """Passes until the graph ends: each pause is answered by `answer(payload)`; returns the state."""
        pending = await self.send(graph_input, on_event)
        while pending is not None:
            pending = await self.reply(await answer(pending), on_event)
        return await self.values()


AUTOMATIC_REPLIES: dict[str, dict[str, Any]] = {
    # `scholarmap run --yes`: take the interpretation as it stands, confirm it, accept the keyword plan
    "clarification": {"accept": True},
    "confirmation": {"accept": True},
    "review": {"accept": True},
}


async def automatic_reply(pending: dict[str, Any]) -> dict[str, Any]:
    """The reply `--yes` gives to every pause."""
    return dict(AUTOMATIC_REPLIES[pending["kind"]])
