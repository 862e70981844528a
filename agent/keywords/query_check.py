"""Execution-checked queries: every concept block and the whole query counted before the search.

A Boolean query can be valid and still useless: one block that matches nothing empties the whole
AND, and a query that matches half of PubMed is no search. Where a database can count (PubMed's
`esearch` count, OpenAlex's `meta.count`), the keyword step asks it, as a searcher would before
running a strategy:

- each required concept block's first records, where PubMed answers: a heading its indexers gave most
  of them, and that the block's words name, joins the block (`agent.keywords.indexing_headings`);
- each required concept block alone; a block with **0 hits** in every database that answered is
  *relaxed*: made optional (kept in the plan, shown with the reason, no longer AND'ed), and the
  queries are written again;
- the whole query; **above `limit` hits** (setting `query_hit_limit`) it gets a warning naming the
  broadest block, the one to tighten first.

The counts are stored in `queries.json` (`QueryPlan.counts`). With no database answering (offline),
nothing is counted and the plan is left as it is, with a note.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from agent.keywords.indexing_headings import (
    DescriptorSource,
    IndexedRecords,
    add_headings,
    attested_headings,
    sample_records,
    searched_headings,
)
from agent.keywords.querybuild import build_queries
from agent.keywords.synonyms import Session, SynonymSources
from agent.models import BlockCount, Concept, KeywordPlan, QueryPlan, Source

_COUNTED = {"pubmed": Source.PUBMED, "openalex": Source.OPENALEX}


async def _count(session: Session, name: str, query: str) -> int | None:
    sources = session.sources
    make: Callable[[], Awaitable[int]]
    if name == "pubmed" and sources.pubmed is not None:
        pubmed = sources.pubmed
        make = lambda: pubmed.count(query)  # noqa: E731
    elif name == "openalex" and sources.openalex is not None:
        openalex = sources.openalex
        make = lambda: openalex.count(filter=query)  # noqa: E731
    else:
        return None
    return await session.call(name, make, None)


def _only(plan: KeywordPlan, concept: Concept) -> KeywordPlan:
    """The plan with this one concept required (how its block alone is written, without any filter)."""
    alone = plan.model_copy(deep=True)
    for other in alone.concepts:
        other.required = other.id == concept.id
        other.enabled = other.enabled or other.id == concept.id
    for study in alone.study_filters:
        study.enabled = False
    return alone


async def _counts_of(session: Session, queries: QueryPlan, concept: str) -> list[BlockCount]:
    names = [name for name in session.sources.counters if _COUNTED[name] in queries.queries]
    hits = await asyncio.gather(*(_count(session, n, queries.queries[_COUNTED[n]].query) for n in names))
    return [BlockCount(concept=concept, source=n, hits=h) for n, h in zip(names, hits, strict=True)]


async def _add_indexing_headings(session: Session, plan: KeywordPlan, required: list[Concept]) -> None:
    """The headings PubMed's indexing attests for each required block (`indexing_headings`), in place."""
    mesh = session.sources.mesh_file
    if not isinstance(session.sources.pubmed, IndexedRecords) or not isinstance(mesh, DescriptorSource):
        return
    blocks = {
        c.id: q.query for c in required if (q := build_queries(_only(plan, c)).queries.get(Source.PUBMED))
    }
    sampled = [c for c in required if c.id in blocks]
    samples = await asyncio.gather(*(sample_records(session, blocks[c.id]) for c in sampled))
    searched = searched_headings(plan)
    for concept, records in zip(sampled, samples, strict=True):
        evidence = attested_headings(concept, plan.terms_of(concept.id), records, searched, mesh)
        add_headings(plan, evidence)
        searched |= {e.descriptor.ui for e in evidence}


async def check_queries(plan: KeywordPlan, sources: Any, *, limit: int) -> tuple[KeywordPlan, QueryPlan]:
    """The plan (zero-hit blocks relaxed) and its queries with block and query counts (module doc)."""
    session = Session(SynonymSources.coerce(sources))
    queries = build_queries(plan)
    if not plan.concepts or not any(_COUNTED[n] in queries.queries for n in session.sources.counters):
        return plan, queries
    plan = plan.model_copy(deep=True)
    required = [c for c in plan.concepts if c.required and c.enabled and plan.terms_of(c.id)]
    await _add_indexing_headings(session, plan, required)
    per_block = await asyncio.gather(
        *(_counts_of(session, build_queries(_only(plan, c)), c.id) for c in required)
    )
    counts = [count for block in per_block for count in block]
    if not any(c.hits is not None for c in counts):
        queries.notes.append("hit counts could not be checked: no database answered")
        return plan, queries
    notes: list[str] = []
    for concept, block in zip(required, per_block, strict=True):
        answered = [c for c in block if c.hits is not None]
        if answered and all(c.hits == 0 for c in answered):
            concept.required = False
            concept.reason = "relaxed: its block has no hits as written; edit its terms to use it again"
            for count in block:
                count.note = "0 hits: relaxed"
            notes.append(f"'{concept.label}' has no hits as written and is no longer AND'ed")
    queries = build_queries(plan)
    whole = await _counts_of(session, queries, "")
    for count in whole:
        if count.hits is not None and count.hits > limit:
            broadest = max(
                (c for c in counts if c.source == count.source and c.hits),
                key=lambda c: c.hits or 0,
                default=None,
            )
            target = plan.concept(broadest.concept) if broadest else None
            advice = (
                f"; tighten '{target.label}' first ({broadest.hits:,} hits alone)"
                if target and broadest
                else ""
            )
            count.note = f"above {limit:,}"
            notes.append(
                f"the {count.source} query finds {count.hits:,} records, more than {limit:,}{advice}"
            )
    queries.counts = counts + whole
    queries.notes += notes
    return plan, queries
