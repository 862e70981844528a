"""SCHOLARMAP_LLM_TIMEOUT bounds each LLM call (it was never read: calls waited 60 s, three times)."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest
from pydantic import BaseModel

from agent.llm import LLMUnavailable, build_llm
from agent.settings import load_settings


class Anything(BaseModel):
    value: str = ""


async def test_a_silent_llm_endpoint_fails_within_the_configured_timeout(tmp_path) -> None:
    # An endpoint that accepts the connection and never answers: only a timeout ends the call.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    port = listener.getsockname()[1]
    try:
        settings = load_settings(
            data_dir=tmp_path,
            llm="openai",
            openai_api_key="sk-test",
            llm_base_url=f"http://127.0.0.1:{port}/v1",
            llm_timeout=0.3,
        )
        llm = build_llm(settings)
        started = time.monotonic()
        with pytest.raises(LLMUnavailable, match="could not be reached"):
            # The bound is the test's safety net only: 3 attempts of 0.3 s plus the SDK's short backoff.
            await asyncio.wait_for(llm.structured("normalize_terms", {"slots_json": "{}"}, Anything), 15)
        assert time.monotonic() - started < 8.0  # the old 60 s per attempt would take minutes
    finally:
        listener.close()
