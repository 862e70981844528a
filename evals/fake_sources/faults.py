"""Fault injection and request recording, as raw ASGI middleware in front of the service routes.

It sits outside Starlette on purpose: a connection reset, a hang and a truncated body need the raw
ASGI `send` (and, for resets, the transport behind uvicorn's `send`), which a framework response
cannot express. Every request is recorded with its arrival time so tests can measure the rate a
client really produced at the server.
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import threading
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from evals.fake_sources.config import SOURCE_PREFIXES, FakeConfig, Fault, FaultSpecError, parse_faults

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass
class RequestRecord:
    service: str
    method: str
    path: str  # below the service prefix, e.g. "/esearch.fcgi"
    query: str
    at: float  # time.monotonic() when the request arrived
    fault: str | None = None
    status: int | None = None


class ServerState:
    """What the server remembers: the request log and the "fail N times" counters."""

    def __init__(self) -> None:
        self.requests: list[RequestRecord] = []
        self._counters: dict[tuple[str, str], int] = defaultdict(int)
        self._recent: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def record(self, record: RequestRecord) -> None:
        with self._lock:
            self.requests.append(record)

    def times(self, service: str) -> list[float]:
        with self._lock:
            return [r.at for r in self.requests if r.service == service]

    def for_service(self, service: str) -> list[RequestRecord]:
        with self._lock:
            return [r for r in self.requests if r.service == service]

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._counters.clear()
            self._recent.clear()

    def take(self, service: str, fault: Fault) -> bool:
        """Whether this request gets `fault` (a "*N" fault is used up after N requests)."""
        if fault.times is None:
            return True
        with self._lock:
            key = (service, fault.text)
            if self._counters[key] >= fault.times:
                return False
            self._counters[key] += 1
            return True

    def over_rate(self, service: str, rate: float, now: float) -> bool:
        with self._lock:
            recent = self._recent[service]
            while recent and now - recent[0] >= 1.0:
                recent.popleft()
            recent.append(now)
            return len(recent) > rate + 1e-9


def service_of(path: str) -> tuple[str | None, str]:
    prefix, _, rest = path.lstrip("/").partition("/")
    if prefix in SOURCE_PREFIXES:
        return prefix, "/" + rest
    return None, path


# ------------------------------------------------------------------------------------------------
# service-shaped error bodies (as the real services send them; see API_NOTES.md)
# ------------------------------------------------------------------------------------------------

_HTML_STATUS = {
    500: "500 Internal Server Error",
    502: "502 Bad Gateway",
    503: "503 Service Temporarily Unavailable",
    504: "504 Gateway Time-out",
}


def error_response(
    service: str, status: int, retry_after: float | None = None
) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    headers: list[tuple[bytes, bytes]] = []
    if retry_after is not None:
        headers.append(
            (
                b"retry-after",
                str(int(retry_after) if retry_after == int(retry_after) else retry_after).encode(),
            )
        )
    body: Any
    if status == 429:
        if service in ("pubmed", "mesh"):
            body = {"error": "API rate limit exceeded", "api-key": "127.0.0.1", "count": "5", "limit": "3"}
        elif service == "semantic_scholar":
            headers.append((b"x-amzn-errortype", b"TooManyRequestsException"))
            body = {
                "message": "Too Many Requests. Please wait and try again or apply for a key for higher rate "
                "limits. https://www.semanticscholar.org/product/api#api-key-form",
                "code": "429",
            }
        elif service == "openalex":
            body = {
                "error": "Rate limit exceeded",
                "message": "You have exceeded the rate limit. Please slow down.",
            }
        else:
            body = {"message": "Too Many Requests"}
    elif service == "semantic_scholar":
        messages = {502: "Bad Gateway", 503: "Service Unavailable", 504: "Endpoint request timed out"}
        body = {"message": messages.get(status, "Internal Server Error")}
    elif service == "openalex" and status == 500:
        body = {"error": "Internal server error", "message": "Something went wrong. Please try again."}
    else:
        title = _HTML_STATUS.get(status, f"{status} Error")
        page = f"<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n<center><h1>{title}</h1></center>\r\n</body>\r\n</html>\r\n"
        headers.append((b"content-type", b"text/html"))
        return status, headers, page.encode()
    headers.append((b"content-type", b"application/json"))
    return status, headers, json.dumps(body).encode()


MAINTENANCE_PAGE = (
    b'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Scheduled maintenance</title></head>\n'
    b"<body><h1>We&rsquo;ll be back soon</h1><p>The service is undergoing scheduled maintenance.</p></body></html>\n"
)


# ------------------------------------------------------------------------------------------------
# the middleware
# ------------------------------------------------------------------------------------------------


class FaultMiddleware:
    def __init__(self, app: ASGIApp, config: FakeConfig, state: ServerState) -> None:
        self.app = app
        self.config = config
        self.state = state
        self.configured = config.fault_specs()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        service, rest = service_of(scope["path"])
        if service is None:
            await self.app(scope, receive, send)
            return
        record = RequestRecord(
            service=service,
            method=scope["method"],
            path=rest,
            query=scope.get("query_string", b"").decode("latin-1"),
            at=time.monotonic(),
        )
        self.state.record(record)

        async def recording_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                record.status = message["status"]
            await send(message)

        try:
            faults = self._faults(service, scope)
        except FaultSpecError as error:
            await _respond(
                recording_send, 400, [(b"content-type", b"text/plain")], f"fake_fault: {error}".encode()
            )
            return
        latency = self.config.latency_ms + sum(f.arg or 0.0 for f in faults if f.kind == "latency")
        if latency > 0:
            await asyncio.sleep(latency / 1000)

        rate = self.config.enforce_rates.get(service)
        if rate is not None and self.state.over_rate(service, rate, time.monotonic()):
            record.fault = "429 (rate enforced)"
            await _respond(recording_send, *error_response(service, 429))
            return

        fault = next((f for f in faults if f.kind != "latency" and self.state.take(service, f)), None)
        if fault is None:
            await self.app(scope, receive, recording_send)
            return
        record.fault = fault.text
        await self._inject(fault, service, scope, receive, recording_send, send)

    def _faults(self, service: str, scope: Scope) -> tuple[Fault, ...]:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        spec = headers.get("x-fake-fault")
        if spec is None:
            params = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            spec = params.get("fake_fault")
        if spec is not None:
            return parse_faults(spec)
        return self.configured.get(service) or self.configured.get("*") or ()

    async def _inject(
        self, fault: Fault, service: str, scope: Scope, receive: Receive, send: Send, raw_send: Send
    ) -> None:
        if fault.is_status:
            status = int(fault.kind)
            await _respond(send, *error_response(service, status, fault.arg if status == 429 else None))
        elif fault.kind == "hang":
            await _wait_for_disconnect(receive, timeout=None)
        elif fault.kind == "reset":
            if not _abort_transport(raw_send, reset=True):
                raise ConnectionResetError("fake reset")  # no transport: the server closes the connection
            await _wait_for_disconnect(receive, timeout=2.0)
        elif fault.kind == "html":
            await _respond(send, 200, [(b"content-type", b"text/html; charset=utf-8")], MAINTENANCE_PAGE)
        else:
            status, headers, body = await _capture(self.app, scope, receive)
            if fault.kind == "malformed":
                cut = body[: max(1, len(body) * 2 // 3)]
                await _respond(send, status, _without_length(headers), cut + b"\x00<<garbage ")
            elif fault.kind == "truncate":
                await _respond(send, status, _without_length(headers), body[: len(body) // 2])
            else:  # truncate-abort: promise the whole body, send half, drop the connection
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True})
                if not _abort_transport(raw_send, reset=False):
                    raise ConnectionAbortedError("fake truncate-abort")
                await _wait_for_disconnect(receive, timeout=2.0)


async def _respond(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    headers = [*_without_length(headers), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _without_length(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    return [(k, v) for k, v in headers if k.lower() not in (b"content-length", b"transfer-encoding")]


async def _capture(
    app: ASGIApp, scope: Scope, receive: Receive
) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """Run the inner app to completion and return its response instead of sending it."""
    status = 500
    headers: list[tuple[bytes, bytes]] = []
    chunks: list[bytes] = []

    async def capture(message: Message) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status = message["status"]
            headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, capture)
    return status, headers, b"".join(chunks)


async def _wait_for_disconnect(receive: Receive, timeout: float | None) -> None:
    async def wait() -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return

    try:
        await asyncio.wait_for(wait(), timeout)
    except TimeoutError:
        return


def _abort_transport(send: Send, *, reset: bool) -> bool:
    """Close the connection under uvicorn's `send`: with an RST (`reset`) or after flushing (FIN)."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    if transport is None:
        return False
    if reset:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            # SO_LINGER with a zero timeout makes close() send RST instead of FIN: a real reset.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()
    else:
        transport.close()
    return True
