"""Merge ahead: while a Run's last source still pages, merge what the others found, so the final merge
only redoes the part the late pages change.

A Run usually waits on one slow source (PubMed's 3 requests a second) long after the others have
answered. In that wait `MergeAhead` merges the records known so far in a worker thread into a shared
`agent.merge.MergeMemo`: once when a single source is left, and again when that source's next page is
its last. The final merge, on the complete lists, reuses every record's join keys, title scores and
every component the last page did not touch (on the 3 × 1,000-record benchmark, 1,406 of 1,606). The
memo holds only pure functions of the records, so the final merge is the same as a merge from scratch;
a merge ahead that fails costs only its own work (it is logged).

Merging after every page would keep the memo fresher, but the pages in between change little that the
second merge does not redo anyway, and the CPU is not idle then: the prefetch of embeddings
(agent/similarity.py) and the parsing of pages need it more.

The same thread serializes ahead what the Run will write after that last page (`prepared`, see
agent/run_json.py): the searching source's records, and the merged papers with their evidence, so that
only what the last page changed is serialized at the end.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence

from agent.merge import MergeAbandoned, MergeMemo, merge_papers
from agent.models import AggregatedPaper, Paper, Source
from agent.run_json import PreparedJson

log = logging.getLogger(__name__)


class MergeAhead:
    """Merges a Run's records ahead of time once all but one of its sources are done."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self.memo = MergeMemo()
        self.prepared = PreparedJson()
        self.merges = 0  # merges ahead completed (for logs and tests)
        self._searching = set(sources)
        self._pages: dict[Source, dict[int, tuple[Paper, ...]]] = {}
        self._finished: dict[Source, Sequence[Paper]] = {}
        self._next_is_last: set[Source] = set()
        self._asked: set[str] = set()  # which of the two merges ahead were asked for
        self._task: asyncio.Task[None] | None = None
        self._dirty = False
        self._stopped = False
        self._abandon = threading.Event()

    def page(self, source: Source, papers: Sequence[Paper], first_rank: int, *, remaining: int) -> None:
        """A page of a source still searching (`first_rank` places it; pages may arrive out of order).

        `remaining` is how many records the source has still to deliver: none after its last page, when
        the final merge follows at once (a merge ahead then would only compete with it).
        """
        if self._stopped:
            return
        self._pages.setdefault(source, {})[first_rank] = tuple(papers)
        if remaining <= 0:
            return
        if remaining <= len(papers):
            self._next_is_last.add(source)
        self._kick()

    def done(self, source: Source, papers: Sequence[Paper] | None) -> None:
        """A source finished with its final list, or failed (`None`: it adds nothing to the merge)."""
        self._searching.discard(source)
        self._pages.pop(source, None)
        if papers and not self._stopped:
            self._finished[source] = papers
        self._kick()

    def stop(self) -> None:
        """No more merges ahead; one under way finishes in its thread, its work still in the memo."""
        self._stopped = True
        self._abandon.set()
        self._pages.clear()  # the records are the Run's to free, not this helper's to keep alive
        self._finished.clear()
        if self._task is not None and not self._task.done():
            self._task.cancel()

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
        if self._stopped or len(self._searching) != 1:
            return
        next_is_last = bool(self._searching & self._next_is_last)
        if "first" not in self._asked:
            self._asked.add("first")
            if next_is_last:  # this one merge is also the one before the last page
                self._asked.add("before last")
        elif next_is_last and "before last" not in self._asked:
            self._asked.add("before last")
        else:
            return
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._merge_while_new_pages(), name="merge-ahead")

    async def _merge_while_new_pages(self) -> None:
        while self._dirty and not self._stopped:
            self._dirty = False
            known, searching = self._known(), frozenset(self._searching)  # read here, on the loop's thread
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
            if not self._abandon.is_set():
                self.prepared.prepare(known.get(source, ()))
        if not self._abandon.is_set():
            self.prepared.prepare(paper.paper for paper in merged)
        if not self._abandon.is_set():
            self.prepared.prepare_evidence(merged)

    def _known(self) -> dict[Source, list[Paper]]:
        known = {source: list(papers) for source, papers in self._finished.items()}
        for source, pages in self._pages.items():
            known[source] = [paper for first in sorted(pages) for paper in pages[first]]
        return known
