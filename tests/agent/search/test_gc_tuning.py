"""Collector thresholds during bulk work, and the housekeeping that frees a Run's records after it."""

from __future__ import annotations

import gc
import threading
import weakref

from agent.search.gc_tuning import BULK_THRESHOLDS, relaxed_gc, wait_for_housekeeping


class Record:  # weak-referenceable, like the pydantic models a Run holds
    pass


def test_thresholds_are_raised_inside_and_restored_after_the_last_block() -> None:
    before = gc.get_threshold()
    with relaxed_gc():
        assert gc.get_threshold() == BULK_THRESHOLDS
        with relaxed_gc():  # a second Run at the same time
            assert gc.get_threshold() == BULK_THRESHOLDS
        assert wait_for_housekeeping(10)
        assert gc.get_threshold() == BULK_THRESHOLDS  # the first Run is still at work
    assert wait_for_housekeeping(10)
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
    assert wait_for_housekeeping(10)
    assert witness() is None and freed_in == ["run-housekeeping"]


def test_an_exception_in_the_block_still_restores_the_thresholds() -> None:
    before = gc.get_threshold()
    try:
        with relaxed_gc():
            raise ValueError("the Run failed")
    except ValueError:
        pass
    assert wait_for_housekeeping(10)
    assert gc.get_threshold() == before
