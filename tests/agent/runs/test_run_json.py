"""A Run's record lists as JSON: one per line, the same bytes whether or not parts were prepared ahead."""

from __future__ import annotations

import json

from agent.models import AggregatedPaper, Author, Paper, ScoreBreakdown, Source, SourceEvidence
from agent.runs.run_json import _DUMP_SLICE, PreparedJson, dump_aggregated, dump_models


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


def test_merged_papers_field_order_is_what_the_splicing_relies_on() -> None:
    assert list(AggregatedPaper.model_fields)[:5] == ["key", "paper", "evidence", "field_sources", "score"]


def test_merged_papers_with_evidence_prepared_ahead_are_the_same_bytes() -> None:
    aggregated = merged(records())
    aggregated[3].field_sources = {"title": Source.PUBMED}
    prepared = PreparedJson()
    prepared.prepare(item.paper for item in aggregated)
    prepared.prepare_evidence(aggregated[:4])  # #4 has only its paper prepared
    # a later merge's copy of an unchanged component: new list and dict, the same evidence objects
    aggregated[1] = aggregated[1].model_copy(
        update={"evidence": list(aggregated[1].evidence), "field_sources": dict(aggregated[1].field_sources)}
    )
    assert prepared.get_evidence(aggregated[1]) is not None
    data = dump_aggregated(aggregated, prepared)
    assert data == plain(aggregated)
    assert [AggregatedPaper.model_validate(item) for item in json.loads(data)] == aggregated


def test_prepared_evidence_is_not_used_once_the_origins_or_the_evidence_differ() -> None:
    aggregated = merged(records())
    prepared = PreparedJson()
    prepared.prepare(item.paper for item in aggregated)
    prepared.prepare_evidence(aggregated)
    aggregated[0].field_sources = {"abstract": Source.OPENALEX}
    aggregated[1].evidence.append(SourceEvidence(source=Source.OPENALEX, source_id="W1", rank=7))
    assert prepared.get_evidence(aggregated[0]) is None and prepared.get_evidence(aggregated[1]) is None
    assert prepared.get_evidence(aggregated[2]) is not None
    assert dump_aggregated(aggregated, prepared) == plain(aggregated)


def test_long_lists_are_serialized_in_slices_with_the_same_bytes() -> None:
    papers = [
        Paper(source=Source.OPENALEX, source_rank=i + 1, title=f'Work {i} "}},{{"source": x', doi=f"10.1/{i}")
        for i in range(2 * _DUMP_SLICE + 7)
    ]
    data = dump_models(papers)
    assert data == plain(papers)
    assert len(data.splitlines()) == len(papers) + 2
