"""The FastAPI application: lifespan wiring, auth, body limits, error mapping, and the routers."""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agent.db import Database, DatabaseError
from agent.llm import LLM, build_llm
from agent.runs.store import InvalidId, ProjectExists, ProjectNotFound, RunNotFound, RunStore, StoreError
from agent.settings import Settings, get_settings
from server.deps import Services
from server.inputs import InvalidInput
from server.routes import map as academic_map
from server.routes import openai, projects, threads, webapp

log = logging.getLogger(__name__)

# The web app's shell and assets hold no data: they load without a token, and the page asks for it.
PUBLIC_PATHS = frozenset({"/healthz", "/"})
PUBLIC_PREFIXES = ("/app/",)


class BodyLimitMiddleware:
    """Refuse request bodies above `limit` bytes with 413, before any handler reads them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await _json_error(send, 413, f"request body is larger than the limit of {self.limit} bytes")
            return
        # A chunked body declares no length: it is counted as it arrives. Past the limit the 413 is sent
        # at once and the app is told the client left, so whatever it does with the body (FastAPI turned
        # the exception it got into a 400) sends nothing more.
        received = 0
        refused = False
        started = False

        async def limited_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    if not started:
                        await _json_error(
                            send, 413, f"request body is larger than the limit of {self.limit} bytes"
                        )
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not refused:  # after a 413 the app may fail on the body it never got: nothing to report
                raise


class TokenAuthMiddleware:
    """With SCHOLARMAP_API_TOKEN set, every route but /healthz and the web app's files needs a bearer token."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        public = path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES)
        if scope["type"] != "http" or public or scope.get("method") == "OPTIONS":
            await self.app(scope, receive, send)
            return
        header = dict(scope.get("headers") or []).get(b"authorization", b"")
        scheme, _, given = header.partition(b" ")
        if scheme.lower() != b"bearer" or not hmac.compare_digest(given.strip(), self.token):
            await _json_error(send, 401, "missing or wrong API token: send 'Authorization: Bearer <token>'")
            return
        await self.app(scope, receive, send)


async def _json_error(send: Send, status: int, message: str) -> None:
    body = json.dumps({"detail": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _install_error_handlers(app: FastAPI) -> None:
    def handler(status: int):
        async def respond(request: Request, exc: Exception) -> JSONResponse:
            return JSONResponse({"detail": str(exc)}, status_code=status)

        return respond

    app.add_exception_handler(ProjectNotFound, handler(404))
    app.add_exception_handler(RunNotFound, handler(404))
    app.add_exception_handler(InvalidId, handler(422))
    app.add_exception_handler(ProjectExists, handler(409))
    app.add_exception_handler(InvalidInput, handler(422))
    app.add_exception_handler(StoreError, handler(500))

    async def validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return JSONResponse({"detail": "malformed JSON body"}, status_code=400)
        fields = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e.get('msg')}"
            for e in errors
        )
        return JSONResponse(
            {"detail": f"invalid request: {fields}", "errors": _jsonable(errors)}, status_code=422
        )

    app.add_exception_handler(RequestValidationError, validation)  # type: ignore[arg-type]


def _jsonable(errors: Any) -> Any:
    return json.loads(json.dumps(errors, default=str))


def create_app(
    settings: Settings | None = None, *, services: Services | None = None, llm: LLM | None = None
) -> FastAPI:
    """The ASGI app. `services` may be given ready-made (tests); otherwise the lifespan builds them.

    `llm` replaces the LLM the settings ask for (tests and benchmarks inject a ScriptedLLM). It exists
    because ready-made `services` cannot carry a database to a server that runs its own event loop
    (uvicorn in a thread): a psycopg pool is bound to the loop that opened it, so the database must be
    opened by the lifespan, in the server's loop.
    """
    settings = settings or (services.settings if services else get_settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            if services is not None:
                app.state.services = services
            else:
                database: Database | None
                try:
                    database = await Database.open(settings)
                    stack.push_async_callback(database.close)
                except DatabaseError as exc:
                    # The REST views of stored Runs still work; conversation routes report the cause.
                    log.error("database unavailable: %s", exc)
                    database = None
                app.state.services = Services(
                    settings=settings,
                    store=RunStore(settings.projects_dir),
                    llm=llm or build_llm(settings),
                    database=database,
                )
            await threads.startup(app, stack)  # the conversation machinery (graph, thread manager)
            yield

    app = FastAPI(title="ScholarMap", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    _install_error_handlers(app)

    @app.get("/healthz")
    async def healthz(request: Request) -> dict[str, Any]:
        svc: Services = request.app.state.services
        database = await svc.database.health() if svc.database else {"ok": False, "error": "not started"}
        llm = {"kind": svc.llm.kind.value, "model": svc.llm.model, "configured": svc.llm.available}
        return {"ok": bool(database.get("ok")), "database": database, "llm": llm}

    app.include_router(projects.router)
    app.include_router(threads.router)
    app.include_router(openai.router)
    app.include_router(academic_map.router)
    app.include_router(webapp.router)

    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["*"],
            allow_headers=["*"],
            expose_headers=["*"],
        )
    if settings.api_token is not None:
        app.add_middleware(TokenAuthMiddleware, token=settings.api_token.get_secret_value())
    app.add_middleware(BodyLimitMiddleware, limit=settings.max_body_bytes)
    return app
