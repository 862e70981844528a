"""The server freezes its long-lived heap once, after its first Run (server/streaming/heap.py): later full
collections (the Run housekeeping's among them) then skip the libraries and tables, instead of holding the
GIL for a second or more each while every stream waits."""

from __future__ import annotations

import gc

import httpx
import pytest

from evals.bench_sse import DESCRIPTION
from server.streaming import heap
from server.streaming import threads as threads_module
from tests.server.conftest import interrupt_of, send


def test_settle_once_collects_and_freezes_only_the_first_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(heap, "_settled", False)
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    assert heap.settle_once() is True
    assert heap.settle_once() is False
    assert calls == ["collect", "freeze"]  # garbage first: what is frozen is never collected again


def test_frozen_objects_are_skipped_by_a_full_collection() -> None:
    """What the freeze buys: a full pass no longer visits what was alive at the freeze."""
    before = len(gc.get_objects())
    kept = [[i] for i in range(50_000)]  # tracked objects that stay alive
    gc.freeze()
    try:
        assert len(gc.get_objects()) < before  # the permanent generation is not walked
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()


def test_the_first_run_of_the_process_settles_the_heap(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    steps: list[str] = []
    monkeypatch.setattr(threads_module, "settle_once", lambda: steps.append("settle") or True)
    with httpx.Client(base_url=server, timeout=120) as client:
        thread_id = client.post("/threads", json={}).json()["thread_id"]
        assert interrupt_of(send(client, thread_id, {"text": DESCRIPTION}))["kind"] == "confirmation"
        assert interrupt_of(send(client, thread_id, {"resume": {"accept": True}}))["kind"] == "review"
        assert steps == []  # no Run yet: nothing the heap keeps for good has necessarily been loaded
        events = send(client, thread_id, {"resume": {"accept": True}})
    assert [e["type"] for e in events if e["type"] == "run_ready"] == ["run_ready"]
    assert steps == ["settle"]
