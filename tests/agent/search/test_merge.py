"""The merge on the real cross-source traps in the shared fixtures, and on generated overlapping sets.

The fixture records are mapped into `Paper`s by the minimal parsers below (the fields the merge reads),
so these tests do not depend on the source clients. Crossref and Unpaywall are not Run sources; their
records only prove that every service's spelling of a DOI canonicalises to the same key, and a Crossref
record stands in for a third source's view of a paper where a test needs one.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

import pytest

from agent.models import (
    SEARCH_SOURCES,
    Affiliation,
    AggregatedPaper,
    Author,
    Paper,
    Source,
)
from agent.search import merge
from agent.search.merge import canonical_doi, merge_papers
from tests.paths import FIXTURES

SHARED_DOIS = {
    "10.1016/j.xgen.2025.100814": "10.1016_j.xgen.2025.100814",
    "10.1023/a:1007154515475": "10.1023_a.1007154515475",
    "10.1016/j.addr.2015.01.008": "10.1016_j.addr.2015.01.008",
    "10.1073/pnas.1414271111": "10.1073_pnas.1414271111",
    "10.1007/s40278-023-41815-2": "10.1007_s40278-023-41815-2",
}


def body(relative: str) -> Any:
    return json.loads((FIXTURES / relative).read_text(encoding="utf-8"))["body"]


# -- minimal fixture parsers ------------------------------------------------------------------------


def s2_paper(data: dict[str, Any], rank: int = 1) -> Paper:
    ids = data.get("externalIds") or {}
    return Paper(
        title=data.get("title") or "",
        year=data.get("year"),
        venue=data.get("venue") or None,
        doi=ids.get("DOI"),
        pmid=ids.get("PubMed"),
        pmcid=ids.get("PubMedCentral"),
        arxiv_id=ids.get("ArXiv"),
        semantic_scholar_id=data.get("paperId"),
        authors=[Author(name=a["name"], position=i) for i, a in enumerate(data.get("authors") or [], 1)],
        citation_count=data.get("citationCount"),
        source=Source.SEMANTIC_SCHOLAR,
        source_rank=rank,
    )


def openalex_paper(data: dict[str, Any], rank: int = 1) -> Paper:
    ids = data.get("ids") or {}
    location = (data.get("primary_location") or {}).get("source") or {}
    authors = [
        Author(
            name=a["author"]["display_name"],
            position=i,
            affiliations=[Affiliation(raw=s) for s in a.get("raw_affiliation_strings") or []],
        )
        for i, a in enumerate(data.get("authorships") or [], 1)
    ]
    return Paper(
        title=data.get("title") or "",
        year=data.get("publication_year"),
        venue=location.get("display_name"),
        doi=data.get("doi"),
        pmid=ids.get("pmid"),
        pmcid=ids.get("pmcid"),
        openalex_id=(data.get("id") or "").rsplit("/", 1)[-1] or None,
        authors=authors,
        citation_count=data.get("cited_by_count"),
        source=Source.OPENALEX,
        source_rank=rank,
    )


def crossref_paper(message: dict[str, Any], source: Source, **extra: Any) -> Paper:
    year = ((message.get("issued") or {}).get("date-parts") or [[None]])[0][0]
    authors = [
        Author(
            name=f"{a.get('given', '')} {a.get('family', '')}".strip(),
            given=a.get("given"),
            family=a.get("family"),
            position=i,
        )
        for i, a in enumerate(message.get("author") or [], 1)
    ]
    fields: dict[str, Any] = {
        "title": (message.get("title") or [""])[0],
        "year": year,
        "venue": (message.get("container-title") or [None])[0],
        "doi": message.get("DOI"),
        "authors": authors,
        "source": source,
        "source_rank": 1,
    }
    return Paper(**{**fields, **extra})


def by_doi(merged: list[AggregatedPaper]) -> dict[str, AggregatedPaper]:
    return {m.paper.doi: m for m in merged if m.paper.doi}


# -- the real traps ------------------------------------------------------------------------------


def test_same_doi_across_services_merges_into_one_paper_per_doi() -> None:
    s2 = [
        s2_paper(body(f"semantic_scholar/pqa_paper_doi_{stem}.json"), i)
        for i, stem in enumerate(SHARED_DOIS.values(), 1)
    ]
    oa = [
        openalex_paper(body(f"openalex/pqa_openalex_work_doi_{stem}.json"), i)
        for i, stem in enumerate(reversed(SHARED_DOIS.values()), 1)
    ]
    merged = merge_papers({Source.SEMANTIC_SCHOLAR: s2, Source.OPENALEX: oa})

    assert len(merged) == len(SHARED_DOIS)
    assert set(by_doi(merged)) == set(SHARED_DOIS)
    for paper in merged:
        assert paper.key == f"doi:{paper.paper.doi}"
        assert paper.sources == [Source.SEMANTIC_SCHOLAR, Source.OPENALEX]
        assert paper.merged_by == ["doi"]
        assert {e.source_id for e in paper.evidence} == {
            paper.paper.semantic_scholar_id,
            paper.paper.openalex_id,
        }
    # every service's spelling of the DOI (Unpaywall bare, Crossref upper/lower, OpenAlex URL) is the same key
    for doi, stem in SHARED_DOIS.items():
        crossref = body(f"crossref/pqa_crossref_work_doi_{stem}.json")["message"]["DOI"]
        unpaywall = body(f"unpaywall/pqa_unpaywall_doi_{stem}.json")["doi"]
        openalex = body(f"openalex/pqa_openalex_work_doi_{stem}.json")["doi"]
        s2_doi = body(f"semantic_scholar/pqa_paper_doi_{stem}.json")["externalIds"]["DOI"]
        assert {canonical_doi(v) for v in (crossref, unpaywall, openalex, s2_doi)} == {doi}


def test_upper_case_doi_from_semantic_scholar_joins_openalex() -> None:
    s2 = s2_paper(body("semantic_scholar/pqa_paper_doi_10.1023_a.1007154515475.json"))
    assert (
        body("semantic_scholar/pqa_paper_doi_10.1023_a.1007154515475.json")["externalIds"]["DOI"]
        == "10.1023/A:1007154515475"
    )
    oa = openalex_paper(body("openalex/pqa_openalex_work_doi_10.1023_a.1007154515475.json"))
    [merged] = merge_papers({Source.SEMANTIC_SCHOLAR: [s2], Source.OPENALEX: [oa]})
    assert merged.key == "doi:10.1023/a:1007154515475"


@pytest.mark.parametrize(
    "spelling",
    [
        "10.1023/A:1007154515475",
        "https://doi.org/10.1023/A:1007154515475",
        "http://dx.doi.org/10.1023%2Fa%3A1007154515475",
        "doi:10.1023/a:1007154515475.",
        "DOI: 10.1023/A:1007154515475);",
        "10.1023/a:1007154515475&#46;",
    ],
)
def test_canonical_doi_spellings(spelling: str) -> None:
    assert canonical_doi(spelling) == "10.1023/a:1007154515475"


def test_canonical_doi_rejects_non_dois() -> None:
    assert canonical_doi("") is None
    assert canonical_doi(None) is None
    assert canonical_doi("not a doi") is None


def test_preprint_and_journal_version_stay_separate_but_linked() -> None:
    hits = body("openalex/pqa_openalex_works_titlesearch_augmenting_llm_2hits.json")["results"]
    openalex = [openalex_paper(work, i) for i, work in enumerate(hits, 1)]
    s2 = [s2_paper(body("semantic_scholar/pqa_paper_doi_10.1038_s42256-024-00832-8.json"))]
    merged = merge_papers({Source.OPENALEX: openalex, Source.SEMANTIC_SCHOLAR: s2})

    papers = by_doi(merged)
    assert set(papers) == {"10.1038/s42256-024-00832-8", "10.48550/arxiv.2304.05376"}
    journal, preprint = papers["10.1038/s42256-024-00832-8"], papers["10.48550/arxiv.2304.05376"]
    assert journal.sources == [Source.SEMANTIC_SCHOLAR, Source.OPENALEX]
    assert preprint.sources == [Source.OPENALEX]
    # linked through S2's externalIds.ArXiv <-> the DataCite arXiv DOI
    assert journal.related == [preprint.key]
    assert preprint.related == [journal.key]


def test_preprint_with_identical_title_is_not_merged_with_journal_version() -> None:
    journal = openalex_paper(
        body("openalex/pqa_openalex_works_titlesearch_augmenting_llm_2hits.json")["results"][0]
    )
    s2 = s2_paper(body("semantic_scholar/pqa_paper_doi_10.1038_s42256-024-00832-8.json"))
    # the preprint as a PubMed-like record under the journal's exact title but its own DOI and no PMID
    preprint = journal.model_copy(
        update={"doi": "10.48550/arXiv.2304.05376", "pmid": None, "source": Source.PUBMED, "year": 2023}
    )
    merged = merge_papers(
        {Source.OPENALEX: [journal], Source.SEMANTIC_SCHOLAR: [s2], Source.PUBMED: [preprint]}
    )
    assert len(merged) == 2
    keys = {m.key for m in merged}
    assert keys == {"doi:10.1038/s42256-024-00832-8", "doi:10.48550/arxiv.2304.05376"}
    for m in merged:
        assert m.related == sorted(keys - {m.key})


def test_record_without_authors_merges_and_keeps_no_authors() -> None:
    stem = SHARED_DOIS["10.1007/s40278-023-41815-2"]
    s2 = s2_paper(body(f"semantic_scholar/pqa_paper_doi_{stem}.json"))
    oa = openalex_paper(body(f"openalex/pqa_openalex_work_doi_{stem}.json"))
    crossref = body(f"crossref/pqa_crossref_work_doi_{stem}.json")["message"]
    assert "author" not in crossref and s2.authors == [] and oa.authors == []
    # a PubMed-like record of the same paper with no DOI and no authors: only its title can join it
    pubmed = crossref_paper(crossref, Source.PUBMED, doi=None)
    [merged] = merge_papers({Source.SEMANTIC_SCHOLAR: [s2], Source.OPENALEX: [oa], Source.PUBMED: [pubmed]})
    assert merged.paper.authors == []
    assert "authors" not in merged.field_sources
    assert merged.merged_by == ["doi", "title"]
    assert merged.sources == [Source.PUBMED, Source.SEMANTIC_SCHOLAR, Source.OPENALEX]


def test_fields_follow_the_documented_rule_on_the_preprint_conflated_record() -> None:
    stem = SHARED_DOIS["10.1016/j.xgen.2025.100814"]
    s2 = s2_paper(body(f"semantic_scholar/pqa_paper_doi_{stem}.json"))
    oa = openalex_paper(body(f"openalex/pqa_openalex_work_doi_{stem}.json"))
    assert (s2.year, s2.venue) == (2024, "bioRxiv")
    [merged] = merge_papers({Source.SEMANTIC_SCHOLAR: [s2], Source.OPENALEX: [oa]})
    # bibliographic fields: precedence PubMed > OpenAlex > S2
    assert (merged.paper.year, merged.paper.venue) == (2025, "Cell Genomics")
    assert merged.field_sources["year"] is Source.OPENALEX
    # ids only one source has come from that source
    assert merged.field_sources["semantic_scholar_id"] is Source.SEMANTIC_SCHOLAR
    assert merged.paper.pmcid == "PMC12008803"
    # authors: OpenAlex's byline carries affiliations, so it is the richer one
    assert merged.field_sources["authors"] is Source.OPENALEX
    assert merged.paper.authors[0].affiliations
    # citation count: the largest
    assert merged.paper.citation_count == max(s2.citation_count or 0, oa.citation_count or 0)
    assert merged.paper.source is None


def test_pmid_cross_id_joins_a_record_without_doi() -> None:
    stem = SHARED_DOIS["10.1016/j.addr.2015.01.008"]
    s2 = s2_paper(body(f"semantic_scholar/pqa_paper_doi_{stem}.json"))
    assert s2.pmid == "25666165"
    crossref = body(f"crossref/pqa_crossref_work_doi_{stem}.json")["message"]
    # PubMed's view: PMID only, and a title with different punctuation/case to make the title pass irrelevant
    pubmed = crossref_paper(
        crossref, Source.PUBMED, doi=None, pmid="25666165", title="Unrelated title words here"
    )
    [merged] = merge_papers({Source.PUBMED: [pubmed], Source.SEMANTIC_SCHOLAR: [s2]})
    assert merged.merged_by == ["pmid"]
    assert merged.key == "doi:10.1016/j.addr.2015.01.008"
    assert merged.field_sources["title"] is Source.PUBMED  # precedence, even though it is a PubMed title


def test_pmid_does_not_join_records_whose_dois_disagree() -> None:
    a = Paper(title="A study of one thing in detail", doi="10.1234/a", pmid="1", source=Source.PUBMED)
    b = Paper(title="Another study entirely elsewhere", doi="10.1234/b", pmid="1", source=Source.OPENALEX)
    assert len(merge_papers({Source.PUBMED: [a], Source.OPENALEX: [b]})) == 2


# -- the title pass ---------------------------------------------------------------------------------


def paper(
    title: str, source: Source, *, year: int | None = 2020, first: str | None = "Ada Lovelace", **kw: Any
) -> Paper:
    authors = [Author(name=first)] if first else []
    return Paper(title=title, year=year, authors=authors, source=source, **kw)


def test_title_match_tolerates_case_punctuation_markup_and_a_typo() -> None:
    a = paper("Deep learning for EEG-based emotion recognition: a review", Source.PUBMED, pmid="11")
    b = paper(
        "Deep Learning for <i>EEG</i> Based Emotion Recogniton - A Review.",
        Source.OPENALEX,
        year=2021,
        first="A. Lovelace",
    )
    [merged] = merge_papers({Source.PUBMED: [a], Source.OPENALEX: [b]})
    assert merged.merged_by == ["title"]
    assert merged.key == "pmid:11"


@pytest.mark.parametrize(
    ("left", "right"),
    [
        # numbers differ
        (
            paper("Cortical speech decoding with deep networks, part II", Source.PUBMED),
            paper("Cortical speech decoding with deep networks, part III", Source.OPENALEX),
        ),
        (
            paper("Outcomes of COVID-19 vaccination in 2021 cohorts", Source.PUBMED),
            paper("Outcomes of COVID-19 vaccination in 2022 cohorts", Source.OPENALEX),
        ),
        # years too far apart
        (
            paper("A survey of graph neural networks for molecules", Source.PUBMED, year=2015),
            paper("A survey of graph neural networks for molecules", Source.OPENALEX, year=2019),
        ),
        # different first author
        (
            paper("A survey of graph neural networks for molecules", Source.PUBMED),
            paper("A survey of graph neural networks for molecules", Source.OPENALEX, first="Grace Hopper"),
        ),
        # short, generic titles need year and first author to agree
        (paper("Correction", Source.PUBMED), paper("Correction", Source.OPENALEX, first=None)),
        (paper("Editorial", Source.PUBMED, year=2020), paper("Editorial", Source.OPENALEX, year=2021)),
        # different DOIs never merge
        (
            paper("Same title of a long enough paper", Source.PUBMED, doi="10.1234/x"),
            paper("Same title of a long enough paper", Source.OPENALEX, doi="10.1234/y"),
        ),
        # different PMIDs never merge through a title
        (
            paper("Same title of a long enough paper", Source.PUBMED, pmid="1"),
            paper("Same title of a long enough paper", Source.OPENALEX, pmid="2"),
        ),
    ],
)
def test_title_pass_refuses_lookalikes(left: Paper, right: Paper) -> None:
    merged = merge_papers({left.source: [left], right.source: [right]})
    assert len(merged) == 2
    assert len({m.key for m in merged}) == 2


def test_short_titles_merge_when_everything_agrees() -> None:
    a, b = paper("Correction", Source.PUBMED), paper("Correction.", Source.OPENALEX)
    assert len(merge_papers({Source.PUBMED: [a], Source.OPENALEX: [b]})) == 1


def test_same_source_lookalikes_stay_apart_but_cross_source_copy_joins_one() -> None:
    a1 = paper("Sleep spindles and memory consolidation in older adults", Source.OPENALEX)
    a2 = paper("Sleep spindles and memory consolidation in older adults.", Source.OPENALEX)
    b = paper("Sleep spindles and memory consolidation in older adults", Source.SEMANTIC_SCHOLAR)
    merged = merge_papers({Source.OPENALEX: [a1, a2], Source.SEMANTIC_SCHOLAR: [b]})
    assert sorted(len(m.evidence) for m in merged) == [1, 2]
    assert len({m.key for m in merged}) == 2


def test_missing_year_and_authors_still_match_on_a_long_title() -> None:
    a = paper(
        "Transcranial magnetic stimulation for treatment resistant depression",
        Source.PUBMED,
        year=None,
        first=None,
    )
    b = paper("Transcranial Magnetic Stimulation for Treatment-Resistant Depression", Source.SEMANTIC_SCHOLAR)
    assert len(merge_papers({Source.PUBMED: [a], Source.SEMANTIC_SCHOLAR: [b]})) == 1


def test_evidence_ranks_and_order_are_deterministic() -> None:
    results = {
        Source.PUBMED: [
            paper(f"Study number {i} of brain computer interfaces", Source.PUBMED, doi=f"10.5555/{i}")
            for i in range(5)
        ],
        Source.OPENALEX: [
            paper(f"Study number {i} of brain computer interfaces", Source.OPENALEX, doi=f"10.5555/{i}")
            for i in reversed(range(5))
        ],
    }
    first = merge_papers(results)
    assert [m.model_dump() for m in first] == [m.model_dump() for m in merge_papers(results)]
    ranks = {m.key: {e.source: e.rank for e in m.evidence} for m in first}
    assert ranks["doi:10.5555/0"] == {Source.PUBMED: 1, Source.OPENALEX: 5}
    assert ranks["doi:10.5555/4"] == {Source.PUBMED: 5, Source.OPENALEX: 1}
    assert first[0].key in {"doi:10.5555/0", "doi:10.5555/4"}  # best rank first


def test_empty_input_and_bad_threshold() -> None:
    assert merge_papers({}) == []
    with pytest.raises(ValueError, match="title_threshold"):
        merge_papers({}, title_threshold=0)


def test_merge_leaves_input_records_unchanged() -> None:
    oa = openalex_paper(body("openalex/pqa_openalex_work_doi_10.1073_pnas.1414271111.json"))
    before = oa.model_dump()
    [merged] = merge_papers({Source.OPENALEX: [oa]})
    merged.paper.authors.pop()
    assert merged.paper.authors is not oa.authors
    assert oa.model_dump() == before


def test_the_merge_keeps_nothing_for_the_next_run() -> None:
    # what the title checks remember lives in one merge's own object: a long-running server holds
    # nothing of a Run once its merge is done, and no merge depends on what earlier Runs merged
    a = paper("Sleep spindles and memory consolidation in older adults", Source.PUBMED)
    b = paper("Sleep spindles and memory consolidation in older adults.", Source.OPENALEX)
    assert len(merge_papers({Source.PUBMED: [a], Source.OPENALEX: [b]})) == 1
    cached = [name for name, value in vars(merge).items() if hasattr(value, "cache_info")]
    assert cached == []


def test_titles_of_neighbouring_years_are_scored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # a pair of records from years 2020 and 2021, neither with a DOI, is allowed from both sides;
    # the year block scored first scores it, the other does not score it again
    scored: list[tuple[int, int]] = []
    score_titles = merge._score_titles

    def counting(block: Any, choices: Any, threshold: float) -> Any:
        scored.extend((q.index, c.index) for q in block for c in choices if q.paper.year != c.paper.year)
        return score_titles(block, choices, threshold)

    monkeypatch.setattr(merge, "_score_titles", counting)
    title = "Closed loop deep brain stimulation for Parkinson disease"
    results = {
        Source.PUBMED: [
            paper(title, Source.PUBMED, year=2020),
            paper(f"{title} II", Source.PUBMED, year=None),
        ],
        Source.OPENALEX: [paper(title, Source.OPENALEX, year=2021), paper(title, Source.OPENALEX, year=2022)],
    }
    assert len(merge_papers(results)) == 3
    pairs = [tuple(sorted(pair)) for pair in scored]
    assert pairs and len(pairs) == len(set(pairs))


# -- generated overlapping sets with known truth --------------------------------------------------------

GENERATED_QUERIES = (
    "brain computer interface speech",
    "deep learning ecg arrhythmia",
    "sleep spindles memory",
)


@pytest.fixture(scope="module")
def fake_server():
    from evals.fake_sources import FakeConfig, running_fake_sources

    with running_fake_sources(FakeConfig(seed=7)) as fake:
        yield fake


async def search_all(fake: Any, query: str, limit: int) -> dict[Source, list[Paper]]:
    """The real clients against the fake server (no rate limit, no retries: the server is local)."""
    import httpx

    from tools.http import HttpPolicy, RateLimiterRegistry, SourceConfig
    from tools.openalex import OpenAlexClient
    from tools.pubmed import PubMedClient
    from tools.semantic_scholar import SemanticScholarClient

    async with httpx.AsyncClient() as client:
        limiters = RateLimiterRegistry()

        def policy(name: str) -> HttpPolicy:
            return HttpPolicy(
                client, SourceConfig(name, fake.base_urls[name], rate=1000, retries=0), limiters=limiters
            )

        pubmed = PubMedClient(policy("pubmed")).search(query, limit=limit)
        s2 = SemanticScholarClient(policy("semantic_scholar")).search_bulk(query, limit=limit)
        openalex = OpenAlexClient(policy("openalex")).search_works(search=query, limit=limit)
        outcomes = await asyncio.gather(pubmed, s2, openalex)
    return {source: outcome.papers for source, outcome in zip(SEARCH_SOURCES, outcomes, strict=True)}


@pytest.mark.parametrize("query", GENERATED_QUERIES)
async def test_generated_overlap_pairwise_precision_and_recall(fake_server: Any, query: str) -> None:
    limit = 300
    results = await search_all(fake_server, query, limit)
    merged = merge_papers(results)
    truth = fake_server.app.truth_for(query, limit=limit)
    precision, recall = truth.evaluate(
        [[(e.source.value, e.source_id or "") for e in m.evidence] for m in merged]
    )
    assert precision >= 0.99, precision
    assert recall >= 0.98, recall
    # the universe lists a real share of papers in several services, so the test measures something
    assert truth.shared_fraction() > 0.3
    assert sum(len(m.evidence) > 1 for m in merged) > 0.3 * len(merged)
    # every record is in exactly one merged paper, and keys are unique
    assert sum(len(m.evidence) for m in merged) == sum(len(v) for v in results.values())
    assert len({m.key for m in merged}) == len(merged)


# The merged papers of the generated sets, as `results_aggregated.json` holds them (one JSON line each),
# hashed. Computed with the merge as it was before it was made faster for 3 x 10,000-record Runs
# (commit 77d2916: `git show 77d2916:agent/search/merge.py`): the faster code must merge the same
# records into the same bytes. If the fake sources, the clients or the models change on purpose, these
# change too: recompute them with the code of that commit on the new records, not with the new merge.
MERGED_DIGESTS = {
    "brain computer interface speech": "888c09f0576d8ea9b7d975a6b0391c7a93f29cdfdd0329b1fdf4d762663016cb",
    "deep learning ecg arrhythmia": "f9da02bbdc70f6d692d3b02893bcce5368bec48053a60f707bb6ffd6d663de32",
    "sleep spindles memory": "9976207fc951d057d18197a43a435e904be3a506af25f351937968f7a3d24083",
}


@pytest.mark.parametrize("query", GENERATED_QUERIES)
async def test_generated_merge_is_byte_for_byte_the_earlier_merge(fake_server: Any, query: str) -> None:
    results = await search_all(fake_server, query, 300)
    merged = merge_papers(results)
    written = b"\n".join(paper.__pydantic_serializer__.to_json(paper) for paper in merged)
    assert hashlib.sha256(written).hexdigest() == MERGED_DIGESTS[query]
