"""What the chat adapters (MCP server, Slack bot, Teams bot) share, so none keeps its own conversation.

Each adapter is a process of its own (`scholarmap mcp`, `slack`, `teams`) that drives the very graph and
`ThreadManager` the web app drives, on the same database and project folders: a conversation begun in
Slack is a thread the REST API can continue, and its Runs are the Runs the web app shows. This module
opens that machinery outside the web app, maps an outside conversation (a Slack thread, a Teams
conversation) onto one ScholarMap thread through the threads table's `chat_key` (so the mapping
survives a restart), and runs one turn of a conversation as its typed events.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI

from agent.db import Database
from agent.llm import LLM, build_llm
from agent.runs.store import RunStore
from agent.settings import Settings
from server.deps import Services
from server.routes.threads import startup
from server.streaming.events import Event
from server.streaming.threads import ThreadManager

DEFAULT_PROJECT = "default"
HOW_TO_BEGIN = (
    "Describe your research in a few sentences, and I will search PubMed, Semantic Scholar and OpenAlex "
    "for it. Then ask me about the papers, or say /map for the academic map."
)


@dataclass
class AdapterRuntime:
    """The long-lived services of an adapter process."""

    settings: Settings
    store: RunStore
    threads: ThreadManager
    extras: dict[str, Any] = field(default_factory=dict)


@asynccontextmanager
async def open_runtime(settings: Settings, *, llm: LLM | None = None) -> AsyncIterator[AdapterRuntime]:
    """The database, the source clients, the checkpointed graph and a thread manager, for a block.

    The thread manager is made by the web app's own start-up (`server.routes.threads.startup`), so an
    adapter process runs exactly what a `scholarmap serve` worker runs. `llm` replaces the one the
    settings ask for (tests inject a ScriptedLLM, as `create_app` allows).
    """
    store = RunStore(settings.projects_dir)
    async with AsyncExitStack() as stack:
        database = await Database.open(settings)
        stack.push_async_callback(database.close)
        services = Services(settings=settings, store=store, llm=llm or build_llm(settings), database=database)
        holder = FastAPI()  # only its `state` is used: startup reads the services and adds the manager
        holder.state.services = services
        await startup(holder, stack)
        yield AdapterRuntime(settings=settings, store=store, threads=services.extras["threads"])


async def thread_for_key(runtime: AdapterRuntime, key: str, project_id: str = DEFAULT_PROJECT) -> str:
    """The thread of an outside conversation (`slack:T1:C1:1700.1`), created on first use."""
    existing = await runtime.threads.by_chat_key(key)
    if existing:
        return str(existing["thread_id"])
    if project_id == DEFAULT_PROJECT:
        runtime.store.ensure_project(DEFAULT_PROJECT, "Default project")
    else:
        runtime.store.get_project(project_id)  # ProjectNotFound names the missing project
    return str((await runtime.threads.create(project_id, chat_key=key))["thread_id"])


async def turn(
    threads: ThreadManager,
    thread_id: str,
    *,
    text: str | None = None,
    resume: dict[str, Any] | None = None,
    mode: str | None = None,
    options: dict[str, Any] | None = None,
    pause_id: str | None = None,
) -> AsyncIterator[Event]:
    """Submit a message (or a reply to the pending question) and yield the events it causes, to `done`.

    Raises what `ThreadManager.submit` raises (ThreadBusy, ResumeMismatch, ThreadNotFound) before the
    first event, so an adapter can answer bad input before it shows anything. `pause_id` names the pause
    a reply answers (a button of an earlier question): a reply to a pause that is over is refused.
    """
    named = {"pause_id": pause_id} if pause_id else {}
    before = await threads.submit(thread_id, text=text, resume=resume, mode=mode, options=options, **named)
    async for event in threads.follow(thread_id, before):
        yield event
        if event.type == "done":
            return


@dataclass
class TurnOutcome:
    """A finished turn, gathered from its events (for adapters that answer once, not as a stream)."""

    text: str = ""
    interrupt: dict[str, Any] | None = None
    run: dict[str, Any] | None = None
    citations: list[dict[str, Any]] = field(default_factory=list)
    map_ready: dict[str, Any] | None = None
    error: str | None = None
    state: str = "finished"

    def add(self, event: Event) -> None:
        data = event.data
        if event.type == "text":
            self.text += str(data.get("delta", ""))
        elif event.type == "interrupt":
            self.interrupt = data
        elif event.type == "run_ready":
            self.run = data
        elif event.type == "citation":
            self.citations.append(data)
        elif event.type == "map_ready":
            self.map_ready = data
        elif event.type == "error":
            self.error = str(data.get("message") or "the conversation failed")
        elif event.type == "done":
            self.state = str(data.get("state", "finished"))
