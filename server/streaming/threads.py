"""Conversation threads: running the graph in the background and keeping every event replayable.

A message or resume starts one background task per thread that drives the graph and appends each event
to `thread_events` in PostgreSQL. Clients only *read* that log (live, or from a `Last-Event-ID`), so a
client that disconnects never cancels a search, and a reconnecting client gets exactly what it missed.
Only `cancel()` stops a task. Checkpoints are in PostgreSQL too, so after a restart a thread resumes
from its last interrupt.

Nothing that decides who may run a thread lives only in this process (see `server/streaming/workers.py`): the busy
flag is an advisory lock, event ids come from the thread's row, live events are announced with NOTIFY.
So several workers or hosts serve the same threads. A step cut by a crash is closed at the next start
(`error` + `done {"state": "interrupted"}`) and `retry` runs it again from its checkpoint.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

from langgraph.types import Command
from pydantic import ValidationError

from agent.errors import ConversationError
from graph.context import GraphContext
from graph.interrupts import REPLY_MODELS, expected_fields, reply_from_text
from server.inputs import (
    MAX_MESSAGE_CHARS,
    InvalidInput,
    ResumeMismatch,
    validate_key,
    validate_new_message,
    validate_options,
    validate_reply,
    validate_text,
)
from server.streaming.events import Event
from server.streaming.failures import public_failure
from server.streaming.heap import settle_once
from server.streaming.workers import CHANNEL, WorkerLinks

log = logging.getLogger(__name__)

__all__ = ["MAX_MESSAGE_CHARS", "InvalidInput", "ResumeMismatch", "ThreadManager"]

FINISHING_GRACE_SECONDS = 3.0  # how long a request waits for a task that has sent `done` to let go
KNOWN_PROJECTS = 10_000  # thread -> project entries kept in memory (a query brings back any other)
RETRY_WORDS = frozenset({"retry", "/retry", "重试"})


class ThreadNotFound(ConversationError, LookupError):
    def __init__(self, thread_id: str) -> None:
        super().__init__(f"thread '{thread_id}' does not exist")


class ThreadBusy(ConversationError):
    def __init__(self, thread_id: str) -> None:
        super().__init__(f"thread '{thread_id}' is already working on a message; wait for it or cancel it")


class ThreadWaiting(ConversationError):
    """The thread waits for a reply to a question; some changes must wait until it is answered."""

    def __init__(self, thread_id: str, kind: str) -> None:
        super().__init__(
            f"thread '{thread_id}' waits for a reply to its {kind} question; answer it before switching "
            "the active Run"
        )


class StalePause(ConversationError):
    """A reply names a pause that is not the one the thread waits on now (a double click, an old tab)."""

    def __init__(self, named: str, current: dict[str, Any] | None) -> None:
        now = (
            f"it now waits on pause '{current['pause_id']}' ({current['kind']})"
            if current
            else "it waits on no pause now"
        )
        super().__init__(f"this reply answers pause '{named}', which is over: {now}")
        self.current = current


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
        self.links = WorkerLinks(pool.conninfo)
        # Per-thread entries live only while they are needed: a task while it runs (and `_starting`
        # while it is being set up), a wake-up event while someone follows the thread.
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._starting: set[str] = set()
        self._changed: dict[str, asyncio.Event] = {}
        self._followers: dict[str, int] = {}
        # Thread -> project. Threads never move, so a thread seen once needs no query after that (even
        # with several workers on one database); bounded, the oldest entries are forgotten first.
        self._projects: OrderedDict[str, str] = OrderedDict()
        # Live events of the running task, so followers get them without one SELECT per event. Purely a
        # shortcut: each entry is (last event id before the buffer, events since), and whatever a follower
        # cannot find here contiguously it reads from thread_events, which stays the source of truth.
        self._live: dict[str, tuple[int, list[Event]]] = {}

    async def start(self) -> int:
        """Listen for other workers' events and close the steps a crash cut; returns how many."""
        self.links.listen(self._wake, self._cancel_here)
        return await self.recover_interrupted()

    def _wake(self, thread_id: str) -> None:
        changed = self._changed.get(thread_id)
        if changed is not None:
            changed.set()

    # -- threads ------------------------------------------------------------------------------------

    async def create(self, project_id: str, *, chat_key: str | None = None) -> dict[str, Any]:
        """A new thread; with a `chat_key`, the thread of that key (two first requests race to one thread)."""
        if chat_key is not None:
            validate_key(chat_key, "chat key")
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
        validate_key(thread_id)
        async with self.pool.connection() as conn:
            cursor = await conn.execute("SELECT * FROM threads WHERE thread_id = %s", (thread_id,))
            row = await cursor.fetchone()
        if row is None:
            raise ThreadNotFound(thread_id)
        self._projects[thread_id] = row["project_id"]
        if len(self._projects) > KNOWN_PROJECTS:
            self._projects.popitem(last=False)
        return dict(row)

    async def project_of(self, thread_id: str) -> str:
        """The thread's project; ThreadNotFound if there is no such thread (a query only the first time)."""
        project = self._projects.get(thread_id)
        return project if project is not None else (await self.get(thread_id))["project_id"]

    async def by_chat_key(self, chat_key: str) -> dict[str, Any] | None:
        validate_key(chat_key, "chat key")
        async with self.pool.connection() as conn:
            cursor = await conn.execute("SELECT * FROM threads WHERE chat_key = %s", (chat_key,))
            row = await cursor.fetchone()
        return dict(row) if row else None

    def _config(self, thread_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread_id}}

    async def pending(self, thread_id: str) -> dict[str, Any] | None:
        """The payload of the interrupt the thread waits on (with its `pause_id`), if any."""
        return _pending_of(await self.graph.aget_state(self._config(thread_id)))

    async def state(self, thread_id: str) -> dict[str, Any]:
        project_id = await self.project_of(thread_id)
        # One snapshot for everything (loading a checkpoint is the costly part of this call).
        snapshot = await self.graph.aget_state(self._config(thread_id))
        values = dict(snapshot.values or {})
        return {
            "thread_id": thread_id,
            "project_id": project_id,
            "busy": await self.busy_anywhere(thread_id),
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
        async with self._claimed(thread_id):
            # Updating the state makes a new checkpoint, and LangGraph keeps no interrupt on it: the
            # pending question would vanish (a resume then got 422 "not waiting"). So not while one waits.
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
        """Whether this process works on the thread (see `busy_anywhere` for every process)."""
        task = self._tasks.get(thread_id)
        return thread_id in self._starting or (task is not None and not task.done())

    async def busy_anywhere(self, thread_id: str) -> bool:
        if self.busy(thread_id):
            return True
        async with self.pool.connection() as conn:
            return await self.links.locked_anywhere(conn, thread_id)

    @contextlib.asynccontextmanager
    async def _claimed(self, thread_id: str) -> AsyncIterator[None]:
        """Hold the thread against every process for the block; ThreadBusy if anyone works on it.

        A thread whose last event is `done` is only finishing (its task releases it a moment later):
        a reply sent as soon as the client read `done`, maybe to another worker, waits for that instead
        of getting 409.
        """
        deadline = time.monotonic() + FINISHING_GRACE_SECONDS
        while True:
            if not self.busy(thread_id):
                self._starting.add(thread_id)  # no await before this: requests of this process queue here
                if await self.links.try_lock(thread_id):
                    break
                self._starting.discard(thread_id)
            if time.monotonic() > deadline or not await self._finishing(thread_id):
                raise ThreadBusy(thread_id)
            await asyncio.sleep(0.02)
        try:
            try:
                yield
            finally:
                await self.links.unlock(thread_id)
        finally:
            self._starting.discard(thread_id)

    async def _finishing(self, thread_id: str) -> bool:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT e.type FROM threads t JOIN thread_events e"
                " ON e.thread_id = t.thread_id AND e.event_id = t.last_event_id WHERE t.thread_id = %s",
                (thread_id,),
            )
            row = await cursor.fetchone()
        return row is not None and row["type"] == "done"

    async def submit(
        self,
        thread_id: str,
        *,
        text: str | None = None,
        resume: dict[str, Any] | None = None,
        mode: str | None = None,
        options: dict[str, Any] | None = None,
        pause_id: str | None = None,
    ) -> int:
        """Start the graph on a message or a resume; returns the last event id before this submission.

        `pause_id` names the pause a reply answers: a reply to a pause that is over raises StalePause.
        A plain `retry` message (with nothing pending) runs a step cut by a crash or a failure again.
        """
        project_id = await self.project_of(thread_id)
        if text is not None:
            validate_text(text, what="message" if resume is None else "text")
        if resume is not None:
            validate_reply(resume)
        options = validate_options(options)
        async with self._claimed(thread_id):
            snapshot = await self.graph.aget_state(self._config(thread_id))
            pending = _pending_of(snapshot)
            graph_input: Any
            if pause_id is not None and (pending is None or pending["pause_id"] != pause_id):
                raise StalePause(pause_id, pending)
            if resume is not None or (pending is not None and text is not None and mode is None):
                graph_input = _reply_input(pending, text, resume, options)
            elif text is not None and mode is None and _is_retry(text) and snapshot.next:
                graph_input = None  # run the interrupted step again from its checkpoint
            else:
                if text is None:
                    raise ResumeMismatch("send a non-empty 'text' message (or a 'resume' payload)")
                validate_new_message(text)
                graph_input = {"message": text, "mode": mode, "project_id": project_id}
                if options:
                    graph_input["options"] = options
            stored = dict((snapshot.values or {}).get("options") or {})
            return await self._start(thread_id, graph_input, {**stored, **options})

    async def retry(self, thread_id: str) -> int:
        """Run the step a crash (or a failure) cut again, from its checkpoint; like `submit`, returns the
        last event id before it. ResumeMismatch when there is nothing to retry."""
        await self.project_of(thread_id)
        async with self._claimed(thread_id):
            snapshot = await self.graph.aget_state(self._config(thread_id))
            pending = _pending_of(snapshot)
            if pending is not None:
                raise ResumeMismatch(
                    f"nothing to retry: the thread waits for a reply to its {pending['kind']} question"
                )
            if not snapshot.next:
                raise ResumeMismatch("nothing to retry: the thread's last step finished; send a message")
            return await self._start(thread_id, None, dict((snapshot.values or {}).get("options") or {}))

    async def _start(self, thread_id: str, graph_input: Any, options: dict[str, Any]) -> int:
        """Start the task (inside `_claimed`: the thread's lock is taken again for the task's life)."""
        before = await self._last_event_id(thread_id)
        context = dataclasses.replace(self.context, options={**self.context.options, **options})
        if not await self.links.try_lock(thread_id):  # nests in this process's session; the task's own
            raise ThreadBusy(thread_id)
        self._live[thread_id] = (before, [])
        self._tasks[thread_id] = asyncio.create_task(self._drive(thread_id, graph_input, context))
        return before

    async def cancel(self, thread_id: str) -> bool:
        """Stop the thread's task, wherever it runs; False when none runs. Returns once it has stopped
        (its `done {"state": "cancelled"}` is stored) or, for another process, after at most 10 s."""
        await self.project_of(thread_id)
        task = self._tasks.get(thread_id)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            return True
        if not await self.busy_anywhere(thread_id):
            return False
        async with self.pool.connection() as conn:
            await self.links.ask_cancel(conn, thread_id)
        deadline = time.monotonic() + 10.0
        while await self.busy_anywhere(thread_id) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return True

    def _cancel_here(self, thread_id: str) -> None:
        task = self._tasks.get(thread_id)
        if task is not None and not task.done():
            task.cancel()

    async def shutdown(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.links.close()

    async def _drive(self, thread_id: str, graph_input: Any, context: GraphContext) -> None:
        try:
            await self._run_graph(thread_id, graph_input, context)
        finally:
            # Followers read anything after this from thread_events (see `follow`).
            self._live.pop(thread_id, None)
            if self._tasks.get(thread_id) is asyncio.current_task():
                del self._tasks[thread_id]
            await asyncio.shield(self.links.unlock(thread_id))
            self._wake(thread_id)

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
                                payload = {**dict(item.value), "pause_id": item.id}
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
            if new_run:
                settle_once()  # after the first Run of this process, freeze the long-lived heap (heap.py)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await asyncio.shield(self.append(thread_id, "done", {"state": "cancelled"}))
            raise
        except Exception as exc:
            # A named failure keeps its message; anything else (a bug, a library's error) is logged with
            # its traceback and reaches the client as a generic sentence with a reference (never its text).
            failure = public_failure(
                exc,
                log,
                doing="working on this message",
                next_step="Send 'retry' to run the step again.",
                where=f"thread {thread_id}",
            )
            error: dict[str, Any] = {"message": failure.message, "kind": failure.kind}
            if failure.reference:
                error["reference"] = failure.reference
            await self.append(thread_id, "error", error)
            await self.append(thread_id, "done", {"state": "failed"})

    async def recover_interrupted(self) -> int:
        """Close every thread whose last event is not `done` and that no process works on: the process
        that ran it died mid-step. Each gets `error` + `done {"state": "interrupted"}`; `retry` resumes."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT t.thread_id FROM threads t JOIN thread_events e"
                " ON e.thread_id = t.thread_id AND e.event_id = t.last_event_id WHERE e.type <> 'done'"
            )
            candidates = [row["thread_id"] for row in await cursor.fetchall()]
        closed = 0
        for thread_id in candidates:
            with contextlib.suppress(ThreadBusy):
                async with self._claimed(thread_id):
                    events = await self.events_after(thread_id, await self._last_event_id(thread_id) - 1)
                    if events and events[-1].type == "done":  # closed meanwhile by another worker
                        continue
                    await self.append(
                        thread_id,
                        "error",
                        {
                            "message": "the server stopped while this thread was working; send 'retry' "
                            f"(or POST /threads/{thread_id}/retry) to run the interrupted step again",
                            "kind": "interrupted",
                        },
                    )
                    await self.append(thread_id, "done", {"state": "interrupted"})
                    closed += 1
        if closed:
            log.warning("closed %d thread(s) whose step a stopped server had cut", closed)
        return closed

    # -- the event log -------------------------------------------------------------------------------------

    async def append(self, thread_id: str, type: str, data: dict[str, Any]) -> Event:
        """Store one event under the next id of the thread's counter, and announce it to every worker."""
        event = Event.make(0, type, data)
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "WITH next AS (UPDATE threads SET last_event_id = last_event_id + 1 WHERE thread_id = %s"
                "  RETURNING last_event_id),"
                " stored AS (INSERT INTO thread_events (thread_id, event_id, type, data, ts)"
                "  SELECT %s, last_event_id, %s, %s, %s FROM next RETURNING event_id)"
                " SELECT event_id, pg_notify(%s, %s) FROM stored",
                (
                    thread_id,
                    thread_id,
                    event.type,
                    json.dumps(event.data, ensure_ascii=False),
                    event.ts,
                    CHANNEL,
                    thread_id,
                ),
            )
            row = await cursor.fetchone()
        if row is None:
            raise ThreadNotFound(thread_id)
        event.id = int(row["event_id"])
        live = self._live.get(thread_id)
        if live is not None:
            live[1].append(event)
        self._wake(thread_id)
        return event

    async def _last_event_id(self, thread_id: str) -> int:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT last_event_id FROM threads WHERE thread_id = %s", (thread_id,)
            )
            row = await cursor.fetchone()
        return int(row["last_event_id"]) if row else 0

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
        """Every event after `after`, then live ones until the running task ends (or none runs), wherever
        it runs: another worker's events arrive through NOTIFY."""
        await self.project_of(thread_id)
        changed = self._changed.setdefault(thread_id, asyncio.Event())
        self._followers[thread_id] = self._followers.get(thread_id, 0) + 1
        try:
            while True:
                changed.clear()
                # Whether a task runs is looked at *before* reading: a task that is done has committed
                # all its events, so this read gets them all and the stream may end after it. (Looking
                # after the read lost a task's last events, e.g. `done` after a cancel.)
                local = self.busy(thread_id)
                idle = not local and not await self.busy_anywhere(thread_id)
                events = self._live_after(thread_id, after) if local else None
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
        finally:
            self._followers[thread_id] -= 1
            if not self._followers[thread_id]:
                del self._followers[thread_id]
                self._changed.pop(thread_id, None)

    async def prune(self) -> int:
        """Forget events older than the retention window."""
        cutoff = datetime.now(UTC) - self.retention
        async with self.pool.connection() as conn:
            cursor = await conn.execute("DELETE FROM thread_events WHERE ts < %s", (cutoff,))
            return cursor.rowcount


_KNOWN = frozenset({"node", "text", "search_progress", "run_ready", "citation", "map_ready", "info", "error"})


def _pending_of(snapshot: Any) -> dict[str, Any] | None:
    """The payload of the interrupt a state snapshot waits on, with the pause's id, if any."""
    for task in snapshot.tasks or ():
        for item in task.interrupts or ():
            return {**dict(item.value), "pause_id": item.id}
    return None


def _is_retry(text: str) -> bool:
    return text.strip().strip(".!。！").lower() in RETRY_WORDS


def _reply_input(
    pending: dict[str, Any] | None, text: str | None, resume: dict[str, Any] | None, options: dict[str, Any]
) -> Command:
    """The graph input answering the pending pause with a structured reply or a text one."""
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
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors())
        raise ResumeMismatch(
            f"the thread waits for a {kind} reply with fields: {expected_fields(kind)} ({problems})"
        ) from None
    # Options sent with a reply are kept in the conversation's state, like those sent with a message.
    return Command(resume=reply.model_dump(mode="json"), update={"options": options} if options else None)
