"""Semantic Scholar client against the real recorded responses in the shared fixtures (MockTransport)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from agent.models import Author, Paper, Source
from tests.paths import FIXTURES
from tools.base import PageProgress
from tools.errors import BadQuery, EmptyQuery, NotFound, RateLimited, SourceUnavailable
from tools.http import HttpPolicy, SourceConfig
from tools.semantic_scholar import DEFAULT_FIELDS, SemanticScholarClient, paper_from_s2, paper_id_for

DIR = FIXTURES / "semantic_scholar"
BASE = "https://api.semanticscholar.test/graph/v1"
SECRET = "s2-SECRET-key-5678"
Handler = Callable[[httpx.Request], httpx.Response]


def load(name: str) -> dict[str, Any]:
    return json.loads((DIR / name).read_text(encoding="utf-8"))


def replay(name: str) -> httpx.Response:
    """A wrapped fixture as the HTTP response it records (status, headers, body)."""
    data = load(name)
    headers = [
        (key, item)
        for key, value in data["headers"].items()
        for item in (value if isinstance(value, list) else [value])
    ]
    body = data["body"]
    content = json.dumps(body).encode() if data["body_format"] == "json" else body.encode()
    return httpx.Response(data["status"], headers=headers, content=content)


class Server:
    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.clients: list[httpx.AsyncClient] = []

    def client(
        self, handler: Handler, *, api_key: str | None = None, retries: int = 2
    ) -> SemanticScholarClient:
        def record(request: httpx.Request) -> httpx.Response:
            self.requests.append(request)
            return handler(request)

        http_client = httpx.AsyncClient(transport=httpx.MockTransport(record))
        self.clients.append(http_client)
        config = SourceConfig(
            service="semantic_scholar", base_url=BASE, rate=1000, backoff=0.01, retries=retries
        )
        return SemanticScholarClient(HttpPolicy(http_client, config), api_key=api_key)


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    srv = Server()
    yield srv
    for client in srv.clients:
        await client.aclose()


def always(name: str) -> Handler:
    return lambda request: replay(name)


def in_turn(*names: str) -> Handler:
    queue = list(names)
    return lambda request: replay(queue.pop(0))


# ----------------------------------------------------------------------------------------------
# Every fixture parses
# ----------------------------------------------------------------------------------------------

ALL_FILES = sorted(p.name for p in DIR.glob("*.json"))
ERROR_TYPES = {400: BadQuery, 403: SourceUnavailable, 404: NotFound, 429: RateLimited, 500: SourceUnavailable}


def test_fixture_folder_is_there() -> None:
    assert len(ALL_FILES) >= 32, f"expected the shared Semantic Scholar fixtures in {DIR}"


@pytest.mark.parametrize("name", ALL_FILES)
async def test_every_fixture_parses_through_the_client(server: Server, name: str) -> None:
    data = load(name)
    status, body = data["status"], data["body"]
    client = server.client(always(name), api_key=SECRET, retries=1)
    if status >= 400:
        with pytest.raises(ERROR_TYPES.get(status, SourceUnavailable)) as caught:
            await client.get_paper("DOI:10.1/x")
        assert caught.value.service == "semantic_scholar" and SECRET not in str(caught.value)
    elif isinstance(body, list):  # POST /paper/batch
        papers = await client.get_papers([f"CorpusId:{i}" for i in range(len(body))])
        assert [p is None for p in papers] == [r is None for r in body]
    elif "token" in body:
        outcome = await client.search_bulk("x", limit=len(body["data"]))
        assert len(outcome.papers) == len(body["data"]) and outcome.total == body["total"]
    elif "total" in body:
        outcome = await client.search_relevance("x", limit=max(1, len(body.get("data", []))))
        assert len(outcome.papers) == len(body.get("data", [])) and outcome.total == body["total"]
    elif "/authors" in data["request"]["url"]:
        authors = await client.paper_authors("10.2139/ssrn.2250500")
        assert [a.semantic_scholar_id for a in authors] == [a["authorId"] for a in body["data"]]
    elif "data" in body:  # /paper/search/match
        paper = await client.match_title("x")
        assert (paper is None) == (not body["data"])
    else:
        paper = await client.get_paper("DOI:10.1/x")
        assert paper.semantic_scholar_id == body["paperId"] and paper.source is Source.SEMANTIC_SCHOLAR


# ----------------------------------------------------------------------------------------------
# Mapping, field by field
# ----------------------------------------------------------------------------------------------


def test_upper_case_doi_is_normalised() -> None:
    record = load("pqa_paper_doi_10.1023_a.1007154515475.json")["body"]
    assert record["externalIds"]["DOI"] == "10.1023/A:1007154515475"
    paper = paper_from_s2(record)
    assert paper.doi == "10.1023/a:1007154515475"  # joins with OpenAlex's lower-case DOI
    assert paper.semantic_scholar_id == "19807da5b11f3e641535cb72e465001b49b48ee5"
    assert paper.pmid == "11330823" and paper.pmcid is None and paper.arxiv_id is None
    assert paper.venue == "Molecular and Cellular Biochemistry"
    assert paper.year == 2001 and paper.publication_date == "2001-02-01"
    assert paper.citation_count == 7
    assert paper.oa_url is None  # openAccessPdf.url is "" for a closed paper
    assert paper.publication_types == ["JournalArticle", "Study"]
    assert [(a.name, a.position, a.semantic_scholar_id) for a in paper.authors] == [
        ("S. Adak", 1, "1940081"),
        ("D. Bandyopadhyay", 2, "1701389"),
        ("U. Bandyopadhyay", 3, "5343877"),
        ("R. Banerjee", 4, "32656528"),
    ]
    assert paper.authors[-1].is_last and not paper.authors[0].is_last


def test_full_record_field_by_field() -> None:
    record = load("ss_search_turing_fullfields_after_429.json")["body"]["data"][0]
    paper = paper_from_s2(record, rank=1)
    assert paper.title == "Large Language Models Pass the Turing Test"
    assert paper.doi == "10.48550/arxiv.2503.23674" and paper.arxiv_id == "2503.23674"
    assert paper.venue == "arXiv.org" and paper.year == 2025 and paper.citation_count == 72
    assert paper.fields_of_study == ["Computer Science"]  # fieldsOfStudy and s2FieldsOfStudy, once
    assert paper.abstract and paper.abstract.startswith("We evaluated 4 systems (ELIZA, GPT-4o")
    assert paper.oa_url is None  # 2025+ shape: url "" with only a disclaimer
    assert paper.source is Source.SEMANTIC_SCHOLAR and paper.source_rank == 1


def test_ids_and_venue_of_a_published_preprint() -> None:
    # S2 merged the bioRxiv preprint with the Cell Genomics paper: venue says bioRxiv, journal says Cell Genomics
    paper = paper_from_s2(load("pqa_paper_doi_10.1016_j.xgen.2025.100814.json")["body"])
    assert paper.venue == "Cell Genomics"
    assert (paper.pmid, paper.pmcid) == ("40120586", "PMC12008803")
    assert paper.oa_url == "https://doi.org/10.1016/j.xgen.2025.100814"
    chem = paper_from_s2(load("pqa_paper_doi_10.1038_s42256-024-00832-8.json")["body"])
    assert chem.arxiv_id == "2304.05376" and chem.doi == "10.1038/s42256-024-00832-8"
    assert chem.venue == "Nat. Mac. Intell."  # not a preprint server: S2's own venue is kept


def test_missing_doi_and_null_fields() -> None:
    attention = paper_from_s2(load("pqa_search_match_attention_no_doi.json")["body"]["data"][0])
    assert attention.doi is None and attention.arxiv_id == "1706.03762"
    empty = paper_from_s2(
        {
            "paperId": "abc",
            "externalIds": None,
            "title": None,
            "abstract": None,
            "venue": None,
            "publicationVenue": None,
            "journal": None,
            "year": None,
            "publicationDate": None,
            "authors": [{"authorId": None, "name": "A. Person"}, {"authorId": "1", "name": None}],
            "citationCount": None,
            "openAccessPdf": None,
            "fieldsOfStudy": None,
            "s2FieldsOfStudy": None,
            "publicationTypes": None,
        }
    )
    assert empty.title == "" and empty.doi is None and empty.venue is None and empty.year is None
    assert [a.name for a in empty.authors] == ["A. Person"] and empty.authors[0].semantic_scholar_id is None
    assert empty.fields_of_study == [] and empty.publication_types == [] and empty.oa_url is None


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("10.1023/A:1007154515475", "DOI:10.1023/a:1007154515475"),
        ("https://doi.org/10.1063/1.4938384", "DOI:10.1063/1.4938384"),
        ("DOI:10.1063/1.4938384", "DOI:10.1063/1.4938384"),
        ("pmid:25666165", "PMID:25666165"),
        ("arXiv:2304.05376", "ARXIV:2304.05376"),
        ("corpusid:470667", "CorpusId:470667"),
        ("19807DA5B11F3E641535CB72E465001B49B48EE5", "19807da5b11f3e641535cb72e465001b49b48ee5"),
    ],
)
def test_paper_id_forms(given: str, expected: str) -> None:
    assert paper_id_for(given) == expected


# ----------------------------------------------------------------------------------------------
# Searches and paging
# ----------------------------------------------------------------------------------------------


async def test_429_then_success_after_retry(server: Server) -> None:
    client = server.client(
        in_turn(
            "ss_search_turing_429_first.json",
            "ss_search_turing_429_second.json",
            "ss_search_turing_fullfields_after_429.json",
        ),
        retries=3,
    )
    outcome = await client.search_relevance("turing", limit=100)
    assert len(server.requests) == 3
    assert len(outcome.papers) == 100 and outcome.total == 75689 and outcome.pages == 1
    assert outcome.papers[0].title == "Large Language Models Pass the Turing Test"


async def test_429_storm_ends_with_rate_limited(server: Server) -> None:
    client = server.client(always("ss_search_turing_429_first.json"), retries=2)
    with pytest.raises(RateLimited) as caught:
        await client.search_relevance("turing", limit=10)
    assert len(server.requests) == 3
    assert str(caught.value).startswith("semantic_scholar: rate-limited us")


async def test_offset_paging(server: Server) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        offset = request.url.params["offset"]
        return replay(
            {"0": "ss_search_turing_page1_offset0.json", "100": "ss_search_turing_page2_offset100.json"}[
                offset
            ]
        )

    client = server.client(handler)
    progress: list[PageProgress] = []
    outcome = await client.search_relevance("turing", limit=150, fields=("title",), on_page=progress.append)
    assert [(r.url.params["offset"], r.url.params["limit"]) for r in server.requests] == [
        ("0", "100"),
        ("100", "50"),
    ]
    assert server.requests[0].url.params["fields"] == "title"
    assert len(outcome.papers) == 150 and outcome.total == 70498 and outcome.pages == 2
    assert outcome.papers[100].title == "How to Run Turing Machines on Encrypted Data"
    assert outcome.papers[100].source_rank == 101
    assert [(p.page, p.fetched) for p in progress] == [(1, 100), (2, 150)]


async def test_relevance_search_is_capped_at_1000(server: Server) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        offset = int(request.url.params["offset"])
        body = load("ss_search_turing_page1_offset0.json")["body"]
        return httpx.Response(200, json={**body, "offset": offset, "next": offset + 100})

    client = server.client(handler)
    outcome = await client.search_relevance("turing", limit=1500, fields=("title",))
    assert len(outcome.papers) == 1000 and len(server.requests) == 10
    assert max(int(r.url.params["offset"]) + int(r.url.params["limit"]) for r in server.requests) == 1000
    assert "at most 1000" in outcome.warnings[0]


async def test_no_results_has_no_data_key(server: Server) -> None:
    client = server.client(always("ss_search_no_results.json"))
    outcome = await client.search_relevance("n0 r3sult s3arch t3rm", limit=100)
    assert outcome.papers == [] and outcome.total == 0 and len(server.requests) == 1


async def test_bulk_paging_ends_with_null_token(server: Server) -> None:
    pages = ["ss_search_bulk_kubernetes_page1.json", "ss_search_bulk_kubernetes_page2.json"]
    tokens = {
        load(name)["body"]["token"]: nxt
        for name, nxt in zip(pages, [*pages[1:], "ss_search_bulk_kubernetes_page3_last.json"], strict=True)
    }

    def handler(request: httpx.Request) -> httpx.Response:
        token = request.url.params.get("token")
        return replay(pages[0] if token is None else tokens[token])

    client = server.client(handler)
    progress: list[PageProgress] = []
    outcome = await client.search_bulk(
        "kubernetes", limit=10_000, sort="citationCount:desc", on_page=progress.append
    )
    assert len(server.requests) == 3
    assert "token" not in server.requests[0].url.params
    assert server.requests[0].url.params["sort"] == "citationCount:desc"
    assert [r.url.params.get("token") for r in server.requests[1:]] == list(tokens)
    assert len(outcome.papers) == 2674 == outcome.total and outcome.pages == 3
    assert outcome.papers[-1].source_rank == 2674
    assert [(p.page, p.fetched) for p in progress] == [(1, 1000), (2, 2000), (3, 2674)]


async def test_bulk_paging_stops_at_limit(server: Server) -> None:
    client = server.client(always("ss_search_bulk_kubernetes_page1.json"))
    outcome = await client.search_bulk("kubernetes", limit=250)
    assert len(server.requests) == 1 and len(outcome.papers) == 250


async def test_count_is_the_bulk_total(server: Server) -> None:
    client = server.client(always("ss_search_bulk_kubernetes_page1.json"))
    assert await client.count("kubernetes + docker", fields_of_study=["Computer Science"]) == 2674
    params = server.requests[0].url.params
    assert params["query"] == "kubernetes + docker" and params["fields"] == "paperId"
    assert params["fieldsOfStudy"] == "Computer Science"


async def test_a_plans_year_range_reaches_the_search_and_the_count(server: Server) -> None:
    client = server.client(always("ss_search_bulk_kubernetes_page1.json"))
    await client.search("kubernetes", limit=10, params={"query": "kubernetes", "year": "2010-"})
    await client.count("kubernetes", params={"query": "kubernetes", "year": "2000-2020"})
    assert [r.url.params.get("year") for r in server.requests] == ["2010-", "2000-2020"]


async def test_empty_queries_are_refused_before_any_request(server: Server) -> None:
    client = server.client(always("ss_search_no_results.json"))
    for call in (
        client.search_relevance(" ", limit=10),
        client.search_bulk("", limit=10),
        client.count("\n"),
        client.get_paper(""),
        client.match_title("  "),
    ):
        with pytest.raises(EmptyQuery, match="semantic_scholar"):
            await call
    assert server.requests == []


# ----------------------------------------------------------------------------------------------
# Papers, authors, errors
# ----------------------------------------------------------------------------------------------


async def test_get_paper_by_doi(server: Server) -> None:
    client = server.client(always("pqa_paper_doi_10.1023_a.1007154515475.json"))
    paper = await client.get_paper("10.1023/A:1007154515475")
    assert server.requests[0].url.path == "/graph/v1/paper/DOI:10.1023/a:1007154515475"
    assert server.requests[0].url.params["fields"] == ",".join(DEFAULT_FIELDS)
    assert paper.doi == "10.1023/a:1007154515475"


async def test_unknown_paper_is_not_found(server: Server) -> None:
    client = server.client(always("pqa_paper_doi_404_not_found.json"))
    with pytest.raises(NotFound, match="Paper with id DOI:10.1101/2024.04.01.587366 not found"):
        await client.get_paper("10.1101/2024.04.01.587366")
    assert len(server.requests) == 1


async def test_title_match_not_found_is_none(server: Server) -> None:
    client = server.client(always("pqa_search_match_404_title_not_found.json"))
    assert await client.match_title("askldjrq3rjaw938h") is None
    client = server.client(always("pqa_search_match_augmenting_llm_chemistry.json"))
    paper = await client.match_title("Augmenting large language models with chemistry tools")
    assert paper is not None and paper.doi == "10.1038/s42256-024-00832-8"


async def test_bad_fields_are_bad_query(server: Server) -> None:
    client = server.client(always("ss_400_unsupported_fields.json"))
    with pytest.raises(BadQuery, match=r"Unrecognized or unsupported fields: \[unknown\]"):
        await client.get_paper("10.1093/mind/lix.236.433", fields=("unknown",))


async def test_api_key_sent_as_header_and_never_shown(server: Server) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        # a hostile echo of the request headers must not put the key into our error
        return httpx.Response(403, json={"message": f"Forbidden for key {request.headers.get('x-api-key')}"})

    client = server.client(handler, api_key=SECRET)
    with pytest.raises(SourceUnavailable) as caught:
        await client.get_papers(["CorpusId:470667"])
    assert server.requests[0].headers["x-api-key"] == SECRET
    assert SECRET not in str(caught.value) and "API key" in str(caught.value)


async def test_batch_with_unknown_ids(server: Server) -> None:
    client = server.client(always("ss_paper_batch_with_null.json"))
    ids = [
        "CorpusId:211530585",
        "CorpusId:470667",
        "10.2139/ssrn.2250500",
        "0f40b1f08821e22e859c6050916cec3667778613",
    ]
    papers = await client.get_papers(ids)
    assert papers[0] is None
    assert papers[1] is not None and papers[1].doi == "10.2139/ssrn.288970"
    assert json.loads(server.requests[0].content) == {
        "ids": ["CorpusId:211530585", "CorpusId:470667", "DOI:10.2139/ssrn.2250500", ids[3]]
    }


async def test_paper_authors_with_affiliations(server: Server) -> None:
    client = server.client(always("ss_paper_authors_affiliations.json"))
    authors = await client.paper_authors("10.2139/ssrn.2250500")
    assert server.requests[0].url.path == "/graph/v1/paper/DOI:10.2139/ssrn.2250500/authors"
    assert [(a.name, a.position) for a in authors][:2] == [("E. Duflo", 1), ("A. Banerjee", 2)]
    assert all(a.affiliations == [] for a in authors)  # S2 usually knows none


async def test_authors_batch_fills_affiliations(server: Server) -> None:
    # No /author/batch call was recorded; the answer is built from the real author records of
    # ss_paper_authors_affiliations.json (the endpoint returns the same objects, aligned with the ids,
    # null for unknown ids). One affiliation is added, since S2 recorded none for these authors.
    records = load("ss_paper_authors_affiliations.json")["body"]["data"]
    by_id = {r["authorId"]: r for r in records}
    by_id["2259683"] = {**by_id["2259683"], "affiliations": ["Massachusetts Institute of Technology", " "]}

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.method == "POST" and request.url.path == "/graph/v1/author/batch"
        ids = json.loads(request.content)["ids"]
        return httpx.Response(200, json=[by_id.get(i) for i in ids])

    client = server.client(handler)
    papers = [
        Paper(
            title="A",
            authors=[
                Author(name="E. Duflo", position=1, semantic_scholar_id="2259683"),
                Author(name="Nobody", position=2, semantic_scholar_id="999"),
            ],
        ),
        Paper(title="B", authors=[Author(name="E. Duflo", position=1, semantic_scholar_id="2259683")]),
    ]
    filled = await client.with_affiliations(papers)
    assert len(server.requests) == 1
    assert json.loads(server.requests[0].content) == {"ids": ["2259683", "999"]}
    assert server.requests[0].url.params["fields"] == "name,affiliations"
    assert [a.raw for a in filled[0].authors[0].affiliations] == ["Massachusetts Institute of Technology"]
    assert filled[0].authors[1].affiliations == [] and filled[1].authors[0].affiliations[0].raw.startswith(
        "Massachusetts"
    )
    assert papers[0].authors[0].affiliations == []  # the inputs are not modified
