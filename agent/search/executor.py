"""Execute a Run: search every enabled database at once, merge, rank, and save one immutable snapshot.

`RunExecution(...).execute()` runs one. The steps, in `RunExecution.execute`:

1. **Search.** Each source runs as its own task under `settings.source_time_limit`, through the one
   client interface of `tools.base.SearchClient` (the plan's query text and parameters in, records
   out): the clients page and fetch in batches and report every page. A source that fails (a typed
   `tools.errors.ServiceCallError`, the time limit, or an unexpected bug) is recorded as a `SourceError`
   with its kind and message, and the Run completes with the others: `partial` when some failed,
   `failed` when all did (the Run is still saved, so the errors can be seen). A source that times out
   keeps nothing: its client returns only complete result lists. A source's records are written to
   the Run's folder as soon as it is done, while the others still search.
2. **Merge** (`agent.search.merge`) and **rank** (`agent.search.ranking`) in worker threads, so a
   server's event loop keeps serving other requests while a big Run is scored.
3. **Save**: the merged list is streamed to `results_aggregated.json`, `run.json` written last, and
   the folder renamed into place (`RunStore.begin_run`).

Three things pay for themselves on every Run and are kept (measured with `evals.bench_run`, README):
- `GoalEmbedding`: while pages arrive, the embedding model loads and embeds the papers the ranking will
  most likely need (`agent.search.similarity.SimilarityPrefetch`): a Run mostly waits on rate limits.
- `relaxed_gc` (`agent.search.gc_tuning`): a Run's objects all live until it is saved, so the cyclic
  collector runs less often meanwhile, and the records are freed after the Run, off the caller's path.
- `SharedStrings` (`agent.search.gc_tuning`): each page's repeated texts (a work's title and abstract in
  two or three sources, MeSH headings, affiliations) are kept once, so 3 x 10,000 records fit in less memory.

Cancellation (`asyncio.CancelledError`, e.g. the client went away or Ctrl-C) before the commit cancels
every search and removes the Run's temporary folder; a commit already under way finishes as a whole
Run. A process killed outright leaves at most a hidden `.tmp-run_*` folder that listings ignore and
later writes sweep away.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from agent.errors import InputError
from agent.llm import LLM
from agent.models import (
    SEARCH_SOURCES,
    AggregatedPaper,
    ErrorKind,
    KeywordPlan,
    Paper,
    QueryPlan,
    Run,
    RunStatus,
    RunTimings,
    Source,
    SourceError,
    Understanding,
    utcnow,
)
from agent.runs.store import RunStore, RunWriter, new_run_id
from agent.search.gc_tuning import Housekeeping, SharedStrings, relaxed_gc
from agent.search.merge import merge_papers
from agent.search.ranking import RankingWeights, first_stage_priority, rank, ranking_embedder
from agent.search.similarity import GoalSimilarity, SimilarityPrefetch
from agent.search.snowball import merge_with_snowball
from agent.search.snowball import snowball as follow_citations
from agent.settings import Settings
from tools import errors as source_errors
from tools.base import PageProgress, SearchClient
from tools.embeddings.sentence import EmbeddingModelError

if TYPE_CHECKING:  # agent.search.sources imports the clients; only its type is needed here
    from agent.search.snowball import EventCallback, SnowballOptions, SnowballResult
    from agent.search.sources import SourceClients

log = logging.getLogger(__name__)

# the most a Run asks of one database: PubMed serves at most the first 10,000 records of a search, and
# a systematic review's search retrieves thousands (the Seed collection's expert queries: up to 9,247)
MAX_PER_SOURCE_LIMIT = 10_000
DEFAULT_LLM_TOP_K = 20  # papers the LLM judges when one is configured: two calls, a few seconds


class SearchProgress(BaseModel):
    """Progress of one source within a Run, reported as it happens (for progress bars and SSE)."""

    model_config = ConfigDict(extra="forbid")

    source: Source
    stage: Literal["started", "page", "done", "failed"]
    page: int = 0
    fetched: int = 0
    total: int | None = None
    message: str = ""


ProgressCallback = Callable[[SearchProgress], Awaitable[None] | None]


class RunConfigError(InputError):
    """The Run cannot start as asked (no source enabled, an unknown source); the message says what to fix."""


async def _emit(callback: ProgressCallback | None, event: SearchProgress) -> None:
    """Report progress; a broken progress display must not sink the Run, but it is logged, not hidden."""
    if callback is None:
        return
    try:
        result = callback(event)
        if inspect.isawaitable(result):
            await result
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("progress callback failed for %s/%s", event.source.value, event.stage)


def resolve_sources(enabled: Sequence[Source | str] | None) -> list[Source]:
    """The enabled sources in canonical order; `None` means all three."""
    if enabled is None:
        return list(SEARCH_SOURCES)
    chosen: set[Source] = set()
    for item in enabled:
        try:
            chosen.add(Source(item))
        except ValueError:
            raise RunConfigError(
                f"unknown source {item!r}; choose from {', '.join(s.value for s in SEARCH_SOURCES)}"
            ) from None
    if not chosen:
        raise RunConfigError("enable at least one source")
    return [s for s in SEARCH_SOURCES if s in chosen]


def resolve_cap(max_per_source: int | None, settings: Settings) -> int:
    cap = settings.max_per_source if max_per_source is None else max_per_source
    if not 1 <= cap <= MAX_PER_SOURCE_LIMIT:
        raise RunConfigError(f"max per source must be between 1 and {MAX_PER_SOURCE_LIMIT}, got {cap}")
    return cap


def _goal(understanding: Understanding | None, description: str) -> str:
    if understanding is not None:
        return understanding.slots.research_goal or understanding.description or description
    return description


def _load_embedder(settings: Settings) -> tuple[Any, str | None]:
    """The configured embedding model, or (None, a note) when it cannot be loaded: rank without it."""
    embedder = ranking_embedder(settings)
    try:
        embedder.model  # noqa: B018 - load now, so a missing model is a note and not a crash mid-ranking
    except EmbeddingModelError as exc:
        log.warning("ranking without semantic similarity: %s", exc)
        return None, f"ranking: semantic similarity left out ({exc})"
    return embedder, None


class GoalEmbedding:
    """The ranking's similarity to the research goal, started while the sources still search.

    The embedding model loads in a thread (in a fresh process, the CLI, the first load takes seconds),
    and the likeliest ranking candidates are embedded as pages arrive (`SimilarityPrefetch`). Both
    start when a first source has papers, so a Run whose sources all fail never pays for them (a
    loading thread cannot be stopped half-way).
    """

    def __init__(self, goal: str, weights: RankingWeights, embedder: Any, settings: Settings) -> None:
        self.goal = goal
        self.wanted = weights.semantic > 0 and bool(goal.strip())
        self.embedder = embedder
        self.settings = settings
        self.prefetch = SimilarityPrefetch(first_stage_priority(weights), weights.semantic_top_n or 10**9)
        self.similarity: GoalSimilarity | None = None
        self.prefetched = 0  # texts embedded while the sources searched
        self._loading: asyncio.Task[tuple[Any, str | None]] | None = None
        self._prefetching: asyncio.Task[None] | None = None

    def offer(self, source: Source, papers: Sequence[Paper], first_rank: int) -> None:
        """A page of papers: candidates to embed ahead of the ranking."""
        if self.wanted and papers:
            self.prefetch.offer(source, papers, first_rank)
            self.start()

    def start(self) -> None:
        if not self.wanted:
            return
        if self.embedder is None and self._loading is None:
            self._loading = asyncio.create_task(
                asyncio.to_thread(_load_embedder, self.settings), name="load-embedder"
            )
        if self._prefetching is None:
            self._prefetching = asyncio.create_task(self._embed_ahead(), name="prefetch-similarity")

    def stop_prefetch(self) -> None:
        """Stop after the batch under way: beside the parsing of the last page and the merge, an
        embedding on two threads would fight them for two cores and all would crawl."""
        self.prefetch.finish()

    async def ready(self) -> str | None:
        """Wait for the model (a note when it could not be loaded: the Run ranks without similarity)."""
        note = None
        if self._loading is not None:
            self.embedder, note = await self._loading
        if self.similarity is None and self.embedder is not None and self.wanted:
            self.similarity = GoalSimilarity(self.goal, self.embedder)  # the prefetch had not started
        # the ranking does not wait for the prefetch's batch under way: it embeds the candidates
        # nobody has started on, beside that batch, and waits for the batch only if it needs it
        self.prefetched = self.similarity.computed if self.similarity is not None else 0
        return note

    def cancel(self) -> None:
        for task in (self._loading, self._prefetching):
            if task is not None and not task.done():
                task.cancel()  # a thread under way finishes on its own; nobody waits for it

    def forget(self) -> None:
        """The Run is ranked: the prefetch no longer keeps its records alive."""
        self.prefetch.clear()

    async def _embed_ahead(self) -> None:
        encoder = self.embedder
        if encoder is None and self._loading is not None:
            encoder, _ = await self._loading
        if encoder is None:
            return
        self.similarity = GoalSimilarity(self.goal, encoder)
        try:
            await self.prefetch.run(self.similarity)
        except Exception:  # a guess ahead of time is optional; the ranking computes what it needs
            log.warning("embedding ahead of the ranking failed; the ranking embeds on its own", exc_info=True)


class RunExecution:
    """One Run, from the first request to the folder renamed into place (see the module docstring).

    `embedder` defaults to `settings.embedding_model`; `llm_top_k` to `DEFAULT_LLM_TOP_K` when `llm` is a
    usable model (0 turns the judgement off). Raises `RunConfigError` for a bad source list or cap.
    With `snowball`, the ranked papers' citations are followed afterwards (`agent.search.snowball`): what it
    finds is merged in, the list ranked again, and `results_snowball.json` and `run.snowball` written;
    `on_snowball` hears its budget before it starts and a line per round.
    """

    def __init__(
        self,
        *,
        store: RunStore,
        project_id: str,
        understanding: Understanding | None,
        keywords: KeywordPlan | None,
        queries: QueryPlan,
        sources: SourceClients,
        settings: Settings,
        enabled: Sequence[Source | str] | None = None,
        max_per_source: int | None = None,
        llm: LLM | None = None,
        on_progress: ProgressCallback | None = None,
        thread_id: str | None = None,
        description: str = "",
        weights: RankingWeights | None = None,
        embedder: Any = None,
        llm_top_k: int | None = None,
        snowball: SnowballOptions | None = None,
        on_snowball: EventCallback | None = None,
    ) -> None:
        self.chosen = resolve_sources(enabled)
        self.cap = resolve_cap(max_per_source, settings)
        self.store, self.project_id, self.settings = store, project_id, settings
        self.understanding, self.keywords, self.queries = understanding, keywords, queries
        self.clients, self.llm, self.on_progress = sources, llm, on_progress
        self.thread_id, self.description = thread_id, description
        self.weights = weights or RankingWeights()
        self.goal = _goal(understanding, description)
        self.embedding = GoalEmbedding(self.goal, self.weights, embedder, settings)
        self.llm_top_k = (
            llm_top_k
            if llm_top_k is not None
            else (DEFAULT_LLM_TOP_K if llm is not None and llm.available else 0)
        )
        self.snowball_options, self.on_snowball = snowball, on_snowball

        self.run_id = new_run_id()
        self.timings = RunTimings(started_at=utcnow())
        self.clock = time.monotonic()
        self.results: dict[Source, list[Paper]] = {}
        self.totals: dict[str, int | None] = {}
        self.errors: list[SourceError] = []
        self.warnings: list[str] = []
        self.strings = SharedStrings()  # one copy of each text the records repeat (memory)
        self.searching = set(self.chosen)  # sources that have neither finished nor failed yet
        self.writes: list[asyncio.Task[None]] = []  # files written while the Run goes on
        self.committing = False  # set once the commit thread runs: from then on it finishes the Run whole

    async def execute(self) -> Run:
        """Search, merge, rank and save; returns the saved `Run` (its folder: `store.run_dir(run.id)`)."""
        self.store.ensure_project(self.project_id)  # fail fast on a bad id, before minutes of searching
        writer = self.store.begin_run(self.project_id, self.run_id)
        try:
            # a Run's objects live until it is saved: collecting less often saves walking them again
            with relaxed_gc() as housekeeping:
                return await self._search_rank_save(writer, housekeeping)
        except BaseException as exc:
            # A cancelled Run whose commit thread already runs is finished whole by that thread.
            # Otherwise the folder goes, after the writes under way (a thread cannot be stopped), so
            # that none of them lands in a removed folder.
            if self.committing and isinstance(exc, asyncio.CancelledError):
                raise
            await asyncio.gather(*self.writes, return_exceptions=True)
            writer.abort()
            raise

    async def _search_rank_save(self, writer: RunWriter, housekeeping: Housekeeping) -> Run:
        try:
            # A TaskGroup cancels every sibling when the Run itself is cancelled; `_search_one` records
            # a failing source instead of raising, so one failing source cannot cancel the others.
            async with asyncio.TaskGroup() as group:
                for source in self.chosen:
                    group.create_task(self._search_one(source, writer), name=f"search-{source.value}")
            self._lap("search", self.clock)

            step = time.monotonic()
            self.embedding.stop_prefetch()
            aggregated = await asyncio.to_thread(merge_papers, self.results)
            self._lap("merge", step)

            step = time.monotonic()
            note = await self.embedding.ready()
            if note:
                self.warnings.append(note)
                self.weights = self.weights.model_copy(update={"semantic": 0.0})
        finally:
            self.embedding.cancel()
        aggregated = await self._rank(aggregated)
        self._lap("rank", step)
        if self.embedding.similarity is not None:
            log.info(
                "ranking embedded %d texts, %d of them while searching",
                self.embedding.similarity.computed,
                self.embedding.prefetched,
            )

        snowballed = None
        if self.snowball_options is not None:
            step = time.monotonic()
            aggregated, snowballed = await self._follow_citations(aggregated)
            self._lap("snowball", step)
            finds = snowballed.finds()
            self._write_soon(writer.write_file, "results_snowball.json", finds, name="save-snowball")

        run = self._run_record(aggregated, snowballed)
        await asyncio.gather(*self.writes)  # a source's results that cannot be written fail the Run here
        # The commit runs in a thread; if this task is cancelled meanwhile, the thread still finishes the
        # atomic rename (a whole Run or none), and the cancellation is re-raised to the caller.
        self.committing = True
        await asyncio.to_thread(
            writer.commit,
            run,
            understanding=self.understanding,
            keywords=self.keywords,
            queries=self.queries,
            aggregated=aggregated,
        )
        self.embedding.forget()
        housekeeping.release(self.results, aggregated)  # freed after the Run, off the caller's path
        return run

    async def _search_one(self, source: Source, writer: RunWriter) -> None:
        started = time.monotonic()
        await _emit(self.on_progress, SearchProgress(source=source, stage="started"))

        async def on_page(progress: PageProgress) -> None:
            # a page at a time, while the Run waits on rate limits; in a thread, so that the event loop
            # starts the next rate-limited requests on time (a page of 1,000 records is ~0.1 s of sharing)
            await asyncio.to_thread(self.strings.share, progress.papers)
            self.embedding.offer(source, progress.papers, progress.first_rank)
            expected = self.cap if progress.total is None else min(self.cap, progress.total)
            if progress.fetched >= expected and self.searching == {source}:
                self.embedding.stop_prefetch()  # the last page of the search
            await _emit(
                self.on_progress,
                SearchProgress(
                    source=source,
                    stage="page",
                    page=progress.page,
                    fetched=progress.fetched,
                    total=progress.total,
                ),
            )

        query = self.queries.queries.get(source)
        error: SourceError | None = None
        try:
            if query is None or not query.query.strip():
                raise source_errors.BadQuery(source.value, "the query plan has no query for this source")
            client: SearchClient | None = getattr(self.clients, source.value, None)
            if client is None:
                raise source_errors.SourceUnavailable(source.value, "no client is configured for this source")
            async with asyncio.timeout(self.settings.source_time_limit):
                outcome = await client.search(
                    query.query, limit=self.cap, on_page=on_page, params=query.params
                )
        except TimeoutError:
            error = SourceError(
                source=source.value,
                kind=ErrorKind.TIMEOUT,
                message=f"no complete answer within the {self.settings.source_time_limit:g} s limit",
            )
        except source_errors.ServiceCallError as exc:
            # the message without the "service: " prefix: the error names its source in its own field
            error = SourceError(source=source.value, kind=exc.kind, message=exc.message)
        except Exception as exc:  # a bug in a client must not sink the other sources; it is logged in full
            log.exception("%s search failed unexpectedly", source.value)
            error = SourceError(
                source=source.value, kind=ErrorKind.INTERNAL, message=f"{type(exc).__name__}: {exc}"
            )
        self.timings.seconds[source.value] = round(time.monotonic() - started, 3)
        self.searching.discard(source)
        if error is not None:
            self.errors.append(error)
            self.totals[source.value] = None
            await _emit(
                self.on_progress, SearchProgress(source=source, stage="failed", message=error.message)
            )
            return
        self.results[source] = outcome.papers
        self.totals[source.value] = outcome.total
        if outcome.papers:
            self.embedding.start()
        self.warnings.extend(f"{source.value}: {w}" for w in outcome.warnings)
        await _emit(
            self.on_progress,
            SearchProgress(
                source=source,
                stage="done",
                page=outcome.pages,
                fetched=len(outcome.papers),
                total=outcome.total,
            ),
        )
        # written now, while the other sources still search, so less is left to write at the end
        self._write_soon(writer.write_results, source, outcome.papers, name=f"save-{source.value}")

    def _write_soon(self, write: Callable[..., None], *args: Any, name: str) -> None:
        """Write a file of the Run in a thread; the commit waits for every such write."""
        self.writes.append(asyncio.create_task(asyncio.to_thread(write, *args), name=name))

    async def _rank(self, aggregated: list[AggregatedPaper]) -> list[AggregatedPaper]:
        return await rank(
            aggregated,
            goal=self.goal,
            weights=self.weights,
            embedder=self.embedding.embedder,
            similarity=self.embedding.similarity if self.weights.semantic > 0 else None,
            llm=self.llm,
            llm_top_k=self.llm_top_k,
            copy=False,  # the merged papers are this Run's alone
        )

    async def _follow_citations(
        self, aggregated: list[AggregatedPaper]
    ) -> tuple[list[AggregatedPaper], SnowballResult]:
        """The ranked papers' citations followed (`agent.search.snowball`): what it finds is merged in
        and the list ranked again."""
        assert self.snowball_options is not None
        snowballed = await follow_citations(
            aggregated,
            clients=self.clients,
            plan=self.keywords,
            options=self.snowball_options,
            weights=self.weights,
            on_event=self.on_snowball,
        )
        if snowballed.papers:
            aggregated = await asyncio.to_thread(merge_with_snowball, self.results, snowballed)
            aggregated = await self._rank(aggregated)
        return aggregated, snowballed

    def _run_record(self, aggregated: list[AggregatedPaper], snowballed: SnowballResult | None) -> Run:
        """The Run's `run.json`: status, counts, totals, timings, errors and the settings it ran with."""
        failed = {e.source for e in self.errors}
        status = (
            RunStatus.FAILED
            if len(failed) == len(self.chosen)
            else RunStatus.PARTIAL
            if failed
            else RunStatus.COMPLETED
        )
        counts = {source.value: len(self.results.get(source, [])) for source in self.chosen}
        counts["aggregated"] = len(aggregated)
        if snowballed is not None:
            counts["snowball"] = sum(item.origin != "query" for item in aggregated)
        self.timings.finished_at = utcnow()
        self._lap("total", self.clock)
        snapshot = self.settings.public_dict()  # secrets are reduced to "set"/None there
        # snowballing's knobs are recorded in run.snowball when it ran; without it the snapshot is as before
        snapshot = {name: value for name, value in snapshot.items() if not name.startswith("snowball_")}
        snapshot.update(
            max_per_source=self.cap,
            sources=[s.value for s in self.chosen],
            ranking=self.weights.model_dump(mode="json"),
            llm=(self.llm.model or self.llm.kind.value) if self.llm is not None else None,
            llm_judge_top_k=self.llm_top_k,
        )
        understanding = self.understanding
        return Run(
            id=self.run_id,
            project_id=self.project_id,
            status=status,
            description=self.description or (understanding.description if understanding else ""),
            sources=self.chosen,
            counts=counts,
            totals=self.totals,
            timings=self.timings,
            errors=sorted(self.errors, key=lambda e: SEARCH_SOURCES.index(Source(e.source))),
            warnings=self.warnings,
            thread_id=self.thread_id,
            settings=snapshot,
            snowball=snowballed.report if snowballed is not None else None,
        )

    def _lap(self, name: str, since: float) -> None:
        self.timings.seconds[name] = round(time.monotonic() - since, 3)
