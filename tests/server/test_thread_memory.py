"""ThreadManager keeps per-thread entries only while they are needed (it kept a lock, a counter and a
wake-up event per thread for the life of the process)."""

from __future__ import annotations

import httpx
import pytest

from evals.bench_sse import DESCRIPTION, conversation_llm
from server.app import create_app
from server.streaming import threads as threads_module
from tests.asgi_server import serve
from tests.server.conftest import SettingsFactory, read_events, send


def test_finished_threads_leave_nothing_behind(
    app_settings: SettingsFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(threads_module, "KNOWN_PROJECTS", 3)
    app = create_app(app_settings(), llm=conversation_llm())
    with serve(app, timeout=60) as url, httpx.Client(base_url=url, timeout=60) as client:
        manager = app.state.services.extras["threads"]
        thread_ids = [client.post("/threads", json={}).json()["thread_id"] for _ in range(5)]
        for thread_id in thread_ids:
            send(client, thread_id, {"text": DESCRIPTION})
            read_events(client, "GET", f"/threads/{thread_id}/events")  # a follower that comes and goes
        assert manager._tasks == {} and manager._live == {} and manager._starting == set()
        assert manager._changed == {} and manager._followers == {}
        assert len(manager._projects) <= 3  # a bounded cache: a query brings back a forgotten one
        assert client.get(f"/threads/{thread_ids[0]}").json()["project_id"] == "default"
        assert not hasattr(manager, "_next_id") and not hasattr(manager, "_locks")
