"""A local fake of the Slack Web API, for the Slack bot's tests (the real one is https://slack.com/api/).

It answers the methods the bot calls with the shapes Slack documents (`ok`, `ts`, `channel`, upload
URLs), records every call with its parameters (form or JSON bodies, as slack_sdk sends them), and can
refuse streaming the way a workspace without it does (`chat.startStream` → `ok: false`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

from tests.asgi_server import serve

BOT_USER = "U0BOT"
TEAM = "T0TEAM"


@dataclass
class FakeSlack:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    uploads: dict[str, bytes] = field(default_factory=dict)
    refuse_streaming: bool = False
    base_url: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _ts: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/api/{method}", self.api, methods=["POST"]),
                Route("/upload/{file_id}", self.upload, methods=["POST"]),
            ]
        )

    def _next_ts(self) -> str:
        return f"1800000000.{next(self._ts):06d}"

    async def api(self, request: Request) -> JSONResponse:
        method = request.path_params["method"]
        raw = await request.body()
        if request.headers.get("content-type", "").startswith("application/json"):
            params = json.loads(raw or b"{}")
        else:
            params = dict(parse_qsl(raw.decode()))
        params = {**dict(request.query_params), **params}  # some methods send their arguments as a query
        if request.headers.get("authorization") != "Bearer xoxb-test-token":
            return JSONResponse({"ok": False, "error": "invalid_auth"})
        answer = self.answer(method, params)
        with self._lock:
            self.calls.append((method, {**params, "_reply": answer}))  # `_reply`: what the bot was told
        return JSONResponse(answer)

    def answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "auth.test":
            return {"ok": True, "user_id": BOT_USER, "bot_id": "B0BOT", "team_id": TEAM, "team": "Lab"}
        if method == "chat.startStream" and self.refuse_streaming:
            return {"ok": False, "error": "unknown_method"}
        if method in {"chat.postMessage", "chat.startStream"}:
            return {"ok": True, "channel": params.get("channel"), "ts": self._next_ts()}
        if method in {"chat.update", "chat.appendStream", "chat.stopStream"}:
            return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts")}
        if method == "files.getUploadURLExternal":
            file_id = f"F{next(self._ts):08d}"
            return {"ok": True, "upload_url": f"{self.base_url}/upload/{file_id}", "file_id": file_id}
        if method == "files.completeUploadExternal":
            files = json.loads(params.get("files") or "[]")
            return {"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in files]}
        return {"ok": False, "error": "unknown_method"}

    async def upload(self, request: Request) -> PlainTextResponse:
        with self._lock:
            self.uploads[request.path_params["file_id"]] = await request.body()
        return PlainTextResponse("OK - 200")

    # -- for the tests ----------------------------------------------------------------------------------

    def methods(self) -> list[str]:
        with self._lock:
            return [method for method, _ in self.calls]

    def of(self, method: str) -> list[dict[str, Any]]:
        with self._lock:
            return [params for name, params in self.calls if name == method]

    def take(self) -> list[tuple[str, dict[str, Any]]]:
        """The calls since the last take, forgotten after (auth.test left out)."""
        with self._lock:
            taken = [call for call in self.calls if call[0] != "auth.test"]
            self.calls.clear()
        return taken

    async def wait_for(self, predicate: Any, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate(self):
            if time.monotonic() > deadline:
                raise AssertionError(f"Slack calls never matched; got {self.methods()}")
            await asyncio.sleep(0.02)


@contextmanager
def running_fake_slack() -> Iterator[FakeSlack]:
    fake = FakeSlack()
    with serve(fake.app()) as url:
        fake.base_url = url
        yield fake
