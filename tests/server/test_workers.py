"""Several server processes on one database, and a step cut by a crash (issue 20).

Real processes (`evals/server_process.py`) on the session's embedded PostgreSQL: one thread served by
two workers (409 across workers, events produced on one followed on the other, one id sequence), and a
worker SIGKILLed mid-search whose thread the next start closes and a `retry` finishes.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from httpx_sse import connect_sse

from agent.settings import Settings
from evals.bench_sse import DESCRIPTION, NO_EMBEDDINGS, fast_settings
from evals.fake_process import free_port
from evals.fake_sources.server import RunningFakeSources
from evals.server_process import server_processes
from tests.server.conftest import events_of, interrupt_of, read_events, send

SEARCH_STARTED = {"node": "search", "status": "started"}


@pytest.fixture
def process_settings(pg_url: str, shared_data_dir: Path, slow_sources_server: RunningFakeSources) -> Settings:
    # Slow Semantic Scholar: only the search asks it, so a search takes a while. The session's data
    # folder holds the HTTP cache of the keyword steps; each search below asks a page size of its own
    # (not cached), so it is slow.
    return fast_settings(
        shared_data_dir, pg_url, slow_sources_server.base_urls, embedding_model=NO_EMBEDDINGS
    )


def wait_until_searching(sources: RunningFakeSources, seen: int) -> None:
    """Until a Semantic Scholar search asked after the first `seen` requests is in flight.

    The tests act on this, not on the `search started` event: an event can reach a client seconds late
    on a loaded machine (CI once killed a worker only after its search had finished), while a search
    request the slow server still holds is proof that the search is running now.
    """
    deadline = time.monotonic() + 60
    while not any(
        r.status is None and "paper/search" in r.path
        for r in sources.app.requests_for("semantic_scholar")[seen:]
    ):
        assert time.monotonic() < deadline, "no Semantic Scholar search began"
        time.sleep(0.01)


def to_review(client: httpx.Client) -> str:
    created = client.post("/threads", json={})
    assert created.status_code == 201, created.text
    thread_id = created.json()["thread_id"]
    assert interrupt_of(send(client, thread_id, {"text": DESCRIPTION}))["kind"] == "confirmation"
    assert interrupt_of(send(client, thread_id, {"resume": {"accept": True}}))["kind"] == "review"
    return thread_id


def accept(max_per_source: int) -> dict[str, Any]:
    return {"resume": {"accept": True}, "options": {"max_per_source": max_per_source}}


def check_two_workers_serve_one_thread(on_a: httpx.Client, on_b: httpx.Client) -> None:
    thread_id = to_review(on_a)
    last = on_a.get(f"/threads/{thread_id}").json()["last_event_id"]
    followed: list[dict[str, Any]] = []
    with connect_sse(on_b, "POST", f"/threads/{thread_id}/messages", json=accept(2)) as source:
        assert source.response.status_code == 200
        stream = events_of(source)
        produced = [next(stream)]
        while produced[-1]["data"] != SEARCH_STARTED:
            produced.append(next(stream))
        # The thread is busy on worker B: worker A refuses a message and says so in its state.
        busy = on_a.post(f"/threads/{thread_id}/messages", json={"text": "and sleep spindles?"})
        assert busy.status_code == 409 and "already working" in busy.json()["detail"]
        assert on_a.get(f"/threads/{thread_id}").json()["busy"] is True
        # A client following the thread on worker A sees B's events as they come, to the end.
        follower = threading.Thread(
            target=lambda: followed.extend(
                read_events(on_a, "GET", f"/threads/{thread_id}/events", params={"after": last})
            )
        )
        follower.start()
        produced.extend(stream)
        follower.join(timeout=60)
    assert produced[-1]["type"] == "done" and produced[-1]["data"]["state"] == "finished"
    assert any(e["type"] == "run_ready" for e in produced)
    assert followed == produced
    # One id sequence per thread, whichever worker wrote: 1, 2, 3 ... with no gap or repeat.
    every = read_events(on_b, "GET", f"/threads/{thread_id}/events")
    assert [e["id"] for e in every] == list(range(1, len(every) + 1))
    assert on_a.get(f"/threads/{thread_id}").json()["busy"] is False


def check_cancel_from_another_worker(
    on_a: httpx.Client, on_b: httpx.Client, sources: RunningFakeSources
) -> None:
    thread_id = to_review(on_b)
    seen = len(sources.app.requests_for("semantic_scholar"))
    with connect_sse(on_b, "POST", f"/threads/{thread_id}/messages", json=accept(4)) as source:
        wait_until_searching(sources, seen)
        assert on_a.post(f"/threads/{thread_id}/cancel").json() == {"cancelled": True}
        events = list(events_of(source))
    assert SEARCH_STARTED in [e["data"] for e in events]
    assert events[-1]["type"] == "done" and events[-1]["data"]["state"] == "cancelled"
    assert not any(e["type"] == "run_ready" for e in events)
    assert on_a.post(f"/threads/{thread_id}/cancel").json() == {"cancelled": False}


@pytest.mark.slow
def test_two_workers_on_one_database_and_a_crash_mid_search(
    process_settings: Settings, slow_sources_server: RunningFakeSources
) -> None:
    with server_processes(process_settings, process_settings) as (a, b):
        with (
            httpx.Client(base_url=a.url, timeout=60) as on_a,
            httpx.Client(base_url=b.url, timeout=60) as on_b,
        ):
            check_two_workers_serve_one_thread(on_a, on_b)
            check_cancel_from_another_worker(on_a, on_b, slow_sources_server)
            # Worker A is killed (SIGKILL) in the middle of a search; worker B goes on serving.
            thread_id = to_review(on_a)
            seen = len(slow_sources_server.app.requests_for("semantic_scholar"))
            with connect_sse(on_a, "POST", f"/threads/{thread_id}/messages", json=accept(3)):
                wait_until_searching(slow_sources_server, seen)
                a.kill()
            stranded = on_b.get(f"/threads/{thread_id}").json()
            assert stranded["busy"] is False and stranded["next"] == ["search"]

        # The next start closes the cut step, so no client waits on it for ever.
        with server_processes(process_settings) as (c,), httpx.Client(base_url=c.url, timeout=60) as on_c:
            events = read_events(on_c, "GET", f"/threads/{thread_id}/events")
            assert events[-2]["type"] == "error" and events[-2]["data"]["kind"] == "interrupted"
            assert "retry" in events[-2]["data"]["message"]
            assert events[-1]["type"] == "done" and events[-1]["data"]["state"] == "interrupted"
            state = on_c.get(f"/threads/{thread_id}").json()
            assert state["next"] == ["search"] and state["pending"] is None and state["run_ids"] == []
            # The reviewed plan is in the checkpoint: retry searches it again, with no question asked.
            retried = read_events(on_c, "POST", f"/threads/{thread_id}/retry")
            ready = [e for e in retried if e["type"] == "run_ready"]
            assert len(ready) == 1 and retried[-1]["data"]["state"] == "finished"
            assert on_c.get(f"/threads/{thread_id}").json()["run_ids"] == [ready[0]["data"]["run_id"]]


def test_a_retry_message_runs_a_cancelled_step_again(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = client.post("/threads", json={}).json()["thread_id"]
        send(client, thread_id, {"text": DESCRIPTION})
        with connect_sse(
            client, "POST", f"/threads/{thread_id}/messages", json={"resume": {"accept": True}}
        ) as source:
            for event in events_of(source):
                if event["data"] == {"node": "keywords", "status": "started"}:
                    assert client.post(f"/threads/{thread_id}/cancel").json() == {"cancelled": True}
        state = client.get(f"/threads/{thread_id}").json()
        assert state["next"] == ["keywords"] and state["pending"] is None
        retried = send(client, thread_id, {"text": "Retry!"})
        assert interrupt_of(retried)["kind"] == "review" and retried[-1]["data"]["state"] == "waiting"


@pytest.mark.slow
def test_serve_with_two_workers_on_the_embedded_database_stops_it_on_sigterm(tmp_path: Path) -> None:
    data_dir = Path("/tmp") / f"smsv-{secrets.token_hex(4)}"  # short: unix socket paths are limited
    port = free_port()
    env = {**os.environ, "SCHOLARMAP_DATA_DIR": str(data_dir), "SCHOLARMAP_LLM": "rules"}
    command = [sys.executable, "-m", "server.cli.main", "serve", "--workers", "2", "--port", str(port)]
    server = subprocess.Popen(
        command, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None and time.monotonic() < deadline, "serve --workers 2 did not start"
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()
                if health["ok"]:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert health["database"]["embedded"] is True
        assert (data_dir / "pg" / "postmaster.pid").exists()
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=60) == 0
        # Both workers let go of the embedded PostgreSQL, so the last one stopped it.
        assert not (data_dir / "pg" / "postmaster.pid").exists()
    finally:
        if server.poll() is None:
            server.kill()
        shutil.rmtree(data_dir, ignore_errors=True)


def test_the_workers_benchmark_reports_who_used_the_cpu(capsys: pytest.CaptureFixture[str]) -> None:
    """`bench_sse --workers` prints, beside the ratio, the CPU per party, so a ratio can be explained."""
    from evals.bench_sse import BenchResult, CpuShare, Load, WorkersResult, print_workers

    def bench(p99: float, cpu: CpuShare) -> BenchResult:
        return BenchResult(Load(n=200), 0, p99 / 2, p99, float("nan"), cpu.wall, 200, 200, 600, [], {}, cpu)

    one = bench(10_000, CpuShare(wall=50, server=24, client=5, database=4, fake_sources=1, machine=95))
    two = bench(9_000, CpuShare(wall=40, server=30, client=5, database=4, fake_sources=1, machine=78))
    print_workers(WorkersResult(2, one, two, 10.0, 30.0, 9.2, 20))
    lines = dict(
        line.split()[1:] for line in capsys.readouterr().out.splitlines() if line.startswith("RESULT")
    )
    assert lines["bench_sse_ttfe_p99_ratio_2_vs_1"] == "0.90"
    assert lines["bench_sse_server_cpu_ms_per_conversation_1_worker"] == "120"
    assert lines["bench_sse_server_cpu_ms_per_conversation_2_workers"] == "150"
    assert lines["bench_sse_load_generator_cpu_ms_per_conversation_1_worker"] == "50"
    assert lines["bench_sse_other_processes_cores_1_worker"] == "1.22"  # (95 - 34) / 50
    assert lines["bench_sse_machine_cores_busy_2_workers"] == "1.95"
