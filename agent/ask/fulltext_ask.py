"""Full text for one question, from the conversation or the API: plan, fetch, cache, re-index, log.

`prepare_fulltext` runs before an answer (the graph's ask node, for every client): it plans the tiers
(`agent.ask.fulltext_plan`), fetches what is missing through the tiered fetcher (`agent.ask.fulltext`: Europe PMC
JATS, the Unpaywall open PDF, else the abstract), keeps every fetched text in a per-paper cache under
the data folder (so a later question, or a re-index, does not fetch it again), and re-indexes the Run
with all of its cached full texts when something new arrived. Every fallback is a warning; nothing
here fails a question: a source that is down leaves the abstracts in place. `prefetch_fulltext` is the
ask node's other way in (`scholarmap ask --fulltext`): the Run's best papers in full, whatever is asked.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from agent.ask.fulltext import FullTextOutcome, FullTextTier, fetch_fulltext
from agent.ask.fulltext_plan import FulltextPlan, fulltext_log, plan_fulltext, within_budget
from agent.ask.knowledge import index_run
from agent.models import AggregatedPaper
from tools.pdftext import PdfFetcher
from tools.retrieval.types import FullTextSection
from tools.zotero import ZoteroClient, ZoteroError, ZoteroLibrary

log = logging.getLogger(__name__)

SEARCH_DEPTH = 8  # papers of the first retrieval the plan chooses from


class CachedFulltext(BaseModel):
    paper_key: str
    tier: str
    blocks: list[FullTextSection] = Field(default_factory=list)
    source: str = ""


class FulltextReport(BaseModel):
    """What one question's full-text step did; `log` is the 002 §7 log, `warnings` the fallbacks."""

    plan: FulltextPlan
    fetched: list[str] = Field(default_factory=list)  # keys fetched now
    cached: list[str] = Field(default_factory=list)  # keys whose full text was already there
    deferred: list[str] = Field(default_factory=list)  # optional ones over the budget
    reindexed: bool = False
    used_chars: int = 0
    warnings: list[str] = Field(default_factory=list)
    log: list[str] = Field(default_factory=list)


class FulltextCache:
    """Fetched full texts by paper key, one JSON file each (`<data>/fulltext/<hash>.json`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, key: str) -> Path:
        return self.folder / f"{hashlib.sha1(key.encode()).hexdigest()[:20]}.json"

    def get(self, key: str) -> CachedFulltext | None:
        path = self._path(key)
        try:
            entry = CachedFulltext.model_validate_json(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValidationError, ValueError) as exc:
            log.warning("[fulltext] cached full text of %s unreadable (%s); fetching again", key, exc)
            return None
        return entry if entry.paper_key == key else None

    def put(self, entry: CachedFulltext) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(entry.paper_key)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(entry.model_dump_json(), encoding="utf-8")
        tmp.replace(path)  # a crash mid-write never leaves half a file under the real name

    def blocks_for(self, papers: Sequence[AggregatedPaper]) -> dict[str, list[FullTextSection]]:
        out: dict[str, list[FullTextSection]] = {}
        for paper in papers:
            entry = self.get(paper.key)
            if entry is not None and entry.blocks:
                out[paper.key] = entry.blocks
        return out


def _status(outcome: FullTextOutcome | None, entry: CachedFulltext | None) -> str:
    if entry is not None and entry.blocks:
        return f"✓ ({entry.source or entry.tier})"
    if outcome is None:
        return "⚠ (not fetched)"
    why = outcome.notes[-1] if outcome.notes else "no open full text"
    return f"⚠ ({why}; fell back to the abstract)"


def _source_of(outcome: FullTextOutcome) -> str:
    if outcome.tier == FullTextTier.PMC:
        return f"Europe PMC {outcome.pmcid}"
    if outcome.tier == FullTextTier.ZOTERO:
        return outcome.notes[-1] if outcome.notes else "Zotero"
    if outcome.tier == FullTextTier.PDF:
        return f"open PDF {outcome.pdf_url}"
    return outcome.tier.value


async def prepare_fulltext(
    question: str,
    run_id: str,
    *,
    engine: Any,
    store: Any,
    cache: FulltextCache,
    europepmc: Any,
    unpaywall: Any,
    pdf_fetcher: Any = None,
    zotero: Any = None,
    budget_chars: int,
    data: Any = None,
    notes: Sequence[str] = (),
) -> FulltextReport:
    """Make the full texts this question needs part of the Run's index; see the module docstring."""
    data = data if data is not None else store.load_run(run_id)
    papers: list[AggregatedPaper] = list(data.aggregated)
    retrieved: list[str] = []
    if await engine.run_has_index(run_id):
        result = await engine.search(run_id, question, top_k=SEARCH_DEPTH, rerank=False)
        retrieved = [hit.paper_key for hit in result.hits]
    plan = plan_fulltext(question, papers, retrieved, budget_chars=budget_chars)
    report = FulltextReport(plan=plan, warnings=list(notes))
    wanted = plan.wanted
    by_key = {paper.key: paper for paper in papers}
    have = {key: cache.get(key) for key in wanted}
    missing = [by_key[key] for key in wanted if key in by_key and have[key] is None]
    report.cached = [key for key, entry in have.items() if entry is not None and entry.blocks]
    outcomes: dict[str, FullTextOutcome] = {}
    if missing and (europepmc is not None or unpaywall is not None or zotero is not None):
        fetched = await fetch_fulltext(
            missing,
            europepmc=europepmc,
            unpaywall=unpaywall,
            pdf_fetcher=pdf_fetcher,
            zotero=zotero,
            limit=None,
            required=[p.key for p in missing],
        )
        outcomes = dict(fetched.outcomes)
        for paper in missing:
            outcome = outcomes.get(paper.key)
            blocks = fetched.get(paper.key, [])
            entry = CachedFulltext(
                paper_key=paper.key,
                tier=outcome.tier.value if outcome else FullTextTier.ABSTRACT.value,
                blocks=blocks,
                source=_source_of(outcome) if outcome and blocks else "",
            )
            if blocks:  # an abstract-only outcome is not cached: a later question may find an open copy
                cache.put(entry)
                report.fetched.append(paper.key)
            have[paper.key] = entry
    elif missing:
        report.warnings.append("no full-text source is configured; the abstracts are used")

    sizes = {key: sum(len(b.text) for b in entry.blocks) for key, entry in have.items() if entry is not None}
    kept, report.deferred = within_budget(plan, sizes)
    report.used_chars = sum(sizes.get(key, 0) for key in [*plan.required, *kept])
    status = {key: _status(outcomes.get(key), have.get(key)) for key in wanted}
    for key in wanted:
        if not status[key].startswith("✓"):
            outcome = outcomes.get(key)
            why = "; ".join(outcome.notes) if outcome is not None and outcome.notes else "not fetched"
            report.warnings.append(
                f"{key} ({plan.reasons.get(key, '')}): no full text ({why}); its abstract is used"
            )
    if report.fetched:
        fulltext = cache.blocks_for(papers)
        for key in report.deferred:  # fetched now but over the budget: indexed when a question has room
            if key in report.fetched:
                fulltext.pop(key, None)
        await index_run(engine, store, run_id, data=data, fulltext=fulltext)
        report.reindexed = True
    report.log = fulltext_log(plan, status, deferred=report.deferred, used_chars=report.used_chars)
    for line in report.log:
        log.info("%s", line)
    return report


def report_json(report: FulltextReport) -> dict[str, Any]:
    return json.loads(report.model_dump_json())


def fallback_note(report: FulltextReport) -> str:
    """One line for the end of an answer when full text was wanted and not had (details in the log)."""
    if not report.warnings:
        return ""
    fell_back = [w for w in report.warnings if w.endswith("its abstract is used")]
    parts = [w for w in report.warnings if w not in fell_back]
    if fell_back:
        parts.insert(
            0,
            f"{len(fell_back)} of the papers this question needed in full had no open full text, "
            "so their abstracts were used",
        )
    return "\n\n(Full text: " + "; ".join(parts) + ".)"


def fulltext_cache(settings: Any) -> FulltextCache:
    """The full texts fetched for this data folder's Runs."""
    return FulltextCache(settings.data_dir / "fulltext")


def zotero_client(settings: Any, http: Any) -> ZoteroClient | None:
    """The user's Zotero library when one is configured (Web API or the desktop app's local API).

    Raises ZoteroError for a malformed `zotero_library` setting."""
    if http is None or not (settings.zotero_local or settings.zotero_library):
        return None
    if settings.zotero_local:
        return ZoteroClient.local_api(http)
    key = settings.zotero_api_key.get_secret_value() if settings.zotero_api_key else None
    return ZoteroClient(
        http,
        library=ZoteroLibrary.parse(settings.zotero_library),
        api_key=key,
        base_url=settings.zotero_base_url,
    )


@dataclass
class FulltextClients:
    """The full-text sources of the tiers, built from Settings over the session's shared HTTP client."""

    europepmc: Any = None
    unpaywall: Any = None
    pdf_fetcher: PdfFetcher | None = None
    zotero: ZoteroClient | None = None
    notes: list[str] = field(default_factory=list)  # what could not be used, and why


def fulltext_clients(settings: Any, sources: Any) -> FulltextClients:
    """Europe PMC, Unpaywall, the PDF reader and Zotero from `agent.search.sources.SourceClients`; a
    malformed Zotero setting is a note, and the other sources still serve."""
    http = getattr(sources, "http", None)
    clients = FulltextClients(
        europepmc=getattr(sources, "europepmc", None),
        unpaywall=getattr(sources, "unpaywall", None),
        pdf_fetcher=PdfFetcher(http, max_bytes=int(settings.fulltext_max_pdf_mb * 2**20)) if http else None,
    )
    try:
        clients.zotero = zotero_client(settings, http)
    except ZoteroError as exc:
        clients.notes.append(f"Zotero is not used: {exc}")
    return clients


async def question_fulltext(
    question: str, run_id: str, *, engine: Any, store: Any, settings: Any, sources: Any
) -> FulltextReport:
    """The 002 tiers for one question: named papers and Methods/Results evidence in full text."""
    clients = fulltext_clients(settings, sources)
    return await prepare_fulltext(
        question,
        run_id,
        engine=engine,
        store=store,
        cache=fulltext_cache(settings),
        europepmc=clients.europepmc,
        unpaywall=clients.unpaywall,
        pdf_fetcher=clients.pdf_fetcher,
        zotero=clients.zotero,
        budget_chars=settings.fulltext_budget_chars,
        notes=clients.notes,
    )


@dataclass
class PrefetchReport:
    """What `prefetch_fulltext` fetched, and the lines a person waiting for it is shown."""

    blocks: dict[str, list[FullTextSection]]  # by paper key: the papers that got text
    summary: str  # "full text: N from PMC, ..."
    notes: list[str] = field(default_factory=list)  # full-text sources that could not be used, and why
    links: list[tuple[str, str]] = field(default_factory=list)  # (paper key, URL): open copies not parsed


async def prefetch_fulltext(
    papers: Sequence[AggregatedPaper], *, settings: Any, sources: Any, limit: int, cache: FulltextCache
) -> PrefetchReport:
    """Full texts of a Run's first `limit` papers by rank, fetched now and kept in the cache.

    The ask node's `fulltext_papers` option (`scholarmap ask --fulltext`): unlike `question_fulltext`,
    which picks the papers one question needs, this fetches the best papers whatever is asked.
    """
    clients = fulltext_clients(settings, sources)
    fetched = await fetch_fulltext(
        papers,
        europepmc=clients.europepmc,
        unpaywall=clients.unpaywall,
        pdf_fetcher=clients.pdf_fetcher,
        zotero=clients.zotero,
        limit=limit,
        concurrency=min(4, settings.http_concurrency),
    )
    for key, blocks in fetched.items():  # kept for later questions and re-indexing
        cache.put(CachedFulltext(paper_key=key, tier=fetched.outcomes[key].tier.value, blocks=blocks))
    return PrefetchReport(
        blocks=dict(fetched),
        summary=fetched.summary(),
        notes=list(clients.notes),
        links=[
            (outcome.paper_key, outcome.pdf_url or outcome.oa_url)
            for outcome in fetched.outcomes.values()
            if outcome.oa_url
        ],
    )
