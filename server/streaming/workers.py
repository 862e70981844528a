"""What lets several server processes (workers, hosts) serve the same threads on one PostgreSQL.

- **Busy flag**: a thread is busy while some process holds its session-level advisory lock. Each process
  keeps one connection for its locks; a process that dies loses that connection and so its locks, so a
  crash never leaves a thread busy for good (no lease to expire, no row to clean).
- **Live events**: every appended event is announced with `NOTIFY` on one channel (payload: the thread
  id); each process `LISTEN`s on its own connection and wakes the followers of that thread, so a client
  following `/events` on one worker sees events produced on another as they happen.
- **Cancel**: a cancel for a thread that runs elsewhere is a `NOTIFY` on a second channel; the process
  running it cancels its task.

Event ids come from a counter column of the thread's row (see `server/streaming/threads.py`), so they need
nothing here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import psycopg

log = logging.getLogger(__name__)

CHANNEL = "scholarmap_events"
CANCEL_CHANNEL = "scholarmap_cancel"
LOCK_CLASS = 0x5C41  # first half of every thread lock's key; the second is hashtext(thread_id)


class WorkerLinks:
    """This process's two long-lived connections: one holds thread locks, one listens for events."""

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self._locks: psycopg.AsyncConnection[Any] | None = None
        self._locks_guard = asyncio.Lock()
        self._listener: asyncio.Task[None] | None = None

    # -- locks ------------------------------------------------------------------------------------------

    async def _lock_connection(self) -> psycopg.AsyncConnection[Any]:
        if self._locks is None or self._locks.closed:
            self._locks = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        return self._locks

    async def _on_lock_connection(self, sql: str, params: tuple[Any, ...]) -> Any:
        async with self._locks_guard:
            conn = await self._lock_connection()
            cursor = await conn.execute(sql, params)
            row = await cursor.fetchone()
        return row[0] if row else None

    async def try_lock(self, thread_id: str) -> bool:
        """Take the thread's lock unless another process holds it (this process's own count is the
        caller's business: session advisory locks nest, so the caller checks its own tasks first)."""
        return bool(
            await self._on_lock_connection(
                "SELECT pg_try_advisory_lock(%s, hashtext(%s))", (LOCK_CLASS, thread_id)
            )
        )

    async def unlock(self, thread_id: str) -> None:
        with contextlib.suppress(psycopg.Error):
            await self._on_lock_connection(
                "SELECT pg_advisory_unlock(%s, hashtext(%s))", (LOCK_CLASS, thread_id)
            )

    async def locked_anywhere(self, conn: psycopg.AsyncConnection[Any], thread_id: str) -> bool:
        """Whether any process holds the thread's lock (asked on any connection of the caller's)."""
        cursor = await conn.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND classid = %s::int4::oid AND objid = hashtext(%s)::oid AND objsubid = 2) AS held",
            (LOCK_CLASS, thread_id),
        )
        row = await cursor.fetchone()
        held = row["held"] if isinstance(row, dict) else row[0]  # type: ignore[index]
        return bool(held)

    async def ask_cancel(self, conn: psycopg.AsyncConnection[Any], thread_id: str) -> None:
        """Ask every process to cancel the thread's task (the one running it does)."""
        await conn.execute("SELECT pg_notify(%s, %s)", (CANCEL_CHANNEL, thread_id))

    # -- live events ----------------------------------------------------------------------------------------

    def listen(self, on_event: Callable[[str], None], on_cancel: Callable[[str], None] | None = None) -> None:
        """Call `on_event(thread_id)` for every event any process appends, and `on_cancel(thread_id)` for
        every cancel asked of any process, until `close`."""
        if self._listener is None:
            self._listener = asyncio.create_task(self._listen(on_event, on_cancel), name="scholarmap-listen")

    async def _listen(self, on_event: Callable[[str], None], on_cancel: Callable[[str], None] | None) -> None:
        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await conn.execute(f"LISTEN {CANCEL_CHANNEL}")
                    delay = 0.5
                    async for notice in conn.notifies():
                        if notice.channel == CHANNEL:
                            on_event(notice.payload)
                        elif on_cancel is not None:
                            on_cancel(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # followers still poll every few seconds meanwhile
                log.warning("event listener lost its connection (%s); reconnecting", type(exc).__name__)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
            self._listener = None
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()
            self._locks = None
