"""The LLM port: the OpenAI-compatible client against a small OpenAI-shaped server on 127.0.0.1."""

import json

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel

from agent.llm import (
    InvalidLLMOutput,
    LLMUnavailable,
    OpenAICompatibleLLM,
    RulesLLM,
    ScriptedLLM,
    build_llm,
    parse_structured,
)
from agent.models import Produced
from agent.prompts import PromptTemplate
from agent.settings import load_settings
from tests.asgi_server import serve

PROMPT = PromptTemplate(name="probe", system="You extract things.", user="Text: {{text}}")


class Extraction(BaseModel):
    task: str
    count: int


def openai_shaped_server(replies: list[str], seen: list[dict]) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def completions(request: Request):
        body = await request.json()
        seen.append({"body": body, "auth": request.headers.get("authorization")})
        if request.headers.get("authorization") != "Bearer sk-test":
            return JSONResponse(
                {"error": {"message": "bad key", "type": "invalid_request_error"}}, status_code=401
            )
        text = replies.pop(0) if len(replies) > 1 else replies[0]
        if body.get("stream"):

            async def stream():
                for piece in [text[i : i + 4] for i in range(0, len(text), 4)]:
                    chunk = {
                        "id": "c1",
                        "object": "chat.completion.chunk",
                        "created": 1,
                        "model": body["model"],
                        "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
                    }
                    yield f"data: {json.dumps(chunk)}\n\n"
                yield "data: [DONE]\n\n"

            return StreamingResponse(stream(), media_type="text/event-stream")
        return {
            "id": "c1",
            "object": "chat.completion",
            "created": 1,
            "model": body["model"],
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
            ],
        }

    return app


@pytest.fixture
def endpoint():
    state = {"replies": ['{"task": "decoding", "count": 3}'], "seen": []}
    app = openai_shaped_server(state["replies"], state["seen"])
    with serve(app) as url:
        state["url"] = f"{url}/v1"
        yield state


def client(url: str, key: str = "sk-test") -> OpenAICompatibleLLM:
    return OpenAICompatibleLLM(api_key=key, model="test-model", base_url=url, temperature=0.1, timeout=10)


async def test_json_mode_structured_completion(endpoint):
    result = await client(endpoint["url"]).structured(PROMPT, {"text": "ECoG"}, Extraction)
    assert result == Extraction(task="decoding", count=3)
    body = endpoint["seen"][0]["body"]
    assert body["response_format"] == {"type": "json_object"}
    assert body["temperature"] == 0.1
    assert "Text: ECoG" in body["messages"][1]["content"]
    assert '"task"' in body["messages"][0]["content"]  # the schema is given to the model


async def test_invalid_json_is_retried_once(endpoint):
    endpoint["replies"][:] = ["not json at all", '```json\n{"task": "t", "count": 1}\n```']
    result = await client(endpoint["url"]).structured(PROMPT, {"text": "x"}, Extraction)
    assert result.count == 1
    retry_messages = endpoint["seen"][1]["body"]["messages"]
    assert retry_messages[-2] == {"role": "assistant", "content": "not json at all"}
    assert "could not be used" in retry_messages[-1]["content"]


async def test_invalid_json_twice_is_a_typed_error(endpoint):
    endpoint["replies"][:] = ['{"task": "t"}']  # valid JSON, wrong schema, every time
    with pytest.raises(InvalidLLMOutput, match="probe"):
        await client(endpoint["url"]).structured(PROMPT, {"text": "x"}, Extraction)
    assert len(endpoint["seen"]) == 2


async def test_streaming(endpoint):
    endpoint["replies"][:] = ["Speech decoding from high-gamma activity [1]."]
    pieces = [piece async for piece in client(endpoint["url"]).stream(PROMPT, {"text": "x"})]
    assert len(pieces) > 3
    assert "".join(pieces) == "Speech decoding from high-gamma activity [1]."
    assert endpoint["seen"][0]["body"]["stream"] is True


async def test_bad_key_is_unavailable_without_leaking_it(endpoint):
    with pytest.raises(LLMUnavailable) as info:
        await client(endpoint["url"], key="sk-wrong-secret").structured(PROMPT, {"text": "x"}, Extraction)
    assert "sk-wrong-secret" not in str(info.value)


async def test_unreachable_endpoint_falls_back_to_rules():
    llm = client("http://127.0.0.1:9/v1")
    llm.client = llm.client.with_options(max_retries=0, timeout=2)
    completion = await llm.complete_or_fallback(
        PROMPT, {"text": "x"}, Extraction, lambda: Extraction(task="rules", count=0)
    )
    assert completion.produced_by is Produced.RULES
    assert completion.value.task == "rules"
    assert "could not be reached" in completion.note


async def test_scripted_records_calls_and_consumes_replies():
    llm = ScriptedLLM({"probe": ["garbage", {"task": "a", "count": 1}, Extraction(task="b", count=2)]})
    assert (await llm.structured(PROMPT, {"text": "1"}, Extraction)).task == "a"  # one retry after garbage
    assert (await llm.structured(PROMPT, {"text": "2"}, Extraction)).task == "b"
    assert (await llm.structured(PROMPT, {"text": "3"}, Extraction)).task == "b"  # the last repeats
    assert [call.values["text"] for call in llm.calls] == ["1", "1", "2", "3"]
    assert llm.calls[0].user == "Text: 1"


async def test_scripted_without_a_script_is_unavailable():
    completion = await ScriptedLLM().complete_or_fallback(
        PROMPT, {"text": "x"}, Extraction, lambda: Extraction(task="r", count=0)
    )
    assert completion.produced_by is Produced.RULES


async def test_rules_llm_always_falls_back():
    llm = RulesLLM()
    with pytest.raises(LLMUnavailable):
        await llm.structured(PROMPT, {"text": "x"}, Extraction)
    with pytest.raises(LLMUnavailable):
        async for _ in llm.stream(PROMPT, {"text": "x"}):
            pass
    assert not llm.available


def test_build_llm_follows_settings(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert isinstance(build_llm(load_settings(data_dir=tmp_path)), RulesLLM)
    llm = build_llm(
        load_settings(data_dir=tmp_path, openai_api_key="sk-x", llm_base_url="http://127.0.0.1:1/v1")
    )
    assert isinstance(llm, OpenAICompatibleLLM)
    assert isinstance(
        build_llm(load_settings(data_dir=tmp_path, openai_api_key="sk-x", llm="rules")), RulesLLM
    )


def test_parse_structured_tolerates_prose_around_json():
    assert parse_structured('Sure! {"task": "x", "count": 2} Hope that helps.', Extraction).count == 2
    with pytest.raises(ValueError, match="no JSON object"):
        parse_structured("nothing here", Extraction)
