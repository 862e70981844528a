"""Conversation threads: running the graph in the background and keeping every event replayable.

A message or resume starts one background task per thread that drives the graph and appends each event
to `thread_events` in PostgreSQL. Clients only *read* that log (live, or from a `Last-Event-ID`), so a
client that disconnects never cancels a search, and a reconnecting client gets exactly what it missed.
Only `cancel()` stops a task. Checkpoints are in PostgreSQL too, so after a restart a thread resumes
from its last interrupt.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

from langgraph.types import Command
from pydantic import ValidationError

from graph.context import GraphContext
from graph.interrupts import REPLY_MODELS, expected_fields, reply_from_text
from server.events import Event

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 20_000


class ThreadNotFound(LookupError):
    def __init__(self, thread_id: str) -> None:
        super().__init__(f"thread '{thread_id}' does not exist")


class ThreadBusy(Exception):
    def __init__(self, thread_id: str) -> None:
        super().__init__(f"thread '{thread_id}' is already working on a message; wait for it or cancel it")


class ThreadWaiting(Exception):
    """The thread waits for a reply to a question; some changes must wait until it is answered."""

    def __init__(self, thread_id: str, kind: str) -> None:
        super().__init__(
            f"thread '{thread_id}' waits for a reply to its {kind} question; answer it before switching "
            "the active Run"
        )


class ResumeMismatch(ValueError):
    """A resume payload that does not fit the pending interrupt (or nothing is pending)."""


def new_thread_id() -> str:
    return f"th_{secrets.token_hex(8)}"


class ThreadManager:
    def __init__(
        self, graph: Any, context: GraphContext, pool: Any, *, retention_hours: float = 168.0
    ) -> None:
        self.graph = graph
        self.context = context
        self.pool = pool
        self.retention = timedelta(hours=retention_hours)
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._next_id: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._changed: dict[str, asyncio.Event] = {}
        # Thread -> project. Threads are never deleted and never move, so a thread seen once exists for
        # good: its existence check costs no query after that (even with several workers on one database).
        self._projects: dict[str, str] = {}
        # Live events of the running task, so followers get them without one SELECT per event. Purely a
        # shortcut: each entry is (last event id before the buffer, events since), and whatever a follower
        # cannot find here contiguously it reads from thread_events, which stays the source of truth.
        self._live: dict[str, tuple[int, list[Event]]] = {}

    # -- threads ------------------------------------------------------------------------------------

    async def create(self, project_id: str, *, chat_key: str | None = None) -> dict[str, Any]:
        """A new thread; with a `chat_key`, the thread of that key (two first requests race to one thread)."""
        thread_id = new_thread_id()
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "INSERT INTO threads (thread_id, project_id, chat_key) VALUES (%s, %s, %s)"
                " ON CONFLICT (chat_key) DO NOTHING RETURNING thread_id",
                (thread_id, project_id, chat_key),
            )
            if await cursor.fetchone() is None:  # the key already has a thread: use it (same connection)
                cursor = await conn.execute("SELECT * FROM threads WHERE chat_key = %s", (chat_key,))
                existing = await cursor.fetchone()
                if existing is None:  # pragma: no cover - a conflict implies the row exists
                    raise RuntimeError(f"thread for chat key {chat_key!r} vanished")
                return dict(existing)
        return await self.get(thread_id)

    async def get(self, thread_id: str) -> dict[str, Any]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute("SELECT * FROM threads WHERE thread_id = %s", (thread_id,))
            row = await cursor.fetchone()
        if row is None:
            raise ThreadNotFound(thread_id)
        self._projects[thread_id] = row["project_id"]
        return dict(row)

    async def project_of(self, thread_id: str) -> str:
        """The thread's project; ThreadNotFound if there is no such thread (a query only the first time)."""
        project = self._projects.get(thread_id)
        return project if project is not None else (await self.get(thread_id))["project_id"]

    async def by_chat_key(self, chat_key: str) -> dict[str, Any] | None:
        async with self.pool.connection() as conn:
            cursor = await conn.execute("SELECT * FROM threads WHERE chat_key = %s", (chat_key,))
            row = await cursor.fetchone()
        return dict(row) if row else None

    def _config(self, thread_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread_id}}

    async def pending(self, thread_id: str) -> dict[str, Any] | None:
        """The payload of the interrupt the thread waits on, if any."""
        return _pending_of(await self.graph.aget_state(self._config(thread_id)))

    async def state(self, thread_id: str) -> dict[str, Any]:
        project_id = await self.project_of(thread_id)
        # One snapshot for everything (loading a checkpoint is the costly part of this call).
        snapshot = await self.graph.aget_state(self._config(thread_id))
        values = dict(snapshot.values or {})
        return {
            "thread_id": thread_id,
            "project_id": project_id,
            "busy": self.busy(thread_id),
            "pending": _pending_of(snapshot),
            "next": list(snapshot.next or ()),
            "active_run_id": values.get("active_run_id"),
            "run_ids": values.get("run_ids", []),
            "values": values,
            "last_event_id": await self._last_event_id(thread_id),
        }

    async def history(self, thread_id: str, *, limit: int = 100) -> list[dict[str, Any]]:
        await self.project_of(thread_id)
        out = []
        async for snapshot in self.graph.aget_state_history(self._config(thread_id), limit=limit):
            out.append(
                {
                    "checkpoint_id": snapshot.config["configurable"].get("checkpoint_id"),
                    "created_at": snapshot.created_at,
                    "next": list(snapshot.next or ()),
                    "step": (snapshot.metadata or {}).get("step"),
                    "source": (snapshot.metadata or {}).get("source"),
                }
            )
        return out

    async def set_active_run(self, thread_id: str, run_id: str) -> None:
        project_id = await self.project_of(thread_id)
        run = self.context.store.get_run(run_id)
        if run.project_id != project_id:
            raise ResumeMismatch(
                f"run '{run_id}' belongs to project '{run.project_id}', not this thread's project"
            )
        if self.busy(thread_id):
            raise ThreadBusy(thread_id)
        # Updating the state makes a new checkpoint, and LangGraph keeps no interrupt on it: the pending
        # question would vanish (a resume then got 422 "not waiting for a reply"). So not while one waits.
        if (pending := await self.pending(thread_id)) is not None:
            raise ThreadWaiting(thread_id, pending["kind"])
        await self.graph.aupdate_state(self._config(thread_id), {"active_run_id": run_id})
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE threads SET active_run_id = %s, updated_at = now() WHERE thread_id = %s",
                (run_id, thread_id),
            )

    # -- running ----------------------------------------------------------------------------------------

    def busy(self, thread_id: str) -> bool:
        task = self._tasks.get(thread_id)
        return task is not None and not task.done()

    async def submit(
        self,
        thread_id: str,
        *,
        text: str | None = None,
        resume: dict[str, Any] | None = None,
        mode: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> int:
        """Start the graph on a message or a resume; returns the last event id before this submission."""
        project_id = await self.project_of(thread_id)
        if self.busy(thread_id):
            raise ThreadBusy(thread_id)
        pending = await self.pending(thread_id)
        graph_input: Any
        if resume is not None or (pending is not None and text is not None and mode is None):
            if pending is None:
                raise ResumeMismatch("this thread is not waiting for a reply; send a message instead")
            kind = pending["kind"]
            try:
                reply = (
                    REPLY_MODELS[kind].model_validate(resume)
                    if resume is not None
                    else reply_from_text(kind, text or "")
                )
            except ValidationError as exc:
                problems = "; ".join(
                    f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors()
                )
                raise ResumeMismatch(
                    f"the thread waits for a {kind} reply with fields: {expected_fields(kind)} ({problems})"
                ) from None
            # Options sent with a reply are kept in the conversation's state, like those sent with a message.
            graph_input = Command(
                resume=reply.model_dump(mode="json"), update={"options": options} if options else None
            )
        else:
            if not text or not text.strip():
                raise ResumeMismatch("send a non-empty 'text' message (or a 'resume' payload)")
            if len(text) > MAX_MESSAGE_CHARS:
                raise ResumeMismatch(f"the message is longer than {MAX_MESSAGE_CHARS} characters; shorten it")
            graph_input = {"message": text, "mode": mode, "project_id": project_id}
            if options:
                graph_input["options"] = options
        known = self._next_id.get(thread_id)
        before = known - 1 if known is not None else await self._last_event_id(thread_id)
        context = dataclasses.replace(self.context, options={**self.context.options, **(options or {})})
        if self.busy(thread_id):  # checked again with no await before the task starts: no double start
            raise ThreadBusy(thread_id)
        self._live[thread_id] = (before, [])
        self._tasks[thread_id] = asyncio.create_task(self._drive(thread_id, graph_input, context))
        return before

    async def cancel(self, thread_id: str) -> bool:
        await self.project_of(thread_id)
        task = self._tasks.get(thread_id)
        if task is None or task.done():
            return False
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        return True

    async def shutdown(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _drive(self, thread_id: str, graph_input: Any, context: GraphContext) -> None:
        try:
            await self._run_graph(thread_id, graph_input, context)
        finally:
            # Followers read anything after this from thread_events (see `follow`).
            self._live.pop(thread_id, None)

    async def _run_graph(self, thread_id: str, graph_input: Any, context: GraphContext) -> None:
        new_run = False
        try:
            async for mode, chunk in self.graph.astream(
                graph_input, self._config(thread_id), context=context, stream_mode=["custom", "updates"]
            ):
                if mode == "custom" and isinstance(chunk, dict):
                    data = dict(chunk)
                    kind = data.pop("type", "info")
                    new_run = new_run or kind == "run_ready"
                    await self.append(
                        thread_id,
                        kind if kind in _KNOWN else "info",
                        data if kind in _KNOWN else {"kind": kind, **data},
                    )
                elif mode == "updates" and isinstance(chunk, dict):
                    for node, update in chunk.items():
                        if node == "__interrupt__":
                            for item in update:
                                payload = dict(item.value)
                                payload["expects"] = expected_fields(payload["kind"])
                                await self.append(thread_id, "interrupt", payload)
                        else:
                            await self.append(thread_id, "node", {"node": node, "status": "finished"})
            snapshot = await self.graph.aget_state(self._config(thread_id))
            active_run_id = (snapshot.values or {}).get("active_run_id")
            if new_run and active_run_id:  # only a search changes the active Run within a pass
                async with self.pool.connection() as conn:
                    await conn.execute(
                        "UPDATE threads SET active_run_id = %s, updated_at = now() WHERE thread_id = %s",
                        (active_run_id, thread_id),
                    )
            pending = _pending_of(snapshot)
            await self.append(
                thread_id,
                "done",
                {"state": "waiting" if pending else "finished", "pending": pending and pending["kind"]},
            )
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await asyncio.shield(self.append(thread_id, "done", {"state": "cancelled"}))
            raise
        except Exception as exc:
            log.exception("thread %s failed", thread_id)
            await self.append(
                thread_id, "error", {"message": _public_message(exc), "kind": type(exc).__name__}
            )
            await self.append(thread_id, "done", {"state": "failed"})

    # -- the event log -------------------------------------------------------------------------------------

    async def append(self, thread_id: str, type: str, data: dict[str, Any]) -> Event:
        lock = self._locks.setdefault(thread_id, asyncio.Lock())
        async with lock:
            if thread_id not in self._next_id:
                self._next_id[thread_id] = await self._last_event_id(thread_id) + 1
            event = Event.make(self._next_id[thread_id], type, data)
            try:
                async with self.pool.connection() as conn:
                    await conn.execute(
                        "INSERT INTO thread_events (thread_id, event_id, type, data, ts) VALUES (%s, %s, %s, %s, %s)",
                        (
                            thread_id,
                            event.id,
                            event.type,
                            json.dumps(event.data, ensure_ascii=False),
                            event.ts,
                        ),
                    )
            except BaseException:
                # A cancel (or error) may land after the INSERT committed, e.g. while the connection goes
                # back to the pool: forget the counter so the next append reads the table again, instead
                # of reusing this id and failing on the primary key (which lost the `cancelled` event).
                self._next_id.pop(thread_id, None)
                raise
            self._next_id[thread_id] = event.id + 1
            live = self._live.get(thread_id)
            if live is not None:
                live[1].append(event)
        self._changed.setdefault(thread_id, asyncio.Event()).set()
        return event

    async def _last_event_id(self, thread_id: str) -> int:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT coalesce(max(event_id), 0) AS last FROM thread_events WHERE thread_id = %s",
                (thread_id,),
            )
            row = await cursor.fetchone()
        return int(row["last"])

    async def events_after(self, thread_id: str, after: int) -> list[Event]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT event_id, type, data, ts FROM thread_events WHERE thread_id = %s AND event_id > %s"
                " ORDER BY event_id",
                (thread_id, after),
            )
            rows = await cursor.fetchall()
        # In UTC like the live events served from memory, whatever the database session's TimeZone.
        return [
            Event(id=r["event_id"], type=r["type"], data=r["data"], ts=r["ts"].astimezone(UTC)) for r in rows
        ]

    def _live_after(self, thread_id: str, after: int) -> list[Event] | None:
        """The running task's events after `after` from memory; None when memory cannot tell them all."""
        live = self._live.get(thread_id)
        if live is None or live[0] > after:
            return None
        return [event for event in live[1] if event.id > after]

    async def follow(self, thread_id: str, after: int) -> AsyncIterator[Event]:
        """Every event after `after`, then live ones until the running task ends (or none runs)."""
        await self.project_of(thread_id)
        changed = self._changed.setdefault(thread_id, asyncio.Event())
        while True:
            changed.clear()
            # Whether a task runs is looked at *before* reading: a task that is done has committed all
            # its events, so this read gets them all and the stream may end after it. (Looking after the
            # read lost a task's last events, e.g. `done` after a cancel, when it ended in between.)
            idle = not self.busy(thread_id)
            events = None if idle else self._live_after(thread_id, after)
            if events is None:
                events = await self.events_after(thread_id, after)
            for event in events:
                yield event
                after = event.id
            if idle:
                return
            if events and events[-1].type == "done":
                await asyncio.sleep(0.02)  # the task is just finishing, or a new one is starting
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout=5.0)

    async def prune(self) -> int:
        """Forget events older than the retention window."""
        cutoff = datetime.now(UTC) - self.retention
        async with self.pool.connection() as conn:
            cursor = await conn.execute("DELETE FROM thread_events WHERE ts < %s", (cutoff,))
            return cursor.rowcount


_KNOWN = frozenset({"node", "text", "search_progress", "run_ready", "citation", "map_ready", "info", "error"})


def _pending_of(snapshot: Any) -> dict[str, Any] | None:
    """The payload of the interrupt a state snapshot waits on, if any."""
    for task in snapshot.tasks or ():
        for item in task.interrupts or ():
            return dict(item.value)
    return None


def _public_message(exc: Exception) -> str:
    """An error message fit for a client: the exception's own text, never a traceback."""
    text = str(exc).strip() or type(exc).__name__
    return text[:500]
