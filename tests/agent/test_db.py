import asyncio
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import psycopg
import pytest

from agent.db import Database, DatabaseError, Migration, apply_migrations, load_migrations, redact_url
from agent.settings import load_settings
from tests.paths import REPO


def test_migrations_are_numbered_and_unique():
    migrations = load_migrations()
    assert migrations[0].version == 1
    assert [m.version for m in migrations] == sorted({m.version for m in migrations})


async def test_external_database_by_url_only(pg_url, tmp_path):
    # The session's pgserver is reached here only through SCHOLARMAP_DATABASE_URL: the external path.
    settings = load_settings(data_dir=tmp_path, database_url=pg_url)
    db = await Database.open(settings, max_size=2)
    try:
        health = await db.health()
        assert health["ok"] and not health["embedded"]
        assert health["vector"]
        assert health["version"].startswith("16")
        async with db.pool.connection() as conn:
            cursor = await conn.execute("SELECT '[1,2,3]'::vector <-> '[1,2,4]'::vector AS distance")
            assert (await cursor.fetchone())["distance"] == pytest.approx(1.0)
    finally:
        await db.close()
    assert not (tmp_path / "pg").exists()


async def test_migrations_apply_once(pg_url):
    first = await apply_migrations(pg_url)
    assert first == [m.version for m in load_migrations()]
    assert await apply_migrations(pg_url) == []
    extra = Migration(900, "probe", "CREATE TABLE probe (x int)")
    assert await apply_migrations(pg_url, [*load_migrations(), extra]) == [900]
    assert await apply_migrations(pg_url, [*load_migrations(), extra]) == []


async def test_failed_migration_rolls_back(pg_url):
    bad = Migration(901, "broken", "CREATE TABLE half (x int); SELECT * FROM missing_table")
    with pytest.raises(psycopg.Error):
        await apply_migrations(pg_url, [*load_migrations(), bad])
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT to_regclass('half')").fetchone()[0] is None
        assert conn.execute("SELECT count(*) FROM schema_migrations WHERE version = 901").fetchone()[0] == 0


@pytest.fixture
def short_data_dir():
    # pgserver runs postgres as its own user when we are root, so the data folder must be reachable by
    # it (pytest's tmp folders are 0700) and short (unix socket paths are limited to ~107 bytes).
    path = Path("/tmp") / f"smdb-{secrets.token_hex(4)}"
    yield path
    shutil.rmtree(path, ignore_errors=True)


async def test_embedded_database_shared_by_two_processes(short_data_dir):
    data_dir = short_data_dir
    settings = load_settings(data_dir=data_dir)
    db = await Database.open(settings, max_size=2)
    try:
        assert db.embedded and (data_dir / "pg").is_dir()
        async with db.pool.connection() as conn:
            await conn.execute("CREATE TABLE shared_probe (x int)")
            await conn.execute("INSERT INTO shared_probe VALUES (42)")
        script = textwrap.dedent(
            f"""
            import asyncio, sys
            sys.path.insert(0, {str(REPO)!r})
            from agent.db import Database
            from agent.settings import load_settings
            async def main():
                db = await Database.open(load_settings(data_dir={str(data_dir)!r}), max_size=1)
                async with db.pool.connection() as conn:
                    row = await (await conn.execute("SELECT x FROM shared_probe")).fetchone()
                print(row["x"])
                await db.close()
            asyncio.run(main())
            """
        )
        result = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
        )
        assert result.stdout.strip() == "42", result.stderr[-2000:]
        assert (await db.health())["ok"]  # the other process leaving did not stop our server
    finally:
        await db.close()
        if db._server is not None:
            await asyncio.to_thread(db._server.cleanup)


async def test_unreachable_url_is_a_clear_error(tmp_path):
    settings = load_settings(data_dir=tmp_path, database_url="postgresql://u:hunter2@127.0.0.1:1/none")
    with pytest.raises(DatabaseError) as info:
        await Database.open(settings)
    assert "hunter2" not in str(info.value)
    assert "127.0.0.1:1" in str(info.value)


def test_redact_url():
    assert redact_url("postgresql://user:secret@host/db") == "postgresql://user:***@host/db"


@pytest.mark.parametrize(
    ("url", "secret", "shown"),
    [
        ("host=db.example user=app password=s3cret-kv dbname=papers", "s3cret-kv", "db.example"),
        ("postgresql://db.example/papers?user=app&password=s3cret-q", "s3cret-q", "db.example"),
        ("postgresql://app:s3cret@raw@db.example:5433/papers", "s3cret", "db.example:5433"),
        ("postgresql://app:s3cret%zz@db.example/papers", "s3cret", "could not be parsed"),
        ("postgres://app:s3%40cret@db.example/papers", "s3@cret", "db.example"),
    ],
)
def test_redact_url_parses_every_form(url: str, secret: str, shown: str) -> None:
    redacted = redact_url(url)
    assert secret not in redacted and secret.split("@")[0] not in redacted, redacted
    assert shown in redacted


@pytest.mark.parametrize(
    "url",
    [
        "host=127.0.0.1 port=1 user=u password=kv-hunter2 dbname=none",
        "postgresql://u:raw@hunter2@127.0.0.1:1/none",
        "postgresql://u:hunter2%zz@127.0.0.1:1/none",
    ],
)
async def test_connection_errors_never_carry_the_password(tmp_path, url: str) -> None:
    settings = load_settings(data_dir=tmp_path, database_url=url)
    with pytest.raises(DatabaseError) as info:
        await Database.open(settings)
    assert "hunter2" not in str(info.value), str(info.value)


def _postmaster_running(pgdata: Path) -> bool:
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return False
    pid = int(pid_file.read_text().splitlines()[0])
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


USER_SCRIPT = """
import asyncio, sys, time
sys.path.insert(0, {repo!r})
from agent.db import Database
from agent.settings import load_settings
async def main():
    db = await Database.open(load_settings(data_dir={data!r}), max_size=1)
    try:
        print("ready", flush=True)
        if sys.argv[1] == "wait":
            await asyncio.sleep(120)
    finally:
        await db.close()
asyncio.run(main())
"""


def test_embedded_postgres_stops_with_its_last_user_even_on_sigterm(short_data_dir: Path) -> None:
    pgdata = short_data_dir / "pg"
    script = USER_SCRIPT.format(repo=str(REPO), data=str(short_data_dir))
    # A clean exit stops it (it kept running after every exit).
    done = subprocess.run([sys.executable, "-c", script, "exit"], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ready", done.stderr[-2000:]
    assert not _postmaster_running(pgdata), "a clean exit left the embedded PostgreSQL running"

    # A handle list left by a process killed with SIGKILL: its dead pid kept the server up for good.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (pgdata / ".handle_pids.json").write_text(json.dumps([dead.pid]))
    user = subprocess.Popen(
        [sys.executable, "-c", script, "wait"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert user.stdout is not None and user.stdout.readline().strip() == "ready"
        assert _postmaster_running(pgdata)
        assert json.loads((pgdata / ".handle_pids.json").read_text()) == [user.pid]  # the stale pid is gone
        user.send_signal(signal.SIGTERM)
        user.wait(timeout=60)
    finally:
        if user.poll() is None:
            user.kill()
    assert not _postmaster_running(pgdata), "a SIGTERM left the embedded PostgreSQL running"
