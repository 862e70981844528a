"""The Run executor against the fake-sources server over real HTTP, through the real clients.

The embedder is a small deterministic stand-in (the real MiniLM model is exercised by the ranking
tests and the CLI end-to-end test), so these tests stay fast.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import numpy as np
import pytest

from agent.llm import RulesLLM
from agent.models import (
    SEARCH_SOURCES,
    AggregatedPaper,
    ErrorKind,
    Paper,
    QueryPlan,
    RunStatus,
    Slots,
    Source,
    SourceQuery,
    Understanding,
)
from agent.runs.store import RUN_FILES, RunStore
from agent.search.executor import RunConfigError, RunExecution, SearchProgress
from agent.search.gc_tuning import SharedStrings
from agent.search.ranking import RankingWeights
from agent.search.similarity import GoalSimilarity, paper_text
from agent.search.sources import open_sources
from agent.settings import Settings, load_settings
from evals.fake_sources import FakeConfig, running_fake_sources
from tests.agent.search.test_ranking import BagOfWords

QUERY = "speech decoding intracranial"
SECRET = "s2-secret-key-do-not-leak"


def settings_for(fake: Any, data_dir: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "data_dir": data_dir,
        "http_retries": 0,
        "http_backoff": 0.01,
        "cache_ttl": 0,
        "rate_pubmed": 200.0,
        "rate_semantic_scholar": 200.0,
        "rate_openalex": 200.0,
        "semantic_scholar_api_key": SECRET,
        **fake.settings_overrides(),
    }
    return load_settings(**{**values, **overrides})


def plan(query: str = QUERY) -> QueryPlan:
    return QueryPlan(queries={s: SourceQuery(source=s, query=query) for s in SEARCH_SOURCES})


def understanding() -> Understanding:
    return Understanding(
        description="I decode speech from intracranial recordings.",
        slots=Slots(research_goal="decode speech from intracranial EEG"),
    )


@pytest.fixture(scope="module")
def fake():
    with running_fake_sources(FakeConfig(seed=3)) as server:
        yield server


@pytest.fixture(scope="module")
def fake_openalex_down():
    with running_fake_sources(FakeConfig(seed=3, faults={"openalex": "503"})) as server:
        yield server


async def run_with(fake: Any, tmp_path: Path, *, events: list[SearchProgress] | None = None, **kwargs: Any):
    settings = settings_for(fake, tmp_path / "data", **kwargs.pop("settings", {}))
    store = RunStore(settings.projects_dir)
    async with open_sources(settings) as sources:
        run = await RunExecution(
            store=store,
            project_id="p1",
            understanding=kwargs.pop("understanding", understanding()),
            keywords=None,
            queries=kwargs.pop("queries", plan()),
            sources=sources,
            settings=settings,
            llm=RulesLLM(),
            on_progress=events.append if events is not None else None,
            embedder=kwargs.pop("embedder", BagOfWords()),
            **kwargs,
        ).execute()
    return run, store


def read(folder: Path, name: str) -> Any:
    return json.loads((folder / name).read_text(encoding="utf-8"))


async def test_full_run_writes_every_file_with_consistent_counts(fake: Any, tmp_path: Path) -> None:
    events: list[SearchProgress] = []
    run, store = await run_with(
        fake, tmp_path, events=events, max_per_source=150, thread_id="t-1", description="d"
    )
    folder = store.run_dir(run.id)

    assert sorted(p.name for p in folder.iterdir()) == sorted(RUN_FILES)
    data = {name: read(folder, name) for name in RUN_FILES}  # every file is valid JSON
    assert run.status is RunStatus.COMPLETED and not run.errors
    assert data["run.json"]["id"] == run.id and data["run.json"]["thread_id"] == "t-1"
    for source in SEARCH_SOURCES:
        records = data[f"results_{source.value}.json"]
        assert run.counts[source.value] == len(records) == min(150, run.totals[source.value])
        assert [r["source_rank"] for r in records] == list(range(1, len(records) + 1))
    aggregated = data["results_aggregated.json"]
    assert run.counts["aggregated"] == len(aggregated)
    assert sum(len(p["evidence"]) for p in aggregated) == sum(run.counts[s.value] for s in SEARCH_SOURCES)
    assert len(aggregated) < sum(run.counts[s.value] for s in SEARCH_SOURCES)  # overlap was merged
    assert [p["rank"] for p in aggregated] == list(range(1, len(aggregated) + 1))
    totals = [p["score"]["total"] for p in aggregated]
    assert totals == sorted(totals, reverse=True)
    assert data["queries.json"]["queries"]["pubmed"]["query"] == QUERY
    assert data["understanding.json"]["slots"]["research_goal"] == "decode speech from intracranial EEG"
    assert data["keywords.json"] is None

    # timings, settings snapshot without secrets
    assert set(SEARCH_SOURCES) <= {Source(k) for k in run.timings.seconds if k in {s.value for s in Source}}
    assert {"search", "merge", "rank", "total"} <= set(run.timings.seconds)
    assert run.timings.finished_at is not None
    assert run.settings["max_per_source"] == 150
    assert run.settings["semantic_scholar_api_key"] == "set"
    assert SECRET not in (folder / "run.json").read_text()

    # progress: started, at least one page, done for each source, in that order
    for source in SEARCH_SOURCES:
        stages = [e.stage for e in events if e.source is source]
        assert stages[0] == "started" and stages[-1] == "done" and "page" in stages
        done = [e for e in events if e.source is source and e.stage == "done"][-1]
        assert done.fetched == run.counts[source.value]
    assert store.list_runs("p1") == [run]


async def test_one_source_answering_503_gives_a_partial_run(fake_openalex_down: Any, tmp_path: Path) -> None:
    events: list[SearchProgress] = []
    run, store = await run_with(fake_openalex_down, tmp_path, events=events, max_per_source=50)
    assert run.status is RunStatus.PARTIAL
    [error] = run.errors
    assert (error.source, error.kind) == ("openalex", ErrorKind.UNAVAILABLE)
    assert "503" in error.message
    folder = store.run_dir(run.id)
    assert read(folder, "results_openalex.json") == []
    assert run.counts["openalex"] == 0 and run.totals["openalex"] is None
    assert run.counts["pubmed"] == run.counts["semantic_scholar"] == 50
    aggregated = read(folder, "results_aggregated.json")
    assert aggregated and all(e["source"] != "openalex" for p in aggregated for e in p["evidence"])
    assert read(folder, "run.json")["errors"][0]["kind"] == "unavailable"
    assert [e.stage for e in events if e.source is Source.OPENALEX] == ["started", "failed"]


async def test_every_source_failing_still_saves_a_failed_run(tmp_path: Path) -> None:
    with running_fake_sources(FakeConfig(faults={"*": "500"})) as broken:
        run, store = await run_with(broken, tmp_path, max_per_source=10)
    assert run.status is RunStatus.FAILED
    assert [e.source for e in run.errors] == [s.value for s in SEARCH_SOURCES]
    assert run.counts == {"pubmed": 0, "semantic_scholar": 0, "openalex": 0, "aggregated": 0}
    assert store.load_run(run.id).aggregated == []


async def test_a_source_over_its_time_limit_is_a_timeout_error(tmp_path: Path) -> None:
    with running_fake_sources(FakeConfig(faults={"semantic_scholar": "latency:3000"})) as slow:
        run, _store = await run_with(slow, tmp_path, max_per_source=10, settings={"source_time_limit": 0.5})
    assert run.status is RunStatus.PARTIAL
    [error] = run.errors
    assert (error.source, error.kind) == ("semantic_scholar", ErrorKind.TIMEOUT)
    assert run.timings.seconds["semantic_scholar"] < 2.0


async def test_enabled_subset_and_missing_query(fake: Any, tmp_path: Path) -> None:
    only_pubmed = QueryPlan(queries={Source.PUBMED: SourceQuery(source=Source.PUBMED, query=QUERY)})
    run, store = await run_with(fake, tmp_path, queries=only_pubmed, enabled=["pubmed"], max_per_source=20)
    assert run.sources == [Source.PUBMED] and run.status is RunStatus.COMPLETED
    assert set(run.counts) == {"pubmed", "aggregated"}
    # a source enabled without a query in the plan is a recorded error, not a crash
    run, _ = await run_with(
        fake, tmp_path, queries=only_pubmed, enabled=["pubmed", "openalex"], max_per_source=20
    )
    assert run.status is RunStatus.PARTIAL
    assert [(e.source, e.kind) for e in run.errors] == [("openalex", ErrorKind.BAD_QUERY)]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"enabled": ["pubmed", "scopus"]}, "unknown source 'scopus'"),
        ({"enabled": []}, "at least one"),
        ({"max_per_source": 0}, "between 1 and 10000"),
        ({"max_per_source": 10_001}, "between 1 and 10000"),
    ],
)
async def test_bad_run_options_fail_before_searching(
    fake: Any, tmp_path: Path, kwargs: dict, message: str
) -> None:
    with pytest.raises(RunConfigError, match=message):
        await run_with(fake, tmp_path, **kwargs)
    assert not (tmp_path / "data" / "projects" / "p1" / "runs").exists() or not list(
        (tmp_path / "data" / "projects" / "p1" / "runs").iterdir()
    )


async def test_cancellation_leaves_no_run(tmp_path: Path) -> None:
    with running_fake_sources(FakeConfig(latency_ms=300)) as slow:
        first_page = asyncio.Event()
        events: list[SearchProgress] = []

        def on_progress(event: SearchProgress) -> None:
            events.append(event)
            if event.stage == "page":
                first_page.set()

        settings = settings_for(slow, tmp_path / "data")
        store = RunStore(settings.projects_dir)
        async with open_sources(settings) as sources:
            task = asyncio.create_task(
                RunExecution(
                    store=store,
                    project_id="p1",
                    understanding=understanding(),
                    keywords=None,
                    queries=plan(),
                    sources=sources,
                    settings=settings,
                    max_per_source=1000,
                    on_progress=on_progress,
                    embedder=BagOfWords(),
                ).execute()
            )
            await asyncio.wait_for(first_page.wait(), timeout=15)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
    assert store.list_runs("p1") == []
    assert list((settings.projects_dir / "p1" / "runs").iterdir()) == []
    assert not any(e.stage == "done" for e in events if e.source is Source.PUBMED)


async def test_progress_callback_errors_do_not_sink_the_run(fake: Any, tmp_path: Path, caplog: Any) -> None:
    settings = settings_for(fake, tmp_path / "data")
    store = RunStore(settings.projects_dir)

    async def broken(event: SearchProgress) -> None:
        raise RuntimeError("display went away")

    async with open_sources(settings) as sources:
        run = await RunExecution(
            store=store,
            project_id="p1",
            understanding=None,
            keywords=None,
            queries=plan(),
            sources=sources,
            settings=settings,
            max_per_source=5,
            on_progress=broken,
            embedder=BagOfWords(),
            description="speech",
        ).execute()
    assert run.status is RunStatus.COMPLETED
    assert "progress callback failed" in caplog.text
    assert run.description == "speech"


async def test_similarity_computed_while_searching_gives_the_ranking_a_fresh_one_would(
    fake: Any, tmp_path: Path, caplog: Any
) -> None:
    caplog.set_level(logging.INFO, logger="agent.search.executor")
    run, store = await run_with(fake, tmp_path, max_per_source=120)
    aggregated = [
        AggregatedPaper.model_validate(p) for p in read(store.run_dir(run.id), "results_aggregated.json")
    ]

    # some texts were embedded while the sources were still answering ...
    line = next(r.getMessage() for r in caplog.records if "while searching" in r.getMessage())
    total, during = (int(n) for n in re.findall(r"\d+", line))
    assert 0 < during <= total
    # ... and every similarity equals what a fresh computation gives for the merged paper's text
    fresh = GoalSimilarity(understanding().slots.research_goal, BagOfWords())
    candidates = aggregated[: RankingWeights().semantic_top_n]
    expected = fresh.similarity([paper_text(p.paper) for p in candidates])
    np.testing.assert_allclose([p.score.semantic for p in candidates], expected, atol=1e-6)
    assert any(p.score.semantic > 0 for p in candidates)


class FailsFirst(BagOfWords):
    """An embedder whose first call fails (a model hiccup): only the guess ahead of time is lost."""

    def encode(self, texts: list[str]) -> np.ndarray:
        if not self.calls:
            self.calls.append(-1)
            raise RuntimeError("first call fails")
        return super().encode(texts)


async def test_a_failing_prefetch_only_costs_the_guess(fake: Any, tmp_path: Path, caplog: Any) -> None:
    run, store = await run_with(fake, tmp_path, max_per_source=60, embedder=FailsFirst())
    assert run.status is RunStatus.COMPLETED
    aggregated = read(store.run_dir(run.id), "results_aggregated.json")
    assert any(p["score"]["semantic"] > 0 for p in aggregated)
    assert "embedding ahead of the ranking failed" in caplog.text


@pytest.fixture(scope="module")
def fake_large():
    with running_fake_sources(FakeConfig(seed=3, total=1000)) as server:
        yield server


async def test_a_run_is_what_a_fresh_merge_of_its_saved_records_gives(
    fake_large: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import inspect

    from agent.search.merge import merge_papers
    from agent.search.similarity import SimilarityPrefetch

    stopped_by: list[str] = []
    finish = SimilarityPrefetch.finish

    def recording_finish(self: SimilarityPrefetch) -> None:
        stopped_by.append(inspect.stack()[2].function)
        finish(self)

    monkeypatch.setattr(SimilarityPrefetch, "finish", recording_finish)

    # PubMed pages slowly (esearch and 4 pages at 3/s); the others answer at once (once the fake server
    # has rendered its answers: the first Run), so the embedding ahead runs while PubMed pages
    slow_pubmed = {"rate_pubmed": 3.0}
    await run_with(fake_large, tmp_path / "warm", max_per_source=800, settings=slow_pubmed)
    stopped_by.clear()
    run, store = await run_with(fake_large, tmp_path, max_per_source=800, settings=slow_pubmed)
    folder = store.run_dir(run.id)
    assert run.counts["pubmed"] == 800
    # the prefetch stops at PubMed's last page, again before the merge, and forgets once the Run is saved
    assert stopped_by[-3:] == ["on_page", "_search_rank_save", "forget"]

    results = {
        source: [Paper.model_validate(p) for p in read(folder, f"results_{source.value}.json")]
        for source in SEARCH_SOURCES
    }
    aggregated = [AggregatedPaper.model_validate(p) for p in read(folder, "results_aggregated.json")]
    fresh = {p.key: p for p in merge_papers(results)}
    assert {p.key for p in aggregated} == set(fresh)
    for paper in aggregated:  # the same merged record as a merge of the saved records, ranked
        assert paper.model_dump(exclude={"score", "rank"}) == fresh[paper.key].model_dump(
            exclude={"score", "rank"}
        )
    # the files streamed in batches are one record per line, the bytes of one serializer call each
    for name, items in [
        ("results_pubmed.json", results[Source.PUBMED]),
        ("results_aggregated.json", aggregated),
    ]:
        plain = "[\n" + ",\n".join(item.model_dump_json() for item in items) + "\n]\n"
        assert (folder / name).read_bytes() == plain.encode()


async def test_each_source_reads_its_own_parameters_of_the_plan(fake: Any, tmp_path: Path) -> None:
    """The executor hands every client the plan's query and parameters alike (`tools.base.SearchClient`)."""
    queries = QueryPlan(
        queries={
            Source.PUBMED: SourceQuery(source=Source.PUBMED, query=QUERY, params={"sort": "pub_date"}),
            Source.SEMANTIC_SCHOLAR: SourceQuery(
                source=Source.SEMANTIC_SCHOLAR,
                query=QUERY,
                params={"query": "speech + decoding", "fieldsOfStudy": "Medicine,Biology"},
            ),
            Source.OPENALEX: SourceQuery(
                source=Source.OPENALEX,
                query=QUERY,
                params={"filter": "title_and_abstract.search:speech decoding"},
            ),
        }
    )
    fake.app.forget_requests()
    run, _store = await run_with(fake, tmp_path, queries=queries, max_per_source=5)
    assert run.status is RunStatus.COMPLETED

    def params(service: str) -> list[dict[str, str]]:
        return [dict(parse_qsl(request.query)) for request in fake.app.requests_for(service)]

    assert any(p.get("sort") == "pub_date" for p in params("pubmed"))
    assert any(
        p.get("query") == "speech + decoding" and p.get("fieldsOfStudy") == "Medicine,Biology"
        for p in params("semantic_scholar")
    )
    openalex = [p for p in params("openalex") if "filter" in p]
    assert openalex and all(p["filter"] == "title_and_abstract.search:speech decoding" for p in openalex)
    assert all("search" not in p for p in openalex)


async def test_each_page_is_shared_off_the_event_loop_and_equal_texts_become_one(
    fake: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages are shared in a worker thread (the event loop must start rate-limited requests on time),
    and a title two sources both return is then one string object."""
    share = SharedStrings.share
    pages: list[tuple[bool, list[Paper]]] = []

    def recording(self: SharedStrings, models: Any) -> None:
        models = list(models)
        pages.append((threading.current_thread() is threading.main_thread(), models))
        share(self, models)

    monkeypatch.setattr(SharedStrings, "share", recording)
    run, _store = await run_with(fake, tmp_path, max_per_source=20)
    assert run.status is RunStatus.COMPLETED
    assert pages and not any(on_main for on_main, _ in pages)
    by_text: dict[str, list[str]] = {}
    for _, papers in pages:
        for paper in papers:
            if paper.title:
                by_text.setdefault(paper.title, []).append(paper.title)
    repeated = [titles for titles in by_text.values() if len(titles) > 1]
    assert repeated  # the fake sources return some works in several sources
    assert all(title is titles[0] for titles in repeated for title in titles)
