"""The keyword step's overall deadline (SCHOLARMAP_STEP_TIME_LIMIT): a PubMed that hangs on every request
added minutes (timeouts x retries x requests) before the search could start."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from evals.bench_sse import DESCRIPTION, fast_settings
from evals.fake_sources.config import FakeConfig
from evals.fake_sources.server import RunningFakeSources, running_fake_sources
from tests.server.conftest import ServerFactory, interrupt_of, send


@pytest.fixture(scope="module")
def hanging_pubmed() -> Iterator[RunningFakeSources]:
    with running_fake_sources(FakeConfig(seed=4, faults={"pubmed": "latency:30000"})) as running:
        yield running


def test_the_keyword_step_ends_at_its_deadline_and_says_why(
    hanging_pubmed: RunningFakeSources, pg_url: str, tmp_path: Path, start_server: ServerFactory
) -> None:
    settings = fast_settings(
        tmp_path / "data", pg_url, hanging_pubmed.base_urls, cache_ttl=0, http_timeout=20, step_time_limit=1.5
    )
    with start_server(settings) as url, httpx.Client(base_url=url, timeout=60) as client:
        thread_id = client.post("/threads", json={}).json()["thread_id"]
        assert interrupt_of(send(client, thread_id, {"text": DESCRIPTION}))["kind"] == "confirmation"
        started = time.monotonic()
        review = interrupt_of(send(client, thread_id, {"resume": {"accept": True}}))
        elapsed = time.monotonic() - started
    assert review["kind"] == "review"
    assert elapsed < 10, f"the keyword step took {elapsed:.1f} s"  # 20 s per request without the deadline
    errors = [e for e in review["source_errors"] if e["source"] == "keywords"]
    assert errors and errors[0]["kind"] == "timeout" and "SCHOLARMAP_STEP_TIME_LIMIT" in errors[0]["message"]
    assert review["terms"], "the plan still has the description's terms"
