"""Unpaywall client against the real recorded responses in the shared fixtures (served by MockTransport)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from tests.paths import FIXTURES
from tools.errors import BadQuery, BadResponse, EmptyQuery, NotFound
from tools.http import HttpPolicy, SourceConfig
from tools.unpaywall import OALocation, UnpaywallClient, parse_record

DIR = FIXTURES / "unpaywall"
BASE = "https://upw.test/v2"
EMAIL = "team@example.org"
Handler = Callable[[httpx.Request], httpx.Response]


def replay(name: str) -> httpx.Response:
    data = json.loads((DIR / name).read_text(encoding="utf-8"))
    headers = [
        (k, v)
        for k, values in data["headers"].items()
        for v in (values if isinstance(values, list) else [values])
    ]
    return httpx.Response(data["status"], headers=headers, content=json.dumps(data["body"]).encode())


def record(name: str):
    return parse_record(json.loads((DIR / name).read_text(encoding="utf-8"))["body"])


@pytest.fixture
async def client_for() -> AsyncIterator[Callable[[Handler], UnpaywallClient]]:
    clients: list[httpx.AsyncClient] = []

    def make(handler: Handler) -> UnpaywallClient:
        http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        clients.append(http)
        config = SourceConfig(service="unpaywall", base_url=BASE, rate=1000, retries=1, backoff=0.01)
        return UnpaywallClient(HttpPolicy(http, config), email=EMAIL)

    yield make
    for http in clients:
        await http.aclose()


# -- parsing ------------------------------------------------------------------------------------


def test_bronze_record_with_a_pdf_and_a_pmc_repository_copy():
    info = record("pqa_unpaywall_doi_10.1073_pnas.1414271111.json")
    assert info.doi == "10.1073/pnas.1414271111" and info.is_oa and info.oa_status == "bronze"
    assert info.url == "https://www.pnas.org/content/pnas/111/45/E4832.full.pdf"
    assert info.pdf_url == info.url and info.license is None
    # the second location is PubMed Central's copy, known only by its OAI identifier
    assert info.pmcid == "PMC4234579"
    assert info.best_oa_location is info.oa_locations[0]


def test_gold_record_with_licence_and_pmc_url():
    info = record("pqa_unpaywall_doi_10.1016_j.xgen.2025.100814.json")
    assert info.oa_status == "gold" and info.license == "cc-by"
    assert info.url == "https://doi.org/10.1016/j.xgen.2025.100814" and info.pdf_url is None
    assert info.pmcid == "PMC12008803"


def test_hybrid_record_without_pdf_or_pmc():
    info = record("pqa_unpaywall_doi_10.1016_j.addr.2015.01.008.json")
    assert info.is_oa and info.oa_status == "hybrid" and info.license == "cc-by-nc-nd"
    assert info.pdf_url is None and info.pmcid is None


def test_closed_record():
    info = record("pqa_unpaywall_doi_10.1023_a.1007154515475.json")
    assert not info.is_oa and info.oa_status == "closed"
    assert info.best_oa_location is None and info.url is None and info.pdf_url is None and info.pmcid is None


def test_pmc_locations_by_url():
    assert OALocation(url="https://www.ncbi.nlm.nih.gov/pmc/articles/PMC123/").pmcid == "PMC123"
    assert OALocation(url_for_pdf="https://europepmc.org/articles/PMC77?pdf=render").pmcid == "PMC77"
    assert OALocation(url="https://example.org/paper.pdf").pmcid is None


def test_parse_record_rejects_shapeless_bodies():
    with pytest.raises(BadResponse):
        parse_record({"results": []})
    with pytest.raises(BadResponse):
        parse_record({"doi": "10.1000/x", "oa_locations": "not a list"})


# -- HTTP ---------------------------------------------------------------------------------------


async def test_lookup_sends_the_doi_as_path_and_the_email(client_for):
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return replay("pqa_unpaywall_doi_10.1023_a.1007154515475.json")

    info = await client_for(handler).lookup("https://doi.org/10.1023/A:1007154515475")
    assert info.doi == "10.1023/a:1007154515475"
    assert seen[0].url.path == "/v2/10.1023/a:1007154515475"
    assert seen[0].url.params["email"] == EMAIL


async def test_lookup_unknown_doi_and_bad_input(client_for):
    client = client_for(
        lambda request: httpx.Response(
            404, json={"HTTP_status_code": 404, "error": True, "message": "not in our database"}
        )
    )
    with pytest.raises(NotFound):
        await client.lookup("10.1000/unknown")
    with pytest.raises(EmptyQuery):
        await client.lookup("")
    with pytest.raises(BadQuery, match="not a DOI"):
        await client.lookup("not-a-doi")


async def test_search_returns_records_with_scores(client_for):
    client = client_for(lambda request: replay("pqa_unpaywall_search_augmenting_llm_many.json"))
    found = await client.search("Augmenting large language models with chemistry tools")
    assert [info.doi for info, _ in found][0] == "10.1038/s42256-024-00832-8"
    assert found[0][1] > found[1][1]
    empty = client_for(lambda request: replay("pqa_unpaywall_search_empty.json"))
    assert await empty.search("PaperQA") == []


async def test_an_email_is_required():
    async with httpx.AsyncClient() as http:
        with pytest.raises(ValueError, match="e-mail"):
            UnpaywallClient(HttpPolicy(http, SourceConfig(service="unpaywall", base_url=BASE)), email="")
