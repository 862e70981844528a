"""MeSH headings from indexing: what PubMed's indexers assign to the records a block finds.

The rules are tested on records built here against the MeSH table the product ships; the whole path
(esearch, efetch, the real parser, the execution check) runs the real `PubMedClient` over real recorded
records (`../shared/fixtures/pubmed`, through `tests.tools.test_pubmed`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx
import pytest

from agent.keywords.indexing_headings import attested_headings, searched_headings
from agent.keywords.query_check import check_queries
from agent.keywords.synonyms import SynonymSources
from agent.models import Concept, ConceptRole, KeywordPlan, MeshHeading, Paper, Source, Term
from tests.agent.keywords.keyword_fakes import FakePubMed
from tests.tools.test_pubmed import PUBMED, article_set, esearch_json, make_client, request_params
from tools.mesh import MeshFile
from tools.mesh_build import EMBEDDED_MESH

MESH = MeshFile(EMBEDDED_MESH)
KIDNEY_TRANSPLANTATION = "D016030"
TRANSPLANT_RECIPIENTS = "D066027"
CORONARY_ARTERY_DISEASE = "D003324"
HUMANS, MALE, AGED, RETROSPECTIVE = "D006801", "D008297", "D000368", "D012189"

CONCEPT = Concept(id="kidney", label="kidney transplant", role=ConceptRole.POPULATION)
TERMS = [Term(canonical="kidney transplant", slot="subject_population", concept="kidney")]


def records(assigned: dict[str, int], total: int = 20) -> list[Paper]:
    """`total` indexed records (each has Humans); descriptor `ui` on the first `assigned[ui]` of them."""
    return [
        Paper(
            title=f"record {i}",
            mesh_headings=[
                MeshHeading(descriptor=ui, ui=ui) for ui, n in {HUMANS: total, **assigned}.items() if i < n
            ],
        )
        for i in range(total)
    ]


def uis(found: list) -> list[str]:
    return [e.descriptor.ui for e in found]


def test_a_heading_most_records_carry_and_the_words_name_is_attested() -> None:
    sample = records(
        {
            KIDNEY_TRANSPLANTATION: 17,
            CORONARY_ARTERY_DISEASE: 15,  # what the records also discuss: no word of the block
            HUMANS: 20,
            MALE: 19,
            AGED: 12,
            RETROSPECTIVE: 11,  # check tags and study designs
        }
    )
    found = attested_headings(CONCEPT, TERMS, sample, set(), MESH)
    assert uis(found) == [KIDNEY_TRANSPLANTATION]
    assert (found[0].assigned, found[0].indexed, found[0].descriptor.heading) == (
        17,
        20,
        "Kidney Transplantation",
    )


def test_too_few_records_a_minority_share_or_a_searched_heading_attest_nothing() -> None:
    assert attested_headings(CONCEPT, TERMS, records({KIDNEY_TRANSPLANTATION: 4}, total=4), set(), MESH) == []
    assert attested_headings(CONCEPT, TERMS, records({KIDNEY_TRANSPLANTATION: 9}), set(), MESH) == []
    sample = records({KIDNEY_TRANSPLANTATION: 18, TRANSPLANT_RECIPIENTS: 12})
    assert uis(attested_headings(CONCEPT, TERMS, sample, {KIDNEY_TRANSPLANTATION}, MESH)) == [
        TRANSPLANT_RECIPIENTS
    ]
    # records without MeSH (in process, not MEDLINE) do not count as indexed
    unindexed = records({KIDNEY_TRANSPLANTATION: 10}) + [Paper(title="new") for _ in range(30)]
    assert uis(attested_headings(CONCEPT, TERMS, unindexed, set(), MESH)) == [KIDNEY_TRANSPLANTATION]


def test_an_ancestor_of_the_blocks_heading_is_not_added() -> None:
    pulmonary = MESH.get("D014397")  # Tuberculosis, Pulmonary
    terms = [Term(canonical="pulmonary tuberculosis", slot="x", concept="tb", mesh=pulmonary)]
    concept = Concept(id="tb", label="pulmonary tuberculosis")
    sample = records({"D014376": 20, "D014397": 20})  # Tuberculosis (its parent), itself
    assert attested_headings(concept, terms, sample, searched_headings(KeywordPlan(terms=terms)), MESH) == []


@dataclass
class IndexingPubMed(FakePubMed):
    """`FakePubMed` with the two calls the indexing step makes, answering every query with `sample`."""

    sample: list[Paper] = field(default_factory=list)

    async def esearch(self, query: str, *, retmax: int = 20, sort: str | None = None) -> object:
        self._called("esearch", query)
        return type("Found", (), {"ids": [str(i) for i in range(len(self.sample))][:retmax]})()

    async def efetch(self, pmids: list[str]) -> list[Paper]:
        self._called("efetch", ",".join(pmids))
        return self.sample


PLAN = KeywordPlan(
    terms=[
        Term(canonical="cardiac testing", slot="method_measurement", concept="testing"),
        Term(canonical="kidney transplant", slot="subject_population", concept="kidney"),
    ],
    concepts=[
        Concept(id="testing", label="cardiac testing", role=ConceptRole.METHOD),
        Concept(id="kidney", label="kidney transplant", role=ConceptRole.POPULATION),
    ],
)


async def test_the_execution_check_adds_the_heading_to_its_block_and_says_why() -> None:
    pubmed = IndexingPubMed(default=300, sample=records({KIDNEY_TRANSPLANTATION: 16, HUMANS: 20}))
    plan, queries = await check_queries(PLAN, SynonymSources(pubmed=pubmed, mesh_file=MESH), limit=10_000)
    assert [(t.canonical, t.concept) for t in plan.terms if t.mesh] == [("Kidney Transplantation", "kidney")]
    cardiac, kidney = queries.queries[Source.PUBMED].query.split(" AND ")
    assert cardiac == '("cardiac testing"[tiab])' and '"Kidney Transplantation"[Mesh]' in kidney
    assert any(
        "MeSH from indexing: 'Kidney Transplantation' is assigned to 16 of 20 PubMed records 'kidney transplant'"
        in note
        for note in plan.notes
    )
    assert pubmed.count_of("esearch") == 2 and pubmed.count_of("efetch") == 2  # one sample per block
    assert PLAN.terms_of("kidney")[0].mesh is None and len(PLAN.terms) == 2  # the caller's plan is unchanged


async def test_without_a_sampler_or_a_mesh_table_nothing_is_added() -> None:
    counter_only = FakePubMed(default=300)
    plan, _ = await check_queries(PLAN, SynonymSources(pubmed=counter_only, mesh_file=MESH), limit=10_000)
    assert plan.terms == PLAN.terms
    sampler = IndexingPubMed(default=300, sample=records({KIDNEY_TRANSPLANTATION: 16}))
    plan, _ = await check_queries(PLAN, SynonymSources(pubmed=sampler), limit=10_000)
    assert plan.terms == PLAN.terms and sampler.count_of("esearch") == 0


@pytest.mark.skipif(not PUBMED.is_dir(), reason="shared PubMed fixtures are missing")
async def test_the_real_client_reads_the_headings_of_real_records() -> None:
    """Six copies of a real record (34843274: Depression, Depressive Disorder, Humans, age groups,
    Societies, Scientific) through the real client: the depression headings join the block of
    "depressive symptoms"; Humans and the age groups, on every record, do not; nor does the society."""
    pmids = [str(40_000_000 + i) for i in range(6)]

    def respond(request: httpx.Request) -> httpx.Response:
        params = request_params(request)
        if request.url.path.endswith("esearch.fcgi"):
            if params.get("retmax") == "0":
                return esearch_json(count="1200", retmax="0", retstart="0", idlist=[])
            assert params.get("sort") == "relevance"
            return esearch_json(count="1200", retmax="6", retstart="0", idlist=pmids)
        return article_set(params["id"].split(","))

    client, recorder = make_client(respond)
    plan = KeywordPlan(
        terms=[Term(canonical="depressive symptoms", slot="output_target", concept="dep")],
        concepts=[Concept(id="dep", label="depressive symptoms", role=ConceptRole.OUTCOME)],
    )
    checked, queries = await check_queries(plan, SynonymSources(pubmed=client, mesh_file=MESH), limit=10_000)
    assert sorted(t.canonical for t in checked.terms if t.mesh) == ["Depression", "Depressive Disorder"]
    assert '"Depression"[Mesh]' in queries.queries[Source.PUBMED].query
    assert any("6 of 6 PubMed records" in note for note in checked.notes)


def test_check_tags_and_designs_are_not_added_even_when_the_words_name_them() -> None:
    terms = [Term(canonical="aged human participants in retrospective studies", slot="x", concept="p")]
    sample = records({AGED: 20, MALE: 20, RETROSPECTIVE: 20})
    assert attested_headings(Concept(id="p", label="participants"), terms, sample, set(), MESH) == []
