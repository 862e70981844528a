"""The interface of the three bibliographic databases, so a Run treats PubMed, Semantic Scholar and
OpenAlex alike: `SearchClient` (search, count, fetch) and what a search returns (`SearchOutcome`).

A query plan records, per source, the query text and the service-specific parameters it chose
(`agent.models.SourceQuery.params`: PubMed's `sort`, Semantic Scholar's `fieldsOfStudy`, OpenAlex's
`search=`/`filter=`); each client reads its own parameters, so the caller needs no per-source code.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agent.models import Paper


@dataclass(frozen=True)
class PageProgress:
    """Reported after each page a search fetches: enough for a progress bar."""

    service: str
    page: int
    fetched: int
    total: int | None
    # The page's papers, in source order, and the source rank of the first: consumers that can start
    # work early (the Run's ranking embeds likely candidates while other pages are still on the way).
    papers: tuple[Paper, ...] = field(default=(), compare=False, repr=False)
    first_rank: int = field(default=1, compare=False, repr=False)


PageCallback = Callable[[PageProgress], Awaitable[None] | None]


THREAD_PAGE = 100  # records from which a page is mapped in a worker thread


@dataclass
class SearchOutcome:
    """One search of one source: the papers in source rank order plus what the source said about it."""

    service: str
    query: str
    total: int | None
    papers: list[Paper] = field(default_factory=list)
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
    translation: str | None = None  # how the service read the query (PubMed's QueryTranslation)

    async def add_page(
        self,
        records: list[Any],
        to_paper: Callable[..., Paper],
        *,
        limit: int,
        total: Any,
        on_page: PageCallback | None,
    ) -> None:
        """Append one page of sequentially paged `records` (mapped by `to_paper(record, rank=...)`, up
        to `limit` papers in all), note the service's `total` if it is the first, and report the page."""
        self.pages += 1
        if self.total is None and isinstance(total, int):
            self.total = total
        first = len(self.papers)
        page = records[: limit - first]

        def mapped() -> list[Paper]:
            return [to_paper(record, rank=first + offset) for offset, record in enumerate(page, start=1)]

        # a big page (Semantic Scholar's bulk search: 1,000) is tens of ms of pure Python: in a worker
        # thread it does not hold up the event loop, whose timers start other sources' requests
        self.papers.extend(await asyncio.to_thread(mapped) if len(page) >= THREAD_PAGE else mapped())
        progress = PageProgress(
            self.service, self.pages, len(self.papers), self.total, tuple(self.papers[first:]), first + 1
        )
        await report(on_page, progress)


class SearchClient(ABC):
    """One bibliographic database as a Run sees it.

    `params` are the query plan's service-specific parameters for this source (see the module
    docstring); a client ignores the ones it does not know. Errors are `tools.errors` types.
    """

    service: str

    @abstractmethod
    async def search(
        self,
        query: str,
        *,
        limit: int,
        on_page: PageCallback | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> SearchOutcome:
        """Up to `limit` records for `query`, in the source's order, ranked 1..N; `on_page` hears each page."""

    @abstractmethod
    async def count(self, query: str, *, params: Mapping[str, Any] | None = None) -> int:
        """How many records the source holds for `query` (answers may come from the response cache)."""

    @abstractmethod
    async def fetch(self, ids: Sequence[str]) -> list[Paper]:
        """The records of the source's own ids (PMIDs, S2 ids or DOIs, OpenAlex W ids), in the order
        given; ids the source does not know are absent."""


async def report(callback: PageCallback | None, progress: PageProgress) -> None:
    """Call a progress callback that may be sync or async."""
    if callback is None:
        return
    result = callback(progress)
    if isinstance(result, Awaitable):
        await result
