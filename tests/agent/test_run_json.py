"""A Run's record lists as JSON: one per line, the same bytes whether or not parts were prepared ahead."""

from __future__ import annotations

import json

from agent.models import AggregatedPaper, Author, Paper, ScoreBreakdown, Source, SourceEvidence
from agent.run_json import PreparedJson, dump_aggregated, dump_models


def plain(items: list) -> bytes:
    return ("[\n" + ",\n".join(item.model_dump_json() for item in items) + "\n]\n").encode()


def records() -> list[Paper]:
    return [
        Paper(
            source=Source.PUBMED,
            source_rank=i + 1,
            title=f'Paper {i} with "quotes", ünïcode and }},{{"key": inside',
            doi=f"10.1/{i}",
            authors=[Author(name="Ada Lovelace")],
        )
        for i in range(5)
    ]


def merged(papers: list[Paper]) -> list[AggregatedPaper]:
    return [
        AggregatedPaper(
            key=f'doi:10.1/{i}"odd,"evidence":key' if i == 2 else f"doi:10.1/{i}",
            paper=paper.model_copy(update={"source": None, "source_rank": None}),
            evidence=[SourceEvidence(source=Source.PUBMED, source_id=str(i), rank=i + 1)],
            score=ScoreBreakdown(rrf=0.5, total=0.2),
            rank=i + 1,
            merged_by=["doi"],
        )
        for i, paper in enumerate(papers)
    ]


def test_records_prepared_ahead_are_written_as_serialized_then_and_the_rest_now() -> None:
    papers = records()
    prepared = PreparedJson()
    prepared.prepare(papers[:3])
    data = dump_models(papers, prepared)
    assert data == dump_models(papers) == plain(papers)
    assert len(json.loads(data)) == 5 and len(data.splitlines()) == 7


def test_a_record_whose_rank_changed_after_it_was_prepared_is_serialized_again() -> None:
    papers = records()
    prepared = PreparedJson()
    prepared.prepare(papers)
    papers[0].source_rank = 9  # renumbered after de-duplication
    assert prepared.get(papers[0]) is None and prepared.get(papers[1]) is not None
    assert json.loads(dump_models(papers, prepared))[0]["source_rank"] == 9


def test_merged_papers_with_their_paper_prepared_ahead_are_the_same_bytes() -> None:
    aggregated = merged(records())
    prepared = PreparedJson()
    prepared.prepare(item.paper for item in aggregated[1:4])  # the key of #2 holds ',"evidence":'
    data = dump_aggregated(aggregated, prepared)
    assert data == plain(aggregated) == dump_aggregated(aggregated)
    assert [AggregatedPaper.model_validate(item) for item in json.loads(data)] == aggregated
