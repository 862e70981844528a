"""OpenAlex client against the real recorded responses in the shared fixtures (served by MockTransport)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from agent.models import Source
from tests.paths import FIXTURES
from tools.base import PageProgress
from tools.cache import ResponseCache
from tools.errors import BadQuery, BadResponse, EmptyQuery, NotFound, ServiceCallError, SourceUnavailable
from tools.http import HttpPolicy, SourceConfig
from tools.openalex import (
    DEFAULT_SELECT,
    OpenAlexClient,
    rebuild_abstract,
    vocabulary_entry,
    work_to_paper,
)

DIR = FIXTURES / "openalex"
BASE = "https://api.openalex.test"
SECRET = "sk-openalex-SECRET-1234"
Handler = Callable[[httpx.Request], httpx.Response]


def load(name: str) -> tuple[int, Any]:
    """Status and body of a fixture: a wrapper file's recorded status/body, or a bare body (status 200)."""
    data = json.loads((DIR / name).read_text(encoding="utf-8"))
    if isinstance(data, dict) and "body_format" in data:
        return data["status"], data["body"]
    return 200, data


def replay(name: str) -> httpx.Response:
    """A fixture as the HTTP response it records (status, headers, body)."""
    data = json.loads((DIR / name).read_text(encoding="utf-8"))
    if not (isinstance(data, dict) and "body_format" in data):
        return httpx.Response(200, json=data)
    headers = [
        (key, item)
        for key, value in data["headers"].items()
        for item in (value if isinstance(value, list) else [value])
    ]
    body = data["body"]
    content = json.dumps(body).encode() if data["body_format"] == "json" else body.encode()
    return httpx.Response(data["status"], headers=headers, content=content)


def envelope(*records: dict[str, Any]) -> httpx.Response:
    """A list answer around real entity records (the fixtures hold concepts/topics/keywords one by one)."""
    meta = {"count": len(records), "db_response_time_ms": 1, "page": 1, "per_page": 25, "groups_count": None}
    return httpx.Response(200, json={"meta": meta, "results": list(records), "group_by": []})


class Server:
    """Serves responses from a handler and remembers every request."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.clients: list[httpx.AsyncClient] = []

    def client(self, handler: Handler, *, api_key: str | None = None, retries: int = 2) -> OpenAlexClient:
        def record(request: httpx.Request) -> httpx.Response:
            self.requests.append(request)
            return handler(request)

        http_client = httpx.AsyncClient(transport=httpx.MockTransport(record))
        self.clients.append(http_client)
        config = SourceConfig(service="openalex", base_url=BASE, rate=1000, backoff=0.01, retries=retries)
        return OpenAlexClient(HttpPolicy(http_client, config), mailto="team@example.org", api_key=api_key)


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    srv = Server()
    yield srv
    for client in srv.clients:
        await client.aclose()


def always(name: str) -> Handler:
    return lambda request: replay(name)


# ----------------------------------------------------------------------------------------------
# Every fixture parses
# ----------------------------------------------------------------------------------------------

ALL_FILES = sorted(p.name for p in DIR.glob("*.json"))


def test_fixture_folder_is_there() -> None:
    assert len(ALL_FILES) >= 27, f"expected the shared OpenAlex fixtures in {DIR}"


@pytest.mark.parametrize("name", ALL_FILES)
async def test_every_fixture_parses_through_the_client(server: Server, name: str) -> None:
    status, body = load(name)
    client = server.client(always(name), api_key=SECRET)
    if status >= 400:
        expected = {400: BadQuery, 401: SourceUnavailable, 404: NotFound}[status]
        with pytest.raises(expected) as caught:
            await client.get_work("W1")
        assert caught.value.service == "openalex"
        assert SECRET not in str(caught.value)
    elif "rate_limit" in body:
        budget = await client.rate_limit_status()
        assert budget.daily_budget_usd is not None
    elif "meta" in body and "results" not in body:  # a group_by answer is not a works page
        with pytest.raises(BadResponse, match="no results list"):
            await client.search_works(filter="x", limit=5)
    elif "results" in body:
        outcome = await client.search_works(filter="x", limit=len(body["results"]) or 1)
        assert len(outcome.papers) == len(body["results"])
        assert all(p.source is Source.OPENALEX for p in outcome.papers)
        assert [p.source_rank for p in outcome.papers] == list(range(1, len(outcome.papers) + 1))
        assert outcome.total == body["meta"]["count"]
    elif str(body.get("id", "")).startswith("https://openalex.org/I"):
        institution = await client.get_institution("I1")
        assert institution.display_name == body["display_name"]
    elif str(body.get("id", "")).startswith(
        ("https://openalex.org/C", "https://openalex.org/T")
    ) or "/keywords/" in str(body.get("id", "")):
        entry = await client.get_vocabulary_entry(body["id"])
        assert entry.name == body["display_name"]
    else:  # a work, whole or trimmed by select=
        paper = await client.get_work("W1")
        assert paper.doi == body["doi"].removeprefix("https://doi.org/")


# ----------------------------------------------------------------------------------------------
# Works, field by field
# ----------------------------------------------------------------------------------------------


def test_work_w2741809807_field_by_field() -> None:
    _, work = load("oapy_work_W2741809807.json")
    paper = work_to_paper(work, rank=3)
    assert paper.openalex_id == "W2741809807"
    assert paper.doi == "10.7717/peerj.4375"
    assert paper.pmid == "29456894"
    assert paper.pmcid == "PMC5815332"
    assert paper.title.startswith("The state of OA: a large-scale analysis")
    assert paper.year == 2018 and paper.publication_date == "2018-02-13"
    assert paper.venue == "PeerJ"
    assert paper.citation_count == 962
    assert paper.oa_url == "https://peerj.com/articles/4375.pdf"
    assert paper.languages == ["en"]
    assert paper.publication_types == ["article", "journal-article"]
    assert paper.keywords[:2] == ["Scholarly Communication", "Web of science"]
    assert paper.fields_of_study[0] == "Decision Sciences"
    assert paper.source is Source.OPENALEX and paper.source_rank == 3 and not paper.is_book

    assert len(paper.authors) == len(work["authorships"]) == 9
    first, last = paper.authors[0], paper.authors[-1]
    assert (first.name, first.position, first.is_last) == ("Heather Piwowar", 1, False)
    assert first.openalex_id == "A5048491430" and first.orcid == "0000-0003-1613-5981"
    assert first.affiliations[0].raw == "Impactstory, Sanford, NC, USA"
    assert first.affiliations[0].institution == "Impact Technology Development (United States)"
    assert first.affiliations[0].ror == "https://ror.org/05ppvf150"
    assert first.affiliations[0].openalex_id == "I4210166736"
    assert first.affiliations[0].country_code == "US"
    assert (last.name, last.position, last.is_last) == ("Stefanie Haustein", 9, True)
    # the third author has two raw strings, each linked to its own institution
    third = paper.authors[2]
    assert [a.institution for a in third.affiliations] == [
        "Université de Montréal",
        "Université du Québec à Montréal",
    ]
    assert third.affiliations[1].raw.startswith("Observatoire des Sciences et des Technologies (OST)")


def test_abstract_rebuilt_from_inverted_index_in_word_order() -> None:
    _, work = load("oapy_work_W2741809807.json")
    abstract = work_to_paper(work).abstract
    assert abstract is not None
    assert abstract.startswith(
        "Despite growing interest in Open Access (OA) to scholarly literature, there is an unmet need"
    )
    assert abstract.endswith("as a way to inform OA policy and practice.")
    # every position is used once: the word count equals the number of positions in the index
    positions = sum(len(v) for v in work["abstract_inverted_index"].values())
    assert len(abstract.split(" ")) == positions

    # repeated words and unordered keys come back in position order
    assert rebuild_abstract({"world": [1], "hello": [0, 2], "again.": [3]}) == "hello world hello again."
    assert rebuild_abstract(None) is None and rebuild_abstract({}) is None


def test_null_title_work_maps_to_empty_title() -> None:
    _, work = load("oapro_work_W4234567890_null_title.json")
    paper = work_to_paper(work)
    assert paper.title == ""
    assert paper.openalex_id == "W4234567890" and paper.doi == "10.4018/jnn.20180101"
    assert paper.venue == "Journal of Nanotoxicology and Nanomedicine"
    author = paper.authors[0]
    assert author.corresponding is True and author.openalex_id is None  # the author has no OpenAlex id
    # one raw string linked to two institutions: both kept, each with the raw text
    assert {a.institution for a in author.affiliations} == {
        "North Dakota State University",
        "Dakota State University",
    }
    assert {a.raw for a in author.affiliations} == {"North Dakota State University, USA"}


def test_no_authors_and_selected_fields_are_fine() -> None:
    _, work = load("pqa_openalex_work_doi_10.1007_s40278-023-41815-2.json")
    assert work_to_paper(work).authors == []
    _, trimmed = load("pqa_openalex_select_open_access_gold.json")
    paper = work_to_paper(trimmed)
    assert (
        paper.doi == "10.1093/nar/gkw1164"
        and paper.oa_url
        and paper.title == ""
        and paper.openalex_id is None
    )


def test_chinese_affiliations_preserved() -> None:
    _, page = load("oapro_works_page_50_results_incl_CN.json")
    papers = {p.openalex_id: p for p in (work_to_paper(w) for w in page["results"])}
    paper = papers["W2051551894"]
    assert paper.doi == "10.1109/icbbe.2008.538" and paper.year == 2008 and paper.venue is None
    wu = paper.authors[0]
    assert wu.name == "Yanbin Wu"
    assert [(a.raw, a.institution, a.ror, a.country_code) for a in wu.affiliations] == [
        (
            "National Laboratory of Coal Resources and Mine Safety, China University of Mining and Technology, Beijing, China",
            "China University of Mining and Technology",
            "https://ror.org/01xt2dr21",
            "CN",
        ),
        (
            "School of Business Administration, Hebei University of Economic and Business, Shijiazhuang, China",
            "Hebei University of Economics and Business",
            "https://ror.org/05j1kc284",
            "CN",
        ),
    ]
    assert paper.authors[-1].is_last and paper.authors[-1].name == "Fan Cui"
    countries = {a.country_code for p in papers.values() for au in p.authors for a in au.affiliations}
    assert {"CN", "US"} <= countries


# ----------------------------------------------------------------------------------------------
# Search, paging and counts
# ----------------------------------------------------------------------------------------------


async def test_cursor_paging_stops_at_the_last_page(server: Server) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        cursor = request.url.params["cursor"]
        return replay(
            "oapro_works_cursor_page1.json" if cursor == "*" else "oapro_works_cursor_page2_last.json"
        )

    client = server.client(handler, api_key=SECRET)
    progress: list[PageProgress] = []
    outcome = await client.search_works(
        filter="openalex:W3045921891|W3046863325", limit=200, on_page=progress.append, paging="cursor"
    )

    _, first_page = load("oapro_works_cursor_page1.json")
    assert [r.url.params["cursor"] for r in server.requests] == ["*", first_page["meta"]["next_cursor"]]
    assert len(server.requests) == 2  # the empty page with next_cursor null ends the walk
    params = server.requests[0].url.params
    assert params["per_page"] == "200" and params["filter"] == "openalex:W3045921891|W3046863325"
    assert params["select"] == ",".join(DEFAULT_SELECT)
    assert params["api_key"] == SECRET and params["mailto"] == "team@example.org"
    assert outcome.total == 2 and outcome.pages == 2
    assert {p.openalex_id for p in outcome.papers} == {"W3045921891", "W3046863325"}
    assert [(p.page, p.fetched, p.total) for p in progress] == [(1, 2, 2), (2, 2, 2)]


async def test_paging_stops_at_limit(server: Server) -> None:
    client = server.client(always("oapro_works_page_50_results_incl_CN.json"))
    outcome = await client.search_works(search="land reclamation", limit=30, select=None)
    assert len(server.requests) == 1
    assert server.requests[0].url.params["per_page"] == "30"
    assert "select" not in server.requests[0].url.params
    assert len(outcome.papers) == 30 and outcome.papers[-1].source_rank == 30
    assert outcome.query == "search=land reclamation"


async def test_paging_follows_next_cursor_until_limit(server: Server) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.params["cursor"] == "*":
            return replay("oapro_works_page_50_results_incl_CN.json")
        return replay("oapro_works_cursor_page2_last.json")

    client = server.client(handler)
    outcome = await client.search_works(search="x", filter="type:article", limit=80, paging="cursor")
    assert len(server.requests) == 2 and len(outcome.papers) == 50
    assert outcome.query == "search=x filter=type:article"


async def test_numbered_pages_are_fetched_concurrently_and_kept_in_order(server: Server) -> None:
    _, page = load("oapro_works_page_50_results_incl_CN.json")
    template = page["results"][0]

    def handler(request: httpx.Request) -> httpx.Response:
        number, per_page = int(request.url.params["page"]), int(request.url.params["per_page"])
        first = (number - 1) * per_page
        results = [
            {**template, "id": f"https://openalex.org/W{900000 + i}", "doi": None}
            for i in range(first, min(first + per_page, 450))
        ]
        return httpx.Response(200, json={"meta": {**page["meta"], "count": 450}, "results": results})

    client = server.client(handler)
    progress: list[PageProgress] = []
    outcome = await client.search_works(search="x", limit=420, on_page=progress.append, select=None)
    assert sorted(int(r.url.params["page"]) for r in server.requests) == [1, 2, 3]
    assert all("cursor" not in r.url.params for r in server.requests)
    assert [p.openalex_id for p in outcome.papers] == [f"W{900000 + i}" for i in range(420)]
    assert [p.source_rank for p in outcome.papers] == list(range(1, 421))
    assert outcome.total == 450 and outcome.pages == 3
    assert [p.page for p in progress] == [1, 2, 3] and progress[-1].fetched == 420


async def test_counts_are_cached_searches_are_not(tmp_path: Path) -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        if request.url.params.get("per_page") == "1":
            return replay("oapro_works_count_per_page1.json")
        return replay("oapro_works_cursor_page2_last.json")

    cache = ResponseCache(tmp_path / "cache.sqlite")
    config = SourceConfig(service="openalex", base_url=BASE, rate=1000, backoff=0.01, cache_ttl=60)
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http_client:
        client = OpenAlexClient(HttpPolicy(http_client, config, cache=cache), api_key=SECRET)
        assert (
            await client.count(search="biodiversity") == await client.count(search="biodiversity") == 145616
        )
        assert len(requests) == 1
        await client.search_works(search="biodiversity")
        await client.search_works(search="biodiversity")
        assert len(requests) == 3
    cache.close()


async def test_count_uses_one_tiny_page(server: Server) -> None:
    client = server.client(always("oapro_works_count_per_page1.json"))
    count = await client.count(filter="title_and_abstract.search:biodiversity,to_publication_date:2010-01-01")
    assert count == 145616
    params = server.requests[0].url.params
    assert params["per_page"] == "1" and params["select"] == "id" and "cursor" not in params


async def test_empty_queries_are_refused_before_any_request(server: Server) -> None:
    client = server.client(always("oapro_works_count_per_page1.json"))
    with pytest.raises(EmptyQuery):
        await client.search_works()
    with pytest.raises(EmptyQuery):
        await client.search_works(search="   ", filter="")
    with pytest.raises(EmptyQuery):
        await client.count(search=" ")
    with pytest.raises(EmptyQuery):
        await client.get_work("  ")
    with pytest.raises(EmptyQuery):
        await client.search_concepts("")
    with pytest.raises(EmptyQuery):
        await client.get_institution("")
    assert server.requests == []


# ----------------------------------------------------------------------------------------------
# Single entities
# ----------------------------------------------------------------------------------------------


async def test_get_work_by_doi_uses_the_recorded_path(server: Server) -> None:
    name = "pqa_openalex_work_doi_10.1023_a.1007154515475.json"
    client = server.client(always(name))
    paper = await client.get_work("https://doi.org/10.1023/A:1007154515475")
    recorded = json.loads((DIR / name).read_text())["request"]["url"]
    assert server.requests[0].url.raw_path.decode().split("?")[0] == urlsplit(recorded).path
    assert paper.doi == "10.1023/a:1007154515475" and paper.pmid == "11330823"
    assert paper.authors[0].affiliations[0].institution == "Indian Institute of Chemical Biology"
    assert paper.mesh_headings[0].descriptor == "Arginine" and paper.mesh_headings[0].major


@pytest.mark.parametrize(
    ("given", "path"),
    [
        ("W2741809807", "/works/W2741809807"),
        ("https://openalex.org/w2741809807", "/works/W2741809807"),
        ("doi:10.7717/PEERJ.4375", "/works/https://doi.org/10.7717%2Fpeerj.4375"),
        ("pmid:29456894", "/works/pmid:29456894"),
    ],
)
async def test_get_work_id_forms(server: Server, given: str, path: str) -> None:
    client = server.client(always("oapy_work_W2741809807.json"))
    await client.get_work(given)
    assert server.requests[0].url.raw_path.decode().split("?")[0] == path


async def test_get_work_rejects_unknown_id_shapes(server: Server) -> None:
    client = server.client(always("oapy_work_W2741809807.json"))
    with pytest.raises(BadQuery, match="openalex"):
        await client.get_work("not an id")
    assert server.requests == []


async def test_404_html_page_is_not_found(server: Server) -> None:
    client = server.client(always("pqa_openalex_404_html.json"))
    with pytest.raises(NotFound) as caught:
        await client.get_work("10.1046/j.1365-2699.2003.00795")
    assert caught.value.service == "openalex" and caught.value.status == 404
    assert len(server.requests) == 1  # a 404 is final: no retry


async def test_institution_by_ror_with_geo(server: Server) -> None:
    client = server.client(always("oapy_institution_I27837315.json"))
    inst = await client.get_institution("https://ror.org/00jmfr291")
    assert server.requests[0].url.path == "/institutions/ror:00jmfr291"
    assert (inst.id, inst.display_name, inst.ror) == (
        "I27837315",
        "University of Michigan",
        "https://ror.org/00jmfr291",
    )
    assert (inst.city, inst.region, inst.country_code, inst.country) == (
        "Ann Arbor",
        None,
        "US",
        "United States",
    )
    assert inst.latitude == pytest.approx(42.27756) and inst.longitude == pytest.approx(-83.74088)
    assert "UMich" in inst.aliases and "Université du Michigan" in inst.aliases
    shared = inst.to_institution()
    assert shared.id == "https://ror.org/00jmfr291" and shared.coordinates_from == "openalex"
    await client.get_institution("I27837315")
    assert server.requests[1].url.path == "/institutions/I27837315"


async def test_vocabulary_search(server: Server) -> None:
    _, concept = load("oapy_concept_C71924100.json")
    _, topic = load("oapy_topic_T11636.json")
    _, keyword = load("oapy_keyword_cardiac-imaging.json")
    answers = {"/concepts": concept, "/topics": topic, "/keywords": keyword}
    client = server.client(lambda request: envelope(answers[request.url.path]))

    [medicine] = await client.search_concepts("medicine")
    assert (medicine.id, medicine.name, medicine.kind, medicine.level) == (
        "C71924100",
        "Medicine",
        "concept",
        0,
    )
    assert medicine.wikidata == "Q11190" and medicine.works_count == 65001994
    assert "医学" in medicine.synonyms and "Medicine" not in medicine.synonyms
    assert "Surgery" in medicine.related
    assert server.requests[0].url.params["search"] == "medicine"

    [ai] = await client.search_topics("AI in healthcare")
    assert ai.kind == "topic" and ai.id == "T11636"
    assert ai.related[:2] == ["Artificial Intelligence", "Machine Learning"] and ai.synonyms == []

    [cardiac] = await client.search_keywords("cardiac imaging")
    assert (cardiac.id, cardiac.name, cardiac.kind) == (
        "keywords/cardiac-imaging",
        "Cardiac Imaging",
        "keyword",
    )


def test_concept_synonyms_follow_the_asked_languages() -> None:
    _, concept = load("oapy_concept_C71924100.json")
    german = vocabulary_entry(concept, "concept", languages=("de",))
    assert german.synonyms == ["Medizin"]  # "de" and "de-ch" agree; listed once


# ----------------------------------------------------------------------------------------------
# Errors and secrets
# ----------------------------------------------------------------------------------------------


async def test_invalid_filter_is_bad_query_with_openalex_message(server: Server) -> None:
    client = server.client(always("oapro_400_invalid_filter.json"), api_key=SECRET)
    with pytest.raises(BadQuery) as caught:
        await client.search_works(filter="DOESNTEXIST:1")
    assert "DOESNTEXIST is not a valid field" in str(caught.value)
    assert str(caught.value).startswith("openalex:")
    assert len(server.requests) == 1  # a 400 is never retried


async def test_invalid_key_is_source_unavailable_without_the_key(server: Server) -> None:
    client = server.client(always("oapro_401_invalid_api_key.json"), api_key=SECRET)
    with pytest.raises(SourceUnavailable) as caught:
        await client.rate_limit_status()
    assert "API key" in str(caught.value) and SECRET not in str(caught.value)
    assert server.requests[0].url.params["api_key"] == SECRET  # it was sent, just never shown


async def test_rate_limit_status_budget(server: Server) -> None:
    client = server.client(always("oapro_rate_limit_status_200.json"), api_key=SECRET)
    budget = await client.rate_limit_status()
    assert budget.daily_budget_usd == 1.0 and budget.daily_remaining_usd == pytest.approx(0.998)
    assert budget.endpoint_costs_usd["search"] == pytest.approx(0.0005)
    assert not budget.exhausted
    assert "<api-key>" not in budget.model_dump_json()  # the key the service echoes is not kept
    assert budget.model_copy(update={"daily_remaining_usd": 0.0, "prepaid_remaining_usd": 0.0}).exhausted


async def test_a_budget_document_is_not_a_works_page(server: Server) -> None:
    client = server.client(always("oapro_rate_limit_status_200.json"), api_key=SECRET)
    with pytest.raises(BadResponse, match="openalex: the works search answer has no meta"):
        await client.search_works(search="x")


@pytest.mark.parametrize(
    "name", ["oapro_400_invalid_filter.json", "oapro_401_invalid_api_key.json", "pqa_openalex_404_html.json"]
)
async def test_api_key_never_in_error_messages(server: Server, name: str) -> None:
    # a service that echoes the request (the key included) must still not leak it into our error
    def handler(request: httpx.Request) -> httpx.Response:
        response = replay(name)
        if response.headers.get("content-type", "").startswith("application/json"):
            body = response.json()
            body["message"] = f"{body.get('message')} (request was {request.url})"
            return httpx.Response(response.status_code, json=body)
        return response

    client = server.client(handler, api_key=SECRET)
    with pytest.raises(ServiceCallError) as caught:
        await client.search_works(search="x")
    assert SECRET not in str(caught.value) and SECRET not in repr(caught.value)
    assert caught.value.service == "openalex"


async def test_server_errors_are_retried_then_reported(server: Server) -> None:
    statuses = iter([503, 200])

    def handler(request: httpx.Request) -> httpx.Response:
        status = next(statuses)
        return replay("oapro_works_count_per_page1.json") if status == 200 else httpx.Response(status)

    client = server.client(handler)
    assert await client.count(search="biodiversity") == 145616
    assert len(server.requests) == 2
