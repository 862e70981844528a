"""Many concurrent conversations over the native SSE API, against the fake sources, with the Scripted LLM.

    python -m evals.bench_sse [--n 200] [--ramp 30] [--think 30] [--max-per-source 1] [--embeddings]
    python -m evals.bench_sse --workers 2 [--n 200]

With --workers N the server runs as separate processes (`uvicorn --workers`, on one embedded PostgreSQL):
all conversations start at the same instant on a 1-worker server, then on an N-worker one, and the
first-event p99 of both is reported (and their ratio), with the CPU each party used during each burst
(the server per conversation; this client, the fake sources and PostgreSQL; other processes; how busy the
machine's cores were), since a second worker can only add CPU nobody else is using; then, on the 1-worker
server, /healthz is timed at idle and while 20 downloads of a several-MB result file run at once.

The server runs in this process (uvicorn on 127.0.0.1 in a thread, with its own event loop) on an embedded
PostgreSQL in a temporary folder; the fake-sources server runs in a child process so that its work does
not compete with the server for this interpreter's GIL. A conversation is what one user does:

    POST /threads ─▶ POST message (description) … interrupt: confirmation, done
        (reads for --think s) ─▶ POST resume {accept: true} … interrupt: review, done
        (reads for --think s) ─▶ POST resume {accept: true} … search_progress …, run_ready, done

The N conversations start evenly over --ramp seconds. With the defaults (200, 30 s, 30 s) every
conversation lasts over 60 s, so all 200 are open at once from the 30th second on (the output prints the
peak measured). `--ramp 0 --think 0` sends all 200 descriptions in the same instant and every reply at
once: a stress test of one server process, whose time to first event is then queueing behind the whole
burst's work (the service is CPU-bound on one interpreter).

Ranking leaves semantic similarity out unless --embeddings: encoding abstracts with the embedding model
costs ~1 s of CPU per small Run on a 2-vCPU machine, which would make this a benchmark of the model
(`evals/bench_run.py` is the one for Runs); each Run records that it was ranked without it.

Figures: errors (a request that failed, an `error` event, or a conversation that did not reach its Run;
goal 0), the p50 and p99 time from sending a message to its first SSE event over every message sent
(goal p99 < 250 ms), and the peak RSS of this process (the server, plus the client, which is small).
One warm-up conversation runs first and is not counted: it fills the HTTP cache (and loads the model
with --embeddings), as on a server that has been up for a while. Each figure is printed as a
`RESULT <name> <value>` line at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import secrets
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import aconnect_sse

from agent.llm import LLMCall, ScriptedLLM
from agent.settings import Settings, load_settings
from evals.fake_process import fake_sources_process, free_port

# --------------------------------------------------------------------------------------------------
# The scripted conversation (shared with tests/server: the same replies drive the SSE and OpenAI tests)
# --------------------------------------------------------------------------------------------------

DESCRIPTION = "I decode speech from electrocorticography (ECoG) recordings in epilepsy patients."

SLOTS: dict[str, Any] = {
    "research_goal": "decode speech from cortical recordings",
    "task": ["speech decoding"],
    "method_measurement": ["electrocorticography"],
    "subject_population": ["epilepsy patients"],
}

INTERPRETATION: dict[str, Any] = {
    "summary": "You decode speech from ECoG recorded in people with epilepsy.",
    "uncertainties": [],
    "questions": [],
    "ready": True,
}

FAIL_MARKER = "EXPLODE-NOW"
# A model path that does not exist: loading fails at once (a path is never looked up on a model hub).
NO_EMBEDDINGS = "/nonexistent/scholarmap-bench-sse-without-embeddings"


class ScriptedFailure(RuntimeError):
    """Raised by the scripted LLM for a description containing FAIL_MARKER (an unexpected LLM bug)."""


def conversation_llm() -> ScriptedLLM:
    """A ScriptedLLM for a conversation with no clarification: confirmation, review, search.

    Replies are fixed (not consumed lists) so any number of concurrent conversations can share it. Prompts
    without a script (synonym candidates, relevance judgement, answers) are "unavailable" and take their
    rules fallback. A description containing FAIL_MARKER makes the extraction raise a plain exception,
    which the LLM port does not catch: the way to provoke an error in the middle of a stream.
    """

    def extract(call: LLMCall) -> dict[str, Any]:
        if FAIL_MARKER in str(call.values.get("description", "")):
            raise ScriptedFailure("the scripted model failed on purpose")
        return SLOTS

    return ScriptedLLM({"extract_slots": extract, "normalize_terms": SLOTS, "interpret": INTERPRETATION})


def fast_settings(data_dir: Path, database_url: str, base_urls: dict[str, str], **overrides: Any) -> Settings:
    """Settings for a local run against the fake sources: no rate limits worth the name, small Runs.

    The default rate limits (PubMed 3/s, Semantic Scholar 1/s) protect the real services; the fake one
    needs no protection, and the figures here are about the conversation service, not about them.
    """
    values: dict[str, Any] = {
        "data_dir": data_dir,
        "database_url": database_url,
        "max_per_source": 1,
        "rate_pubmed": 10_000.0,
        "rate_semantic_scholar": 10_000.0,
        "rate_openalex": 10_000.0,
        "rate_wikimedia": 10_000.0,
        "rate_other": 10_000.0,
        "http_concurrency": 32,
        "http_retries": 1,
        "http_backoff": 0.05,
        **{f"{service}_base_url": url for service, url in base_urls.items()},
    }
    values.update(overrides)
    return load_settings(**values)


def settings_env(settings: Settings) -> dict[str, str]:
    """Environment variables that give a server process these settings (the values that differ from the
    defaults, and the data folder)."""
    from pydantic import SecretStr

    env = {"SCHOLARMAP_DATA_DIR": str(settings.data_dir)}
    defaults = Settings.model_construct()
    for name in Settings.model_fields:
        value = getattr(settings, name)
        if value is None or value == getattr(defaults, name, None):
            continue
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        elif isinstance(value, list):
            value = ",".join(map(str, value))
        env[f"SCHOLARMAP_{name.upper()}"] = str(value)
    return env


def bench_app() -> Any:
    """The app of a server *process* (`uvicorn evals.bench_sse:bench_app --factory`): settings from the
    environment (see `settings_env`), the scripted LLM. Used by `--workers` and by tests/server."""
    from agent.settings import get_settings
    from server.app import create_app

    return create_app(get_settings(), llm=conversation_llm())


# --------------------------------------------------------------------------------------------------
# Running the pieces
# --------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def fake_sources_process_urls(*, latency_ms: float = 0.0) -> Iterator[dict[str, str]]:
    """The fake-sources server in a child process; yields the base URL of each service."""
    from evals.fake_sources.server import base_urls

    with fake_sources_process(seed=5, latency_ms=latency_ms, start_timeout=30) as root:
        yield base_urls(root)


class PeakRSS:
    """Samples this process's resident set size every 50 ms (ru_maxrss also counts start-up peaks)."""

    def __init__(self) -> None:
        import psutil

        self._process = psutil.Process()
        self.peak = self._process.memory_info().rss
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, self._process.memory_info().rss)

    def __enter__(self) -> PeakRSS:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


# --------------------------------------------------------------------------------------------------
# One conversation
# --------------------------------------------------------------------------------------------------


@dataclass
class Outcome:
    ttfe: dict[str, float] = field(
        default_factory=dict
    )  # message -> seconds from sending it to its first event
    errors: list[str] = field(default_factory=list)
    run_id: str | None = None
    started: float = 0.0  # perf_counter at the first request and after the last response
    ended: float = 0.0


async def _submit(
    client: httpx.AsyncClient, thread_id: str, body: dict[str, Any], outcome: Outcome, message: str
) -> list[dict[str, Any]]:
    """POST one message and read its stream to `done`; returns the events (data of each SSE frame)."""
    events: list[dict[str, Any]] = []
    started = time.perf_counter()
    async with aconnect_sse(client, "POST", f"/threads/{thread_id}/messages", json=body) as source:
        if source.response.status_code != 200:
            await source.response.aread()
            raise RuntimeError(f"HTTP {source.response.status_code}: {source.response.text[:200]}")
        async for sse in source.aiter_sse():
            if not sse.data:
                # a heartbeat comment: httpx-sse reports it as an event with empty data
                continue
            if not events:
                outcome.ttfe[message] = time.perf_counter() - started
            event = json.loads(sse.data)
            events.append(event)
            if event["type"] == "error":
                outcome.errors.append(f"error event: {event['data'].get('message')}")
            if event["type"] == "done":
                break
    if not events or events[-1]["type"] != "done":
        raise RuntimeError("the stream ended without a done event")
    return events


def _interrupt(events: list[dict[str, Any]]) -> str | None:
    kinds = [e["data"]["kind"] for e in events if e["type"] == "interrupt"]
    return kinds[-1] if kinds else None


@dataclass(frozen=True)
class Load:
    """How the virtual users behave: how many, how their starts spread, how long they read and think."""

    n: int = 200
    ramp: float = 30.0  # seconds over which the conversations start (0: all at once, the hardest case)
    think: float = 30.0  # seconds a user reads a reply before sending the next message
    max_per_source: int = 1


async def conversation(client: httpx.AsyncClient, load: Load, *, start_after: float = 0.0) -> Outcome:
    outcome = Outcome()
    await asyncio.sleep(start_after)
    outcome.started = time.perf_counter()
    step = "create the thread"
    try:
        created = await client.post("/threads", json={})
        created.raise_for_status()
        thread_id = created.json()["thread_id"]
        step = "describe"
        events = await _submit(client, thread_id, {"text": DESCRIPTION}, outcome, step)
        if _interrupt(events) != "confirmation":
            raise RuntimeError(f"expected the confirmation, got {_interrupt(events)}")
        await asyncio.sleep(load.think)
        step = "confirm"
        events = await _submit(client, thread_id, {"resume": {"accept": True}}, outcome, step)
        if _interrupt(events) != "review":
            raise RuntimeError(f"expected the keyword review, got {_interrupt(events)}")
        await asyncio.sleep(load.think)
        step = "accept the keywords"
        events = await _submit(
            client,
            thread_id,
            {"resume": {"accept": True}, "options": {"max_per_source": load.max_per_source}},
            outcome,
            step,
        )
        ready = [e for e in events if e["type"] == "run_ready"]
        if not ready:
            raise RuntimeError("the search ended without run_ready")
        outcome.run_id = ready[0]["data"]["run_id"]
    except Exception as exc:  # counted and shown, never hidden: errors are the first figure
        outcome.errors.append(f"{step}: {type(exc).__name__}: {exc}")
    outcome.ended = time.perf_counter()
    return outcome


def peak_concurrency(outcomes: list[Outcome]) -> int:
    """The most conversations open at one moment (first request sent, last response not yet read)."""
    moments = sorted([(o.started, 1) for o in outcomes] + [(o.ended, -1) for o in outcomes])
    open_now = peak = 0
    for _, change in moments:
        open_now += change
        peak = max(peak, open_now)
    return peak


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between closest ranks."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


async def drive(
    base_url: str, load: Load, *, warmups: int = 1, on_burst: Callable[[], None] | None = None
) -> tuple[list[Outcome], float]:
    limits = httpx.Limits(max_connections=load.n + 10, max_keepalive_connections=load.n + 10)
    timeout = httpx.Timeout(300.0, connect=60.0)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=timeout) as client:
        # With several workers, enough warm-up conversations at once that every worker gets some.
        warm_load = Load(n=1, ramp=0, think=0, max_per_source=load.max_per_source)
        for warm in await asyncio.gather(*(conversation(client, warm_load) for _ in range(warmups))):
            if warm.errors:
                raise RuntimeError(f"a warm-up conversation failed: {warm.errors}")
        if on_burst is not None:
            on_burst()
        started = time.perf_counter()
        spacing = load.ramp / load.n
        outcomes = await asyncio.gather(
            *(conversation(client, load, start_after=i * spacing) for i in range(load.n))
        )
        return list(outcomes), time.perf_counter() - started


@contextlib.contextmanager
def serve_app(app: Any) -> Iterator[str]:
    """The app on uvicorn, 127.0.0.1, in a thread of this process; yields its base URL.

    Like tests.asgi_server.serve, but keep-alive connections live longer than any pause of a virtual
    user: with uvicorn's 5 s default, a connection the server is closing can be handed to a new request
    by the client's pool, which then fails with a read error that says nothing about the service.
    """
    import uvicorn

    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", timeout_keep_alive=300
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="bench-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=60)


@dataclass
class BenchResult:
    load: Load
    errors: int
    ttfe_p50_ms: float
    ttfe_p99_ms: float
    peak_rss_mb: float
    wall_seconds: float
    peak_concurrency: int
    runs: int
    messages: int
    error_samples: list[str]
    ttfe_p99_by_message_ms: dict[str, float]
    cpu: CpuShare | None = None  # with --workers: who used the CPU during the burst

    @classmethod
    def of(
        cls,
        load: Load,
        outcomes: list[Outcome],
        wall: float,
        *,
        peak_rss_mb: float,
        cpu: CpuShare | None = None,
    ) -> BenchResult:
        """The figures of one burst from its clients' outcomes."""
        ttfe = [t for o in outcomes for t in o.ttfe.values()]
        by_message: dict[str, list[float]] = {}
        for outcome in outcomes:
            for message, seconds in outcome.ttfe.items():
                by_message.setdefault(message, []).append(seconds)
        errors = [e for o in outcomes for e in o.errors]
        return cls(
            load=load,
            errors=sum(1 for o in outcomes if o.errors),
            ttfe_p50_ms=percentile(ttfe, 50) * 1000,
            ttfe_p99_ms=percentile(ttfe, 99) * 1000,
            peak_rss_mb=peak_rss_mb,
            wall_seconds=wall,
            peak_concurrency=peak_concurrency(outcomes),
            runs=sum(1 for o in outcomes if o.run_id),
            messages=len(ttfe),
            error_samples=errors[:5],
            ttfe_p99_by_message_ms={m: percentile(v, 99) * 1000 for m, v in by_message.items()},
            cpu=cpu,
        )


def run_bench(load: Load, *, latency_ms: float = 0.0, embeddings: bool = False) -> BenchResult:
    from agent.db import start_embedded
    from server.app import create_app

    # Unix socket paths are limited to ~107 bytes: keep the embedded PostgreSQL's folder short.
    tmp = Path(tempfile.mkdtemp(prefix=f"smb-{secrets.token_hex(3)}-", dir="/tmp"))
    pg_server = None
    try:
        pg_url, pg_server = start_embedded(tmp / "pg")
        with fake_sources_process_urls(latency_ms=latency_ms) as urls, PeakRSS() as rss:
            overrides: dict[str, Any] = {"max_per_source": load.max_per_source}
            if not embeddings:
                # A model that cannot load: ranking leaves semantic similarity out, as documented in
                # agent.search.executor, and each Run records that in its warnings. See the module docstring.
                overrides["embedding_model"] = NO_EMBEDDINGS
            settings = fast_settings(tmp / "data", pg_url, urls, **overrides)
            with serve_app(create_app(settings, llm=conversation_llm())) as base_url:
                outcomes, wall = asyncio.run(drive(base_url, load))
        peak_rss_mb = max(rss.peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024) / 2**20
        return BenchResult.of(load, outcomes, wall, peak_rss_mb=peak_rss_mb)
    finally:
        if pg_server is not None:
            with contextlib.suppress(Exception):
                pg_server.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)


# --------------------------------------------------------------------------------------------------
# --workers: the same burst on 1 and on N server processes, and /healthz during result downloads
# --------------------------------------------------------------------------------------------------


@dataclass
class WorkersResult:
    workers: int
    one: BenchResult
    many: BenchResult
    healthz_idle_p99_ms: float
    healthz_downloads_p99_ms: float
    download_mb: float
    downloads: int


@dataclass
class CpuShare:
    """CPU seconds each party used during a burst (warm-ups excluded), and the whole machine's.

    What a second worker can add is CPU nobody else uses: this says how much the server needed per
    conversation, how much the load generator (this client, the fake sources, PostgreSQL) took, and how
    busy the machine was (other processes included).
    """

    wall: float
    server: float  # every server process (the uvicorn parent and its workers)
    client: float  # this process: the benchmark's HTTP client
    database: float  # PostgreSQL backends of the burst's database
    fake_sources: float
    machine: float  # busy CPU seconds of the whole machine (all cores, every process)

    @property
    def others(self) -> float:
        return max(0.0, self.machine - self.server - self.client - self.database - self.fake_sources)


def _party_seconds(server_pid: int, fake_port: int | None, database: str) -> dict[str, float]:
    import psutil

    def used(process: psutil.Process) -> float:
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            return times.user + times.system
        return 0.0

    seconds = {"client": used(psutil.Process()), "server": 0.0, "database": 0.0, "fake_sources": 0.0}
    with contextlib.suppress(psutil.Error):
        server = psutil.Process(server_pid)
        seconds["server"] = sum(used(p) for p in [server, *server.children(recursive=True)])
    for process in psutil.process_iter(["cmdline"]):
        command = " ".join(process.info["cmdline"] or [])
        if command.startswith("postgres:") and f" {database} " in f"{command} ":
            seconds["database"] += used(process)
        elif fake_port is not None and "evals.fake_sources" in command and f"--port {fake_port} " in command:
            seconds["fake_sources"] += used(process)
    busy = psutil.cpu_times()
    seconds["machine"] = (
        busy.user + busy.system + busy.nice + getattr(busy, "irq", 0) + getattr(busy, "softirq", 0)
    )
    return seconds


def _burst(
    url: str,
    load: Load,
    workers: int,
    *,
    server_pid: int | None = None,
    fake_port: int | None = None,
    database: str = "",
) -> BenchResult:
    marks: list[tuple[float, dict[str, float]]] = []

    def mark() -> None:
        if server_pid is not None:
            marks.append((time.perf_counter(), _party_seconds(server_pid, fake_port, database)))

    outcomes, wall = asyncio.run(drive(url, load, warmups=1 if workers == 1 else 4 * workers, on_burst=mark))
    mark()
    cpu = None
    if len(marks) == 2:
        (t0, before), (t1, after) = marks
        delta = {party: after[party] - before[party] for party in after}
        cpu = CpuShare(wall=t1 - t0, **delta)
    # peak RSS is not measured here: the servers are other processes
    return BenchResult.of(load, outcomes, wall, peak_rss_mb=float("nan"), cpu=cpu)


def _big_run(data_dir: Path, papers: int) -> str:
    """A saved Run with `papers` merged papers (several MB of results), for the download figure."""
    from agent.models import AggregatedPaper, Paper, Run, Source
    from agent.runs.store import RunStore, new_run_id

    store = RunStore(data_dir / "projects")
    store.ensure_project("downloads")
    words = ["cortical", "speech", "decoding", "with", "electrocorticography", "in", "epilepsy", "patients"]
    records = [
        Paper(
            title=f"Paper {i}: " + " ".join(words[(i + k) % len(words)] for k in range(12)),
            abstract=" ".join(words[(i * 7 + k) % len(words)] for k in range(180)),
            doi=f"10.5555/bench.{i}",
            year=1990 + i % 35,
            source=Source.OPENALEX,
            source_rank=i + 1,
        )
        for i in range(papers)
    ]
    run = Run(id=new_run_id(), project_id="downloads", sources=[Source.OPENALEX], counts={"openalex": papers})
    store.save_run(
        run,
        results={Source.OPENALEX: records},
        aggregated=[AggregatedPaper(key=f"doi:{p.doi}", paper=p) for p in records],
    )
    return run.id


# The downloads run in a child process (threads, urllib): read by this process, 20 downloads of several
# MB would keep its own event loop busy and inflate the /healthz times it measures.
DOWNLOADER = """
import sys, urllib.request
from concurrent.futures import ThreadPoolExecutor
url, count = sys.argv[1], int(sys.argv[2])
def fetch(_):
    size = 0
    with urllib.request.urlopen(url, timeout=300) as response:
        while chunk := response.read(1 << 20):
            size += len(chunk)
    return size
with ThreadPoolExecutor(count) as pool:
    print(sum(pool.map(fetch, range(count))))
"""


async def _healthz_during(url: str, run_id: str, downloads: int) -> tuple[list[float], list[float], int]:
    """/healthz latencies at idle, then while `downloads` result downloads run at once; bytes read."""
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:

        async def sample(count: int | None, until: asyncio.subprocess.Process | None) -> list[float]:
            seconds: list[float] = []
            while (count is not None and len(seconds) < count) or (
                until is not None and until.returncode is None
            ):
                started = time.perf_counter()
                (await client.get("/healthz")).raise_for_status()
                seconds.append(time.perf_counter() - started)
                await asyncio.sleep(0.01)
            return seconds

        idle = await sample(100, None)
        downloader = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            DOWNLOADER,
            f"{url}/runs/{run_id}/results",
            str(downloads),
            stdout=asyncio.subprocess.PIPE,
        )
        busy_task = asyncio.create_task(sample(None, downloader))
        output, _ = await downloader.communicate()
        busy = await busy_task
        if downloader.returncode != 0:
            raise RuntimeError("the result downloads failed")
        return idle, busy, int(output.decode().strip() or 0)


def run_workers_bench(load: Load, workers: int, *, downloads: int = 20, papers: int = 4000) -> WorkersResult:
    """The burst on a 1-worker server process, then on an N-worker one, each on a fresh database of one
    embedded PostgreSQL; /healthz during result downloads is measured on the 1-worker process."""
    from urllib.parse import urlsplit

    import psycopg

    from agent.db import start_embedded
    from evals.server_process import server_processes

    tmp = Path(tempfile.mkdtemp(prefix=f"smw-{secrets.token_hex(3)}-", dir="/tmp"))
    pg_server = None
    try:
        server_url, pg_server = start_embedded(tmp / "pg")
        with fake_sources_process_urls() as urls:
            results: dict[int, BenchResult] = {}
            idle: list[float] = []
            busy: list[float] = []
            size = 0
            for count in (1, workers):
                name = f"bench_w{count}"
                with psycopg.connect(server_url, autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{name}"')
                base, _, query = server_url.partition("?")
                db_url = f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")
                settings = fast_settings(
                    tmp / "data",
                    db_url,
                    urls,
                    max_per_source=load.max_per_source,
                    embedding_model=NO_EMBEDDINGS,
                )
                with server_processes(settings, workers=count) as (server,):
                    results[count] = _burst(
                        server.url,
                        load,
                        count,
                        server_pid=server.process.pid,
                        fake_port=urlsplit(next(iter(urls.values()))).port,
                        database=name,
                    )
                    if count == 1:
                        run_id = _big_run(tmp / "data", papers)
                        idle, busy, size = asyncio.run(_healthz_during(server.url, run_id, downloads))
        return WorkersResult(
            workers=workers,
            one=results[1],
            many=results[workers],
            healthz_idle_p99_ms=percentile(idle, 99) * 1000,
            healthz_downloads_p99_ms=percentile(busy, 99) * 1000,
            download_mb=size / downloads / 2**20,
            downloads=downloads,
        )
    finally:
        if pg_server is not None:
            with contextlib.suppress(Exception):
                pg_server.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)


def print_workers(result: WorkersResult) -> None:
    for label, bench in (("1 worker", result.one), (f"{result.workers} workers", result.many)):
        print(
            f"{label}: {bench.load.n} conversations at once in {bench.wall_seconds:.1f} s, {bench.runs} Runs, "
            f"{bench.errors} with errors; first event p50 {bench.ttfe_p50_ms:.0f} ms, p99 {bench.ttfe_p99_ms:.0f} ms"
        )
        for sample in bench.error_samples:
            print(f"  error: {sample}")
        if bench.cpu is not None:
            cpu, n = bench.cpu, bench.load.n
            print(
                f"  CPU during the burst ({cpu.wall:.1f} s): server {cpu.server:.1f} s "
                f"({cpu.server / n * 1000:.0f} ms per conversation), client {cpu.client:.1f} s, "
                f"PostgreSQL {cpu.database:.1f} s, fake sources {cpu.fake_sources:.1f} s, other processes "
                f"{cpu.others:.1f} s; the machine's {os.cpu_count()} cores were {cpu.machine / cpu.wall:.2f} busy"
            )
    ratio = result.many.ttfe_p99_ms / result.one.ttfe_p99_ms if result.one.ttfe_p99_ms else float("nan")
    print(
        f"/healthz p99 {result.healthz_idle_p99_ms:.1f} ms idle, {result.healthz_downloads_p99_ms:.1f} ms while "
        f"{result.downloads} downloads of {result.download_mb:.1f} MB of results ran (1 worker)"
    )
    print(f"RESULT bench_sse_workers {result.workers}")
    print(f"RESULT bench_sse_errors_1_worker {result.one.errors}")
    print(f"RESULT bench_sse_errors_{result.workers}_workers {result.many.errors}")
    print(f"RESULT bench_sse_ttfe_p99_ms_1_worker {result.one.ttfe_p99_ms:.1f}")
    print(f"RESULT bench_sse_ttfe_p99_ms_{result.workers}_workers {result.many.ttfe_p99_ms:.1f}")
    print(f"RESULT bench_sse_ttfe_p99_ratio_{result.workers}_vs_1 {ratio:.2f}")
    for label, bench in (("1_worker", result.one), (f"{result.workers}_workers", result.many)):
        if bench.cpu is not None:
            cpu, n = bench.cpu, bench.load.n
            load_generator = cpu.client + cpu.database + cpu.fake_sources
            print(f"RESULT bench_sse_server_cpu_ms_per_conversation_{label} {cpu.server / n * 1000:.0f}")
            print(
                f"RESULT bench_sse_load_generator_cpu_ms_per_conversation_{label} {load_generator / n * 1000:.0f}"
            )
            print(f"RESULT bench_sse_other_processes_cores_{label} {cpu.others / cpu.wall:.2f}")
            print(f"RESULT bench_sse_machine_cores_busy_{label} {cpu.machine / cpu.wall:.2f}")
    print(f"RESULT bench_sse_healthz_p99_ms_idle {result.healthz_idle_p99_ms:.1f}")
    print(f"RESULT bench_sse_healthz_p99_ms_during_downloads {result.healthz_downloads_p99_ms:.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.bench_sse", description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200, help="concurrent conversations (default 200)")
    parser.add_argument(
        "--ramp", type=float, default=30.0, help="seconds over which they start (default 30; 0: all at once)"
    )
    parser.add_argument(
        "--think", type=float, default=30.0, help="seconds a user reads before each reply (default 30)"
    )
    parser.add_argument("--max-per-source", type=int, default=1, help="records per source in each Run")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="latency of the fake sources")
    parser.add_argument(
        "--embeddings",
        action="store_true",
        help="rank with the embedding model (semantic similarity), as a default server does",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="run the burst on server processes with 1 and with N workers (all conversations at once "
        "unless --ramp/--think are given), and measure /healthz during 20 result downloads",
    )
    args = parser.parse_args(argv)
    if args.n < 1 or args.ramp < 0 or args.think < 0 or args.max_per_source < 1:
        parser.error("--n and --max-per-source must be at least 1; --ramp and --think not negative")
    if args.workers is not None and args.workers < 2:
        parser.error("--workers must be at least 2 (it is compared with 1 worker)")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    if args.workers is not None:
        given = {a.split("=")[0] for a in (argv if argv is not None else sys.argv[1:])}
        ramp = args.ramp if "--ramp" in given else 0.0
        think = args.think if "--think" in given else 0.0
        burst = Load(n=args.n, ramp=ramp, think=think, max_per_source=args.max_per_source)
        workers_result = run_workers_bench(burst, args.workers)
        print_workers(workers_result)
        return 0 if workers_result.one.errors == 0 and workers_result.many.errors == 0 else 1
    load = Load(n=args.n, ramp=args.ramp, think=args.think, max_per_source=args.max_per_source)
    result = run_bench(load, latency_ms=args.latency_ms, embeddings=args.embeddings)
    print(
        f"{load.n} conversations (starts spread over {load.ramp:g} s, {load.think:g} s pauses, "
        f"{load.max_per_source} record(s) per source, semantic ranking {'on' if args.embeddings else 'off'}) "
        f"in {result.wall_seconds:.1f} s: {result.runs} Runs saved, {result.messages} messages streamed, "
        f"at most {result.peak_concurrency} conversations open at once"
    )
    for message, value in result.ttfe_p99_by_message_ms.items():
        print(f"  time to first event, p99, message '{message}': {value:.1f} ms")
    for sample in result.error_samples:
        print(f"  error: {sample}")
    print(f"RESULT bench_sse_errors {result.errors}")
    print(f"RESULT bench_sse_ttfe_p50_ms {result.ttfe_p50_ms:.1f}")
    print(f"RESULT bench_sse_ttfe_p99_ms {result.ttfe_p99_ms:.1f}")
    print(f"RESULT bench_sse_peak_rss_mb {result.peak_rss_mb:.0f}")
    return 0 if result.errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
