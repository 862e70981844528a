"""The benchmarks' fake-sources server in a child process: it answers while open and is gone after."""

from __future__ import annotations

import httpx
import pytest

from evals.fake_process import fake_sources_process


def test_the_child_server_answers_and_stops() -> None:
    with fake_sources_process(seed=1, latency_ms=1, total=50) as root:
        assert httpx.get(f"{root}/", timeout=5).status_code < 500
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{root}/", timeout=1)
