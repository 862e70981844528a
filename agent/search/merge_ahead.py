"""Merge ahead: while a Run's last source still pages, merge what the others found, so the final merge
only redoes the part the late pages change.

A Run usually waits on one slow source (PubMed's 3 requests a second) long after the others have
answered. In that wait `MergeAhead` merges the records known so far in a worker thread into a shared
`agent.search.merge.MergeMemo`: once when a single source is left with at most `PAGES_AHEAD` pages to come,
and again, cheaply, from the same memo, when its next page is its last. The final merge, on the
complete lists, then reuses every record's join keys and title scores and every component the last
page did not touch. The memo holds only pure functions of the records, so the final merge is the same
as a merge from scratch; a merge ahead that fails costs only its own work (it is logged).

Why not after every page: each merge walks every record again, and the CPU is not idle while pages
arrive: the prefetch of embeddings (agent/search/similarity.py) and the parsing of pages need it. On the
3 × 1,000-record benchmark, merging after pages 1 and 4 of 5 costs 0.36 s for a 0.07 s final merge;
after pages 3 and 4, 0.19 s for 0.06 s. Starting two pages ahead leaves the first, longer merge two
request intervals to finish in; the second runs only if the first is done.

The same thread serializes ahead what the Run will write after that last page (`prepared`, see
agent/runs/run_json.py): the searching source's records, and the merged papers with their evidence; a page
that arrives while nothing is merged for it has its records serialized on their own, so that only the
last page and the components it changed are serialized at the end.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence

from agent.models import AggregatedPaper, Paper, Source
from agent.runs.run_json import PreparedJson
from agent.search.merge import MergeAbandoned, MergeMemo, merge_papers

log = logging.getLogger(__name__)


PAGES_AHEAD = 2  # merge ahead when the last source has at most this many pages still to come


class MergeAhead:
    """Merges a Run's records ahead of time, near the end of its last source's paging."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self.memo = MergeMemo()
        self.prepared = PreparedJson()
        self.merges = 0  # merges ahead completed (for logs and tests)
        self._searching = set(sources)
        self._pages: dict[Source, dict[int, tuple[Paper, ...]]] = {}
        self._finished: dict[Source, Sequence[Paper]] = {}
        self._near_end: set[Source] = set()  # sources with at most PAGES_AHEAD pages to come
        self._next_is_last: set[Source] = set()
        self._task: asyncio.Task[None] | None = None
        self._jobs: set[asyncio.Task[None]] = set()  # pages serialized after the merge ahead began
        self._stopped = False
        self._abandon = threading.Event()

    def page(self, source: Source, papers: Sequence[Paper], first_rank: int, *, remaining: int) -> None:
        """A page of a source still searching (`first_rank` places it; pages may arrive out of order).

        `remaining` is how many records the source has still to deliver: none after its last page, when
        the final merge follows at once (work ahead then would only compete with it).
        """
        if self._stopped:
            return
        self._pages.setdefault(source, {})[first_rank] = tuple(papers)
        if remaining <= 0:
            return
        if remaining <= PAGES_AHEAD * len(papers):
            self._near_end.add(source)
        if remaining <= len(papers):
            self._next_is_last.add(source)
        if self._task is None:
            self._kick()
        elif (
            self._task.done()
            and self.merges == 1
            and source in self._next_is_last
            and self._searching == {source}
        ):
            self._start_merge()  # the second merge: before the last page, from the first one's memo
        else:  # merged (or merging) without this page: serialize it on its own
            job = asyncio.create_task(asyncio.to_thread(self._prepare, papers), name="prepare-page")
            self._jobs.add(job)
            job.add_done_callback(self._jobs.discard)

    @property
    def searching(self) -> frozenset[Source]:
        """The sources that have not finished (nor failed) yet."""
        return frozenset(self._searching)

    def done(self, source: Source, papers: Sequence[Paper] | None) -> None:
        """A source finished with its final list, or failed (`None`: it adds nothing to the merge)."""
        self._searching.discard(source)
        self._pages.pop(source, None)
        if papers and not self._stopped:
            self._finished[source] = papers
        self._kick()

    def stop(self) -> None:
        """No more work ahead; a merge under way finishes in its thread, its work still in the memo."""
        self._stopped = True
        self._abandon.set()
        self._pages.clear()  # the records are the Run's to free, not this helper's to keep alive
        self._finished.clear()
        for task in (self._task, *self._jobs):
            if task is not None and not task.done():
                task.cancel()

    async def merge(self, results: dict[Source, list[Paper]]) -> list[AggregatedPaper]:
        """The final merge of the complete lists, reusing the work done ahead."""
        self.stop()
        merged = await asyncio.to_thread(merge_papers, results, memo=self.memo)
        log.info(
            "merge: %d of %d papers reused from %d merges ahead", self.memo.reused, len(merged), self.merges
        )
        return merged

    def _kick(self) -> None:
        # Only the wait on a last source is worth using: while two or more still search, their later
        # pages would change most components, and the merge would compete with parsing them.
        if self._stopped or self._task is not None or len(self._searching) != 1:
            return
        if not self._searching & self._near_end:
            return
        self._start_merge()

    def _start_merge(self) -> None:
        # read here, on the loop's thread: the worker must not see the sets change under it
        known, searching = self._known(), frozenset(self._searching)
        self._task = asyncio.create_task(self._merge_ahead(known, searching), name="merge-ahead")

    async def _merge_ahead(self, known: dict[Source, list[Paper]], searching: frozenset[Source]) -> None:
        try:
            await asyncio.to_thread(self._merge_and_prepare, known, searching)
        except MergeAbandoned:
            return
        except Exception:  # only a head start is lost; the final merge does the work itself
            log.warning("merging ahead failed; the final merge starts from scratch", exc_info=True)
            return
        self.merges += 1

    def _merge_and_prepare(self, known: dict[Source, list[Paper]], searching: frozenset[Source]) -> None:
        merged = merge_papers(known, memo=self.memo, abandon=self._abandon)
        for source in searching:
            self._prepare(known.get(source, ()))
        if not self._abandon.is_set():
            self.prepared.prepare(paper.paper for paper in merged)
        if not self._abandon.is_set():
            self.prepared.prepare_evidence(merged)

    def _prepare(self, records: Sequence[Paper]) -> None:
        if not self._abandon.is_set():
            self.prepared.prepare(records)

    def _known(self) -> dict[Source, list[Paper]]:
        known = {source: list(papers) for source, papers in self._finished.items()}
        for source, pages in self._pages.items():
            known[source] = [paper for first in sorted(pages) for paper in pages[first]]
        return known
