"""What every searchable source client returns, so the executor can treat them alike."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
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


async def report(callback: PageCallback | None, progress: PageProgress) -> None:
    """Call a progress callback that may be sync or async."""
    if callback is None:
        return
    result = callback(progress)
    if isinstance(result, Awaitable):
        await result
