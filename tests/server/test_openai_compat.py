"""The OpenAI-compatible endpoint, driven by the official `openai` Python client over a real socket."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import openai
import pytest
from openai import OpenAI

from evals.bench_sse import DESCRIPTION, FAIL_MARKER
from tests.server.conftest import table_counts


@pytest.fixture
def client(server: str) -> OpenAI:
    return OpenAI(base_url=f"{server}/v1", api_key="x", max_retries=0, timeout=60)


def stream_text(client: OpenAI, messages: list[dict[str, str]], **kwargs: Any) -> str:
    stream = client.chat.completions.create(model="scholarmap", messages=messages, stream=True, **kwargs)
    pieces: list[str] = []
    finish: list[str | None] = []
    for chunk in stream:
        assert chunk.object == "chat.completion.chunk" and chunk.model == "scholarmap"
        choice = chunk.choices[0]
        pieces.append(choice.delta.content or "")
        finish.append(choice.finish_reason)
    assert finish[-1] == "stop" and not any(finish[:-1])
    return "".join(pieces)


def test_models_list(client: OpenAI) -> None:
    assert [m.id for m in client.models.list()] == ["scholarmap"]


def test_a_whole_conversation_streamed_with_the_openai_client(client: OpenAI, server: str) -> None:
    history: list[dict[str, str]] = [{"role": "system", "content": "ignored"}]

    def turn(text: str) -> str:
        history.append({"role": "user", "content": text})
        reply = stream_text(client, history, user="researcher-1")
        history.append({"role": "assistant", "content": reply})
        return reply

    confirmation = turn(DESCRIPTION)
    assert "My interpretation: You decode speech" in confirmation
    assert "- method measurement: electrocorticography" in confirmation
    assert "Reply 'yes' to confirm" in confirmation

    # A correction instead of 'yes' goes back to understanding and asks again.
    again = turn("Also include stereo-EEG.")
    assert "My interpretation:" in again and "Reply 'yes' to confirm" in again

    review = turn("yes")
    assert "Concepts (required ones are AND'ed" in review and "- speech decoding [method, required]" in review
    assert "PubMed:" in review and "OpenAlex:" in review and "Reply 'yes' to search" in review

    edited = turn("add term: speech synthesis")
    assert "Changes: + term: speech synthesis" in edited and "Reply 'yes' to search" in edited

    done = turn("ok")
    assert "PubMed: 1 records fetched" in done and "OpenAlex: 1 records fetched" in done
    assert "Run " in done and "saved (completed)" in done and "papers after merging" in done

    # With a Run, plain text is a question about it: cited with [n], the sources listed at the end.
    # (the fake papers are word salad: the Run may answer or say it cannot and offer related passages)
    answer = turn("Which methods decode speech from ECoG?")
    cited = re.findall(r"\[(\d+)\]", answer.split("Sources:")[0])
    assert cited, answer
    # numbered as the reader meets them: 1, 2, 3 … (not by retrieval rank)
    assert [int(n) for n in dict.fromkeys(cited)] == list(range(1, len(set(cited)) + 1)), answer
    sources = answer.split("\n\nSources:\n", 1)[1]
    for number in set(cited):  # every cited number is listed with its title, year and passage
        assert re.search(rf"^\[{number}\] .+\(\d{{4}}\), [a-z-]+", sources, re.MULTILINE), answer
    assert all(url.startswith("https://doi.org/10.") for url in re.findall(r"https://\S+", sources))

    # Every turn went to one thread: the `user` key mapped them, and that thread holds the Run.
    with httpx.Client(base_url=server) as http:
        raw = client.chat.completions.with_raw_response.create(
            model="scholarmap",
            messages=[{"role": "user", "content": "/search speech synthesis"}],
            user="researcher-1",
        )
        thread_id = raw.headers["x-scholarmap-thread"]
        state = http.get(f"/threads/{thread_id}").json()
        assert len(state["run_ids"]) == 1 and state["pending"]["kind"] == "confirmation"
        assert state["values"]["description"] == "speech synthesis"


def test_non_streaming_with_the_thread_header(client: OpenAI, server: str) -> None:
    headers = {"X-ScholarMap-Thread": "chat-window-7"}

    def turn(text: str) -> Any:
        return client.chat.completions.create(
            model="scholarmap", messages=[{"role": "user", "content": text}], extra_headers=headers
        )

    first = turn(DESCRIPTION)
    assert first.object == "chat.completion" and first.choices[0].finish_reason == "stop"
    assert first.choices[0].message.role == "assistant"
    assert "Reply 'yes' to confirm" in first.choices[0].message.content
    second = turn("确认")  # the header, not the (absent) history, carries the conversation on
    assert "Concepts (required ones are AND'ed" in second.choices[0].message.content

    # The header wins over `user`; a request with neither starts a thread of its own.
    raw = client.chat.completions.with_raw_response.create(
        model="scholarmap",
        messages=[{"role": "user", "content": "yes"}],
        extra_headers=headers,
        user="someone-else",
    )
    assert "saved (completed)" in raw.parse().choices[0].message.content
    header_thread = raw.headers["x-scholarmap-thread"]
    # An answer carries its decision beside the text; `"trace": true` adds each retrieval step.
    answer = client.chat.completions.create(
        model="scholarmap",
        messages=[{"role": "user", "content": "Which methods decode speech from ECoG?"}],
        extra_headers=headers,
        extra_body={"trace": True},
    )
    decision = (answer.model_extra or {})["scholarmap"]
    assert isinstance(decision["answerable"], bool) and decision["citations"]
    text = (answer.choices[0].message.content or "").split("Sources:")[0]
    numbers = [c["n"] for c in decision["citations"]]
    assert numbers == list(range(1, len(numbers) + 1))
    assert [int(n) for n in dict.fromkeys(re.findall(r"\[(\d+)\]", text))] == numbers
    assert {"normalized_query", "multi_recall_results", "aggregated_results"} <= set(decision["trace"])
    fresh = client.chat.completions.with_raw_response.create(
        model="scholarmap", messages=[{"role": "user", "content": DESCRIPTION}]
    )
    assert fresh.headers["x-scholarmap-thread"] != header_thread
    with httpx.Client(base_url=server) as http:
        assert len(http.get(f"/threads/{header_thread}").json()["run_ids"]) == 1


def test_an_error_mid_stream_is_an_error_chunk_then_done(client: OpenAI, server: str) -> None:
    failing = [{"role": "user", "content": f"{DESCRIPTION} {FAIL_MARKER}"}]
    stream = client.chat.completions.create(model="scholarmap", messages=failing, stream=True, user="unlucky")
    received: list[str] = []
    with pytest.raises(openai.APIError) as raised:
        for chunk in stream:
            received.append(chunk.choices[0].delta.content or "")
    # The scripted model raised a plain RuntimeError (a bug, for the service): its text stays in the log
    assert "failed on purpose" not in raised.value.message
    assert "Something went wrong inside ScholarMap" in raised.value.message
    assert received and received[0] == ""  # the role chunk came first: the error is mid-stream

    # On the wire: chunks, one `{"error": ...}` chunk, then `[DONE]` and nothing else.
    body = {"model": "scholarmap", "messages": failing, "stream": True, "user": "unlucky-2"}
    with httpx.Client(base_url=server, timeout=60) as http:
        lines = [
            line.removeprefix("data: ")
            for line in http.post("/v1/chat/completions", json=body).text.splitlines()
            if line.startswith("data: ")
        ]
    assert lines[-1] == "[DONE]"
    error = json.loads(lines[-2])["error"]
    assert "failed on purpose" not in error["message"] and "reference" in error["message"]
    assert error["type"] == "internal"
    assert all("choices" in json.loads(line) for line in lines[:-2])

    # Not streaming, the same failure is an HTTP error the client raises.
    with pytest.raises(openai.APIStatusError) as status:
        client.chat.completions.create(model="scholarmap", messages=failing, user="unlucky-3")
    assert status.value.status_code == 502 and "failed on purpose" not in str(status.value)
    assert "Something went wrong inside ScholarMap" in str(status.value)


def test_bad_requests_change_nothing(client: OpenAI, server: str, pg_url: str) -> None:
    rows = table_counts(pg_url)
    with pytest.raises(openai.UnprocessableEntityError):
        client.chat.completions.create(model="scholarmap", messages=[{"role": "user", "content": "   "}])
    with pytest.raises(openai.UnprocessableEntityError):
        client.chat.completions.create(model="scholarmap", messages=[])
    with httpx.Client(base_url=server) as http:
        malformed = http.post(
            "/v1/chat/completions", content=b"{nope", headers={"content-type": "application/json"}
        )
        assert malformed.status_code == 400
    assert table_counts(pg_url) == rows
