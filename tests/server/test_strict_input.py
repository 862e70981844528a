"""Strict input (issue 20): every bad input is a 4xx that says what to fix, before any stream starts,
on the native API and on /v1; nothing is stored; pauses are named and a stale reply gets 409."""

from __future__ import annotations

from typing import Any

import httpx

from evals.bench_sse import DESCRIPTION
from server.inputs import MAX_MESSAGE_CHARS
from tests.server.conftest import interrupt_of, send, table_counts


def new_thread(client: httpx.Client) -> str:
    created = client.post("/threads", json={})
    assert created.status_code == 201, created.text
    return created.json()["thread_id"]


def refused(response: httpx.Response, status: int, *words: str) -> str:
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/json")  # no stream was started
    detail = response.json()["detail"]
    for word in words:
        assert word in detail, detail
    assert "psycopg" not in detail and "Traceback" not in detail and "/work/" not in detail
    return detail


BAD_OPTIONS: list[tuple[dict[str, Any], str]] = [
    ({"max_per_source": "abc"}, "max_per_source"),
    ({"max_per_source": 100_000}, "max_per_source"),
    ({"sources": "pubmed"}, "sources"),
    ({"sources": ["pubmed", "scopus"]}, "sources"),
    ({"top_k": "x"}, "top_k"),
    ({"max_per_sourec": 5}, "max_per_sourec"),
]


def test_bad_options_are_refused_and_never_stored(server: str, pg_url: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = new_thread(client)
        before = table_counts(pg_url)
        for options, word in BAD_OPTIONS:
            for body in (
                {"text": DESCRIPTION, "options": options},
                {"resume": {"accept": True}, "options": options},
            ):
                refused(client.post(f"/threads/{thread_id}/messages", json=body), 422, word)
        assert table_counts(pg_url) == before
        # The thread still works: a good message with good options goes through.
        events = send(client, thread_id, {"text": DESCRIPTION, "options": {"max_per_source": 1}})
        assert interrupt_of(events)["kind"] == "confirmation"
        assert client.get(f"/threads/{thread_id}").json()["values"]["options"] == {"max_per_source": 1}


def test_ids_and_chat_keys_with_nul_bytes_are_4xx_without_database_internals(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        for path in ("/threads/th_%00x", "/threads/th_%00x/history", "/threads/th_%00x/events"):
            refused(client.get(path), 422, "thread id", "control characters")
        refused(client.post("/threads/th_%00x/messages", json={"text": "hi"}), 422, "thread id")
        refused(client.post("/threads/th_%00x/retry"), 422, "thread id")
        refused(client.get("/threads/" + "x" * 500), 422, "longer than")
        chat = client.post(
            "/v1/chat/completions",
            json={
                "model": "scholarmap",
                "user": "bad\u0000user",
                "messages": [{"role": "user", "content": "hi"}],
            },
        )
        detail = refused(chat, 422, "chat key", "control characters")
        assert chat.json()["error"]["message"] == detail  # OpenAI's error shape


def test_text_is_checked_at_every_pause(server: str, pg_url: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = new_thread(client)
        url = f"/threads/{thread_id}/messages"
        refused(client.post(url, json={"text": "   "}), 422, "empty")
        refused(client.post(url, json={"text": "😀🔬🧠!!"}), 422, "no words")
        refused(client.post(url, json={"text": "speech\u0000decoding"}), 422, "control characters")
        confirmation = interrupt_of(send(client, thread_id, {"text": DESCRIPTION}))
        assert confirmation["kind"] == "confirmation"
        before = table_counts(pg_url)
        # Empty text at a confirmation was a silent "no" that restarted the understanding.
        refused(client.post(url, json={"text": ""}), 422, "empty")
        refused(client.post(url, json={"text": " \n "}), 422, "empty")
        # Replies are held to the same size limit as messages, text or structured.
        refused(client.post(url, json={"text": "no, " + "x" * MAX_MESSAGE_CHARS}), 422, "longer than")
        huge = {"answers": ["x" * 5000] * 5}
        refused(client.post(url, json={"resume": huge}), 422, "longer than")
        refused(client.post(url, json={"resume": {"accept": False, "feedback": "a\u0000b"}}), 422, "control")
        assert table_counts(pg_url) == before
        state = client.get(f"/threads/{thread_id}").json()
        assert state["pending"]["kind"] == "confirmation"


def test_emoji_only_text_on_v1_is_a_4xx_not_a_502(server: str, pg_url: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        before = table_counts(pg_url)
        for stream in (False, True):
            response = client.post(
                "/v1/chat/completions",
                json={"stream": stream, "messages": [{"role": "user", "content": "🙂🙂🙂"}]},
            )
            assert response.status_code == 422, response.text
            assert "no words" in response.json()["error"]["message"]
        assert table_counts(pg_url)["thread_events"] == before["thread_events"]


def test_pauses_are_named_and_a_stale_reply_gets_409(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = new_thread(client)
        confirmation = interrupt_of(send(client, thread_id, {"text": DESCRIPTION}))
        first_pause = confirmation["pause_id"]
        assert (
            first_pause and client.get(f"/threads/{thread_id}").json()["pending"]["pause_id"] == first_pause
        )
        review = interrupt_of(send(client, thread_id, {"resume": {"accept": True}, "pause_id": first_pause}))
        assert review["kind"] == "review" and review["pause_id"] != first_pause
        # The same "accept" again (a double click) names the confirmation, which is over: it must not
        # accept the keyword review that came after it.
        again = client.post(
            f"/threads/{thread_id}/messages", json={"resume": {"accept": True}, "pause_id": first_pause}
        )
        refused(again, 409, first_pause, review["pause_id"], "review")
        state = client.get(f"/threads/{thread_id}").json()
        assert state["pending"]["kind"] == "review" and state["pending"]["pause_id"] == review["pause_id"]
        assert state["run_ids"] == []


def test_retry_with_nothing_to_retry_is_422(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = new_thread(client)
        refused(client.post(f"/threads/{thread_id}/retry"), 422, "nothing to retry")
        send(client, thread_id, {"text": DESCRIPTION})
        refused(client.post(f"/threads/{thread_id}/retry"), 422, "nothing to retry", "confirmation")
