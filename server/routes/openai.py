"""An OpenAI-compatible face of the conversation: `POST /v1/chat/completions` and `GET /v1/models`.

Any OpenAI client or chat UI can hold a ScholarMap conversation. The chat maps onto a thread through a
stable key (the `X-ScholarMap-Thread` header, else the `user` field; with neither, each request starts a
new thread). Only the last user message is new input: interrupts become plain questions in the reply, and
the next message answers them ('yes', 'ok', 'confirm', '确认', '好' accept a confirmation or review).
Citations appear as `[n]` markers with a numbered source list at the end. An answer also carries its
decision beside the text, in a `scholarmap` field of the response (the last chunk when streaming):
`{"answerable": bool, "citations": [...]}`, plus `"trace"` (each retrieval step's output) when the
request says `"trace": true`.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any, Literal

from fastapi import APIRouter, Header
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from server.deps import ServicesDep
from server.inputs import InvalidInput
from server.routes.threads import DEFAULT_PROJECT, ThreadsDep
from server.streaming.events import Event
from server.streaming.render import render_interrupt, render_progress, render_run_ready, render_sources
from server.streaming.threads import ResumeMismatch, ThreadBusy, ThreadManager

router = APIRouter(tags=["openai"])

MODEL_ID = "scholarmap"


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: Literal["system", "user", "assistant", "tool", "developer"]
    content: str | list[dict[str, Any]] | None = None


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="allow")  # temperature, top_p ... are accepted and ignored
    model: str = MODEL_ID
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    user: str | None = None


def _text_of(message: ChatMessage) -> str:
    if isinstance(message.content, str):
        return message.content
    parts = message.content or []
    return "".join(part.get("text", "") for part in parts if part.get("type") == "text")


async def _thread_for(threads: ThreadManager, services: ServicesDep, key: str | None) -> str:
    if key:
        existing = await threads.by_chat_key(key)
        if existing:
            return existing["thread_id"]
    services.store.ensure_project(DEFAULT_PROJECT, "Default project")
    return (await threads.create(DEFAULT_PROJECT, chat_key=key))["thread_id"]


async def _text_pieces(
    events: AsyncIterator[Event], answer: dict[str, Any] | None = None
) -> AsyncIterator[str | dict[str, Any]]:
    """The conversation's events as text pieces; an error becomes a dict (sent as an error chunk).

    `answer` collects what an answer decided beside its text (answerable, citations, trace), for the
    response's `scholarmap` field."""
    citations: list[dict[str, Any]] = []
    answer = answer if answer is not None else {}
    async for event in events:
        data = event.data
        step = data.get("kind") if event.type == "info" else event.type  # the ask node's start/end
        if step in ("ask_start", "ask_end"):
            answer["answerable"] = data.get("answerable")
            if data.get("trace") is not None:
                answer["trace"] = data["trace"]
        if event.type == "text":
            yield data.get("delta", "")
        elif event.type == "interrupt":
            yield "\n\n" + render_interrupt(data) + "\n"
        elif event.type == "search_progress":
            if line := render_progress(data):
                yield line + "\n"
        elif event.type == "run_ready":
            yield "\n" + render_run_ready(data) + "\n"
        elif event.type == "citation":
            citations.append(data)
        elif event.type == "map_ready":
            yield f"\nThe academic map is ready: {data.get('url')}\n"
        elif event.type == "error":
            yield {"message": data.get("message", "error"), "type": data.get("kind", "internal")}
            return
    if citations:
        answer["citations"] = citations
        yield "\n\n" + render_sources(citations)


def _error(status: int, message: str, kind: str) -> JSONResponse:
    """An error in OpenAI's shape: the official client shows only `error.message` (a bare FastAPI
    `{"detail": ...}` surfaced as "Error code: 502" with the cause hidden). `detail` is kept as well, as
    in every other error of this service."""
    return JSONResponse(
        {"error": {"message": message, "type": kind, "code": status}, "detail": message}, status_code=status
    )


def _chunk(completion_id: str, created: int, delta: dict[str, Any], finish: str | None = None) -> str:
    body = {
        "id": completion_id,
        "object": "chat.completion.chunk",
        "created": created,
        "model": MODEL_ID,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body, ensure_ascii=False)}\n\n"


@router.get("/v1/models")
async def list_models() -> dict[str, Any]:
    return {
        "object": "list",
        "data": [{"id": MODEL_ID, "object": "model", "created": 1_700_000_000, "owned_by": "scholarmap"}],
    }


@router.post("/v1/chat/completions", response_model=None)
async def chat_completions(
    body: ChatRequest,
    threads: ThreadsDep,
    services: ServicesDep,
    x_scholarmap_thread: str | None = Header(None),
) -> Any:
    user_messages = [m for m in body.messages if m.role == "user"]
    if not user_messages or not _text_of(user_messages[-1]).strip():
        return _error(422, "messages must end with a non-empty user message", "invalid_request_error")
    text = _text_of(user_messages[-1])
    try:
        thread_id = await _thread_for(threads, services, x_scholarmap_thread or body.user)
        trace = (body.model_extra or {}).get("trace")
        options = {"trace": trace} if isinstance(trace, bool) else None
        before = await threads.submit(thread_id, text=text, options=options)
    except ThreadBusy as exc:
        return _error(409, str(exc), "conflict")
    except (ResumeMismatch, InvalidInput) as exc:
        return _error(422, str(exc), "invalid_request_error")
    completion_id = f"chatcmpl-{secrets.token_hex(12)}"
    created = int(time.time())
    answer: dict[str, Any] = {}
    pieces = _text_pieces(threads.follow(thread_id, before), answer)
    headers = {"x-scholarmap-thread": thread_id}

    if body.stream:

        async def stream() -> AsyncIterator[str]:
            yield _chunk(completion_id, created, {"role": "assistant", "content": ""})
            async for piece in pieces:
                if isinstance(piece, dict):
                    yield f"data: {json.dumps({'error': piece}, ensure_ascii=False)}\n\n"
                    break
                if piece:
                    yield _chunk(completion_id, created, {"content": piece})
            else:
                final = json.loads(_chunk(completion_id, created, {}, finish="stop")[len("data: ") :])
                if answer:
                    final["scholarmap"] = answer
                yield f"data: {json.dumps(final, ensure_ascii=False)}\n\n"
            yield "data: [DONE]\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    parts: list[str] = []
    async for piece in pieces:
        if isinstance(piece, dict):
            return _error(502, f"the conversation failed: {piece['message']}", piece.get("type", "internal"))
        parts.append(piece)
    content = "".join(parts).strip()
    return JSONResponse(
        {
            "id": completion_id,
            "object": "chat.completion",
            "created": created,
            "model": MODEL_ID,
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            **({"scholarmap": answer} if answer else {}),
        },
        headers=headers,
    )
