"""The on-disk response cache (tools/cache.py): keys, round trips, expiry, persistence, threads."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tools.cache import ResponseCache


@pytest.fixture
def cache(tmp_path: Path) -> ResponseCache:
    return ResponseCache(tmp_path / "cache" / "http.sqlite")


def test_key_ignores_parameter_order_and_secrets() -> None:
    base = ResponseCache.key("GET", "https://x.org/works", {"search": "sleep", "per_page": 1}, None, None)
    assert base == ResponseCache.key(
        "get", "https://x.org/works", {"per_page": "1", "search": "sleep"}, None, None
    )
    with_secrets = {
        "search": "sleep",
        "per_page": 1,
        "api_key": "k1",
        "mailto": "a@b.org",
        "email": "c@d.org",
    }
    assert base == ResponseCache.key("GET", "https://x.org/works", with_secrets, None, None)
    assert base == ResponseCache.key(
        "GET", "https://x.org/works", {**with_secrets, "API_KEY": "k2"}, None, None
    )


def test_key_distinguishes_what_changes_the_answer() -> None:
    base = ResponseCache.key("GET", "https://x.org/works", {"search": "sleep"}, None, None)
    assert base != ResponseCache.key("POST", "https://x.org/works", {"search": "sleep"}, None, None)
    assert base != ResponseCache.key("GET", "https://x.org/authors", {"search": "sleep"}, None, None)
    assert base != ResponseCache.key("GET", "https://x.org/works", {"search": "dream"}, None, None)
    assert base != ResponseCache.key("GET", "https://x.org/works", {"search": "sleep"}, {"id": "1"}, None)
    assert ResponseCache.key("POST", "u", None, None, {"ids": [1]}) != ResponseCache.key(
        "POST", "u", None, None, {"ids": [2]}
    )
    # form bodies drop secrets like query strings do
    assert ResponseCache.key("POST", "u", None, {"id": "1", "api_key": "a"}, None) == ResponseCache.key(
        "POST", "u", None, {"id": "1", "api_key": "b"}, None
    )


def test_round_trip_keeps_status_content_type_and_bytes(cache: ResponseCache) -> None:
    key = ResponseCache.key("GET", "https://x.org/a", {}, None, None)
    assert cache.get(key, ttl=60) is None
    body = "中文 affiliation, 北京".encode()
    cache.put(
        key,
        200,
        {"Content-Type": "application/json", "Set-Cookie": "s=1", "X-RateLimit-Remaining": "2"},
        body,
    )
    status, headers, content = cache.get(key, ttl=60)  # type: ignore[misc]
    assert (status, content) == (200, body)
    assert headers == {"Content-Type": "application/json"}  # only what replaying a body needs


def test_entries_expire(cache: ResponseCache) -> None:
    cache.put("k", 200, {}, b"old")
    assert cache.get("k", ttl=60) is not None
    time.sleep(0.03)
    assert cache.get("k", ttl=0.01) is None
    cache.put("k", 200, {}, b"new")  # a fresh answer replaces the stale one
    assert cache.get("k", ttl=0.01) == (200, {}, b"new")


def test_entries_survive_reopening_and_clear_removes_them(tmp_path: Path) -> None:
    path = tmp_path / "http.sqlite"
    first = ResponseCache(path)
    first.put("k", 200, {"content-type": "text/xml"}, b"<x/>")
    first.close()
    second = ResponseCache(path)
    assert second.get("k", ttl=60) == (200, {"content-type": "text/xml"}, b"<x/>")
    second.clear()
    assert second.get("k", ttl=60) is None


def test_parallel_threads_share_one_cache(cache: ResponseCache) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(25):
                cache.put(f"{n}-{i}", 200, {}, f"{n}-{i}".encode())
                assert cache.get(f"{n}-{i}", ttl=60) == (200, {}, f"{n}-{i}".encode())
        except BaseException as error:  # collected and re-raised in the main thread
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert cache._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 150
