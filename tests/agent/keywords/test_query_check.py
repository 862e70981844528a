"""Execution-checked queries: block and query counts from scripted database answers."""

from __future__ import annotations

from agent.keywords.query_check import check_queries
from agent.keywords.querybuild import build_queries
from agent.keywords.synonyms import SynonymSources
from agent.models import Concept, ConceptRole, KeywordPlan, Source, StudyFilter, Term
from tests.agent.keywords.keyword_fakes import FakePubMed

PLAN = KeywordPlan(
    terms=[
        Term(canonical="speech decoding", slot="task", concept="decoding"),
        Term(canonical="ECoG", slot="method_measurement", concept="ecog"),
        Term(canonical="frobnication", slot="context", concept="frob"),
    ],
    concepts=[
        Concept(id="decoding", label="speech decoding", role=ConceptRole.METHOD),
        Concept(id="ecog", label="ECoG", role=ConceptRole.METHOD),
        Concept(id="frob", label="frobnication", role=ConceptRole.METHOD),
    ],
)
BLOCK_HITS = {'("speech decoding"[tiab])': 900, "(ECoG[tiab])": 5_000, "(frobnication[tiab])": 0}


async def test_a_block_without_hits_is_relaxed_and_said() -> None:
    pubmed = FakePubMed(hits=BLOCK_HITS, default=120)
    plan, queries = await check_queries(PLAN, SynonymSources(pubmed=pubmed), limit=10_000)
    frob = plan.concept("frob")
    assert frob is not None and frob.required is False and "no hits" in frob.reason
    assert queries.queries[Source.PUBMED].query == '("speech decoding"[tiab]) AND (ECoG[tiab])'
    assert [(c.concept, c.hits, c.note) for c in queries.counts] == [
        ("decoding", 900, ""),
        ("ecog", 5_000, ""),
        ("frob", 0, "0 hits: relaxed"),
        ("", 120, ""),
    ]
    assert any("'frobnication' has no hits" in note for note in queries.notes)
    assert PLAN.concept("frob").required is True  # the caller's plan is not changed


async def test_a_query_above_the_limit_names_the_block_to_tighten() -> None:
    pubmed = FakePubMed(hits={**BLOCK_HITS, "(frobnication[tiab])": 40}, default=50_000)
    _, queries = await check_queries(PLAN, SynonymSources(pubmed=pubmed), limit=10_000)
    whole = queries.counts[-1]
    assert (whole.concept, whole.hits, whole.note) == ("", 50_000, "above 10,000")
    assert any("more than 10,000; tighten 'ECoG' first (5,000 hits alone)" in n for n in queries.notes)


async def test_offline_nothing_is_counted_or_changed() -> None:
    plan, queries = await check_queries(PLAN, SynonymSources(), limit=10_000)
    assert plan == PLAN and queries.counts == [] and queries == build_queries(PLAN)
    failing = FakePubMed(fail=TimeoutError("slow"))
    plan, queries = await check_queries(PLAN, SynonymSources(pubmed=failing), limit=10_000)
    assert (
        plan.concept("frob").required
        and queries.notes[-1] == "hit counts could not be checked: no database answered"
    )


async def test_a_blocks_count_is_the_block_alone_and_the_whole_query_keeps_the_filter() -> None:
    filtered = PLAN.model_copy(
        update={
            "study_filters": [
                StudyFilter(
                    text="randomised controlled trials",
                    enabled=True,
                    heading="Randomized Controlled Trial",
                    publication_type=True,
                )
            ]
        }
    )
    pubmed = FakePubMed(hits=BLOCK_HITS, default=120)
    _, queries = await check_queries(filtered, SynonymSources(pubmed=pubmed), limit=10_000)
    blocks = [c for c in queries.counts if c.concept]
    assert [(c.concept, c.hits) for c in blocks] == [("decoding", 900), ("ecog", 5_000), ("frob", 0)]
    assert queries.queries[Source.PUBMED].query.endswith(
        'AND ("Randomized Controlled Trial"[pt] OR "randomised controlled trials"[tiab] OR "randomized controlled trial"[tiab])'
    )
