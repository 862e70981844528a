"""Execute a Run: search every enabled database at once, merge, rank, and save one immutable snapshot.

- Each source runs as its own task under `settings.source_time_limit`; the searches page and fetch
  details in batches inside the clients (`tools/`), which report every page through `on_page`.
- A source that fails (a typed `tools.errors.ServiceCallError`, the time limit, or an unexpected bug) is
  recorded as a `SourceError` with its kind and message, and the Run completes with the others:
  `partial` when some failed, `failed` when all did (the Run is still saved, so the errors can be seen).
  A source that times out keeps nothing: its client returns only complete result lists.
- Merge (`agent.search.merge`) and ranking (`agent.search.ranking`) run in worker threads, so a server's event loop
  keeps serving other requests while a big Run is scored. While the last source still pages, the Run
  works ahead: it embeds likely ranking candidates (`agent.search.similarity`), merges and serializes what it
  has (`agent.search.merge_ahead`), and collects garbage less often (`agent.search.gc_tuning`).
- The Run is written through a `RunWriter` (`RunStore.begin_run`): each source's results go into the
  Run's hidden temporary folder as soon as that source is done, the rest at the end, and the folder
  is renamed into place. Cancellation (`asyncio.CancelledError`, e.g. the client went away or Ctrl-C)
  before the commit cancels every search and removes that folder; a commit already under way finishes
  as a whole Run. A process killed outright leaves at most a hidden `.tmp-run_*` folder that listings
  ignore and later writes sweep away.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from agent.errors import InputError
from agent.llm import LLM
from agent.models import (
    SEARCH_SOURCES,
    ErrorKind,
    KeywordPlan,
    Paper,
    QueryPlan,
    Run,
    RunStatus,
    RunTimings,
    Source,
    SourceError,
    SourceQuery,
    Understanding,
    utcnow,
)
from agent.runs.store import RunStore, new_run_id
from agent.search.gc_tuning import Housekeeping, relaxed_gc
from agent.search.merge_ahead import MergeAhead
from agent.search.ranking import RankingWeights, first_stage_priority, rank, ranking_embedder
from agent.search.similarity import GoalSimilarity, SimilarityPrefetch
from agent.search.snowball import merge_with_snowball
from agent.search.snowball import snowball as follow_citations
from agent.settings import Settings
from tools import errors as source_errors
from tools.base import PageProgress, SearchOutcome

if TYPE_CHECKING:  # agent.search.sources imports the clients; only its type is needed here
    from agent.search.snowball import EventCallback, SnowballOptions
    from agent.search.sources import SourceClients

log = logging.getLogger(__name__)

MAX_PER_SOURCE_LIMIT = 2000  # the most a Run asks of one database (requirements: up to 2,000)
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


async def _search(
    source: Source,
    query: SourceQuery,
    clients: SourceClients,
    limit: int,
    on_page: Callable[[PageProgress], Awaitable[None]],
) -> SearchOutcome:
    """One source's search, with the parameters its query plan recorded."""
    params = query.params or {}
    client = getattr(clients, source.value, None)
    if client is None:
        raise source_errors.SourceUnavailable(source.value, "no client is configured for this source")
    if source is Source.PUBMED:
        return await client.search(query.query, limit=limit, on_page=on_page, sort=params.get("sort"))
    if source is Source.SEMANTIC_SCHOLAR:
        fields_of_study = params.get("fieldsOfStudy") or params.get("fields_of_study")
        if isinstance(fields_of_study, str):
            fields_of_study = [f for f in fields_of_study.split(",") if f]
        return await client.search_bulk(
            params.get("query") or query.query, limit=limit, on_page=on_page, fields_of_study=fields_of_study
        )
    # OpenAlex: the plan may use `search=`, a `filter=` (e.g. title_and_abstract.search:...), or both
    search, filter_ = params.get("search"), params.get("filter")
    if not search and not filter_:
        search = query.query
    return await client.search_works(search=search, filter=filter_, limit=limit, on_page=on_page)


def _goal(understanding: Understanding | None, description: str) -> str:
    if understanding is not None:
        return understanding.slots.research_goal or understanding.description or description
    return description


async def execute_run(
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
) -> Run:
    """Search, merge, rank and save one Run; returns the saved `Run` (its folder is `store.run_dir(run.id)`).

    `embedder` defaults to `settings.embedding_model`; `llm_top_k` to `DEFAULT_LLM_TOP_K` when `llm` is a
    usable model (0 turns the judgement off). Raises `RunConfigError` for a bad source list or cap.
    With `snowball`, the ranked papers' citations are followed afterwards (`agent.search.snowball`): what it
    finds is merged in, the list ranked again, and `results_snowball.json` and `run.snowball` written;
    `on_snowball` hears its budget before it starts and a line per round.
    """
    chosen = resolve_sources(enabled)
    cap = resolve_cap(max_per_source, settings)
    ranking = weights or RankingWeights()
    store.ensure_project(project_id)  # fail fast on a bad id, before minutes of searching
    run_id = new_run_id()
    timings = RunTimings(started_at=utcnow())
    clock = time.monotonic()

    goal = _goal(understanding, description)
    # The embedding model loads in a thread while the slower sources still search: in a fresh process
    # (the CLI) the first load takes seconds. It starts when a first source has papers to rank, so a
    # Run whose sources all fail never pays for it (a loading thread cannot be stopped half-way).
    semantic = ranking.semantic > 0 and bool(goal.strip())
    encoder_task: asyncio.Task[tuple[Any, str | None]] | None = None
    wants_encoder = embedder is None and semantic

    # While pages arrive, the likeliest ranking candidates are embedded in a worker thread (see
    # agent/search/similarity.py): most of a Run's search is spent waiting on rate limits.
    prefetch = SimilarityPrefetch(first_stage_priority(ranking), ranking.semantic_top_n or 10**9)
    similarity: GoalSimilarity | None = None
    prefetch_task: asyncio.Task[None] | None = None

    async def prefetch_similarity() -> None:
        nonlocal similarity
        encoder = embedder
        if encoder is None and encoder_task is not None:
            encoder, _ = await encoder_task
        if encoder is None:
            return
        similarity = GoalSimilarity(goal, encoder)
        try:
            await prefetch.run(similarity)
        except Exception:  # a guess ahead of time is optional; the ranking computes what it needs
            log.warning("embedding ahead of the ranking failed; the ranking embeds on its own", exc_info=True)

    def start_encoder() -> None:
        nonlocal encoder_task, prefetch_task
        if wants_encoder and encoder_task is None:
            encoder_task = asyncio.create_task(
                asyncio.to_thread(_load_embedder, settings), name="load-embedder"
            )
        if semantic and prefetch_task is None:
            prefetch_task = asyncio.create_task(prefetch_similarity(), name="prefetch-similarity")

    results: dict[Source, list[Paper]] = {}
    merge_ahead = MergeAhead(chosen)
    totals: dict[str, int | None] = {}
    errors: list[SourceError] = []
    warnings: list[str] = []

    async def search_one(source: Source) -> None:
        started = time.monotonic()
        await _emit(on_progress, SearchProgress(source=source, stage="started"))

        async def on_page(progress: PageProgress) -> None:
            expected = cap if progress.total is None else min(cap, progress.total)
            merge_ahead.page(
                source, progress.papers, progress.first_rank, remaining=expected - progress.fetched
            )
            if progress.papers and semantic:
                prefetch.offer(source, progress.papers, progress.first_rank)
                start_encoder()
            if progress.fetched >= expected and merge_ahead.searching == {source}:
                prefetch.finish()  # the last page of the search: see the merge below for why
            await _emit(
                on_progress,
                SearchProgress(
                    source=source,
                    stage="page",
                    page=progress.page,
                    fetched=progress.fetched,
                    total=progress.total,
                ),
            )

        query = queries.queries.get(source)
        error: SourceError | None = None
        try:
            if query is None or not query.query.strip():
                raise source_errors.BadQuery(source.value, "the query plan has no query for this source")
            async with asyncio.timeout(settings.source_time_limit):
                outcome = await _search(source, query, sources, cap, on_page)
        except TimeoutError:
            error = SourceError(
                source=source.value,
                kind=ErrorKind.TIMEOUT,
                message=f"no complete answer within the {settings.source_time_limit:g} s limit",
            )
        except source_errors.ServiceCallError as exc:
            # the message without the "service: " prefix: the error names its source in its own field
            error = SourceError(source=source.value, kind=exc.kind, message=exc.message)
        except Exception as exc:  # a bug in a client must not sink the other sources; it is logged in full
            log.exception("%s search failed unexpectedly", source.value)
            error = SourceError(
                source=source.value,
                kind=ErrorKind.INTERNAL,
                message=f"{type(exc).__name__}: {exc}",
            )
        timings.seconds[source.value] = round(time.monotonic() - started, 3)
        merge_ahead.done(source, outcome.papers if error is None else None)
        if error is not None:
            errors.append(error)
            totals[source.value] = None
            await _emit(on_progress, SearchProgress(source=source, stage="failed", message=error.message))
            return
        results[source] = outcome.papers
        totals[source.value] = outcome.total
        if outcome.papers:
            start_encoder()
        warnings.extend(f"{source.value}: {w}" for w in outcome.warnings)
        await _emit(
            on_progress,
            SearchProgress(
                source=source,
                stage="done",
                page=outcome.pages,
                fetched=len(outcome.papers),
                total=outcome.total,
            ),
        )
        # saved now, while the other sources still search (the last one's beside the merge), so less is
        # left to write at the end; `_search_rank_save` waits for every write before the commit
        writes.append(
            asyncio.create_task(
                asyncio.to_thread(writer.write_results, source, outcome.papers, merge_ahead.prepared),
                name=f"save-{source.value}",
            )
        )

    committing = False  # set once the commit thread runs: from then on it finishes the Run whole

    async def _search_rank_save(housekeeping: Housekeeping) -> Run:
        nonlocal ranking, embedder, committing, similarity
        try:
            # A TaskGroup cancels every sibling when the Run itself is cancelled; search_one records a
            # failing source instead of raising, so one failing source cannot cancel the others.
            async with asyncio.TaskGroup() as group:
                for source in chosen:
                    group.create_task(search_one(source), name=f"search-{source.value}")
            timings.seconds["search"] = round(time.monotonic() - clock, 3)

            step = time.monotonic()
            # The prefetch stops after its batch under way (at the last page if the source said which
            # it was): beside the parsing of that page and the merge, an embedding on two threads and
            # their Python would fight over two cores and all crawl; the ranking embeds what is still
            # missing right after the merge, with the CPU to itself.
            prefetch.finish()
            aggregated = await merge_ahead.merge(results)
            timings.seconds["merge"] = round(time.monotonic() - step, 3)

            step = time.monotonic()
            if encoder_task is not None:
                embedder, note = await encoder_task
                if note:
                    warnings.append(note)
                    ranking = ranking.model_copy(update={"semantic": 0.0})
            if similarity is None and embedder is not None and ranking.semantic > 0:
                similarity = GoalSimilarity(goal, embedder)  # the prefetch had not started
            # The ranking does not wait for the prefetch's batch under way: it embeds the candidates
            # nobody has started on, beside that batch, and waits for the batch only if it needs it.
            prefetched = similarity.computed if similarity is not None else 0
        finally:
            merge_ahead.stop()
            for task in (encoder_task, prefetch_task):
                if task is not None and not task.done():
                    task.cancel()  # a thread under way finishes on its own; nobody waits for it
        top_k = (
            llm_top_k
            if llm_top_k is not None
            else (DEFAULT_LLM_TOP_K if llm is not None and llm.available else 0)
        )
        rank_run = partial(
            rank,
            goal=goal,
            weights=ranking,
            embedder=embedder,
            similarity=similarity if ranking.semantic > 0 else None,
            llm=llm,
            llm_top_k=top_k,
            copy=False,  # the merged papers are this Run's alone
        )
        aggregated = await rank_run(aggregated)
        timings.seconds["rank"] = round(time.monotonic() - step, 3)
        if similarity is not None:
            log.info("ranking embedded %d texts, %d of them while searching", similarity.computed, prefetched)
        snowballed = None
        if snowball is not None:
            step = time.monotonic()
            snowballed = await follow_citations(
                aggregated,
                clients=sources,
                plan=keywords,
                options=snowball,
                weights=ranking,
                on_event=on_snowball,
            )
            if snowballed.papers:
                aggregated = await asyncio.to_thread(merge_with_snowball, results, snowballed)
                aggregated = await rank_run(aggregated)
            timings.seconds["snowball"] = round(time.monotonic() - step, 3)

        failed = {e.source for e in errors}
        status = (
            RunStatus.FAILED
            if len(failed) == len(chosen)
            else RunStatus.PARTIAL
            if failed
            else RunStatus.COMPLETED
        )
        counts = {source.value: len(results.get(source, [])) for source in chosen}
        counts["aggregated"] = len(aggregated)
        if snowballed is not None:
            counts["snowball"] = sum(item.origin != "query" for item in aggregated)
        timings.finished_at = utcnow()
        timings.seconds["total"] = round(time.monotonic() - clock, 3)
        snapshot = settings.public_dict()  # secrets are reduced to "set"/None there
        # snowballing's knobs are recorded in run.snowball when it ran; without it the snapshot is as before
        snapshot = {name: value for name, value in snapshot.items() if not name.startswith("snowball_")}
        snapshot.update(
            max_per_source=cap,
            sources=[s.value for s in chosen],
            ranking=ranking.model_dump(mode="json"),
            llm=(llm.model or llm.kind.value) if llm is not None else None,
            llm_judge_top_k=top_k,
        )
        run = Run(
            id=run_id,
            project_id=project_id,
            status=status,
            description=description or (understanding.description if understanding else ""),
            sources=chosen,
            counts=counts,
            totals=totals,
            timings=timings,
            errors=sorted(errors, key=lambda e: SEARCH_SOURCES.index(Source(e.source))),
            warnings=warnings,
            thread_id=thread_id,
            settings=snapshot,
            snowball=snowballed.report if snowballed is not None else None,
        )
        if snowballed is not None:
            from agent.runs.run_json import dump_models

            finds = snowballed.finds()
            writes.append(
                asyncio.create_task(
                    asyncio.to_thread(
                        writer.write_file, "results_snowball.json", dump_models(finds) if finds else b"[]"
                    ),
                    name="save-snowball",
                )
            )
        await asyncio.gather(*writes)  # a source's results that cannot be written fail the Run here
        # The commit runs in a thread; if this task is cancelled meanwhile, the thread still finishes the
        # atomic rename (a whole Run or none), and the cancellation is re-raised to the caller.
        committing = True
        await asyncio.to_thread(
            writer.commit,
            run,
            understanding=understanding,
            keywords=keywords,
            queries=queries,
            aggregated=aggregated,
            prepared=merge_ahead.prepared,
        )
        prefetch.clear()
        # the Run is saved: freeing its records need not delay the caller
        memo, prepared = merge_ahead.memo, merge_ahead.prepared
        housekeeping.release(
            results,
            aggregated,
            memo.join_keys,
            memo.components,
            memo.titles,
            memo.title_checks,
            prepared.entries,
            prepared.evidence,
        )
        return run

    writer = store.begin_run(project_id, run_id)
    writes: list[asyncio.Task[None]] = []
    try:
        # a Run's objects live until it is saved: collecting less often saves walking them again and again
        with relaxed_gc() as housekeeping:
            return await _search_rank_save(housekeeping)
    except BaseException as exc:
        # A cancelled Run whose commit thread already runs is finished whole by that thread. Otherwise
        # the folder goes, after the writes under way (a thread cannot be stopped), so that none of
        # them lands in a removed folder.
        if committing and isinstance(exc, asyncio.CancelledError):
            raise
        await asyncio.gather(*writes, return_exceptions=True)
        writer.abort()
        raise


def _load_embedder(settings: Settings) -> tuple[Any, str | None]:
    """The configured embedding model, or (None, a note) when it cannot be loaded: rank without it."""
    from tools.embeddings.sentence import EmbeddingModelError

    embedder = ranking_embedder(settings)
    try:
        embedder.model  # noqa: B018 - load now, so a missing model is a note and not a crash mid-ranking
    except EmbeddingModelError as exc:
        log.warning("ranking without semantic similarity: %s", exc)
        return None, f"ranking: semantic similarity left out ({exc})"
    return embedder, None
