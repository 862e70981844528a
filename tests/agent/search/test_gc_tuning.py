"""Collector thresholds during bulk work, and the housekeeping that frees a Run's records after it."""

from __future__ import annotations

import gc
import threading
import weakref

from agent.models import Affiliation, Author, MeshHeading, Paper, Source
from agent.search.gc_tuning import BULK_THRESHOLDS, SharedStrings, relaxed_gc, wait_for_housekeeping

# seconds to wait for the housekeeping threads: a full collection of the whole suite's heap on a loaded
# machine has taken more than 10 s; a thread that never ends still fails the test
PATIENCE = 60


class Record:  # weak-referenceable, like the pydantic models a Run holds
    pass


def test_thresholds_are_raised_inside_and_restored_after_the_last_block() -> None:
    before = gc.get_threshold()
    with relaxed_gc():
        assert gc.get_threshold() == BULK_THRESHOLDS
        with relaxed_gc():  # a second Run at the same time
            assert gc.get_threshold() == BULK_THRESHOLDS
        assert wait_for_housekeeping(PATIENCE)
        assert gc.get_threshold() == BULK_THRESHOLDS  # the first Run is still at work
    assert wait_for_housekeeping(PATIENCE)
    assert gc.get_threshold() == before


def test_released_records_are_freed_after_the_block_off_the_callers_thread() -> None:
    freed_in: list[str] = []
    results = {"pubmed": [Record() for _ in range(1000)], "openalex": [Record()]}
    probe = results["pubmed"][0]
    witness = weakref.ref(probe, lambda _: freed_in.append(threading.current_thread().name))
    del probe
    aggregated = [results["openalex"][0]]
    with relaxed_gc() as housekeeping:
        housekeeping.release(results, aggregated)
        assert results == {} and aggregated == []  # emptied at once
    assert wait_for_housekeeping(PATIENCE)
    assert witness() is None and freed_in == ["run-housekeeping"]


def test_an_exception_in_the_block_still_restores_the_thresholds() -> None:
    before = gc.get_threshold()
    try:
        with relaxed_gc():
            raise ValueError("the Run failed")
    except ValueError:
        pass
    assert wait_for_housekeeping(PATIENCE)
    assert gc.get_threshold() == before


def test_shared_strings_keep_one_copy_of_repeated_texts_and_parts_and_change_no_value() -> None:
    def paper(source: Source, rank: int) -> Paper:
        # texts built at run time, as a parser builds them: equal strings that are distinct objects
        return Paper(
            title="".join(["Closed-loop ", "stimulation"]),
            abstract="".join(["An abstract ", "shared by two sources."]),
            authors=[
                Author(
                    name="".join(["Ada ", "Lovelace"]),
                    affiliations=[Affiliation(raw="".join(["Dept. ", "X"]), country_code="GB")],
                )
            ],
            mesh_headings=[
                MeshHeading(descriptor="".join(["Hu", "mans"]), qualifiers=["".join(["th", "erapy"])])
            ],
            keywords=["".join(["deep ", "brain"])],
            source=source,
            source_rank=rank,
        )

    first, second = paper(Source.PUBMED, 1), paper(Source.OPENALEX, 1)
    before = [first.model_dump_json(), second.model_dump_json()]
    assert first.title is not second.title
    SharedStrings().share([first, second])
    assert [first.model_dump_json(), second.model_dump_json()] == before
    assert first.title is second.title and first.abstract is second.abstract
    assert first.keywords[0] is second.keywords[0]
    assert first.authors[0].name is second.authors[0].name
    assert first.authors[0] is not second.authors[0]  # an author holds parts of its own: never shared
    assert first.authors[0].affiliations[0] is second.authors[0].affiliations[0]
    assert first.mesh_headings[0] is second.mesh_headings[0]


def test_shared_strings_do_not_share_parts_that_differ_in_the_fields_given() -> None:
    given = Paper(authors=[Author(name="A", affiliations=[Affiliation(raw="X", city=None)])])
    default = Paper(authors=[Author(name="B", affiliations=[Affiliation(raw="X")])])
    SharedStrings().share([given, default])
    assert given.authors[0].affiliations[0] is not default.authors[0].affiliations[0]
    assert given.authors[0].affiliations[0].model_fields_set == {"raw", "city"}
