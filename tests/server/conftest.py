"""Fixtures for the conversation service over a real socket: the fake sources, settings, uvicorn servers.

The LLM is the scripted one of `evals.bench_sse` (confirmation, review, search; no clarification), injected
through `create_app(..., llm=...)` so the database is still opened by the app's lifespan, in the server's
own event loop.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from httpx_sse import EventSource, connect_sse

from agent.llm import LLM
from agent.settings import Settings
from evals.bench_sse import conversation_llm, fast_settings
from evals.fake_sources.config import FakeConfig
from evals.fake_sources.server import RunningFakeSources, running_fake_sources
from server.app import create_app
from tests.asgi_server import serve

# Semantic Scholar's latency on the slow server: a search that takes a while. Tests act when a search
# has started (cancel it, kill its worker); a started event can reach the client a second or more late on
# a loaded machine (one full-suite run saw a worker killed only after its search had finished at 1.5 s),
# so the search must outlast that by a margin.
SLOW_SEARCH_MS = 4000


@pytest.fixture(scope="session")
def sources_server() -> Iterator[RunningFakeSources]:
    with running_fake_sources(FakeConfig(seed=4)) as running:
        yield running


@pytest.fixture(scope="session")
def slow_sources_server() -> Iterator[RunningFakeSources]:
    """Semantic Scholar answers slowly: only the search waits (the keyword step never asks it)."""
    config = FakeConfig(seed=4, faults={"semantic_scholar": f"latency:{SLOW_SEARCH_MS}"})
    with running_fake_sources(config) as running:
        yield running


@pytest.fixture(scope="session")
def shared_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Shared by the session's servers so that the HTTP cache in it makes later keyword steps cheap;
    # each test has its own database (threads, events, checkpoints) and tells its Runs apart by thread.
    return tmp_path_factory.mktemp("server-data")


SettingsFactory = Callable[..., Settings]


@pytest.fixture
def app_settings(pg_url: str, shared_data_dir: Path, sources_server: RunningFakeSources) -> SettingsFactory:
    def make(**overrides: Any) -> Settings:
        return fast_settings(shared_data_dir, pg_url, sources_server.base_urls, **overrides)

    return make


@pytest.fixture
def slow_settings(pg_url: str, tmp_path: Path, slow_sources_server: RunningFakeSources) -> Settings:
    # No response cache: a search already answered would come back at once and not be slow at all.
    return fast_settings(tmp_path / "data", pg_url, slow_sources_server.base_urls, cache_ttl=0)


ServerFactory = Callable[..., AbstractContextManager[str]]


@pytest.fixture
def start_server() -> ServerFactory:
    """`with start_server(settings) as url:` — the app on uvicorn, 127.0.0.1, until the block ends."""

    @contextmanager
    def start(settings: Settings, llm: LLM | None = None) -> Iterator[str]:
        with serve(create_app(settings, llm=llm or conversation_llm()), timeout=60) as url:
            yield url

    return start


@pytest.fixture
def server(app_settings: SettingsFactory, start_server: ServerFactory) -> Iterator[str]:
    with start_server(app_settings()) as url:
        yield url


@pytest.fixture
def slow_server(slow_settings: Settings, start_server: ServerFactory) -> Iterator[str]:
    with start_server(slow_settings) as url:
        yield url


# --------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------


def events_of(source: EventSource) -> Iterator[dict[str, Any]]:
    """The events of an SSE response; each frame's id and name must agree with the data it carries.

    Heartbeats are skipped: they are comment lines, but httpx-sse (0.4) reports a comment followed by a
    blank line as an event with empty data (repeating the last id), where the SSE specification says
    nothing is dispatched.
    """
    for sse in source.iter_sse():
        if not sse.data:
            continue
        event = json.loads(sse.data)
        assert sse.id == str(event["id"]) and sse.event == event["type"], sse
        yield event


def read_events(client: httpx.Client, method: str, path: str, **kwargs: Any) -> list[dict[str, Any]]:
    """A whole SSE response (it ends by itself after `done`) as its events; fails on a non-200."""
    with connect_sse(client, method, path, **kwargs) as source:
        if source.response.status_code != 200:
            source.response.read()
            raise AssertionError(
                f"{method} {path}: HTTP {source.response.status_code} {source.response.text}"
            )
        return list(events_of(source))


def send(client: httpx.Client, thread_id: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    return read_events(client, "POST", f"/threads/{thread_id}/messages", json=body)


def interrupt_of(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    found = [e["data"] for e in events if e["type"] == "interrupt"]
    return found[-1] if found else None


def table_counts(pg_url: str) -> dict[str, int]:
    """Rows in the service's own tables and LangGraph's checkpoint tables (absent ones count 0)."""
    counts = {}
    with psycopg.connect(pg_url) as conn:
        for table in ("threads", "thread_events", "checkpoints", "checkpoint_writes", "checkpoint_blobs"):
            exists = conn.execute("SELECT to_regclass(%s)", (table,)).fetchone()
            counts[table] = (
                conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] if exists and exists[0] else 0
            )
    return counts
