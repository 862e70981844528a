"""Similarity of papers to the research goal: computed once per text, and ahead of time while a Run searches.

Embedding is the one expensive step of ranking (several ms per paper on a small CPU), and a Run spends
most of its search waiting on rate limits. So while pages arrive, `SimilarityPrefetch` guesses which
papers the ranking will embed and embeds them in a worker thread (ONNX Runtime and torch release the
GIL, so parsing and the event loop go on beside it). The ranking then asks `GoalSimilarity` for the
candidates it chose and embeds only the ones the guess missed. The prefetch stops at the search's last
page (the executor calls `finish`): an embedding on two threads beside the parsing of that page and the
final merge would slow all of them, and the ranking embeds the few misses right after, alone.

The guess is the ranking's own first stage (`agent.search.ranking.first_stage_priority`, passed in as a
`StagePriority`) applied to the records grouped by DOI (else PMID), scaled by what the Run has seen so
far (its sources, its most cited record). Year and citations follow the merge's rules (year by source
precedence, the largest citation count). The text it embeds mirrors the merge's
field rule (title by source precedence, the longest abstract), so a guessed paper's text is usually the
merged paper's text exactly; when it is not, the work is wasted, never wrong: similarity is a pure
function of the text, so a ranking does not depend on what happened to be prefetched.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

import numpy as np

from agent.models import Paper, Source
from agent.search.merge import PRECEDENCE, canonical_doi

log = logging.getLogger(__name__)

ABSTRACT_CHARS = 300  # SciFact nDCG@10 with MiniLM int8: 300 chars 0.755, 400 chars 0.756, 25% less work
PREFETCH_BATCH = (
    8  # one forward pass (tools.embeddings.sentence.ENCODE_BATCH): it ends soon after the last page
)


class Encoder(Protocol):
    def encode(self, texts: list[str]) -> np.ndarray: ...


class StagePriority(Protocol):
    """How likely a work is to be a semantic candidate: the ranking's first-stage total (higher first)."""

    def __call__(
        self,
        ranks: Mapping[Source, int],
        year: int | None,
        citation_count: int | None,
        sources: frozenset[Source],
        max_citations: int,
    ) -> float: ...


def embedding_text(title: str | None, abstract: str | None) -> str:
    """What the embedding of a paper reads: its title and the start of its abstract, whitespace collapsed.

    The title's trailing full stop is dropped (PubMed ends titles with one, other sources do not), so
    the same work reads the same whichever source supplied its title.
    """
    head = " ".join((title or "").split()).rstrip(". ")
    body = " ".join((abstract or "").split())[:ABSTRACT_CHARS].rstrip()
    return f"{head}. {body}" if body else head


def paper_text(paper: Paper) -> str:
    return embedding_text(paper.title, paper.abstract)


class GoalSimilarity:
    """Cosine similarity (clipped to [0, 1]) of texts to one goal, remembered by text. Thread-safe.

    Threads share the work: a text another thread is embedding is waited for, not embedded again, so
    the ranking can start on the texts the prefetch missed while the prefetch finishes its last batch.
    """

    def __init__(self, goal: str, encoder: Encoder, *, batch: int = 256) -> None:
        self.goal = goal.strip()
        self.encoder = encoder
        self.batch = batch
        self._goal_vector: np.ndarray | None = None
        self._known: dict[str, float] = {}
        self._pending: dict[str, threading.Event] = {}  # text -> set when its embedding is known (or failed)
        self._lock = threading.Lock()
        self.computed = 0  # texts embedded so far (for timings and tests)

    def known(self, text: str) -> bool:
        """Whether the text is embedded or being embedded (by any thread)."""
        with self._lock:
            return text in self._known or text in self._pending

    def compute(self, texts: Iterable[str]) -> None:
        """Embed the texts not seen yet (in batches of `batch`); wait for those another thread embeds."""
        if not self.goal:
            return
        wanted = list(dict.fromkeys(texts))
        while wanted:
            with self._lock:
                missing = [t for t in wanted if t not in self._known and t not in self._pending]
                elsewhere = {self._pending[t] for t in wanted if t in self._pending}
                done = threading.Event()
                self._pending.update((t, done) for t in missing)
            try:
                self._embed(missing)
            finally:
                with self._lock:
                    for text in missing:
                        self._pending.pop(text, None)
                done.set()
            if not elsewhere:
                return
            for event in elsewhere:
                event.wait()
            # what another thread failed to embed is neither known nor pending now: this one does it
            with self._lock:
                wanted = [t for t in wanted if t not in self._known]

    def _embed(self, texts: list[str]) -> None:
        if not texts:
            return
        goal = self._goal()
        for start in range(0, len(texts), self.batch):
            chunk = texts[start : start + self.batch]
            vectors = np.asarray(self.encoder.encode(chunk), dtype=np.float32)
            scores = np.clip(vectors @ goal, 0.0, 1.0)
            with self._lock:
                self._known.update(zip(chunk, (round(float(s), 6) for s in scores), strict=True))
                self.computed += len(chunk)

    def similarity(self, texts: Sequence[str]) -> np.ndarray:
        """Similarity of each text (0 for all when there is no goal), embedding the ones not known."""
        if not texts or not self.goal:
            return np.zeros(len(texts), dtype=np.float32)
        self.compute(texts)
        with self._lock:
            return np.array([self._known[t] for t in texts], dtype=np.float32)

    def _goal(self) -> np.ndarray:
        if self._goal_vector is None:
            self._goal_vector = np.asarray(self.encoder.encode([self.goal]), dtype=np.float32)[0]
        return self._goal_vector


class _Group:
    """The records of one work seen so far (grouped by DOI, else PMID): enough to guess its rank and text."""

    __slots__ = ("ranks", "papers", "priority")

    def __init__(self) -> None:
        self.ranks: dict[Source, int] = {}
        self.papers: dict[Source, Paper] = {}
        self.priority: float | None = None  # at the last ranking; None once a record was added since

    def add(self, source: Source, paper: Paper, rank: int) -> None:
        self.priority = None
        if rank < self.ranks.get(source, 10**9):
            self.ranks[source] = rank
            self.papers[source] = paper

    def _ordered(self) -> list[Paper]:
        return [self.papers[s] for s in PRECEDENCE if s in self.papers]

    def text(self) -> str:
        ordered = self._ordered()
        title = next((p.title for p in ordered if p.title), "")
        abstract = max(ordered, key=lambda p: len((p.abstract or "").strip())).abstract
        return embedding_text(title, abstract)

    def year(self) -> int | None:
        return next((p.year for p in self._ordered() if p.year), None)

    def citation_count(self) -> int:
        return max((p.citation_count or 0 for p in self.papers.values()), default=0)


class SimilarityPrefetch:
    """Embeds the papers a Run's ranking will most likely need while its sources are still searching.

    The event loop only hands pages in (`offer` queues them); grouping them, ranking the guesses and
    embedding happen in the worker thread of `run`, so none of it holds up the loop, whose timers start
    the sources' rate-limited requests. The groups belong to whichever thread takes `_lock`.
    """

    def __init__(self, priority: StagePriority, limit: int) -> None:
        self.priority = priority
        self.limit = limit  # how many papers the ranking embeds (its semantic_top_n)
        self._inbox: list[tuple[Source, Sequence[Paper], int]] = []  # pages not grouped yet
        self._inbox_lock = threading.Lock()
        self._lock = threading.Lock()  # the groups and the guesses below
        self._groups: dict[str, _Group] = {}
        self._sources: set[Source] = set()
        self._max_citations = 0
        self._ranked: list[_Group] | None = None  # the best `limit` groups, until a page changes them
        self._scale: tuple[frozenset[Source], int] | None = None  # what the cached priorities assumed
        self._attempted: set[str] = set()
        self._changed = asyncio.Event()
        self._done = False

    def offer(self, source: Source, papers: Sequence[Paper], first_rank: int) -> None:
        """Papers of one page as they arrive, in source order starting at `first_rank`."""
        if not papers:
            return
        with self._inbox_lock:
            self._inbox.append((source, papers, first_rank))
        self._changed.set()

    def finish(self) -> None:
        """The search is over: stop after the batch under way."""
        self._done = True
        self._changed.set()

    def clear(self) -> None:
        """Forget every record (the Run is ranked): the prefetch no longer keeps them alive."""
        self.finish()
        with self._inbox_lock:
            self._inbox.clear()
        with self._lock:
            self._groups.clear()
            self._ranked = None

    def next_batch(self, similarity: GoalSimilarity, size: int = PREFETCH_BATCH) -> list[str]:
        """The texts of the likeliest candidates not tried yet, best guess first."""
        with self._lock:
            self._group_new_pages()
            if self._ranked is None:  # sorted again only after new pages, not for every batch
                self._ranked = self._rank()
            batch: list[str] = []
            for group in self._ranked:
                text = group.text()
                if text in self._attempted or similarity.known(text):
                    continue
                batch.append(text)
                if len(batch) == size:
                    break
            self._attempted.update(batch)
            return batch

    def _group_new_pages(self) -> None:
        with self._inbox_lock:
            pages, self._inbox = self._inbox, []
        for source, papers, first_rank in pages:
            for offset, paper in enumerate(papers):
                key = _work_key(source, paper)
                group = self._groups.get(key)
                if group is None:
                    group = self._groups[key] = _Group()
                group.add(source, paper, paper.source_rank or first_rank + offset)
                self._max_citations = max(self._max_citations, paper.citation_count or 0)
            self._sources.add(source)
            self._ranked = None

    def _rank(self) -> list[_Group]:
        """The best `limit` groups. A group's priority is worked out again only when a record joined
        it or the Run's scale (sources, most citations) changed: late in a search that is the new
        page's works, not every work seen."""
        sources = frozenset(self._sources)
        scale = (sources, self._max_citations)
        everything = scale != self._scale
        self._scale = scale

        def priority(group: _Group) -> float:
            if everything or group.priority is None:
                group.priority = self.priority(
                    group.ranks, group.year(), group.citation_count(), sources, self._max_citations
                )
            return group.priority

        return sorted(self._groups.values(), key=priority, reverse=True)[: self.limit]

    def _guess_and_embed(self, similarity: GoalSimilarity) -> bool:
        """One step of `run`, in a worker thread: False when there was nothing left to embed."""
        batch = self.next_batch(similarity)
        if batch:
            similarity.compute(batch)
        return bool(batch)

    async def run(self, similarity: GoalSimilarity) -> None:
        """Embed guessed candidates in a worker thread until `finish()`; meant to run as a task."""
        while not self._done:
            self._changed.clear()  # before the step: a page offered during it wakes the wait below
            if not await asyncio.to_thread(self._guess_and_embed, similarity):
                await self._changed.wait()


def _work_key(source: Source, paper: Paper) -> str:
    doi = canonical_doi(paper.doi)
    if doi:
        return f"doi:{doi}"
    if paper.pmid:
        return f"pmid:{paper.pmid}"
    return f"{source.value}:{id(paper)}"
