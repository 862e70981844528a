"""Similarity to the goal: remembered by text, guessed ahead while pages arrive, never changing a ranking."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import random
import threading
import time
from typing import Any

import numpy as np
import pytest

from agent.models import Paper, Source
from agent.search.merge import merge_papers
from agent.search.ranking import RankingWeights, first_stage_priority, score_papers
from agent.search.similarity import (
    ABSTRACT_CHARS,
    GoalSimilarity,
    SimilarityPrefetch,
    embedding_text,
    paper_text,
)
from tests.agent.search.test_ranking import BagOfWords


def paper(source: Source, rank: int, *, doi: str | None, title: str, abstract: str | None = None) -> Paper:
    return Paper(source=source, source_rank=rank, doi=doi, title=title, abstract=abstract)


def test_embedding_text_reads_the_same_whichever_source_spelt_it() -> None:
    pubmed = embedding_text("Speech  decoding from ECoG.", "Background:\n we  decoded speech.")
    openalex = embedding_text("Speech decoding from ECoG", "Background: we decoded speech.")
    assert pubmed == openalex == "Speech decoding from ECoG. Background: we decoded speech."
    assert embedding_text("Title", None) == "Title"
    assert len(embedding_text("T", "x" * 5000)) == len("T. ") + ABSTRACT_CHARS


def test_goal_similarity_embeds_each_text_once_and_matches_a_direct_cosine() -> None:
    encoder = BagOfWords()
    similarity = GoalSimilarity("decode speech from ECoG", encoder)
    texts = ["decode speech", "soil microbes", "decode speech"]
    first = similarity.similarity(texts)
    again = similarity.similarity(texts[:2])
    assert encoder.calls == [1, 2]  # the goal once, then the two distinct texts once
    goal = encoder.encode(["decode speech from ECoG"])[0]
    expected = np.clip(encoder.encode(texts) @ goal, 0, 1)
    np.testing.assert_allclose(first, expected, atol=1e-6)
    np.testing.assert_allclose(again, first[:2])
    assert first[1] == 0.0 and similarity.computed == 2
    assert GoalSimilarity("  ", encoder).similarity(["x"]).tolist() == [0.0]  # no goal, no embedding


class SlowOnce(BagOfWords):
    """Blocks its first call until released, so a second thread arrives while a batch is under way."""

    def __init__(self, *, fail_first: bool = False) -> None:
        super().__init__()
        self.started = threading.Event()
        self.release = threading.Event()
        self.fail_first = fail_first
        self.texts: list[str] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.texts.extend(texts)
        if texts != ["goal words"] and not self.started.is_set():
            self.started.set()
            assert self.release.wait(5)
            if self.fail_first:
                raise RuntimeError("the prefetch's batch failed")
        return super().encode(texts)


@pytest.mark.parametrize("fail_first", [False, True])
def test_a_text_under_way_in_another_thread_is_waited_for_not_embedded_twice(fail_first: bool) -> None:
    encoder = SlowOnce(fail_first=fail_first)
    similarity = GoalSimilarity("goal words", encoder)
    prefetch = threading.Thread(target=lambda: _swallow(similarity.compute, ["alpha", "beta"]))
    prefetch.start()
    assert encoder.started.wait(5)
    assert similarity.known("alpha")  # under way counts as known to the prefetch's next guess

    ranking = concurrent.futures.ThreadPoolExecutor(1).submit(similarity.similarity, ["beta", "gamma"])
    for _ in range(200):  # the ranking embeds "gamma" at once, beside the batch under way
        if "gamma" in encoder.texts:
            break
        time.sleep(0.01)
    assert "gamma" in encoder.texts and not ranking.done()  # and waits for "beta"
    encoder.release.set()
    values = ranking.result(5)
    prefetch.join(5)

    assert values.shape == (2,)
    embedded_beta = encoder.texts.count("beta")
    assert embedded_beta == (2 if fail_first else 1)  # again only when the other thread failed


def _swallow(function: Any, *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the failing prefetch's own error is not under test
        function(*args)


def test_prefetch_guesses_multi_source_works_first_with_the_merged_text() -> None:
    prefetch = SimilarityPrefetch(first_stage_priority(RankingWeights()), limit=2)
    prefetch.offer(
        Source.SEMANTIC_SCHOLAR,
        [
            paper(Source.SEMANTIC_SCHOLAR, 1, doi="10.1234/solo", title="Only here"),
            paper(Source.SEMANTIC_SCHOLAR, 2, doi="10.1234/SHARED", title="Shared work", abstract="short"),
        ],
        first_rank=1,
    )
    prefetch.offer(
        Source.PUBMED,
        [
            paper(
                Source.PUBMED,
                40,
                doi="https://doi.org/10.1234/shared",
                title="Shared work.",
                abstract="a longer abstract",
            )
        ],
        first_rank=40,
    )
    similarity = GoalSimilarity("shared", BagOfWords())
    batch = prefetch.next_batch(similarity)
    # the work two sources found comes first, read as the merge will read it: PubMed's title, the
    # longest abstract; the limit (the ranking's top N) bounds the guesses
    assert batch == ["Shared work. a longer abstract", "Only here"]
    assert prefetch.next_batch(similarity) == []  # nothing is tried twice

    merged = merge_papers(
        {
            Source.SEMANTIC_SCHOLAR: [
                paper(Source.SEMANTIC_SCHOLAR, 2, doi="10.1234/SHARED", title="Shared work", abstract="short")
            ],
            Source.PUBMED: [
                paper(
                    Source.PUBMED,
                    40,
                    doi="10.1234/shared",
                    title="Shared work.",
                    abstract="a longer abstract",
                )
            ],
        }
    )
    assert paper_text(merged[0].paper) == batch[0]


class KnowsEverything(GoalSimilarity):
    """A similarity with every text embedded already: the prefetch ranks its guesses and takes none."""

    def known(self, text: str) -> bool:
        return True


def test_prefetch_guesses_the_rankings_semantic_candidates_from_the_pages() -> None:
    """With every page offered, the guess is the ranking's top N: same formula, same merged fields."""
    rng = random.Random(7)
    works = [
        {
            "doi": f"10.1234/w{i}",
            "title": f"work {i} on topic {rng.randrange(10**6)}",
            "year": rng.choice([None, *range(1995, 2026)]),
            "citations": rng.choice([None, 0, *range(1, 5000, 37)]),
        }
        for i in range(300)
    ]
    works[0]["citations"] = 10**6  # first in every source: the Run's scale is set by the first pages
    results: dict[Source, list[Paper]] = {}
    for source in (Source.PUBMED, Source.SEMANTIC_SCHOLAR, Source.OPENALEX):
        chosen = [works[0], *rng.sample(works[1:], 149)]
        results[source] = [
            Paper(
                source=source,
                source_rank=rank,
                doi=work["doi"],
                title=work["title"],
                # sources disagree on the year and the count; the merge's rules decide
                year=work["year"] if source is not Source.SEMANTIC_SCHOLAR else 2025,
                citation_count=(work["citations"] or 0) + (3 if source is Source.OPENALEX else 0),
            )
            for rank, work in enumerate(chosen, start=1)
        ]
    weights = RankingWeights()
    prefetch = SimilarityPrefetch(first_stage_priority(weights, now_year=2026), limit=40)
    knows_all = KnowsEverything("topic", BagOfWords())
    for start in range(0, 150, 50):  # page by page, the sources taking turns, as they deliver them
        for source, papers in results.items():
            prefetch.offer(source, papers[start : start + 50], start + 1)
            # a guess after every page: later guesses reuse the priorities of works no page changed
            assert prefetch.next_batch(knows_all) == []
    similarity = GoalSimilarity("topic", BagOfWords())
    guessed = prefetch.next_batch(similarity, size=1000)

    ranked = score_papers(
        merge_papers(results),
        goal="",  # the first stage only: the ranking's candidate list before similarity
        weights=weights,
        now_year=2026,
    )
    assert set(guessed) == {paper_text(p.paper) for p in ranked[:40]}


async def test_prefetch_runs_until_finished_and_then_stops() -> None:
    prefetch = SimilarityPrefetch(first_stage_priority(RankingWeights()), limit=100)
    similarity = GoalSimilarity("brain", BagOfWords())
    task = asyncio.create_task(prefetch.run(similarity))
    prefetch.offer(
        Source.OPENALEX,
        [paper(Source.OPENALEX, i, doi=f"10.1234/{i}", title=f"brain {i}") for i in range(1, 21)],
        1,
    )
    for _ in range(100):
        if similarity.computed == 20:
            break
        await asyncio.sleep(0.01)
    assert similarity.computed == 20 and not task.done()  # it waits for more pages
    prefetch.finish()
    await asyncio.wait_for(task, 2)
