"""The fake-sources ASGI app: one prefix per outside service, faults in front, replay before generation.

app = FakeSources(FakeConfig(seed=1, latency_ms=100))
uvicorn.run(app, ...)            # or evals.fake_sources.server.running_fake_sources(config)
app.request_times("pubmed")      # arrival times at the server, for rate tests
app.truth_for("deep learning ecg")   # which generated records are the same paper
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from evals.fake_sources import extras, mesh, openalex, pubmed, semantic_scholar, wikimedia
from evals.fake_sources.config import SOURCE_PREFIXES, FakeConfig, FaultSpecError, parse_faults
from evals.fake_sources.context import Ctx, ServiceState
from evals.fake_sources.faults import FaultMiddleware, RequestRecord, Scope, ServerState
from evals.fake_sources.faults import Receive as ReceiveT
from evals.fake_sources.faults import Send as SendT
from evals.fake_sources.memo import ResponseMemo
from evals.fake_sources.replay import BODY_PARAM, Recordings, canonical_body, recordings
from evals.fake_sources.universe import Truth, Universe
from evals.paths import FIXTURES

Handler = Callable[[Ctx], Awaitable[Response]]

HANDLERS: dict[str, Handler] = {
    "pubmed": pubmed.handle,
    "mesh": mesh.handle,
    "openalex": openalex.handle,
    "semantic_scholar": semantic_scholar.handle,
    "wikidata": wikimedia.handle_wikidata,
    "wikipedia": wikimedia.handle_wikipedia,
    "europepmc": extras.handle_europepmc,
    "unpaywall": extras.handle_unpaywall,
    "zotero": extras.handle_zotero,
}


# Checks a service makes before anything else, recorded answers included (Unpaywall's e-mail).
PRECHECKS: dict[str, Callable[[Ctx], Response | None]] = {"unpaywall": extras.unpaywall_precheck}


def _no_precheck(ctx: Ctx) -> Response | None:
    return None


class FakeSources:
    """The app object: ASGI callable plus the knobs and records tests need."""

    def __init__(self, config: FakeConfig | None = None) -> None:
        self.config = config or FakeConfig()
        self.universe = Universe(self.config.seed, total=self.config.total)
        self.server_state = ServerState()
        self.service_state = ServiceState()
        self.recordings: Recordings = (
            recordings(FIXTURES) if self.config.replay else Recordings(FIXTURES / "-none-")
        )
        routes = [
            Route(f"/{prefix}{suffix}", self._endpoint(service), methods=["GET", "POST"])
            for service, prefix in SOURCE_PREFIXES.items()
            for suffix in ("", "/{path:path}")
        ]
        routes.append(Route("/", self._index, methods=["GET"]))
        self.starlette = Starlette(routes=routes)
        self.memo = ResponseMemo()
        self.asgi = FaultMiddleware(self.starlette, self.config, self.server_state)

    async def __call__(self, scope: Scope, receive: ReceiveT, send: SendT) -> None:
        await self.asgi(scope, receive, send)

    # -- what tests read ---------------------------------------------------------------------------

    @property
    def requests(self) -> list[RequestRecord]:
        return list(self.server_state.requests)

    def request_times(self, service: str) -> list[float]:
        """Arrival times (time.monotonic) of every request to `service`, in arrival order."""
        return self.server_state.times(service)

    def requests_for(self, service: str) -> list[RequestRecord]:
        return self.server_state.for_service(service)

    def truth_for(self, query: str, *, limit: int | None = None, fake_total: int | None = None) -> Truth:
        return self.universe.truth_for(query, limit=limit, fake_total=fake_total)

    def set_faults(self, service: str, spec: str | None) -> None:
        """Give `service` these faults from now on (None: none), as `FakeConfig.faults` does at start;
        a test holds a source this way ("hang") to act while a search is certainly running."""
        if service not in SOURCE_PREFIXES and service != "*":
            raise FaultSpecError(f"unknown service {service!r}")
        if spec is None:
            self.asgi.configured.pop(service, None)
        else:
            self.asgi.configured[service] = parse_faults(spec)

    def forget_requests(self) -> None:
        """Forget the requests seen and fault counters, keeping remembered answers (benchmarks)."""
        self.server_state.reset()

    def reset(self) -> None:
        """Forget requests, fault counters, replay positions and history (between tests)."""
        self.server_state.reset()
        self.service_state.clear()
        self.memo.clear()

    # -- routing -------------------------------------------------------------------------------------

    async def _index(self, request: Request) -> Response:
        body = {"services": {s: f"/{p}/" for s, p in SOURCE_PREFIXES.items()}, "seed": self.config.seed}
        return Response(json.dumps(body), media_type="application/json")

    def _endpoint(self, service: str) -> Callable[[Request], Awaitable[Response]]:
        handler = HANDLERS[service]
        precheck = PRECHECKS.get(service, _no_precheck)

        async def endpoint(request: Request) -> Response:
            ctx = await self._context(request, service)
            refusal = precheck(ctx)
            if refusal is not None:
                return refusal
            params = dict(ctx.params)
            if ctx.json_body is not None:
                params[BODY_PARAM] = canonical_body(ctx.json_body)
            if self.config.replay:
                recorded = self.recordings.match(service, ctx.path, params, self.service_state.replayed)
                if recorded is not None:
                    return Response(
                        recorded.body, status_code=recorded.status, headers=dict(recorded.headers)
                    )
            key = (service, request.method, ctx.path, tuple(sorted(params.items())), ctx.fake_total)
            remembered = self.memo.get(key) if self.config.memo else None
            if remembered is not None:
                return remembered
            response = await handler(ctx)
            if self.config.memo and response.status_code < 300:
                self.memo.put(key, response)
            return response

        return endpoint

    async def _context(self, request: Request, service: str) -> Ctx:
        params: dict[str, str] = dict(request.query_params)
        json_body: Any = None
        if request.method == "POST":
            content_type = request.headers.get("content-type", "")
            if "json" in content_type:
                try:
                    json_body = json.loads(await request.body() or b"null")
                except json.JSONDecodeError:
                    json_body = None
            elif "form" in content_type:
                form = await request.form()
                params.update({k: str(v) for k, v in form.items()})
        fake_total_text = request.headers.get("x-fake-total") or params.get("fake_total")
        fake_total = int(fake_total_text) if fake_total_text and fake_total_text.isdigit() else None
        return Ctx(
            request=request,
            service=service,
            path="/" + request.path_params.get("path", ""),
            params=params,
            json_body=json_body,
            universe=self.universe,
            recordings=self.recordings,
            config=self.config,
            state=self.service_state,
            fake_total=fake_total,
        )
