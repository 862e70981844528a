"""The native conversation API: threads, messages streamed as SSE, replay with Last-Event-ID, cancel."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Query
from pydantic import BaseModel, Field
from sse_starlette.sse import EventSourceResponse, ServerSentEvent

from agent.search.sources import open_sources
from graph.build import build_graph, postgres_checkpointer
from graph.context import GraphContext
from server.deps import Services, ServicesDep
from server.inputs import ConversationOptions, InvalidInput, validate_key
from server.streaming.events import Event
from server.streaming.threads import (
    ResumeMismatch,
    StalePause,
    ThreadBusy,
    ThreadManager,
    ThreadNotFound,
    ThreadWaiting,
)

router = APIRouter(tags=["threads"])

HEARTBEAT_SECONDS = 15
DEFAULT_PROJECT = "default"


async def startup(app: FastAPI, stack: AsyncExitStack) -> None:
    """Build the graph, its checkpointer, the source clients and the thread manager for the app's life."""
    services: Services = app.state.services
    if services.database is None or "threads" in services.extras:
        return

    sources = await stack.enter_async_context(open_sources(services.settings))
    graph = build_graph(await postgres_checkpointer(services.database.pool))
    context = GraphContext(
        settings=services.settings,
        store=services.store,
        llm=services.llm,
        sources=sources,
        database=services.database,
    )
    manager = ThreadManager(graph, context, services.database.pool)
    stack.push_async_callback(manager.shutdown)
    await manager.prune()
    await manager.start()  # listens for other workers' events; closes steps a crash cut
    services.extras["threads"] = manager


def get_threads(services: ServicesDep) -> ThreadManager:
    manager = services.extras.get("threads")
    if manager is None:
        raise HTTPException(503, "conversations need the database, which is not available; see /healthz")
    return manager


ThreadsDep = Annotated[ThreadManager, Depends(get_threads)]


class ThreadCreate(BaseModel):
    project_id: str = Field(DEFAULT_PROJECT, description="the Project this conversation belongs to")


class MessageIn(BaseModel):
    text: str | None = Field(None, description="a user message (a description, an answer, a question)")
    resume: dict[str, Any] | None = Field(None, description="a structured reply to the pending interrupt")
    mode: Literal["search", "ask", "map"] | None = Field(None, description="force what the message asks for")
    options: ConversationOptions = Field(
        default_factory=ConversationOptions, description="sources, max_per_source, top_k, rerank, probes"
    )
    pause_id: str | None = Field(
        None, description="the pause this reply answers (from the interrupt event); a stale one gets 409"
    )


class ActiveRun(BaseModel):
    run_id: str


def _not_found(exc: Exception) -> HTTPException:
    return HTTPException(404, str(exc))


async def _thread(threads: ThreadManager, thread_id: str) -> str:
    """404 unless the thread exists (422 for an id that cannot be one); its project id (cached)."""
    try:
        return await threads.project_of(validate_key(thread_id))
    except ThreadNotFound as exc:
        raise _not_found(exc) from None
    except InvalidInput as exc:
        raise HTTPException(422, str(exc)) from None


def _start_error(exc: Exception) -> HTTPException:
    """The status of a message, reply or retry that cannot start: always before any stream."""
    if isinstance(exc, ThreadBusy | StalePause):
        return HTTPException(409, str(exc))
    return HTTPException(422, str(exc))


def sse(events: AsyncIterator[Event]) -> EventSourceResponse:
    async def frames() -> AsyncIterator[ServerSentEvent]:
        async for event in events:
            payload = {"id": event.id, "type": event.type, "data": event.data, "ts": event.ts.isoformat()}
            yield ServerSentEvent(
                id=str(event.id), event=event.type, data=json.dumps(payload, ensure_ascii=False)
            )

    return EventSourceResponse(frames(), ping=HEARTBEAT_SECONDS)


@router.post("/threads", status_code=201)
async def create_thread(body: ThreadCreate, threads: ThreadsDep, services: ServicesDep) -> dict[str, Any]:
    if body.project_id == DEFAULT_PROJECT:
        services.store.ensure_project(DEFAULT_PROJECT, "Default project")
    else:
        services.store.get_project(body.project_id)  # 404 when absent
    thread = await threads.create(body.project_id)
    return {"thread_id": thread["thread_id"], "project_id": thread["project_id"]}


@router.get("/threads/{thread_id}")
async def thread_state(thread_id: str, threads: ThreadsDep) -> dict[str, Any]:
    await _thread(threads, thread_id)
    try:
        return await threads.state(thread_id)
    except ThreadNotFound as exc:
        raise _not_found(exc) from None


@router.get("/threads/{thread_id}/history")
async def thread_history(thread_id: str, threads: ThreadsDep) -> list[dict[str, Any]]:
    await _thread(threads, thread_id)
    try:
        return await threads.history(thread_id)
    except ThreadNotFound as exc:
        raise _not_found(exc) from None


@router.post("/threads/{thread_id}/messages")
async def post_message(thread_id: str, body: MessageIn, threads: ThreadsDep) -> EventSourceResponse:
    await _thread(threads, thread_id)
    if body.text is None and body.resume is None:
        raise HTTPException(422, "send 'text' (a message) or 'resume' (a reply to the pending question)")
    try:
        before = await threads.submit(
            thread_id,
            text=body.text,
            resume=body.resume,
            mode=body.mode,
            options=body.options.model_dump(mode="json", exclude_none=True),
            pause_id=body.pause_id,
        )
    except (ThreadBusy, StalePause, ResumeMismatch, InvalidInput) as exc:
        raise _start_error(exc) from None
    return sse(threads.follow(thread_id, before))


@router.post("/threads/{thread_id}/retry")
async def retry_step(thread_id: str, threads: ThreadsDep) -> EventSourceResponse:
    """Run the step a stopped server (or a failure) cut again, from its checkpoint; streamed like a message."""
    await _thread(threads, thread_id)
    try:
        before = await threads.retry(thread_id)
    except (ThreadBusy, ResumeMismatch) as exc:
        raise _start_error(exc) from None
    return sse(threads.follow(thread_id, before))


@router.get("/threads/{thread_id}/events")
async def replay_events(
    thread_id: str,
    threads: ThreadsDep,
    last_event_id: Annotated[str | None, Header()] = None,
    after: Annotated[int | None, Query(ge=0, description="replay events after this id")] = None,
) -> EventSourceResponse:
    await _thread(threads, thread_id)
    start = after if after is not None else 0
    if last_event_id is not None:
        if not last_event_id.strip().isdigit():
            raise HTTPException(400, "Last-Event-ID must be the integer id of the last event received")
        start = int(last_event_id)
    return sse(threads.follow(thread_id, start))


@router.post("/threads/{thread_id}/cancel")
async def cancel_thread(thread_id: str, threads: ThreadsDep) -> dict[str, bool]:
    await _thread(threads, thread_id)
    try:
        return {"cancelled": await threads.cancel(thread_id)}
    except ThreadNotFound as exc:
        raise _not_found(exc) from None


@router.put("/threads/{thread_id}/active-run")
async def set_active_run(thread_id: str, body: ActiveRun, threads: ThreadsDep) -> dict[str, Any]:
    await _thread(threads, thread_id)
    try:
        await threads.set_active_run(thread_id, body.run_id)
    except ThreadNotFound as exc:
        raise _not_found(exc) from None
    except (ThreadBusy, ThreadWaiting) as exc:
        raise HTTPException(409, str(exc)) from None
    except ResumeMismatch as exc:
        raise HTTPException(422, str(exc)) from None
    return {"thread_id": thread_id, "active_run_id": body.run_id}
