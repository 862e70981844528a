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
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from agent.settings import Settings

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_MIGRATION_LOCK = 0x5C401A  # arbitrary constant shared by every ScholarMap process


class DatabaseError(Exception):
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
    """A connection URL safe to print: the password replaced."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def start_embedded(data_dir: Path) -> tuple[str, Any]:
    """Start or join the embedded PostgreSQL under `data_dir`; returns (url, server handle)."""
    import pgserver  # imported lazily: only the embedded path needs it

    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        server = pgserver.get_server(data_dir, cleanup_mode="stop")
    except Exception as exc:  # pgserver raises plain exceptions with the postgres log attached
        raise DatabaseError(f"could not start the embedded PostgreSQL in {data_dir}: {exc}") from exc
    return server.get_uri(), server


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
    from pgvector.psycopg import register_vector_async

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
            url, server = await asyncio.to_thread(start_embedded, settings.data_dir / "pg")
        try:
            await apply_migrations(url)
        except psycopg.Error as exc:
            raise DatabaseError(f"could not prepare the database at {redact_url(url)}: {exc}") from exc
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
            raise DatabaseError(f"could not connect to {redact_url(url)}: {exc}") from exc
        return cls(url, pool, embedded=server is not None, server=server)

    async def close(self) -> None:
        await self.pool.close()

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
            return {"ok": False, "embedded": self.embedded, "error": str(exc)}
        return {"ok": True, "embedded": self.embedded, **(row or {})}

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
