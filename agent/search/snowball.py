"""Citation snowballing: follow the references and citations of a Run's best papers, and say when to stop.

A Boolean query finds what its words reach; reviewers who must not miss a study also follow citations.
After a Run's query results are merged and ranked, `snowball` takes seeds (the Run's top-ranked papers
plus papers the user names) and repeats rounds:

1. **Links**: backward references and forward citations of the round's seeds, from OpenAlex
   (`referenced_works` read through an id filter, `filter=cites:W1|W2|…`, 50 ids a request) and from
   Semantic Scholar (references through `/paper/batch` with `references.<field>`, 25 seeds a request;
   citations through `/paper/{id}/citations`, one request a seed, since the batch endpoint's citations
   are unreliable), read with a few fields only (ids, title, abstract, year, citations).
2. **Screen**: a candidate is relevant when its title and abstract mention at least `min_match` of the
   plan's concepts (a concept matches when any of its terms' canonical forms or kept synonyms occurs);
   papers already in the Run are screened on their Run record. Relevant new candidates are ordered by
   concepts matched, then by the ranking's own first stage (recency and citations), and fetched in full
   in batches (OpenAlex id filter, Semantic Scholar `/paper/batch`) as far as the budget allows.
3. **Saturation**: `new_share` = new relevant candidates / relevant candidates of the round. Papers
   that the citations of relevant papers keep pointing to are already known when the search has
   found its field; the snowball stops when the share falls below `threshold`, at `depth` rounds, or
   when the request budget is spent. The next round's seeds are the papers kept in this one.

Every request goes through the clients' shared HTTP policy (rate limits, retries); the budget counts
requests sent by this step (a retried request counts once). A source that fails mid-round is recorded
in the round's errors and the round completes with the other source. Found papers carry their path
(`CitationPath`) and are merged with the query results by the ordinary DOI/PMID/title merge
(`merge_with_snowball`), with no source rank.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.errors import InputError
from agent.models import (
    AggregatedPaper,
    CitationPath,
    ErrorKind,
    KeywordPlan,
    Paper,
    SnowballReport,
    SnowballRound,
    Source,
    SourceError,
    normalize_doi,
    normalize_pmid,
    normalize_title,
)
from agent.search.merge import merge_papers
from agent.search.ranking import RankingWeights, first_stage_priority
from tools import errors as source_errors
from tools.openalex import DEFAULT_SELECT, ID_BATCH
from tools.semantic_scholar import BATCH_SIZE, DEFAULT_FIELDS, REFERENCES_BATCH

if TYPE_CHECKING:
    from agent.search.sources import SourceClients
    from agent.settings import Settings

log = logging.getLogger(__name__)

MAX_DEPTH = 5
MAX_BUDGET = 5000
MAX_SEEDS = 100
MAX_NAMED = 50
CITING_PER_BATCH = 200  # forward citations read per batch of 50 OpenAlex seeds (one page)
SNOWBALL_SOURCES = (Source.OPENALEX, Source.SEMANTIC_SCHOLAR)
_S2_ID = re.compile(r"^[0-9a-f]{40}$", re.IGNORECASE)
_LOOKUPS: tuple[tuple[Literal["openalex", "doi", "pmid"], str], ...] = (
    ("openalex", "openalex_id"),
    ("doi", "doi"),
    ("pmid", "pmid"),
)
Relation = Literal["cites", "cited_by"]
_OPENALEX_ID = re.compile(r"^(?:https?://openalex\.org/)?(W\d+)$", re.IGNORECASE)


class SnowballConfigError(InputError):
    """Snowballing cannot start as asked; the message says what to fix."""


class SnowballOptions(BaseModel):
    """How far a Run's snowballing may go. Defaults come from the settings (`resolve_options`)."""

    model_config = ConfigDict(extra="forbid")

    depth: int = Field(2, ge=1, le=MAX_DEPTH, description="rounds of following citations")
    budget: int = Field(200, ge=1, le=MAX_BUDGET, description="requests to the sources, at most")
    threshold: float = Field(0.1, ge=0.0, le=1.0, description="stop when a round's new share is below")
    seeds: int = Field(10, ge=0, le=MAX_SEEDS, description="top-ranked papers of the Run used as seeds")
    named: list[str] = Field(default_factory=list, max_length=MAX_NAMED, description="ids the user names")
    min_match: float = Field(0.5, ge=0.0, le=1.0, description="share of the concepts a paper must mention")


def resolve_options(
    settings: Settings,
    *,
    depth: int | None = None,
    budget: int | None = None,
    seeds: int | None = None,
    named: Sequence[str] = (),
) -> SnowballOptions:
    """Options from the request and the settings; `SnowballConfigError` says which value is out of range."""
    values: dict[str, Any] = {
        "depth": settings.snowball_depth if depth is None else depth,
        "budget": settings.snowball_budget if budget is None else budget,
        "threshold": settings.snowball_saturation,
        "seeds": settings.snowball_seeds if seeds is None else seeds,
        "named": [n.strip() for n in named if n and n.strip()],
        "min_match": settings.snowball_min_match,
    }
    try:
        return SnowballOptions.model_validate(values)
    except ValidationError as exc:
        error = exc.errors()[0]
        name = ".".join(str(p) for p in error["loc"]) or "options"
        limits = {"depth": f"1-{MAX_DEPTH}", "budget": f"1-{MAX_BUDGET}", "seeds": f"0-{MAX_SEEDS}"}
        hint = f" (allowed: {limits[name]})" if name in limits else ""
        raise SnowballConfigError(
            f"snowball {name}: {error['msg'].lower()}{hint}, got {values.get(name)!r}"
        ) from None


# ----------------------------------------------------------------------------------------------
# what is known, and what is relevant
# ----------------------------------------------------------------------------------------------


@dataclass
class Node:
    """A paper whose citations are followed: a Run paper or a found one, with the ids the sources use."""

    label: str  # Run key, or the named id
    key: str | None = None
    doi: str | None = None
    pmid: str | None = None
    openalex_id: str | None = None
    s2_id: str | None = None

    @property
    def followable(self) -> bool:
        return bool(self.doi or self.pmid or self.openalex_id or self.s2_id)

    def s2_ref(self) -> str | None:
        if self.s2_id:
            return self.s2_id
        if self.doi:
            return f"DOI:{self.doi}"
        return f"PMID:{self.pmid}" if self.pmid else None


def node_of(paper: Paper, label: str, key: str | None = None) -> Node:
    return Node(
        label=label,
        key=key,
        doi=normalize_doi(paper.doi),
        pmid=paper.pmid,
        openalex_id=paper.openalex_id,
        s2_id=paper.semantic_scholar_id,
    )


def named_node(identifier: str) -> Node | None:
    """A seed the user names: a DOI, `pmid:…`/`PMID:…`, an OpenAlex work id or a Semantic Scholar id."""
    text = identifier.strip()
    prefix, sep, rest = text.partition(":")
    if sep and prefix.lower() == "pmid" and normalize_pmid(rest):
        return Node(label=text, pmid=normalize_pmid(rest))
    if doi := normalize_doi(text):
        return Node(label=text, doi=doi)
    if match := _OPENALEX_ID.match(text):
        return Node(label=text, openalex_id=match.group(1).upper())
    if _S2_ID.match(text):
        return Node(label=text, s2_id=text.lower())
    return None


class Known:
    """The papers a Run holds and the snowball has found, by every id and by title."""

    def __init__(self) -> None:
        self.by_id: dict[str, str] = {}
        self.papers: dict[str, Paper] = {}

    @staticmethod
    def ids(paper: Paper) -> list[str]:
        out = []
        if doi := normalize_doi(paper.doi):
            out.append(f"doi:{doi}")
        if paper.pmid:
            out.append(f"pmid:{paper.pmid}")
        if paper.openalex_id:
            out.append(f"oa:{paper.openalex_id.upper()}")
        if paper.semantic_scholar_id:
            out.append(f"s2:{paper.semantic_scholar_id.lower()}")
        if title := normalize_title(paper.title):
            out.append(f"title:{title}|{paper.year or ''}")
        return out

    def add(self, paper: Paper, key: str) -> None:
        for ident in self.ids(paper):
            self.by_id.setdefault(ident, key)
        self.papers.setdefault(key, paper)

    def find(self, paper: Paper) -> str | None:
        return next((self.by_id[i] for i in self.ids(paper) if i in self.by_id), None)

    def has_openalex(self, work_id: str) -> str | None:
        return self.by_id.get(f"oa:{work_id.upper()}")


def _phrases(texts: Iterable[str]) -> list[str]:
    out: set[str] = set()
    for text in texts:
        phrase = normalize_title(text)
        if len(phrase) < 2:
            continue
        out.add(phrase)
        # a plural or a singular of the last word: "interfaces" for "interface" and back
        out.add(phrase[:-1] if phrase.endswith("s") and len(phrase) > 3 else phrase + "s")
    return sorted(out)


class Screen:
    """Relevance to the confirmed concepts: the share of the plan's concepts a paper's text mentions."""

    def __init__(self, plan: KeywordPlan | None, min_match: float) -> None:
        groups: dict[str, list[str]] = {}
        for term in plan.terms if plan is not None else []:
            concept = getattr(term, "concept", "") or term.slot  # issue 16's concepts, else the slot
            texts = [term.canonical, *(s.text for s in term.kept_synonyms())]
            groups.setdefault(concept, []).extend(texts)
        self.groups = [_phrases(texts) for texts in groups.values()]
        self.min_match = min_match

    def score(self, paper: Paper) -> float:
        if not self.groups:
            return 1.0  # no plan to screen by: every candidate counts (noted in the report)
        text = " " + normalize_title(paper.title + " " + (paper.abstract or "")) + " "
        matched = sum(1 for group in self.groups if any(f" {p} " in text for p in group))
        return matched / len(self.groups)

    def relevant(self, paper: Paper) -> bool:
        return self.score(paper) >= self.min_match and self.score(paper) > 0


# ----------------------------------------------------------------------------------------------
# one round
# ----------------------------------------------------------------------------------------------


class Budget:
    """Requests this step may still send; a call reserves its most before it starts."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.spent = 0
        self.exhausted = False  # a request was refused for want of budget

    @property
    def left(self) -> int:
        return self.total - self.spent

    def take(self, requests: int) -> bool:
        if requests > self.left:
            self.exhausted = True
            return False
        self.spent += requests
        return True

    def refund(self, requests: int) -> None:
        self.spent -= requests


@dataclass
class Candidate:
    """A paper linked to the round's seeds, as each source showed it."""

    records: dict[Source, Paper] = field(default_factory=dict)
    paths: dict[Source, CitationPath] = field(default_factory=dict)

    @property
    def paper(self) -> Paper:
        return next(iter(self.records.values()))


@dataclass
class SnowballResult:
    """What snowballing found: full records per source, each with its path, and the report."""

    report: SnowballReport
    papers: dict[Source, list[Paper]] = field(default_factory=dict)
    paths: dict[tuple[Source, str], CitationPath] = field(default_factory=dict)
    # "snowball:N", the key a found paper has until the merge gives it its Run key -> one of its records
    placeholders: dict[str, tuple[Source, str]] = field(default_factory=dict)

    def finds(self) -> list[SnowballFind]:
        return [
            SnowballFind(source=source, via=self.paths[(source, paper.source_id() or "")], paper=paper)
            for source, papers in self.papers.items()
            for paper in papers
        ]


class SnowballFind(BaseModel):
    """One line of `results_snowball.json`: a record a source returned, and how it was reached."""

    model_config = ConfigDict(extra="forbid")

    source: Source
    via: CitationPath
    paper: Paper


EventCallback = Callable[[str], Awaitable[None] | None]


async def _say(callback: EventCallback | None, message: str) -> None:
    log.info("snowball: %s", message)
    if callback is None:
        return
    try:
        result = callback(message)
        if inspect.isawaitable(result):
            await result
    except Exception:  # a broken display must not sink the step
        log.exception("snowball progress callback failed")


def _error(source: Source, exc: BaseException) -> SourceError:
    if isinstance(exc, source_errors.ServiceCallError):
        return SourceError(source=source.value, kind=exc.kind, message=exc.message)
    log.error("snowball: %s failed unexpectedly", source.value, exc_info=exc)
    return SourceError(source=source.value, kind=ErrorKind.INTERNAL, message=f"{type(exc).__name__}: {exc}")


class _Round:
    """Gathers one round's candidates from both sources under a shared budget."""

    def __init__(self, clients: SourceClients, budget: Budget, depth: int) -> None:
        self.clients = clients
        self.budget = budget
        self.depth = depth
        self.candidates: dict[str, Candidate] = {}
        self.errors: list[SourceError] = []
        self.notes: list[str] = []
        self.requests = 0
        self.by_source: dict[str, int] = {}

    def offer(self, source: Source, paper: Paper, path: CitationPath) -> None:
        ident = Known.ids(paper)
        key = next((i for i in ident if i.startswith(("doi:", "pmid:"))), ident[0] if ident else None)
        if key is None:
            return
        candidate = self.candidates.setdefault(key, Candidate())
        # the requests answer in any order: of several links to one paper (and the record that came with
        # each), keep the same one every time
        kept = candidate.paths.get(source)
        if kept is None or _path_order(path) < _path_order(kept):
            candidate.paths[source] = path
            candidate.records[source] = paper

    def spend(self, requests: int, source: Source) -> bool:
        if self.budget.take(requests):
            self.requests += requests
            self.by_source[source.value] = self.by_source.get(source.value, 0) + requests
            return True
        return False

    def unspend(self, requests: int, source: Source) -> None:
        self.budget.refund(requests)
        self.requests -= requests
        self.by_source[source.value] -= requests

    async def openalex(self, nodes: list[Node], known: Known) -> None:
        client = self.clients.openalex
        oa = Source.OPENALEX
        # the seeds' OpenAlex ids and references; seeds known by DOI or PMID only are looked up by them
        refs: dict[str, tuple[str, ...]] = {}
        for kind, attribute in _LOOKUPS:
            wanted = [
                n for n in nodes if getattr(n, attribute) and not (kind != "openalex" and n.openalex_id)
            ]
            values = [getattr(n, attribute) for n in wanted]
            if not values or not self.spend(math.ceil(len(values) / ID_BATCH), oa):
                continue
            looked_up = await client.works_by_ids(
                values, kind=kind, select=("id", "doi", "ids", "referenced_works")
            )
            for work in looked_up.works:
                for node in wanted:
                    if _same(node, work.paper):
                        node.openalex_id = node.openalex_id or work.paper.openalex_id
                if work.paper.openalex_id:
                    refs[work.paper.openalex_id] = work.referenced
        # backward (the references not in the Run yet, read with the screening fields) and forward
        # (works citing the seeds, one page per batch of seeds) at once: neither waits for the other
        await asyncio.gather(self._openalex_backward(refs, known), self._openalex_forward(list(refs), known))

    async def _openalex_backward(self, refs: dict[str, tuple[str, ...]], known: Known) -> None:
        cited_by: dict[str, str] = {}
        for seed, referenced in refs.items():
            for work_id in referenced:
                if not known.has_openalex(work_id):
                    cited_by.setdefault(work_id, seed)
        if cited_by and self.spend(math.ceil(len(cited_by) / ID_BATCH), Source.OPENALEX):
            references = await self.clients.openalex.works_by_ids(list(cited_by))
            for work in references.works:
                citing_seed = cited_by.get(work.paper.openalex_id or "")
                if citing_seed:
                    self.offer(Source.OPENALEX, work.paper, self._path("cited_by", citing_seed, known))

    async def _openalex_forward(self, seeds: list[str], known: Known) -> None:
        batches = math.ceil(len(seeds) / ID_BATCH)
        allowed = min(batches, self.budget.left)
        if allowed < batches:
            self.budget.exhausted = True
        if not seeds or allowed <= 0:
            return
        self.spend(allowed, Source.OPENALEX)  # reserved now (others spend meanwhile), the unused returned
        sent = 0
        try:
            found = await self.clients.openalex.citing_works(
                seeds, limit=CITING_PER_BATCH, max_requests=allowed
            )
            sent = found.requests
        finally:
            self.unspend(allowed - sent, Source.OPENALEX)
        seed_ids = set(seeds)
        for work in found.works:
            linked = next((w for w in work.referenced if w in seed_ids), None)
            if linked:
                self.offer(Source.OPENALEX, work.paper, self._path("cites", linked, known))

    async def semantic_scholar(self, nodes: list[Node], known: Known) -> None:
        """Each seed's references (the batch endpoint, 25 seeds a request) and citations (one request
        a seed: the batch endpoint's citations are unreliable). The requests go out together and the
        shared rate limiter spaces them, so a round is not a rate interval plus a round trip each."""
        client = self.clients.semantic_scholar
        s2 = Source.SEMANTIC_SCHOLAR
        unknown: set[str] = set()
        followed = [(node, ref) for node in nodes if (ref := node.s2_ref()) is not None]

        async def references(chunk: list[tuple[Node, str]]) -> None:
            answers = await client.references_batch([ref for _, ref in chunk])
            for (node, ref), papers in zip(chunk, answers, strict=True):
                if papers is None:
                    unknown.add(node.label)
                    continue
                for paper in papers:
                    self.offer(s2, paper, self._path("cited_by", node.s2_id or ref, known, node))

        async def citations(node: Node, ref: str) -> None:
            try:
                papers = await client.citations(ref)
            except source_errors.NotFound:
                unknown.add(node.label)
                return
            for paper in papers:
                self.offer(s2, paper, self._path("cites", node.s2_id or ref, known, node))

        jobs: list[Awaitable[None]] = []
        for start in range(0, len(followed), REFERENCES_BATCH):
            if self.spend(1, s2):
                jobs.append(references(followed[start : start + REFERENCES_BATCH]))
        for node, ref in followed:
            if not self.spend(1, s2):
                break
            jobs.append(citations(node, ref))
        outcomes = await asyncio.gather(*jobs, return_exceptions=True)
        self.notes += [f"{label}: Semantic Scholar does not know this paper" for label in sorted(unknown)]
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        if failures:  # one error for the source, with how many of its requests failed
            error = _error(s2, failures[0])
            if len(failures) > 1:
                error.message = f"{error.message} ({len(failures)} of {len(jobs)} requests failed)"
            self.errors.append(error)

    def _path(self, relation: Relation, linked: str, known: Known, node: Node | None = None) -> CitationPath:
        key = node.key if node is not None else known.has_openalex(linked)
        return CitationPath(relation=relation, linked=linked, linked_key=key, depth=self.depth)

    async def gather(self, nodes: list[Node], known: Known, sources: Sequence[Source]) -> None:
        async def guarded(source: Source, work: Awaitable[None]) -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the round completes with the other source; the error is recorded
                self.errors.append(_error(source, exc))

        tasks = []
        if Source.OPENALEX in sources:
            tasks.append(guarded(Source.OPENALEX, self.openalex(nodes, known)))
        if Source.SEMANTIC_SCHOLAR in sources:
            tasks.append(guarded(Source.SEMANTIC_SCHOLAR, self.semantic_scholar(nodes, known)))
        await asyncio.gather(*tasks)


def _same(node: Node, paper: Paper) -> bool:
    return bool(
        (node.openalex_id and node.openalex_id == paper.openalex_id)
        or (node.doi and node.doi == normalize_doi(paper.doi))
        or (node.pmid and node.pmid == paper.pmid)
    )


async def _fetch_full(
    clients: SourceClients, chosen: list[Candidate], round_: _Round
) -> list[tuple[Source, Paper, CitationPath]]:
    """The chosen candidates' full records, both sources at once, in batches, best first; the
    screening record where the budget or the source did not allow more."""

    async def one_source(source: Source) -> list[tuple[Source, Paper, CitationPath]]:
        items = [(c.records[source], c.paths[source]) for c in chosen if source in c.records]
        if not items:
            return []
        full: dict[str, Paper] = {}
        batch = ID_BATCH if source is Source.OPENALEX else BATCH_SIZE
        # the best first (`chosen` is in priority order), as many batches as the budget still allows
        batches = min(math.ceil(len(items) / batch), round_.budget.left)
        if batches < math.ceil(len(items) / batch):
            round_.budget.exhausted = True
        if batches > 0 and round_.spend(batches, source):
            try:
                ids = [paper.source_id() or "" for paper, _ in items[: batches * batch]]
                if source is Source.OPENALEX:
                    found = await clients.openalex.works_by_ids(ids, select=DEFAULT_SELECT)
                    full = {w.paper.openalex_id or "": w.paper for w in found.works}
                else:
                    papers = await clients.semantic_scholar.get_papers(ids, fields=DEFAULT_FIELDS)
                    full = {p.semantic_scholar_id or "": p for p in papers if p is not None}
            except Exception as exc:
                round_.errors.append(_error(source, exc))
        return [
            (source, full.get(paper.source_id() or "", paper).model_copy(update={"source_rank": None}), path)
            for paper, path in items
        ]

    parts = await asyncio.gather(*(one_source(source) for source in SNOWBALL_SOURCES))
    return [item for part in parts for item in part]


# ----------------------------------------------------------------------------------------------
# the step
# ----------------------------------------------------------------------------------------------


async def snowball(
    aggregated: Sequence[AggregatedPaper],
    *,
    clients: SourceClients,
    plan: KeywordPlan | None,
    options: SnowballOptions,
    weights: RankingWeights | None = None,
    on_event: EventCallback | None = None,
) -> SnowballResult:
    """Follow citations from the Run's top papers (and the named ones); see the module docstring."""
    report = SnowballReport(depth=options.depth, budget=options.budget, threshold=options.threshold)
    result = SnowballResult(report=report)
    known = Known()
    for item in aggregated:
        known.add(item.paper, item.key)
    screen = Screen(plan, options.min_match)
    if not screen.groups:
        report.notes.append("no keyword plan to screen by: every linked paper counted as relevant")
    priority = first_stage_priority(weights or RankingWeights())
    run_sources = frozenset(e.source for item in aggregated for e in item.evidence)
    max_citations = max((item.paper.citation_count or 0 for item in aggregated), default=0)

    frontier: list[Node] = []
    ranked = sorted(aggregated, key=lambda item: item.rank or 10**9)
    for item in ranked[: options.seeds]:
        node = node_of(item.paper, item.key, item.key)
        if node.followable:
            frontier.append(node)
        else:
            report.notes.append(
                f"seed {item.key} skipped: it has no DOI, PMID, OpenAlex or Semantic Scholar id"
            )
    for identifier in options.named:
        named = named_node(identifier)
        if named is None:
            report.notes.append(
                f"seed {identifier[:80]!r} skipped: not a DOI, pmid:…, OpenAlex work id (W…) "
                "or Semantic Scholar paper id"
            )
            continue
        frontier.append(named)
    report.seeds = [n.label for n in frontier]
    sources = [s for s in SNOWBALL_SOURCES if getattr(clients, s.value, None) is not None]
    await _say(
        on_event,
        f"snowballing from {len(frontier)} seeds: up to {options.depth} rounds, "
        f"a budget of {options.budget} requests",
    )
    if not frontier:
        report.stopped, report.message = "no_seeds", "no seed with an identifier the sources know"
        return result

    budget = Budget(options.budget)
    found_count = 0
    for depth in range(1, options.depth + 1):
        round_ = _Round(clients, budget, depth)
        started = time.monotonic()
        await round_.gather(frontier, known, sources)
        gathered = time.monotonic() - started
        report.notes.extend(round_.notes)
        relevant: list[tuple[float, float, Candidate]] = []
        relevant_total = 0
        for candidate in round_.candidates.values():
            existing = known.find(candidate.paper)
            record = known.papers.get(existing, candidate.paper) if existing else candidate.paper
            if not screen.relevant(record):
                continue
            relevant_total += 1
            if existing is None:
                paper = candidate.paper
                first = priority({}, paper.year, paper.citation_count, run_sources, max_citations)
                relevant.append((screen.score(paper), first, candidate))
        relevant.sort(key=lambda item: (-item[0], -item[1]))
        chosen = [candidate for _, _, candidate in relevant]
        kept = await _fetch_full(clients, chosen, round_) if chosen else []
        next_frontier: dict[str, Node] = {}
        for source, paper, path in kept:
            key = known.find(paper)
            if key is None:
                found_count += 1
                key = f"snowball:{found_count}"
                known.add(paper, key)
            else:
                known.add(paper, key)  # the other source's ids of the same paper
            result.papers.setdefault(source, []).append(paper)
            result.paths[(source, paper.source_id() or "")] = path
            result.placeholders.setdefault(key, (source, paper.source_id() or ""))
            node = next_frontier.setdefault(key, Node(label=key, key=key))
            node.doi = node.doi or normalize_doi(paper.doi)
            node.pmid = node.pmid or paper.pmid
            node.openalex_id = node.openalex_id or paper.openalex_id
            node.s2_id = node.s2_id or paper.semantic_scholar_id
        share = round(len(chosen) / relevant_total, 4) if relevant_total else None
        report.rounds.append(
            SnowballRound(
                depth=depth,
                seeds=len(frontier),
                candidates=len(round_.candidates),
                relevant=relevant_total,
                new_relevant=len(chosen),
                kept=len(next_frontier),
                requests=round_.requests,
                requests_by_source=round_.by_source,
                seconds=round(time.monotonic() - started, 3),
                seconds_linking=round(gathered, 3),
                new_share=share,
                errors=round_.errors,
            )
        )
        report.candidates_seen += len(round_.candidates)
        report.kept += len(next_frontier)
        report.estimate = share
        await _say(
            on_event,
            f"round {depth}: {len(round_.candidates)} linked papers, {relevant_total} relevant, "
            f"{len(next_frontier)} new kept ({budget.spent}/{budget.total} requests)",
        )
        frontier = list(next_frontier.values())
        if budget.exhausted:
            report.stopped = "budget"
            break
        if share is None or share < options.threshold:
            report.stopped = "saturated" if share is not None else "no_candidates"
            break
        if not frontier:
            report.stopped = "saturated"
            break
    report.requests = budget.spent
    rounds = len(report.rounds)
    report.message = {
        "saturated": f"search saturated after {rounds} round{'s' if rounds != 1 else ''}",
        "no_candidates": f"search saturated after {rounds} round{'s' if rounds != 1 else ''} "
        "(no relevant linked papers)",
        "budget": f"stopped at the budget ({budget.spent} of {budget.total} requests) after {rounds} rounds",
        "depth": f"stopped at depth {options.depth}; the last round still found "
        f"{(report.estimate or 0):.0%} new relevant papers",
    }.get(report.stopped, report.stopped)
    await _say(on_event, report.message)
    return result


def merge_with_snowball(results: dict[Source, list[Paper]], found: SnowballResult) -> list[AggregatedPaper]:
    """The query results and the snowball's records merged by the ordinary merge; the snowball's
    evidence carries its path and no rank, and every merged paper says where it came from."""
    combined = {
        source: list(results.get(source, [])) + found.papers.get(source, [])
        for source in {*results, *found.papers}
    }
    merged = merge_papers(combined)
    from_query = {(source, p.source_id()) for source, papers in results.items() for p in papers}
    key_of = {(e.source, e.source_id or ""): item.key for item in merged for e in item.evidence}
    for path in found.paths.values():  # paths name the Run keys the merge gave, not placeholders
        if path.linked_key and path.linked_key in found.placeholders:
            path.linked_key = key_of.get(found.placeholders[path.linked_key], path.linked_key)
    for item in merged:
        via_any = False
        query_any = False
        for index, evidence in enumerate(item.evidence):
            via = found.paths.get((evidence.source, evidence.source_id or ""))
            if via is not None and (evidence.source, evidence.source_id) not in from_query:
                item.evidence[index] = evidence.model_copy(update={"via": via, "rank": None})
                via_any = True
            else:
                query_any = True
        if via_any:
            item.origin = "both" if query_any else "snowball"
    return merged


def _path_order(path: CitationPath) -> tuple[int, str, str]:
    """A total order on links to one paper: the shallowest first, then by relation and linked id."""
    return (path.depth, path.relation, path.linked)
