"""The shared HTTP policy (tools/http.py) against scripted answers through httpx.MockTransport.

Every test uses millisecond backoffs and timeouts so the whole file runs in a few seconds; the real
socket behaviour (resets, hangs, truncated bodies) is tested in test_fake_sources.py.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tools.cache import ResponseCache
from tools.errors import BadQuery, BadResponse, NotFound, RateLimited, SourceTimeout, SourceUnavailable
from tools.http import (
    THREAD_JSON_BYTES,
    HttpPolicy,
    RateLimiter,
    RateLimiterRegistry,
    SourceConfig,
    parse_retry_after,
)

BASE = "https://api.example.org/v1"
SECRET = "sk-test-5ecret-KEY-123"

Handler = Callable[[httpx.Request], Any]


def config(**overrides: Any) -> SourceConfig:
    values: dict[str, Any] = {
        "service": "openalex",
        "base_url": BASE,
        "rate": 1000.0,
        "timeout": 1.0,
        "retries": 3,
        "backoff": 0.01,
        "max_retry_after": 5.0,
    }
    values.update(overrides)
    return SourceConfig(**values)


class Script:
    """A MockTransport handler answering from a list of steps (the last one repeats)."""

    def __init__(self, *steps: Any) -> None:
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []
        self.times: list[float] = []

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.times.append(time.monotonic())
        step = self.steps[min(len(self.requests) - 1, len(self.steps) - 1)]
        if isinstance(step, Exception):
            raise step
        if callable(step):
            result = step(request)
            return await result if asyncio.iscoroutine(result) else result
        return step


def ok(body: Any = None) -> httpx.Response:
    return httpx.Response(200, json=body if body is not None else {"ok": True})


def policy(script: Script, *, cache: ResponseCache | None = None, **overrides: Any) -> HttpPolicy:
    client = httpx.AsyncClient(transport=httpx.MockTransport(script))
    return HttpPolicy(client, config(**overrides), cache=cache)


# ------------------------------------------------------------------------------------------------
# retries
# ------------------------------------------------------------------------------------------------


async def test_connection_errors_are_retried_with_backoff() -> None:
    script = Script(httpx.ConnectError("refused"), httpx.ReadError("reset by peer"), ok({"n": 1}))
    http = policy(script, backoff=0.05)
    started = time.monotonic()
    assert await http.get_json("works") == {"n": 1}
    assert len(script.requests) == 3
    # two backoffs: at least half of 0.05 and half of 0.10 (jittered)
    assert time.monotonic() - started >= 0.07
    gaps = [b - a for a, b in zip(script.times, script.times[1:], strict=False)]
    assert gaps[1] > gaps[0] * 0.9  # exponential: the second wait is not shorter than the first


async def test_connection_errors_give_up_as_source_unavailable() -> None:
    script = Script(httpx.ConnectError("refused"))
    with pytest.raises(SourceUnavailable) as caught:
        await policy(script, retries=2).get_json("works")
    assert len(script.requests) == 3
    assert caught.value.service == "openalex"
    assert "connection failed" in str(caught.value) and str(caught.value).startswith("openalex:")


@pytest.mark.parametrize("status", [500, 502, 503, 504])
async def test_server_errors_are_retried(status: int) -> None:
    script = Script(httpx.Response(status, json={"message": "Internal Server Error"}), ok())
    assert await policy(script).get_json("works") == {"ok": True}
    assert len(script.requests) == 2


async def test_persistent_server_error_names_the_status() -> None:
    script = Script(httpx.Response(503, text="<html>503 Service Unavailable</html>"))
    with pytest.raises(SourceUnavailable) as caught:
        await policy(script, retries=1).get_json("works")
    assert caught.value.status == 503 and "HTTP 503 after 2 attempt(s)" in str(caught.value)


async def test_429_honours_retry_after_seconds() -> None:
    script = Script(httpx.Response(429, headers={"Retry-After": "0.4"}, json={"message": "slow down"}), ok())
    assert await policy(script, backoff=0.001).get_json("works") == {"ok": True}
    assert script.times[1] - script.times[0] >= 0.39


async def test_429_retry_after_beyond_max_retry_after_ends_the_source_at_once() -> None:
    # Waiting less than asked would only be refused again (four times: minutes for nothing).
    script = Script(httpx.Response(429, headers={"Retry-After": "3600"}), ok())
    started = time.monotonic()
    with pytest.raises(RateLimited) as caught:
        await policy(script, max_retry_after=0.2).get_json("works")
    assert time.monotonic() - started < 0.15
    assert len(script.times) == 1
    assert caught.value.retry_after == 3600 and "wait 3600 s" in str(caught.value)
    assert "0.2 s we wait at most" in str(caught.value)


async def test_429_penalises_the_host_for_every_caller() -> None:
    # After one caller is told to wait, a second caller of the same host must not go in earlier.
    limiters = RateLimiterRegistry()
    script = Script(httpx.Response(429, headers={"Retry-After": "0.3"}), ok(), ok())
    client = httpx.AsyncClient(transport=httpx.MockTransport(script))
    first = HttpPolicy(client, config(), limiters=limiters)
    second = HttpPolicy(client, config(service="mesh"), limiters=limiters)
    await first.get_json("a")
    await second.get_json("b")
    assert script.times[2] - script.times[0] >= 0.29


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after(" 0.5 ") == 0.5
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    future = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= (parse_retry_after(future) or 0) <= 31
    assert parse_retry_after(email.utils.formatdate(time.time() - 30, usegmt=True)) == 0.0


async def test_a_429_storm_ends_with_rate_limited_naming_the_service() -> None:
    body = {"message": "Too Many Requests. Please wait and try again", "code": "429"}
    script = Script(httpx.Response(429, json=body))
    started = time.monotonic()
    with pytest.raises(RateLimited) as caught:
        await policy(script, service="semantic_scholar", retries=3).get_json("paper/search")
    assert time.monotonic() - started < 2.0
    assert len(script.requests) == 4
    error = caught.value
    assert error.service == "semantic_scholar" and error.status == 429
    assert str(error).startswith("semantic_scholar: rate-limited us (HTTP 429) after 4 attempt(s)")


async def test_403_with_a_rate_limit_body_is_a_rate_limit_and_other_403s_are_not() -> None:
    limited = Script(httpx.Response(403, json={"error": "Rate limit exceeded"}))
    with pytest.raises(RateLimited):
        await policy(limited, retries=1).get_json("works")
    assert len(limited.requests) == 2
    forbidden = Script(httpx.Response(403, json={"message": "Forbidden"}))
    with pytest.raises(SourceUnavailable) as caught:
        await policy(forbidden, retries=3).get_json("works")
    assert len(forbidden.requests) == 1 and "API key" in str(caught.value)


# ------------------------------------------------------------------------------------------------
# timeouts
# ------------------------------------------------------------------------------------------------


async def test_a_silent_server_ends_in_source_timeout_within_bounded_time() -> None:
    async def never(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return ok()

    script = Script(never)
    started = time.monotonic()
    with pytest.raises(SourceTimeout) as caught:
        await policy(script, timeout=0.2, retries=1).get_json("works")
    elapsed = time.monotonic() - started
    assert elapsed < 0.2 * 2 + 0.5  # two attempts of 0.2 s plus a 10 ms backoff, with slack
    assert len(script.requests) == 2
    assert caught.value.service == "openalex" and "no answer within 0.2 s" in str(caught.value)


async def test_a_trickling_body_cannot_outlast_the_timeout() -> None:
    # Each chunk arrives well within a per-read timeout, but the whole body takes far longer.
    async def slow_body() -> AsyncIterator[bytes]:
        for _ in range(50):
            await asyncio.sleep(0.05)
            yield b" "

    script = Script(lambda request: httpx.Response(200, content=slow_body()))
    started = time.monotonic()
    with pytest.raises(SourceTimeout):
        await policy(script, timeout=0.3, retries=0).get_text("works")
    assert time.monotonic() - started < 1.0


async def test_a_slow_first_attempt_then_success() -> None:
    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        return ok()

    script = Script(slow, ok({"fast": True}))
    assert await policy(script, timeout=0.2).get_json("works") == {"fast": True}


# ------------------------------------------------------------------------------------------------
# bad bodies and final errors
# ------------------------------------------------------------------------------------------------


async def test_malformed_json_is_bad_response_naming_service_and_problem() -> None:
    script = Script(
        httpx.Response(200, content=b'{"meta": {"count": 12', headers={"content-type": "application/json"})
    )
    with pytest.raises(BadResponse) as caught:
        await policy(script).get_json("works")
    message = str(caught.value)
    assert caught.value.service == "openalex" and message.startswith("openalex:")
    assert "expected JSON from /v1/works but got malformed JSON" in message
    assert len(script.requests) == 1  # a bad body is not retried


async def test_html_where_json_was_expected_is_bad_response() -> None:
    page = "<!DOCTYPE html><html><head><title>Maintenance</title></head><body>back soon</body></html>"
    script = Script(httpx.Response(200, text=page, headers={"content-type": "text/html"}))
    with pytest.raises(BadResponse) as caught:
        await policy(script).get_json("works")
    assert "got an HTML page" in str(caught.value)


async def test_404_is_not_found_with_the_service_detail() -> None:
    script = Script(httpx.Response(404, json={"error": "Paper with id 0 not found"}))
    with pytest.raises(NotFound) as caught:
        await policy(script, service="semantic_scholar").get_json("paper/0")
    assert str(caught.value) == "semantic_scholar: not found (Paper with id 0 not found)"
    assert len(script.requests) == 1


async def test_404_html_page_is_not_found_without_the_html() -> None:
    script = Script(httpx.Response(404, text="<!doctype html><title>404 Not Found</title>"))
    with pytest.raises(NotFound) as caught:
        await policy(script).get_json("works/W1")
    assert "HTML error page" in str(caught.value) and "<title>" not in str(caught.value)


async def test_400_is_bad_query_with_the_service_message() -> None:
    body = {"error": "Invalid query parameters error.", "message": "DOESNTEXIST is not a valid field."}
    script = Script(httpx.Response(400, json=body))
    with pytest.raises(BadQuery) as caught:
        await policy(script).get_json("works")
    assert "DOESNTEXIST is not a valid field" in str(caught.value)


async def test_the_api_key_never_appears_in_an_error(caplog: pytest.LogCaptureFixture) -> None:
    echo = {"message": f"API key {SECRET} is not allowed here", "api-key": SECRET}
    answers: list[Any] = [
        httpx.Response(400, json=echo),
        httpx.Response(404, json=echo),
        httpx.Response(401, json=echo),
        httpx.Response(418, json=echo),
        httpx.Response(429, json=echo),
        httpx.Response(503, json=echo),
        httpx.Response(200, text=f"<html>{SECRET}</html>"),
        httpx.ConnectError(f"could not reach https://api.example.org/v1/works?api_key={SECRET}"),
    ]
    caplog.set_level(logging.DEBUG)
    for answer in answers:
        script = Script(answer)
        http = policy(script, retries=1, secrets=(SECRET,), default_params={"api_key": SECRET})
        with pytest.raises(Exception) as caught:
            await http.get_json("works", {"search": "x"})
        assert isinstance(caught.value, (BadQuery, NotFound, SourceUnavailable, BadResponse, RateLimited))
        assert SECRET not in str(caught.value) and SECRET not in repr(caught.value.args)
        assert caught.value.__cause__ is None or SECRET not in str(caught.value.__cause__)
        assert script.requests[0].url.params["api_key"] == SECRET  # it was really sent
    # httpx logs every request URL at INFO level; the policy's filter blanks the key there too
    assert any("HTTP Request" in r.getMessage() for r in caplog.records)
    assert all(SECRET not in r.getMessage() for r in caplog.records)


# ------------------------------------------------------------------------------------------------
# cache
# ------------------------------------------------------------------------------------------------


async def test_cache_hit_avoids_a_second_request(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "http.sqlite")
    script = Script(ok({"meta": {"count": 7}}))
    http = policy(script, cache=cache, cache_ttl=60)
    first = await http.get_json("works", {"search": "sleep", "per_page": 1})
    second = await http.get_json("works", {"per_page": 1, "search": "sleep"})
    assert first == second == {"meta": {"count": 7}}
    assert len(script.requests) == 1
    await http.get_json("works", {"search": "sleep"}, cache=False)  # asked to bypass the cache
    assert len(script.requests) == 2


async def test_cache_key_ignores_secret_parameters(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "http.sqlite")
    script = Script(ok({"n": 1}))
    old_key = policy(
        script, cache=cache, cache_ttl=60, default_params={"api_key": "old-key", "mailto": "a@b.org"}
    )
    new_key = policy(
        script, cache=cache, cache_ttl=60, default_params={"api_key": "new-key", "mailto": "c@d.org"}
    )
    await old_key.get_json("works", {"search": "x"})
    assert await new_key.get_json("works", {"search": "x"}) == {"n": 1}
    assert len(script.requests) == 1
    stored = cache._conn.execute("SELECT key FROM responses").fetchall()
    assert all("old-key" not in row[0] for row in stored)


async def test_cache_entries_expire_after_the_ttl(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "http.sqlite")
    script = Script(ok({"n": 1}), ok({"n": 2}))
    http = policy(script, cache=cache, cache_ttl=0.05)
    assert await http.get_json("works") == {"n": 1}
    assert await http.get_json("works") == {"n": 1}
    await asyncio.sleep(0.08)
    assert await http.get_json("works") == {"n": 2}
    assert len(script.requests) == 2


async def test_broken_bodies_and_errors_are_not_cached(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "http.sqlite")
    script = Script(
        httpx.Response(200, content=b'{"cut": ', headers={"content-type": "application/json"}),
        httpx.Response(200, text="<html>maintenance</html>", headers={"content-type": "text/html"}),
        httpx.Response(200, content=b"<eSearchResult><Count>3", headers={"content-type": "text/xml"}),
        httpx.Response(404, json={"error": "gone"}),
        ok({"fine": True}),
    )
    http = policy(script, cache=cache, cache_ttl=60, retries=0)
    with pytest.raises(BadResponse):
        await http.get_json("works")
    with pytest.raises(BadResponse):
        await http.get_json("works")
    assert "<Count>3" in await http.get_text("works")
    with pytest.raises(NotFound):
        await http.get_json("works")
    assert await http.get_json("works") == {"fine": True}
    assert await http.get_json("works") == {"fine": True}
    assert len(script.requests) == 5


async def test_no_cache_without_a_ttl(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "http.sqlite")
    script = Script(ok())
    http = policy(script, cache=cache, cache_ttl=0)
    await http.get_json("works")
    await http.get_json("works")
    assert len(script.requests) == 2


# ------------------------------------------------------------------------------------------------
# rate and concurrency
# ------------------------------------------------------------------------------------------------


async def _starts(
    limiter: RateLimiter, callers: int, *, block_at: int | None = None, block: float = 0.15
) -> list[float]:
    """When the limiter let each of `callers` concurrent callers go (its own grant times: a clock read
    after `acquire` returns would add however long a loaded machine takes to get there); with
    `block_at`, the event loop is held up for `block` seconds right after that start (a busy loop wakes
    the next caller late)."""
    times: list[float] = []

    async def go() -> None:
        times.append(await limiter.acquire())
        if block_at is not None and len(times) == block_at:
            time.sleep(block)  # noqa: ASYNC251 - on purpose: the loop is busy elsewhere

    await asyncio.gather(*(go() for _ in range(callers)))
    return times


async def test_the_limiter_spaces_concurrent_callers() -> None:
    times = await _starts(RateLimiter(40.0), 12)
    # never ahead of the grid of 1/40 s from the first start
    assert all(t - times[0] >= k / 40 * 0.99 for k, t in enumerate(times))
    assert times[-1] - times[0] >= 11 / 40 * 0.99


async def test_a_late_wake_up_does_not_delay_the_later_starts() -> None:
    # rate 10: the third caller, due at 0.2 s, is woken 0.2 s late by a busy loop; the last is still
    # due at 0.7 s (counted from each late start, it would go at 0.9 s)
    times = await _starts(RateLimiter(10.0), 8, block_at=2, block=0.3)
    assert times[2] - times[0] >= 0.1 + 0.3 - 0.01
    assert times[-1] - times[0] < 0.7 + 0.1


async def test_never_more_starts_within_a_second_than_the_rate() -> None:
    # rate 3 (PubMed without a key): a late start and the next may be closer than 1/3 s, but any window
    # of one second holds at most three starts, as NCBI counts them
    times = await _starts(RateLimiter(3.0), 7, block_at=1)
    assert all(later - earlier >= 1.0 * 0.99 for earlier, later in zip(times, times[3:], strict=False))


async def test_a_rate_of_one_per_second_spaces_each_start_from_the_last() -> None:
    limiter = RateLimiter(20.0)
    # as RateLimiter(1.0), at test speed: one start per window, the window one interval
    limiter.per_window, limiter.window, limiter._starts = 1, limiter.interval, deque(maxlen=1)
    times = await _starts(limiter, 5, block_at=1)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) >= 1 / 20 * 0.99


async def test_an_idle_limiter_starts_a_new_grid_without_a_burst() -> None:
    limiter = RateLimiter(10.0)
    await limiter.acquire()
    await asyncio.sleep(0.35)  # idle for three slots
    times = await _starts(limiter, 3)
    # the new grid runs from the first start after the pause, however late the machine let it go
    assert all(t - times[0] >= k * 0.1 * 0.99 for k, t in enumerate(times))


async def test_a_penalty_reaches_callers_already_waiting() -> None:
    limiter = RateLimiter(10.0)
    await limiter.acquire()
    started = time.monotonic()
    waiting = asyncio.ensure_future(limiter.acquire())  # would go 0.1 s later
    await asyncio.sleep(0.02)
    limiter.penalise(0.3)  # a 429 with Retry-After arrived meanwhile
    await waiting
    assert time.monotonic() - started >= 0.31


async def test_concurrent_requests_keep_the_rate() -> None:
    script = Script(ok())
    http = policy(script, rate=40.0)
    await asyncio.gather(*(http.get_json(f"works/{i}") for i in range(12)))
    assert len(script.requests) == 12
    assert script.times[-1] - script.times[0] >= 11 / 40 * 0.95


async def test_one_limiter_per_host_and_path() -> None:
    registry = RateLimiterRegistry()
    client = httpx.AsyncClient(transport=httpx.MockTransport(Script(ok())))
    pubmed = HttpPolicy(
        client, config(service="pubmed", base_url="https://eutils.example.org/eutils"), limiters=registry
    )
    mesh = HttpPolicy(
        client, config(service="mesh", base_url="https://eutils.example.org/eutils/"), limiters=registry
    )
    other = HttpPolicy(
        client, config(service="openalex", base_url="https://eutils.example.org/other"), limiters=registry
    )
    assert pubmed.limiter is mesh.limiter
    assert other.limiter is not pubmed.limiter


async def test_concurrency_is_capped_per_service() -> None:
    in_flight = 0
    peak = 0

    async def slow(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.03)
        in_flight -= 1
        return ok()

    http = policy(Script(slow), concurrency=2)
    await asyncio.gather(*(http.get_json("works") for _ in range(8)))
    assert peak == 2


# ------------------------------------------------------------------------------------------------
# decoding
# ------------------------------------------------------------------------------------------------


async def test_big_json_bodies_are_decoded_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    big = {"data": ["x" * 100] * (THREAD_JSON_BYTES // 100)}
    http = policy(Script(ok({"small": True}), ok(big)))
    decoded_on: list[int] = []
    parse = http.parse_json

    def recording_parse(response: httpx.Response) -> Any:
        decoded_on.append(threading.get_ident())
        return parse(response)

    monkeypatch.setattr(http, "parse_json", recording_parse)
    assert await http.get_json("small") == {"small": True}
    assert await http.get_json("big") == big
    loop_thread = threading.get_ident()
    assert decoded_on[0] == loop_thread  # a thread hop costs more than a small body's decoding
    assert decoded_on[1] != loop_thread
