"""Merging ahead while the last source pages: only then, never changing the final merge, and stoppable."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from agent.models import Paper, Source
from agent.search import merge_ahead as merge_ahead_module
from agent.search.merge import merge_papers
from agent.search.merge_ahead import MergeAhead


def records(source: Source, start: int, count: int, *, shared_from: int = 0) -> list[Paper]:
    """`count` records; those numbered from `shared_from` on share DOIs with the other sources."""
    return [
        Paper(
            source=source,
            source_rank=start + i,
            doi=f"10.1/{'shared' if start + i >= shared_from else source.value}-{start + i}",
            title=f"Record {start + i} on cortical speech decoding",
            year=2020,
        )
        for i in range(count)
    ]


async def settle(ahead: MergeAhead) -> None:
    for _ in range(200):
        if all(task is None or task.done() for task in (ahead._task, *ahead._jobs)):
            return
        await asyncio.sleep(0.01)


async def test_merges_ahead_when_a_single_source_is_left_with_two_pages_to_come_and_before_the_last() -> None:
    ahead = MergeAhead([Source.PUBMED, Source.SEMANTIC_SCHOLAR, Source.OPENALEX])
    ahead.page(Source.PUBMED, records(Source.PUBMED, 1, 30), 1, remaining=90)
    ahead.done(Source.OPENALEX, records(Source.OPENALEX, 1, 80, shared_from=40))
    s2 = records(Source.SEMANTIC_SCHOLAR, 1, 60, shared_from=30)
    ahead.done(Source.SEMANTIC_SCHOLAR, s2)
    await settle(ahead)
    assert ahead.merges == 0  # PubMed has three pages to come: later pages would change most of it

    second = records(Source.PUBMED, 31, 30)
    ahead.page(Source.PUBMED, second, 31, remaining=60)
    await settle(ahead)
    assert ahead.merges == 1 and ahead.memo.components
    # what the Run writes after the last page is serialized ahead: the searching source's records
    # and the merged papers
    assert all(ahead.prepared.get(paper) is not None for paper in second)
    assert len(ahead.prepared.entries) > 60 + 50

    third = records(Source.PUBMED, 61, 30)
    ahead.page(Source.PUBMED, third, 61, remaining=30)
    await settle(ahead)
    assert ahead.merges == 2  # again before the last page, from the first merge's memo
    assert ahead.memo.reused > 0 and all(ahead.prepared.get(paper) is not None for paper in third)

    last = records(Source.PUBMED, 91, 30)
    ahead.page(Source.PUBMED, last, 91, remaining=0)
    await settle(ahead)
    assert ahead.merges == 2  # the final work follows at once
    assert all(ahead.prepared.get(paper) is None for paper in last)

    results = {
        Source.PUBMED: records(Source.PUBMED, 1, 120),
        Source.SEMANTIC_SCHOLAR: s2,
        Source.OPENALEX: records(Source.OPENALEX, 1, 80, shared_from=40),
    }
    final = await ahead.merge(results)
    assert [p.model_dump() for p in final] == [p.model_dump() for p in merge_papers(results)]


async def test_a_failing_merge_ahead_is_logged_and_the_final_merge_is_whole(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(merge_ahead_module, "merge_papers", broken)
    ahead = MergeAhead([Source.PUBMED])
    with caplog.at_level(logging.WARNING, logger="agent.search.merge_ahead"):
        ahead.page(Source.PUBMED, records(Source.PUBMED, 1, 10), 1, remaining=10)
        await settle(ahead)
    assert "merging ahead failed" in caplog.text and ahead.merges == 0

    monkeypatch.setattr(merge_ahead_module, "merge_papers", merge_papers)
    results = {Source.PUBMED: records(Source.PUBMED, 1, 10)}
    assert len(await ahead.merge(results)) == 10


async def test_stop_abandons_the_merge_under_way_and_forgets_the_records() -> None:
    ahead = MergeAhead([Source.OPENALEX])
    ahead.page(Source.OPENALEX, records(Source.OPENALEX, 1, 3000), 1, remaining=10)
    await asyncio.sleep(0)  # the merge thread has started
    ahead.stop()
    await settle(ahead)
    assert ahead._task is not None and ahead._task.done()
    assert not ahead._pages and not ahead._finished
    ahead.page(Source.OPENALEX, records(Source.OPENALEX, 3001, 10), 3001, remaining=0)
    assert ahead._task.done() and not ahead._pages  # stopped for good


async def test_a_page_that_arrives_during_the_merge_ahead_is_serialized_on_its_own() -> None:
    ahead = MergeAhead([Source.PUBMED])
    ahead.page(Source.PUBMED, records(Source.PUBMED, 1, 30), 1, remaining=60)
    before_last = records(Source.PUBMED, 31, 30)
    ahead.page(Source.PUBMED, before_last, 31, remaining=30)  # the merge of the first has not finished
    await settle(ahead)
    assert ahead.merges == 1  # no second merge: the first was not done when this page came
    assert all(ahead.prepared.get(paper) is not None for paper in before_last)
