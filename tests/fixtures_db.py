"""A real PostgreSQL for tests: one embedded pgserver per test session, one fresh database per test."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest

from agent.db import Database, start_embedded
from agent.settings import load_settings


@pytest.fixture(scope="session")
def pg_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of an embedded PostgreSQL 16 (with pgvector) that lives for the whole session."""
    # Unix socket paths are limited to ~107 bytes, so keep the data folder short.
    base = Path("/tmp") / f"smpg-{secrets.token_hex(4)}"
    url, server = start_embedded(base)
    yield url
    server.cleanup()


def database_url(server_url: str, name: str) -> str:
    base, _, query = server_url.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


@pytest.fixture
def pg_url(pg_server_url: str) -> Iterator[str]:
    """A fresh, empty database on the session server (dropped afterwards)."""
    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield database_url(pg_server_url, name)
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
async def database(pg_url: str, tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated `Database` on a fresh database."""
    settings = load_settings(data_dir=tmp_path / "data", database_url=pg_url)
    db = await Database.open(settings, max_size=4)
    try:
        yield db
    finally:
        await db.close()
