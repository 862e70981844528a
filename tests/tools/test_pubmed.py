"""PubMed E-utilities client against the real recorded responses in ../shared/fixtures/pubmed.

Recorded efetch/esearch bodies are served through httpx.MockTransport. Where no recording exists
(esearch in JSON mode, with errorlist/warninglist; MedlineDate; MathML titles), the responses are
built from the shapes documented in ../shared/fixtures/API_NOTES.md and say so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest

from agent.models import Source
from tests.paths import FIXTURES
from tools.base import PageProgress
from tools.cache import ResponseCache
from tools.errors import BadQuery, BadResponse, EmptyQuery, ServiceCallError, SourceUnavailable
from tools.http import HttpPolicy, SourceConfig
from tools.pubmed import EFETCH_BATCH, PubMedClient
from tools.pubmed_xml import parse_pubmed_xml, year_from_text

PUBMED = FIXTURES / "pubmed"
BASE = "https://eutils.test/entrez/eutils"
SECRET = "SECRETKEY0123456789abcdef"

pytestmark = pytest.mark.skipif(not PUBMED.is_dir(), reason="shared PubMed fixtures are missing")


# ----------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------


def fixture_body(path: Path) -> tuple[int, list[tuple[str, str]], bytes]:
    """(status, headers, body) of a fixture: a wrapper JSON (see SOURCES.md) or a bare body file."""
    raw = path.read_bytes()
    if path.suffix == ".json":
        wrapped = json.loads(raw)
        if {"status", "body", "body_format"} <= wrapped.keys():
            headers = [
                (name, value)
                for name, values in wrapped["headers"].items()
                for value in (values if isinstance(values, list) else [values])
            ]
            body = wrapped["body"]
            content = json.dumps(body).encode() if wrapped["body_format"] == "json" else body.encode()
            return wrapped["status"], headers, content
    return 200, [("content-type", "text/xml; charset=UTF-8")], raw


def fixture_response(name: str) -> httpx.Response:
    status, headers, content = fixture_body(PUBMED / name)
    return httpx.Response(status, headers=headers, content=content)


def request_params(request: httpx.Request) -> dict[str, str]:
    """Query-string and form parameters of a request, merged (E-utilities accepts both)."""
    params = dict(request.url.params)
    if request.method == "POST":
        params.update({k: v[0] for k, v in parse_qs(request.content.decode()).items()})
    return params


class Recorder:
    """A MockTransport handler that records every request and answers through `respond`."""

    def __init__(self, respond: Callable[[httpx.Request], httpx.Response]) -> None:
        self.respond = respond
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.respond(request)


def make_client(
    respond: Callable[[httpx.Request], httpx.Response], *, api_key: str | None = None, **config: object
) -> tuple[PubMedClient, Recorder]:
    recorder = Recorder(respond)
    settings: dict[str, object] = {"service": "pubmed", "base_url": BASE, "rate": 1000, "backoff": 0.01}
    settings.update(config)
    http = HttpPolicy(httpx.AsyncClient(transport=httpx.MockTransport(recorder)), SourceConfig(**settings))  # type: ignore[arg-type]
    return PubMedClient(http, api_key=api_key, email="dev@example.org"), recorder


def esearch_json(**result: object) -> httpx.Response:
    """An esearch answer in JSON mode, in the shape API_NOTES.md documents (numbers are strings)."""
    body = {"header": {"type": "esearch", "version": "0.3"}, "esearchresult": result}
    return httpx.Response(200, json=body)


# One real record (34843274) used as the template for generated efetch answers: every generated
# record is that real article with its PMID replaced, so batching tests exercise the real parser.
_TEMPLATE = re.search(
    r"<PubmedArticle>.*</PubmedArticle>", (PUBMED / "metapub_efetch_pmid_34843274.xml").read_text(), re.S
)


def article_set(pmids: list[str]) -> httpx.Response:
    assert _TEMPLATE is not None
    records = "".join(_TEMPLATE.group(0).replace("34843274", pmid) for pmid in pmids)
    return httpx.Response(200, text=f'<?xml version="1.0" ?>\n<PubmedArticleSet>{records}</PubmedArticleSet>')


def efetch_fixture_files() -> list[Path]:
    return sorted(p for p in PUBMED.iterdir() if "efetch" in p.name)


# ----------------------------------------------------------------------------------------------
# every recorded record parses
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", efetch_fixture_files(), ids=lambda p: p.name)
async def test_every_efetch_fixture_parses_through_the_client(path: Path) -> None:
    pmid = re.search(r"pmid_(\d+)", path.name).group(1)  # type: ignore[union-attr]
    client, recorder = make_client(lambda request: fixture_response(path.name))
    papers = await client.efetch([pmid])
    assert recorder.requests[0].url.path.endswith("/efetch.fcgi")
    if pmid == "37909814":  # recorded as an empty PubmedArticleSet: unknown to efetch
        assert papers == []
        return
    assert [p.pmid for p in papers] == [pmid]
    paper = papers[0]
    assert paper.source is Source.PUBMED and paper.source_rank is None
    assert paper.title and paper.year and paper.venue
    assert "<" not in paper.title
    for author in paper.authors:
        assert author.name and all(a.raw for a in author.affiliations)


@pytest.mark.parametrize("name", ["bce_esearch_pubmed_author_xml.json", "bce_esearch_medgen_xml.json"])
async def test_recorded_xml_esearch_answers_parse(name: str) -> None:
    client, _ = make_client(lambda request: fixture_response(name))
    result = await client.esearch("hart rk[author]")
    assert result.count == len(result.ids) > 0
    assert result.webenv and result.webenv.startswith("MCID_") and result.query_key == "1"
    assert result.query_translation


async def test_recorded_esearch_translation_set_and_stack() -> None:
    client, _ = make_client(lambda request: fixture_response("bce_esearch_pubmed_author_xml.json"))
    result = await client.esearch("hart rk[author]")
    assert result.count == 34 and result.ids[0] == "40455089" and result.ids[-1] == "6067859"
    assert result.query_translation == "hart, rk[Author] OR hart rk[Author]"
    assert result.translation_set[0].from_ == "hart rk[author]"
    assert result.translation_set[0].to == "Hart, Rk[Full Author Name] OR hart rk[Author]"

    client, _ = make_client(lambda request: fixture_response("bce_esearch_medgen_xml.json"))
    medgen = await client.esearch("OCRL")
    term, operator = medgen.translation_stack
    assert term.term == "OCRL[All Fields]" and term.field == "All Fields" and term.count == 5  # type: ignore[union-attr]
    assert term.explode is False and operator == "GROUP"  # type: ignore[union-attr]


# ----------------------------------------------------------------------------------------------
# named records, field by field
# ----------------------------------------------------------------------------------------------


def parse_fixture(name: str):
    return parse_pubmed_xml(fixture_body(PUBMED / name)[2])


def test_chinese_affiliations_of_35108047() -> None:
    (paper,) = parse_fixture("metapub_efetch_pmid_35108047.xml")
    assert paper.pmid == "35108047"
    assert paper.doi == "10.1126/sciadv.abl6449"
    assert paper.pmcid == "PMC8809544"
    assert (
        paper.title
        == "Injectable hydrogel microspheres with self-renewable hydration layers alleviate osteoarthritis."
    )
    assert paper.venue == "Science advances"
    assert paper.year == 2022 and paper.publication_date == "2022-02-04"
    assert paper.languages == ["eng"] and paper.publication_types == ["Journal Article"]
    assert paper.mesh_headings == [] and paper.abstract and paper.abstract_sections == []
    assert [a.family for a in paper.authors] == [
        "Lei", "Wang", "Shen", "Cai", "Zhao", "Chen", "Luo", "Hu", "Cui", "Huang",
    ]  # fmt: skip
    first, cai, last = paper.authors[0], paper.authors[3], paper.authors[-1]
    assert (first.name, first.given, first.position, first.orcid) == (
        "Yiting Lei",
        "Yiting",
        1,
        "0000-0001-5359-4103",
    )
    assert first.affiliations[0].raw == (
        "Department of Orthopedics, The First Affiliated Hospital of Chongqing Medical University, Orthopedic "
        "Laboratory of Chongqing Medical University, No. 1 Youyi Road, Yuzhong District, Chongqing 400016, P. R. China."
    )
    assert cai.orcid is None and cai.position == 4
    assert cai.affiliations[0].raw.startswith("Department of Orthopaedics, Shanghai Key Laboratory")
    assert "Shanghai Jiao Tong University School of Medicine" in cai.affiliations[0].raw
    assert cai.affiliations[0].raw.endswith("Shanghai 200025, P. R. China.")
    assert last.name == "Wei Huang" and last.is_last and not first.is_last
    assert all(
        len(a.affiliations) == 1 and a.affiliations[0].raw.endswith("P. R. China.") for a in paper.authors
    )


def test_39_authors_and_123_affiliations_of_39236155() -> None:
    (paper,) = parse_fixture("metapub_efetch_pmid_39236155.xml")
    assert paper.pmid == "39236155" and paper.doi == "10.1126/science.adn0327" and paper.pmcid == "PMC7616710"
    assert len(paper.authors) == 39
    assert sum(len(a.affiliations) for a in paper.authors) == 123
    assert [a.position for a in paper.authors] == list(range(1, 40))
    park = paper.authors[0]
    assert (park.family, park.given, park.orcid) == ("Park", "Matthew D", "0000-0003-3488-3262")
    assert [a.raw for a in park.affiliations] == [
        "Department of Immunology and Immunotherapy, Icahn School of Medicine at Mount Sinai, New York, NY 10029, USA.",
        "Marc and Jennifer Lipschultz Precision Immunology Institute, Icahn School of Medicine at Mount Sinai, New York, NY 10029, USA.",
        "The Tisch Cancer Institute, Icahn School of Medicine at Mount Sinai, New York, NY 10029, USA.",
    ]
    merad = paper.authors[-1]
    assert merad.family == "Merad" and merad.is_last and len(merad.affiliations) == 4
    assert sum(1 for a in paper.authors if a.orcid) == 29
    assert len(paper.mesh_headings) == 14
    assert paper.title.startswith("Hematopoietic aging promotes cancer")
    assert paper.year == 2024 and paper.venue == "Science (New York, N.Y.)"


def test_book_record_20301577() -> None:
    (book,) = parse_fixture("metapub_efetch_pmid_20301577_book.xml")
    assert book.is_book and book.pmid == "20301577"
    assert book.title == "CACNA1C-Related Disorders"  # <i>CACNA1C</i> markup dropped
    assert book.venue == "GeneReviews®"  # GeneReviews<sup>&#xae;</sup>
    assert book.year == 1993 and book.publication_date == "1993"
    assert book.doi is None and book.pmcid is None  # only a bookaccession id; cited works' ids ignored
    assert [(a.name, a.position) for a in book.authors] == [("Carlo Napolitano", 1), ("Silvia G Priori", 2)]
    assert [len(a.affiliations) for a in book.authors] == [2, 1]
    assert book.authors[0].affiliations[1].raw.startswith("European Reference Network for Rare")
    assert [s.label for s in book.abstract_sections] == [
        "CLINICAL CHARACTERISTICS", "DIAGNOSIS/TESTING", "MANAGEMENT", "GENETIC COUNSELING",
    ]  # fmt: skip
    assert book.abstract and book.abstract.startswith(
        "CLINICAL CHARACTERISTICS: The clinical manifestations of CACNA1C"
    )
    assert "\nDIAGNOSIS/TESTING: The diagnosis of a CACNA1C-related disorder" in book.abstract
    assert "Copyright" not in book.abstract
    assert book.publication_types == ["Review"] and book.languages == ["eng"]
    assert book.keywords.count("Timothy Syndrome") == 1 and "CACNA1C" in book.keywords
    assert book.mesh_headings == []


def test_group_author_34843274() -> None:
    (paper,) = parse_fixture("metapub_efetch_pmid_34843274.xml")
    (group,) = paper.authors
    assert (
        group.collective
        and group.name == "Guideline Development Panel for the Treatment of Depressive Disorders"
    )
    assert group.given is None and group.family is None and group.orcid is None and group.position == 1
    assert paper.doi == "10.1037/amp0000904"
    assert paper.year == 2022 and paper.publication_date == "2022-09"  # issue date, not the 2021 e-date
    assert paper.venue == "The American psychologist"
    depression = next(h for h in paper.mesh_headings if h.descriptor == "Depression")
    assert depression.ui == "D003863" and depression.major and depression.qualifiers == ["therapy"]
    humans = next(h for h in paper.mesh_headings if h.descriptor == "Humans")
    assert not humans.major and humans.qualifiers == []
    assert [h.descriptor for h in paper.mesh_headings if h.major] == ["Depression", "Depressive Disorder"]


def test_vernacular_titles_languages_and_structured_abstract() -> None:
    (german,) = parse_fixture("metapub_efetch_pmid_38048813.xml")
    assert german.title == "A Broader Scope - Bio-Psycho-Social Medicine In Global Focus."  # brackets removed
    assert german.vernacular_title == "A Broader Scope – Bio-psycho-soziale Medizin im globalen Fokus."
    assert german.languages == ["ger"] and german.abstract is None

    (norwegian,) = parse_fixture("metapub_efetch_pmid_36987902.xml")
    assert norwegian.languages == ["eng", "nor"]
    assert norwegian.vernacular_title and norwegian.vernacular_title.startswith(
        "Pasienter over 75 år innlagt"
    )  # NBSP folded
    assert [s.label for s in norwegian.abstract_sections] == [
        "BACKGROUND",
        "MATERIAL AND METHOD",
        "RESULTS",
        "INTERPRETATION",
    ]


def test_old_records_take_the_doi_from_the_article_id_list_and_erratum_has_no_authors() -> None:
    (old,) = parse_fixture("metapub_efetch_pmid_11636720.xml")
    assert old.year == 1973 and old.doi == "10.1163/156852873x00014" and old.abstract is None
    (erratum,) = parse_fixture("metapub_efetch_pmid_38962805.xml")
    assert erratum.authors == [] and erratum.title == "Correction."
    # its CommentsCorrections names another PMID (38446048); that must not become this record's id
    assert erratum.pmid == "38962805" and erratum.doi == "10.1080/09540121.2024.2374185"


# Built from the PubMed DTD's documented elements (no recording has MedlineDate or MathML).
SYNTHETIC = """<?xml version="1.0" ?>
<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID Version="1">999</PMID><Article>
<Journal><JournalIssue><PubDate><MedlineDate>1998 Dec-1999 Jan</MedlineDate></PubDate></JournalIssue>
<ISOAbbreviation>J Test</ISOAbbreviation></Journal>
<ArticleTitle>CO<sub>2</sub> uptake of <i>E. coli</i> at 10<sup>5</sup> cells and
 <mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML"><mml:mi>x</mml:mi><mml:mo>+</mml:mo><mml:mn>1</mml:mn></mml:math></ArticleTitle>
<ELocationID EIdType="doi" ValidYN="Y">https://doi.org/10.1000/ABC.1</ELocationID>
<AuthorList><Author ValidYN="Y"><LastName>Li</LastName><Initials>X</Initials>
<Identifier Source="ORCID">https://orcid.org/0000-0002-1825-009x</Identifier>
<AffiliationInfo><Affiliation>Peking University, Beijing, China.</Affiliation>
<Identifier Source="ROR">https://ror.org/02v51f717</Identifier></AffiliationInfo>
<AffiliationInfo><Affiliation>Tsinghua University, Beijing, China.</Affiliation></AffiliationInfo></Author>
<Author ValidYN="N"><LastName>Removed</LastName></Author></AuthorList>
</Article><MeshHeadingList><MeshHeading><DescriptorName UI="D1" MajorTopicYN="N">Bacteria</DescriptorName>
<QualifierName UI="Q1" MajorTopicYN="Y">metabolism</QualifierName></MeshHeading></MeshHeadingList>
</MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="doi">10.9999/other</ArticleId></ArticleIdList>
<ReferenceList><Reference><ArticleIdList><ArticleId IdType="pmc">PMC1</ArticleId></ArticleIdList></Reference></ReferenceList>
</PubmedData></PubmedArticle></PubmedArticleSet>"""


def test_synthetic_edge_cases_medline_date_markup_orcid_and_doi_precedence() -> None:
    (paper,) = parse_pubmed_xml(SYNTHETIC)
    assert paper.year == 1998 and paper.publication_date == "1998"
    assert paper.title == "CO2 uptake of E. coli at 105 cells and x+1"
    assert paper.venue == "J Test"
    assert paper.doi == "10.1000/abc.1"  # ELocationID wins over the article id list
    assert paper.pmcid is None  # the PMC id belongs to a cited reference
    (author,) = paper.authors  # the ValidYN="N" author is dropped
    assert author.name == "X Li" and author.orcid == "0000-0002-1825-009X"
    assert [(a.raw, a.ror) for a in author.affiliations] == [
        ("Peking University, Beijing, China.", "https://ror.org/02v51f717"),
        ("Tsinghua University, Beijing, China.", None),
    ]
    assert paper.mesh_headings[0].major  # major through its qualifier


def test_year_from_medline_date_text() -> None:
    assert year_from_text("1998 Dec-1999 Jan") == 1998
    assert year_from_text("2019 Nov-Dec") == 2019
    assert year_from_text("Spring 2001") == 2001
    assert year_from_text("n.d.") is None


# ----------------------------------------------------------------------------------------------
# esearch: in-band errors and warnings (JSON mode; shapes from API_NOTES.md)
# ----------------------------------------------------------------------------------------------


async def test_esearch_json_translation_and_parameters() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        return esearch_json(
            count="84", retmax="2", retstart="0", idlist=["111", "222"],
            translationset=[{"from": "heart attack", "to": '"myocardial infarction"[MeSH Terms]'}],
            translationstack=[
                {"term": '"myocardial infarction"[MeSH Terms]', "field": "MeSH Terms", "count": "200000", "explode": "Y"},
                {"term": "heart attack[All Fields]", "field": "All Fields", "count": "9000", "explode": "N"},
                "OR", "GROUP",
            ],
            querytranslation='"myocardial infarction"[MeSH Terms] OR heart attack[All Fields]',
        )  # fmt: skip

    client, recorder = make_client(respond, api_key=SECRET)
    result = await client.esearch("heart attack", retmax=2, sort="pub_date")
    assert result.count == 84 and result.ids == ["111", "222"] and result.retmax == 2
    assert result.query_translation == '"myocardial infarction"[MeSH Terms] OR heart attack[All Fields]'
    assert result.translation_set[0].to == '"myocardial infarction"[MeSH Terms]'
    assert result.translation_stack[0].explode and result.translation_stack[0].count == 200000  # type: ignore[union-attr]
    assert result.translation_stack[2:] == ["OR", "GROUP"]
    assert result.warnings == [] and result.errors == [] and result.webenv is None
    (request,) = recorder.requests
    params = request_params(request)
    assert request.method == "GET" and request.url.path == "/entrez/eutils/esearch.fcgi"
    assert params["db"] == "pubmed" and params["term"] == "heart attack" and params["retmode"] == "json"
    assert (
        params["sort"] == "pub_date"
        and params["tool"] == "scholarmap"
        and params["email"] == "dev@example.org"
    )
    assert params["api_key"] == SECRET and "usehistory" not in params


async def test_phrase_not_found_with_the_rest_searched_becomes_a_warning() -> None:
    client, _ = make_client(
        lambda request: esearch_json(
            count="12",
            retmax="12",
            retstart="0",
            idlist=["1"],
            querytranslation="cancer[All Fields]",
            errorlist={"phrasesnotfound": ["qwxzv"], "fieldsnotfound": ["tiabx"]},
            warninglist={
                "phrasesignored": ["the"],
                "quotedphrasesnotfound": ['"blue hydrogel"'],
                "outputmessages": [],
            },
        )  # fmt: skip
    )
    result = await client.esearch("qwxzv cancer[tiabx] the")
    assert result.count == 12
    assert result.errors == ["phrase not found: qwxzv", "field not found: tiabx"]
    assert result.warnings == [
        "PubMed did not find the phrase 'qwxzv' and left it out of the search",
        "PubMed does not know the field [tiabx] and ignored it",
        "PubMed ignored the phrase 'the'",
        "PubMed did not find the quoted phrase '\"blue hydrogel\"'",
    ]


async def test_errorlist_that_leaves_nothing_searchable_is_a_bad_query() -> None:
    client, _ = make_client(
        lambda request: esearch_json(
            count="0",
            retmax="0",
            retstart="0",
            idlist=[],
            translationset=[],
            querytranslation="",
            errorlist={"phrasesnotfound": ["qwxzvplk"], "fieldsnotfound": []},
            warninglist={
                "phrasesignored": [],
                "quotedphrasesnotfound": [],
                "outputmessages": ["No items found."],
            },
        )  # fmt: skip
    )
    with pytest.raises(BadQuery) as caught:
        await client.esearch("qwxzvplk")
    assert caught.value.service == "pubmed"
    assert "PubMed found nothing searchable" in str(caught.value) and "qwxzvplk" in str(caught.value)


async def test_zero_hits_for_a_searchable_query_is_not_an_error() -> None:
    client, _ = make_client(
        lambda request: esearch_json(
            count="0",
            retmax="0",
            retstart="0",
            idlist=[],
            querytranslation="zebrafish[All Fields] AND mars[All Fields]",
            warninglist={"outputmessages": ["No items found."]},
        )  # fmt: skip
    )
    result = await client.esearch("zebrafish mars")
    assert result.count == 0 and result.warnings == ["PubMed: No items found."]


async def test_top_level_error_is_a_bad_query_and_backend_failure_is_unavailable() -> None:
    client, _ = make_client(lambda request: esearch_json(ERROR="Invalid query: unbalanced parentheses"))
    with pytest.raises(BadQuery, match="PubMed rejected the query: Invalid query"):
        await client.esearch("(cancer")
    client, _ = make_client(lambda request: esearch_json(ERROR="Search Backend failed: please try again"))
    with pytest.raises(SourceUnavailable, match="pubmed: PubMed search failed on its side"):
        await client.esearch("cancer")


async def test_count_uses_retmax_zero_and_is_cached(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite")
    recorder = Recorder(lambda request: esearch_json(count="4321", retmax="0", retstart="0", idlist=[]))
    config = SourceConfig(service="pubmed", base_url=BASE, rate=1000, backoff=0.01, cache_ttl=60)
    client = PubMedClient(
        HttpPolicy(httpx.AsyncClient(transport=httpx.MockTransport(recorder)), config, cache=cache),
        api_key=SECRET,
    )
    assert await client.count("asthma") == 4321
    assert await client.count("asthma") == 4321
    assert len(recorder.requests) == 1 and request_params(recorder.requests[0])["retmax"] == "0"
    # history sessions expire, so usehistory answers are never served from the cache
    await client.esearch("asthma", usehistory=True)
    await client.esearch("asthma", usehistory=True)
    assert len(recorder.requests) == 3
    # a search asks afresh (new papers appear daily); only hit counts come from the cache
    await client.search("asthma", limit=5)
    await client.search("asthma", limit=5)
    assert len(recorder.requests) == 5
    cache.close()


async def test_long_queries_are_posted_as_a_form() -> None:
    client, recorder = make_client(lambda request: esearch_json(count="5", idlist=[], querytranslation="x"))
    query = " OR ".join(f'"term number {i}"[tiab]' for i in range(120))
    assert len(query) > 1800
    await client.esearch(query)
    (request,) = recorder.requests
    assert request.method == "POST" and "term" not in request.url.params
    assert request_params(request)["term"] == query


async def test_empty_query_is_refused_before_any_request() -> None:
    client, recorder = make_client(lambda request: esearch_json(count="1"))
    for call in (client.esearch("   "), client.count(""), client.search("\n\t", limit=10)):
        with pytest.raises(EmptyQuery) as caught:
            await call
        assert caught.value.service == "pubmed"
    assert await client.efetch([]) == []
    assert recorder.requests == []


# ----------------------------------------------------------------------------------------------
# efetch batching and history paging
# ----------------------------------------------------------------------------------------------


async def test_efetch_sends_batches_of_at_most_200_ids_and_keeps_order() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        ids = request_params(request)["id"].split(",")
        return article_set(list(reversed(ids)))  # efetch order is not guaranteed; ours is

    client, recorder = make_client(respond)
    pmids = [str(100000 + i) for i in range(450)]
    papers = await client.efetch(pmids + pmids[:5])  # duplicates are fetched once
    assert [p.pmid for p in papers] == pmids
    assert len(recorder.requests) == 3
    sizes = [len(request_params(r)["id"].split(",")) for r in recorder.requests]
    assert sorted(sizes) == [50, 200, 200] and max(sizes) <= EFETCH_BATCH
    assert all(r.method == "POST" and request_params(r)["retmode"] == "xml" for r in recorder.requests)
    assert papers[0].authors[0].collective  # the real template record was parsed


async def test_efetch_rejects_non_numeric_ids() -> None:
    client, recorder = make_client(lambda request: article_set([]))
    with pytest.raises(BadQuery, match="numeric PMIDs"):
        await client.efetch(["123", "10.1000/xyz"])
    assert recorder.requests == []


async def test_search_pages_through_the_history_server_with_progress() -> None:
    webenv = "MCID_test_webenv"

    def respond(request: httpx.Request) -> httpx.Response:
        params = request_params(request)
        if request.url.path.endswith("esearch.fcgi"):
            assert params["usehistory"] == "y" and params["retmax"] == "0"
            return esearch_json(
                count="1000", retmax="0", retstart="0", idlist=[], querykey="1", webenv=webenv,
                querytranslation="asthma[MeSH Terms]",
                warninglist={"phrasesignored": ["of"]},
            )  # fmt: skip
        assert params["WebEnv"] == webenv and params["query_key"] == "1"
        start, size = int(params["retstart"]), int(params["retmax"])
        return article_set([str(500000 + i) for i in range(start, start + size)])

    client, recorder = make_client(respond)
    progress: list[PageProgress] = []

    async def on_page(update: PageProgress) -> None:
        progress.append(update)

    outcome = await client.search("asthma of children", limit=450, on_page=on_page)
    assert outcome.total == 1000 and outcome.pages == 3 and outcome.service == "pubmed"
    assert outcome.translation == "asthma[MeSH Terms]"
    assert outcome.warnings == ["PubMed ignored the phrase 'of'"]
    assert [p.pmid for p in outcome.papers] == [str(500000 + i) for i in range(450)]
    assert [p.source_rank for p in outcome.papers] == list(range(1, 451))
    fetches = sorted(
        (int(request_params(r)["retstart"]), int(request_params(r)["retmax"]))
        for r in recorder.requests
        if r.url.path.endswith("efetch.fcgi")
    )
    assert fetches == [(0, 200), (200, 200), (400, 50)]
    assert [p.page for p in progress] == [1, 2, 3]
    assert progress[-1].fetched == 450 and all(p.total == 1000 and p.service == "pubmed" for p in progress)
    assert sorted(p.fetched for p in progress) == [p.fetched for p in progress]


async def test_large_search_with_no_hits_fetches_nothing() -> None:
    client, recorder = make_client(
        lambda request: esearch_json(count="0", idlist=[], querytranslation="zebrafish[All Fields]")
    )
    outcome = await client.search("zebrafish", limit=1000)
    assert outcome.total == 0 and outcome.papers == [] and outcome.pages == 0 and outcome.warnings == []
    assert len(recorder.requests) == 1


async def test_small_search_fetches_by_id_and_ranks_in_pubmed_order() -> None:
    ids = ["333", "111", "222"]

    def respond(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("esearch.fcgi"):
            assert "usehistory" not in request_params(request)
            return esearch_json(
                count="3", retmax="3", retstart="0", idlist=ids, querytranslation="x[All Fields]"
            )
        return article_set(sorted(request_params(request)["id"].split(",")))

    client, recorder = make_client(respond)
    pages: list[PageProgress] = []
    outcome = await client.search("x", limit=20, on_page=pages.append)
    assert [(p.pmid, p.source_rank) for p in outcome.papers] == [("333", 1), ("111", 2), ("222", 3)]
    assert outcome.pages == 1 and pages == [PageProgress("pubmed", 1, 3, 3)]
    assert len(recorder.requests) == 2


async def test_a_missing_record_is_reported_as_a_warning() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("esearch.fcgi"):
            return esearch_json(count="2", idlist=["1", "2"], querytranslation="x")
        return article_set(["1"])

    client, _ = make_client(respond)
    outcome = await client.search("x", limit=5)
    assert [p.pmid for p in outcome.papers] == ["1"]
    assert outcome.warnings == [
        "PubMed returned 1 of the 2 records requested (the others may have been withdrawn or merged)"
    ]


async def test_a_failing_page_fails_the_search() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("esearch.fcgi"):
            return esearch_json(count="600", idlist=[], querykey="1", webenv="W", querytranslation="x")
        if request_params(request)["retstart"] == "200":
            return httpx.Response(200, text="<PubmedArticleSet><PubmedArticle>")  # truncated body
        start, size = int(request_params(request)["retstart"]), int(request_params(request)["retmax"])
        return article_set([str(i) for i in range(start + 1, start + size + 1)])

    client, _ = make_client(respond)
    with pytest.raises(BadResponse, match="malformed XML"):
        await client.search("x", limit=600)


# ----------------------------------------------------------------------------------------------
# bad bodies and secrets
# ----------------------------------------------------------------------------------------------


async def test_malformed_xml_is_a_bad_response_naming_pubmed() -> None:
    client, _ = make_client(
        lambda request: httpx.Response(200, text="<PubmedArticleSet><PubmedArticle><Medline")
    )
    with pytest.raises(BadResponse) as caught:
        await client.efetch(["1"])
    assert caught.value.service == "pubmed" and "PubMed efetch returned malformed XML" in str(caught.value)

    client, _ = make_client(
        lambda request: httpx.Response(200, text="<!DOCTYPE html><html><body><p>Down<br></body></html>")
    )
    with pytest.raises(BadResponse, match="PubMed efetch returned an HTML page"):
        await client.efetch(["1"])

    client, _ = make_client(
        lambda request: httpx.Response(200, text="<eFetchResult><ERROR>Empty id list</ERROR></eFetchResult>")
    )
    with pytest.raises(BadQuery, match="Empty id list"):
        await client.efetch(["1"])

    client, _ = make_client(lambda request: httpx.Response(200, text='{"esearchresult": {"count": "many"}}'))
    with pytest.raises(BadResponse, match="count is not a number"):
        await client.esearch("x")


@pytest.mark.parametrize(
    "respond",
    [
        # NCBI's answer to a bad key echoes the key back (as documented in API_NOTES.md for 429s too)
        lambda request: httpx.Response(400, json={"error": f"API key invalid {SECRET}", "api-key": SECRET}),
        lambda request: httpx.Response(429, json={"error": "API rate limit exceeded", "api-key": SECRET}),
        lambda request: esearch_json(ERROR=f"Invalid api_key={SECRET}"),
        lambda request: httpx.Response(200, json={"error": f"API key invalid: {SECRET}"}),
        lambda request: httpx.Response(
            200, text=f"<eFetchResult><ERROR>bad key {SECRET}</ERROR></eFetchResult>"
        ),
        lambda request: httpx.Response(200, text=f"<PubmedArticleSet>{SECRET}<oops"),
        lambda request: httpx.Response(503, text=f"busy {SECRET}"),
    ],
)
async def test_api_key_never_appears_in_an_error(respond: Callable[[httpx.Request], httpx.Response]) -> None:
    client, recorder = make_client(respond, api_key=SECRET, retries=1)
    for call in (client.esearch("cancer"), client.efetch(["1"])):
        with pytest.raises(ServiceCallError) as caught:
            await call
        error = caught.value
        assert error.service == "pubmed"
        assert SECRET not in str(error) and SECRET not in error.message and SECRET not in repr(error)
    assert recorder.requests and all(request_params(r)["api_key"] == SECRET for r in recorder.requests)
