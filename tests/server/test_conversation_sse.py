"""The native conversation API over a real socket, read with `httpx-sse`: a whole conversation, replay
with Last-Event-ID, bad input that changes nothing, a restart in the middle, cancel, the active Run."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from httpx_sse import connect_sse

from agent.models import Run
from agent.runs.store import RunStore, new_run_id
from agent.settings import Settings
from evals.bench_sse import DESCRIPTION, Load, drive, peak_concurrency, percentile
from tests.server.conftest import (
    ServerFactory,
    SettingsFactory,
    events_of,
    interrupt_of,
    read_events,
    send,
    table_counts,
)

SOURCES = {"pubmed", "semantic_scholar", "openalex"}


def new_thread(client: httpx.Client) -> str:
    created = client.post("/threads", json={})
    assert created.status_code == 201, created.text
    assert created.json()["project_id"] == "default"
    return created.json()["thread_id"]


def to_review(client: httpx.Client, thread_id: str) -> list[dict[str, Any]]:
    """Describe and accept the interpretation: the events of both messages, ending at the review."""
    first = send(client, thread_id, {"text": DESCRIPTION})
    assert interrupt_of(first)["kind"] == "confirmation"
    second = send(client, thread_id, {"resume": {"accept": True}})
    assert interrupt_of(second)["kind"] == "review"
    return first + second


def thread_snapshot(client: httpx.Client, thread_id: str) -> dict[str, Any]:
    state = client.get(f"/threads/{thread_id}")
    assert state.status_code == 200, state.text
    body = state.json()
    return {key: body[key] for key in ("pending", "next", "values", "last_event_id", "run_ids", "busy")}


# --------------------------------------------------------------------------------------------------


def test_a_whole_conversation_on_the_native_stream(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = new_thread(client)

        first = send(client, thread_id, {"text": DESCRIPTION})
        assert first[0]["type"] == "node" and first[0]["data"] == {"node": "route", "status": "started"}
        confirmation = interrupt_of(first)
        assert confirmation["kind"] == "confirmation"
        assert confirmation["summary"].startswith("You decode speech")
        assert confirmation["slots"]["method_measurement"] == ["electrocorticography"]
        assert "accept" in confirmation["expects"] and "feedback (optional)" in confirmation["expects"]
        assert first[-1]["type"] == "done"
        assert first[-1]["data"] == {"state": "waiting", "pending": "confirmation"}
        state = client.get(f"/threads/{thread_id}").json()
        assert state["pending"]["kind"] == "confirmation" and state["busy"] is False

        second = send(client, thread_id, {"resume": {"accept": True}})
        review = interrupt_of(second)
        assert review["kind"] == "review"
        assert {t["canonical"] for t in review["terms"]} >= {"speech decoding", "electrocorticography"}
        assert set(review["queries"]["queries"]) == SOURCES
        assert second[-1]["data"] == {"state": "waiting", "pending": "review"}

        third = send(client, thread_id, {"resume": {"accept": True}, "options": {"max_per_source": 2}})
        types = [e["type"] for e in third]
        progress = [e["data"] for e in third if e["type"] == "search_progress"]
        assert {p["source"] for p in progress if p["stage"] == "started"} == SOURCES
        assert {p["source"] for p in progress if p["stage"] == "done"} == SOURCES
        assert types.count("run_ready") == 1 and types[-1] == "done"
        assert types.index("run_ready") > max(i for i, t in enumerate(types) if t == "search_progress")
        ready = next(e["data"] for e in third if e["type"] == "run_ready")
        assert ready["status"] == "completed"
        assert all(ready["counts"][s] <= 2 for s in SOURCES) and ready["counts"]["aggregated"] > 0
        assert third[-1]["data"] == {"state": "finished", "pending": None}

        # One log per thread: ids count up from 1 with no gap across the three messages.
        everything = first + second + third
        assert [e["id"] for e in everything] == list(range(1, len(everything) + 1))
        assert read_events(client, "GET", f"/threads/{thread_id}/events") == everything

        state = client.get(f"/threads/{thread_id}").json()
        assert state["active_run_id"] == ready["run_id"] and state["run_ids"] == [ready["run_id"]]
        assert state["pending"] is None and state["last_event_id"] == everything[-1]["id"]
        run = client.get(f"/runs/{ready['run_id']}")
        assert run.status_code == 200 and run.json()["thread_id"] == thread_id
        history = client.get(f"/threads/{thread_id}/history")
        assert history.status_code == 200 and len(history.json()) >= 6


def test_reconnecting_with_last_event_id_gets_exactly_the_missed_events(slow_server: str) -> None:
    with httpx.Client(base_url=slow_server, timeout=60) as client:
        thread_id = new_thread(client)
        earlier = to_review(client, thread_id)

        # Start the (slow) search and drop the connection after its first progress event.
        received: list[dict[str, Any]] = []
        body = {"resume": {"accept": True}}
        with connect_sse(client, "POST", f"/threads/{thread_id}/messages", json=body) as source:
            for event in events_of(source):
                received.append(event)
                if received[-1]["type"] == "search_progress":
                    break
        assert received[-1]["type"] == "search_progress"
        assert client.get(f"/threads/{thread_id}").json()["busy"] is True  # the search goes on

        with connect_sse(
            client, "GET", f"/threads/{thread_id}/events", headers={"Last-Event-ID": str(received[-1]["id"])}
        ) as source:
            missed = list(events_of(source))
        assert missed[0]["id"] == received[-1]["id"] + 1
        assert [e["id"] for e in missed] == list(range(missed[0]["id"], missed[-1]["id"] + 1))
        assert any(e["type"] == "run_ready" for e in missed) and missed[-1]["type"] == "done"
        assert earlier + received + missed == read_events(client, "GET", f"/threads/{thread_id}/events")

        # `?after=` is the same for clients that cannot set headers; a bad Last-Event-ID is refused.
        assert (
            read_events(client, "GET", f"/threads/{thread_id}/events?after={missed[-3]['id']}") == missed[-2:]
        )
        bad = client.get(f"/threads/{thread_id}/events", headers={"Last-Event-ID": "yesterday"})
        assert bad.status_code == 400 and "Last-Event-ID" in bad.json()["detail"]


def test_bad_input_is_refused_and_changes_nothing(server: str, pg_url: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        for method, path in (
            ("GET", "/threads/th_nope"),
            ("GET", "/threads/th_nope/history"),
            ("GET", "/threads/th_nope/events"),
            ("POST", "/threads/th_nope/cancel"),
        ):
            response = client.request(method, path)
            assert response.status_code == 404, path
            assert "th_nope" in response.json()["detail"]
        missing = client.post("/threads/th_nope/messages", json={"text": "hello"})
        assert missing.status_code == 404 and "th_nope" in missing.json()["detail"]
        missing = client.put("/threads/th_nope/active-run", json={"run_id": "20260101T000000-abcdef"})
        assert missing.status_code == 404 and "th_nope" in missing.json()["detail"]
        unknown_project = client.post("/threads", json={"project_id": "no-such-project"})
        assert unknown_project.status_code == 404 and "no-such-project" in unknown_project.json()["detail"]

        thread_id = new_thread(client)
        send(client, thread_id, {"text": DESCRIPTION})  # now waiting for the confirmation
        before = thread_snapshot(client, thread_id)
        rows = table_counts(pg_url)
        path = f"/threads/{thread_id}/messages"

        # A resume payload that does not fit the pending confirmation: 422 naming the expected fields.
        for resume in ({"answers": ["ECoG"]}, {"accept": "perhaps"}, {"accept": True, "edits": []}):
            response = client.post(path, json={"resume": resume})
            assert response.status_code == 422, resume
            detail = response.json()["detail"]
            assert "confirmation" in detail and "accept" in detail and "feedback (optional)" in detail
        # Plain text is the answer to the pending question; a correction over the limit does not fit.
        too_long = client.post(path, json={"text": "no, " + "x" * 6000})
        assert too_long.status_code == 422 and "feedback" in too_long.json()["detail"]
        neither = client.post(path, json={})
        assert neither.status_code == 422 and "text" in neither.json()["detail"]
        bad_mode = client.post(path, json={"text": "hi", "mode": "dance"})
        assert bad_mode.status_code == 422 and "mode" in bad_mode.json()["detail"]
        malformed = client.post(
            path, content=b'{"text": "unterminated', headers={"content-type": "application/json"}
        )
        assert malformed.status_code == 400 and "malformed JSON" in malformed.json()["detail"]
        oversized = client.post(path, json={"text": "x" * 1_100_000})
        assert oversized.status_code == 413 and "limit" in oversized.json()["detail"]
        wrong_run = client.put(f"/threads/{thread_id}/active-run", json={"run_id": "20260101T000000-abcdef"})
        assert wrong_run.status_code == 404 and "20260101T000000-abcdef" in wrong_run.json()["detail"]

        assert thread_snapshot(client, thread_id) == before
        assert table_counts(pg_url) == rows

        # The thread still takes the right reply.
        assert interrupt_of(send(client, thread_id, {"resume": {"accept": True}}))["kind"] == "review"


def test_a_token_guards_every_route_but_healthz(
    app_settings: SettingsFactory, start_server: ServerFactory, pg_url: str
) -> None:
    with start_server(app_settings(api_token="s3cret-token")) as url, httpx.Client(base_url=url) as client:
        assert client.get("/healthz").status_code == 200
        rows = table_counts(pg_url)
        for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": "s3cret-token"}):
            for method, path in (
                ("POST", "/threads"),
                ("GET", "/threads/th_x"),
                ("POST", "/v1/chat/completions"),
            ):
                response = client.request(method, path, json={}, headers=headers)
                assert response.status_code == 401, (method, path, headers)
                assert "token" in response.json()["detail"] and "s3cret" not in response.text
        assert table_counts(pg_url) == rows
        auth = {"authorization": "Bearer s3cret-token"}
        created = client.post("/threads", json={}, headers=auth)
        assert created.status_code == 201


def test_a_message_while_the_thread_is_busy_is_409(slow_server: str) -> None:
    with httpx.Client(base_url=slow_server, timeout=60) as client:
        thread_id = new_thread(client)
        to_review(client, thread_id)
        path = f"/threads/{thread_id}/messages"
        refused: list[int] = []
        events: list[dict[str, Any]] = []
        with connect_sse(client, "POST", path, json={"resume": {"accept": True}}) as source:
            for event in events_of(source):
                events.append(event)
                if events[-1]["type"] == "search_progress" and not refused:
                    for body in ({"text": "/search something else"}, {"resume": {"accept": True}}):
                        response = client.post(path, json=body)
                        assert "already working" in response.json()["detail"]
                        refused.append(response.status_code)
        assert refused == [409, 409]
        assert [e["type"] for e in events].count("run_ready") == 1
        state = client.get(f"/threads/{thread_id}").json()
        assert "something else" not in str(state["values"]) and len(state["run_ids"]) == 1


def test_a_quiet_stream_carries_heartbeats(slow_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Proxies drop idle connections: while a search is quiet, the stream sends SSE comment pings."""
    import server.routes.threads

    monkeypatch.setattr(server.routes.threads, "HEARTBEAT_SECONDS", 0.05)
    with httpx.Client(base_url=slow_server, timeout=60) as client:
        thread_id = new_thread(client)
        to_review(client, thread_id)
        lines: list[str] = []
        with client.stream(
            "POST", f"/threads/{thread_id}/messages", json={"resume": {"accept": True}}
        ) as reply:
            lines.extend(reply.iter_lines())
    pings = [line for line in lines if line.startswith(":")]
    assert pings and all("ping" in line for line in pings)
    assert any(line.startswith("event: run_ready") for line in lines)  # the events still all arrive


def test_the_server_restarted_mid_conversation_resumes_from_the_checkpoint(
    app_settings: SettingsFactory, start_server: ServerFactory
) -> None:
    settings = app_settings()
    with start_server(settings) as url, httpx.Client(base_url=url, timeout=60) as client:
        thread_id = new_thread(client)
        before = send(client, thread_id, {"text": DESCRIPTION})
        assert interrupt_of(before)["kind"] == "confirmation"

    # A new app and a new server on the same database and data dir.
    with start_server(settings) as url, httpx.Client(base_url=url, timeout=60) as client:
        state = client.get(f"/threads/{thread_id}").json()
        assert state["pending"]["kind"] == "confirmation" and state["last_event_id"] == before[-1]["id"]
        assert read_events(client, "GET", f"/threads/{thread_id}/events") == before

        review = send(client, thread_id, {"resume": {"accept": True}})
        assert review[0]["id"] == before[-1]["id"] + 1  # the event log goes on where it stopped
        assert interrupt_of(review)["kind"] == "review"
        search = send(client, thread_id, {"resume": {"accept": True}})
        ready = [e["data"] for e in search if e["type"] == "run_ready"]
        assert len(ready) == 1 and search[-1]["data"]["state"] == "finished"
        everything = before + review + search
        assert [e["id"] for e in everything] == list(range(1, len(everything) + 1))
        assert client.get(f"/threads/{thread_id}").json()["active_run_id"] == ready[0]["run_id"]


def test_cancel_stops_the_search_and_saves_no_run(slow_server: str, slow_settings: Settings) -> None:
    with httpx.Client(base_url=slow_server, timeout=60) as client:
        thread_id = new_thread(client)
        to_review(client, thread_id)
        events: list[dict[str, Any]] = []
        cancelled: list[Any] = []
        body = {"resume": {"accept": True}}
        with connect_sse(client, "POST", f"/threads/{thread_id}/messages", json=body) as source:
            for event in events_of(source):
                events.append(event)
                if events[-1]["type"] == "search_progress" and not cancelled:
                    cancelled.append(client.post(f"/threads/{thread_id}/cancel").json())
        assert cancelled == [{"cancelled": True}]
        assert events[-1]["type"] == "done" and events[-1]["data"]["state"] == "cancelled"
        assert not [e for e in events if e["type"] == "run_ready"]

        state = client.get(f"/threads/{thread_id}").json()
        assert state["busy"] is False and state["run_ids"] == [] and state["active_run_id"] is None
        assert client.post(f"/threads/{thread_id}/cancel").json() == {"cancelled": False}
        runs = RunStore(slow_settings.projects_dir)
        assert not [r for r in runs.list_runs("default") if r.thread_id == thread_id]

        # The thread is usable again: a new description starts a new search.
        again = send(client, thread_id, {"text": f"/search {DESCRIPTION}"})
        assert interrupt_of(again)["kind"] == "confirmation"
        assert again[0]["id"] == events[-1]["id"] + 1


@pytest.mark.parametrize("accept", ["yes", "确认"])
def test_plain_text_answers_the_pending_interrupt(server: str, accept: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = new_thread(client)
        send(client, thread_id, {"text": DESCRIPTION})
        assert interrupt_of(send(client, thread_id, {"text": accept}))["kind"] == "review"
        edited = interrupt_of(send(client, thread_id, {"text": "add term: speech synthesis"}))
        assert edited["kind"] == "review" and "+ term: speech synthesis" in edited["diff"]["summary"]


def test_bench_sse_conversations_smoke(server: str) -> None:
    """The benchmark's virtual users against the test server: every conversation reaches its Run."""
    load = Load(n=4, ramp=0.2, think=0.05, max_per_source=1)
    outcomes, wall = asyncio.run(drive(server, load))
    assert [o.errors for o in outcomes] == [[]] * 4
    assert all(o.run_id for o in outcomes) and len({o.run_id for o in outcomes}) == 4
    assert all(set(o.ttfe) == {"describe", "confirm", "accept the keywords"} for o in outcomes)
    assert 1 <= peak_concurrency(outcomes) <= 4 and wall > 0
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 50) == 3.0
    assert percentile([0.0, 10.0], 99) == pytest.approx(9.9)


def test_switching_the_active_run(server: str, shared_data_dir: Path, pg_url: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = new_thread(client)
        to_review(client, thread_id)
        first = send(client, thread_id, {"resume": {"accept": True}})
        first_id = next(e["data"]["run_id"] for e in first if e["type"] == "run_ready")
        # With a Run active, a new search is asked for explicitly (`mode`, or "/search ...").
        described = send(client, thread_id, {"text": DESCRIPTION, "mode": "search"})
        assert interrupt_of(described)["kind"] == "confirmation"

        # While a question waits, switching is refused (it would drop the pending question).
        waiting = client.put(f"/threads/{thread_id}/active-run", json={"run_id": first_id})
        assert waiting.status_code == 409 and "confirmation" in waiting.json()["detail"]
        assert client.get(f"/threads/{thread_id}").json()["pending"]["kind"] == "confirmation"

        send(client, thread_id, {"resume": {"accept": True}})
        second = send(client, thread_id, {"resume": {"accept": True}})
        second_id = next(e["data"]["run_id"] for e in second if e["type"] == "run_ready")
        state = client.get(f"/threads/{thread_id}").json()
        assert state["run_ids"] == [first_id, second_id] and state["active_run_id"] == second_id

        switched = client.put(f"/threads/{thread_id}/active-run", json={"run_id": first_id})
        assert switched.status_code == 200 and switched.json()["active_run_id"] == first_id
        state = client.get(f"/threads/{thread_id}").json()
        assert state["active_run_id"] == first_id and state["run_ids"] == [first_id, second_id]
        with psycopg.connect(pg_url) as conn:
            row = conn.execute(
                "SELECT active_run_id FROM threads WHERE thread_id = %s", (thread_id,)
            ).fetchone()
        assert row == (first_id,)

        # A Run of another project is refused, naming both.
        store = RunStore(shared_data_dir / "projects")
        store.ensure_project("elsewhere")
        foreign = Run(id=new_run_id(), project_id="elsewhere")
        store.save_run(foreign)
        refused = client.put(f"/threads/{thread_id}/active-run", json={"run_id": foreign.id})
        assert refused.status_code == 422
        assert foreign.id in refused.json()["detail"] and "elsewhere" in refused.json()["detail"]
        assert client.get(f"/threads/{thread_id}").json()["active_run_id"] == first_id


async def test_one_chat_key_maps_to_one_thread_under_a_race(database) -> None:
    import asyncio

    from server.streaming.threads import ThreadManager

    manager = ThreadManager(graph=None, context=None, pool=database.pool)  # type: ignore[arg-type]
    threads = await asyncio.gather(*(manager.create("p", chat_key="user-42") for _ in range(8)))
    assert len({t["thread_id"] for t in threads}) == 1
    assert (await manager.create("p"))["thread_id"] != threads[0]["thread_id"]
