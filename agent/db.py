"""The project's PostgreSQL: one async psycopg pool, embedded `pgserver` by default, an external URL when set.

The same code serves both: with `SCHOLARMAP_DATABASE_URL` unset we start (or join) the PostgreSQL 16 that
the `pgserver` package ships, with its data under `<data_dir>/pg`; pgserver reference-counts the processes
using one data folder, so a server and a CLI on the same data dir share one database.

Schema changes are the numbered `agent/migrations/NNNN_name.sql` files, applied in order, each once, inside
a transaction and under an advisory lock, so concurrent starts neither race nor re-apply.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from pgvector.psycopg import register_vector_async
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from agent.errors import StorageError
from agent.settings import Settings

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_MIGRATION_LOCK = 0x5C401A  # arbitrary constant shared by every ScholarMap process


class DatabaseError(StorageError):
    """The database could not be reached or prepared; the message says which and why."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise DatabaseError(f"migration file {path.name} must be named NNNN_name.sql")
        migrations.append(Migration(int(match.group(1)), match.group(2), path.read_text(encoding="utf-8")))
    versions = [m.version for m in migrations]
    if len(set(versions)) != len(versions):
        raise DatabaseError(f"two migrations share a version number in {directory}")
    return migrations


def redact_url(url: str) -> str:
    """A connection string safe to print, in any form libpq accepts (URL, key=value, `?password=`).

    It is parsed the way libpq parses it, and only the parsed parts come back, the password masked. A
    password with a raw `@` makes libpq read its tail as part of the host: only what follows the last
    `@` is shown. A string that does not parse (a bad %-escape) is not shown at all.
    """
    try:
        parts = conninfo_to_dict(url)
    except Exception:  # its message quotes the offending token, which may be the password
        return "(a database URL that could not be parsed: check its syntax and %-escape the password)"
    shown = {key: str(value) for key, value in parts.items() if value is not None}
    user, password = shown.pop("user", ""), shown.pop("password", None)
    host, port, dbname = shown.pop("host", ""), shown.pop("port", ""), shown.pop("dbname", "")
    host = host.rsplit("@", 1)[-1]
    if host.startswith("/"):  # a socket folder: a query parameter, as libpq writes it
        shown, host = {"host": host, **shown}, ""
    auth = f"{user}{':***' if password is not None else ''}@" if user or password is not None else ""
    query = "&".join(f"{key}={value}" for key, value in shown.items())
    return f"postgresql://{auth}{host}{f':{port}' if port else ''}/{dbname}" + (f"?{query}" if query else "")


def _safe_reason(exc: BaseException, url: str) -> str:
    """A connection error's text without the password (libpq quotes a token it cannot parse)."""
    try:
        parts = conninfo_to_dict(url)
    except Exception:
        return "the database URL could not be parsed"
    text = str(exc).strip() or type(exc).__name__
    # A raw `@` in a password puts its tail in the host, which libpq then names in its errors.
    secrets = [str(parts.get("password") or ""), str(parts.get("host") or "").rpartition("@")[0]]
    for secret in sorted(filter(None, secrets), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


# Embedded servers this process uses, by data folder: the process's handle is released (and the server
# stopped when no other ScholarMap process uses it) when the last of its users closes.
_EMBEDDED_USERS: dict[Path, int] = {}


def _prune_dead_handles(pgdata: Path) -> None:
    """Drop the pids of dead processes from pgserver's handle list (a process killed with SIGKILL never
    removes itself, and a stale entry kept the server running after every real user had left)."""
    # the embedded PostgreSQL is used only when no SCHOLARMAP_DATABASE_URL is set
    from pgserver.postgres_server import PostgresServer

    # the embedded PostgreSQL is used only when no SCHOLARMAP_DATABASE_URL is set
    from pgserver.utils import DiskList, process_is_running

    path = pgdata / ".handle_pids.json"
    if not path.exists():
        return
    with PostgresServer._lock:
        handles = DiskList(path)
        pids = handles.get()
        alive = [pid for pid in pids if pid == os.getpid() or process_is_running(pid)]
        if alive != pids:
            handles.put(alive)
            log.info("embedded PostgreSQL: dropped %d handle(s) of dead processes", len(pids) - len(alive))


def exit_cleanly_on_sigterm() -> None:
    """Make SIGTERM a normal exit (cleanup handlers run: the embedded server is released), unless the
    program handles SIGTERM itself. Only the main thread may set signal handlers."""
    main = threading.current_thread() is threading.main_thread()
    if main and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _exit_on_sigterm)


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def start_embedded(data_dir: Path) -> tuple[str, Any]:
    """Start or join the embedded PostgreSQL under `data_dir`; returns (url, server handle).

    Release it with `release_embedded` (Database.close does): the server stops when the last ScholarMap
    process using it lets go, whether it exits cleanly or on SIGTERM.
    """
    import pgserver  # imported lazily: only the embedded path needs it

    data_dir.mkdir(parents=True, exist_ok=True)
    exit_cleanly_on_sigterm()
    try:
        _prune_dead_handles(data_dir.expanduser().resolve())
        server = pgserver.get_server(data_dir, cleanup_mode="stop")
    except Exception as exc:  # pgserver raises plain exceptions with the postgres log attached
        raise DatabaseError(f"could not start the embedded PostgreSQL in {data_dir}: {exc}") from exc
    _EMBEDDED_USERS[server.pgdata] = _EMBEDDED_USERS.get(server.pgdata, 0) + 1
    return server.get_uri(), server


def release_embedded(server: Any) -> None:
    """Let go of an embedded server from `start_embedded`; the last user in this process releases the
    process's handle, and pgserver stops the server if no other process holds one."""
    users = _EMBEDDED_USERS.get(server.pgdata, 0) - 1
    if users > 0:
        _EMBEDDED_USERS[server.pgdata] = users
        return
    _EMBEDDED_USERS.pop(server.pgdata, None)
    server.cleanup()


async def apply_migrations(url: str, migrations: list[Migration] | None = None) -> list[int]:
    """Apply the pending migrations; returns the versions applied now."""
    migrations = load_migrations() if migrations is None else migrations
    applied_now: list[int] = []
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
        try:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            cursor = await conn.execute("SELECT version FROM schema_migrations")
            done = {row[0] for row in await cursor.fetchall()}
            for migration in migrations:
                if migration.version in done:
                    continue
                async with conn.transaction():
                    await conn.execute(migration.sql)  # trusted files of ours
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                        (migration.version, migration.name),
                    )
                applied_now.append(migration.version)
                log.info("applied migration %04d_%s", migration.version, migration.name)
        finally:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (_MIGRATION_LOCK,))
    return applied_now


async def _configure(conn: psycopg.AsyncConnection[Any]) -> None:
    await register_vector_async(conn)


class Database:
    """An open, migrated database and its pool.

    Connections are autocommit with `dict_row` rows and no prepared statements: what LangGraph's
    `AsyncPostgresSaver` requires, so one pool serves the checkpointer and our own tables. Use
    `async with conn.transaction()` where several statements must commit together.
    """

    def __init__(self, url: str, pool: AsyncConnectionPool, *, embedded: bool, server: Any = None) -> None:
        self.url = url
        self.pool = pool
        self.embedded = embedded
        self._server = server

    @classmethod
    async def open(cls, settings: Settings, *, min_size: int = 1, max_size: int = 10) -> Database:
        server = None
        if settings.database_url is not None:
            url = settings.database_url.get_secret_value()
        else:
            exit_cleanly_on_sigterm()  # here: start_embedded runs in a worker thread, which cannot
            url, server = await asyncio.to_thread(start_embedded, settings.data_dir / "pg")
        try:
            await apply_migrations(url)
        except psycopg.Error as exc:
            if server is not None:
                await asyncio.to_thread(release_embedded, server)
            raise DatabaseError(
                f"could not prepare the database at {redact_url(url)}: {_safe_reason(exc, url)}"
            ) from exc
        pool = AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            open=False,
            kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
            configure=_configure,
        )
        try:
            await pool.open(wait=True, timeout=30)
        except Exception as exc:
            raise DatabaseError(f"could not connect to {redact_url(url)}: {_safe_reason(exc, url)}") from exc
        return cls(url, pool, embedded=server is not None, server=server)

    async def close(self) -> None:
        await self.pool.close()
        if self._server is not None:
            server, self._server = self._server, None
            await asyncio.to_thread(release_embedded, server)

    async def health(self) -> dict[str, Any]:
        try:
            async with self.pool.connection(timeout=5) as conn:
                cursor = await conn.execute(
                    "SELECT current_setting('server_version') AS version,"
                    " (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vector,"
                    " (SELECT max(version) FROM schema_migrations) AS schema_version"
                )
                row: dict[str, Any] | None = await cursor.fetchone()  # type: ignore[assignment]  # dict_row
        except Exception as exc:
            # /healthz answers without a token: libpq's text (hosts, users, socket paths) stays in the log,
            # without the password (no traceback: it would repeat the raw text).
            log.warning("database health check failed: %s", _safe_reason(exc, self.url))
            return {
                "ok": False,
                "embedded": self.embedded,
                "error": f"the database does not answer ({type(exc).__name__}); see the server's log",
            }
        return {"ok": True, "embedded": self.embedded, **(row or {})}

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
