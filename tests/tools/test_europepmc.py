"""Europe PMC client against the real recorded responses in the shared fixtures (served by MockTransport)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.paths import FIXTURES
from tools.errors import BadResponse, EmptyQuery, NotFound
from tools.europepmc import EuropePMCClient, EuropePMCRecord, id_query, record_to_paper
from tools.http import HttpPolicy, SourceConfig

DIR = FIXTURES / "europepmc"
BASE = "https://epmc.test/europepmc/webservices/rest"
Handler = Callable[[httpx.Request], httpx.Response]


def body(name: str) -> Any:
    return json.loads((DIR / name).read_text(encoding="utf-8"))


def records(name: str) -> list[EuropePMCRecord]:
    return [EuropePMCRecord.from_api(item) for item in body(name)["resultList"]["result"]]


@pytest.fixture
async def client_for() -> AsyncIterator[Callable[[Handler], EuropePMCClient]]:
    clients: list[httpx.AsyncClient] = []

    def make(handler: Handler) -> EuropePMCClient:
        http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        clients.append(http)
        config = SourceConfig(service="europepmc", base_url=BASE, rate=1000, retries=1, backoff=0.01)
        return EuropePMCClient(HttpPolicy(http, config))

    yield make
    for http in clients:
        await http.aclose()


# -- record mapping ------------------------------------------------------------------------------


def test_lite_record_flags_and_ids():
    first = records("epmc_search_cancer_lite.json")[0]
    assert first.id == "39709209" and first.source == "MED" and first.pmid == "39709209"
    assert first.doi == "10.1016/s0140-6736(24)02600-x"
    assert first.pub_year == 2025 and first.is_open_access is False and first.in_pmc is False
    assert first.pmcid is None and not first.fulltext_available


def test_core_record_maps_to_paper_with_authors_mesh_and_free_links():
    core = records("epmc_search_cancer_core.json")
    with_pmc = next(r for r in core if r.pmcid == "PMC12124214")
    assert with_pmc.in_epmc and with_pmc.fulltext_available  # held by Europe PMC, though not the OA subset
    paper = with_pmc.to_paper()
    assert paper.pmcid == "PMC12124214" and paper.pmid == "39709208"
    assert paper.oa_url == "https://europepmc.org/articles/PMC12124214"  # the first *free* link, not the DOI
    assert paper.source is None  # Europe PMC is not one of a Run's search sources

    first = record_to_paper(core[0])
    assert [a.name for a in first.authors] == ["Schoenfeld JD", "Haas-Kogan DA", "O'Neill AF"]
    assert first.authors[0].given == "Jonathan D" and first.authors[0].family == "Schoenfeld"
    assert first.authors[0].affiliations[0].raw.startswith("Department of Radiation Oncology")
    assert first.authors[-1].is_last
    assert first.venue == "Lancet (London, England)"
    with_mesh = next(record_to_paper(r) for r in core if r.raw.get("meshHeadingList"))
    assert with_mesh.mesh_headings and all(h.descriptor for h in with_mesh.mesh_headings)
    with_abstract = next(record_to_paper(r) for r in core if r.abstract_html)
    assert with_abstract.abstract and "<" not in with_abstract.abstract


def test_core_record_without_doi():
    core = records("epmc_search_cancer_core.json")
    missing = [r for r in core if r.doi is None]
    assert missing and missing[0].to_paper().doi is None


def test_lite_authors_fall_back_to_author_string():
    paper = records("epmc_search_cancer_lite.json")[0].to_paper()
    assert [a.name for a in paper.authors] == ["Schoenfeld JD", "Haas-Kogan DA", "O'Neill AF"]


def test_structured_abstract_labels():
    record = EuropePMCRecord.from_api(
        {
            "id": "1",
            "source": "MED",
            "abstractText": "<h4>Background</h4>Why. <h4>Methods</h4>How &amp; what.",
        }
    )
    paper = record.to_paper()
    assert [(s.label, s.text) for s in paper.abstract_sections] == [
        ("Background", "Why."),
        ("Methods", "How & what."),
    ]


def test_id_query_drops_invalid_ids_and_duplicates():
    query = id_query(pmids=["123", "x"], pmcids=["4567", "PMC4567"], dois=["https://doi.org/10.1000/AB", ""])
    assert query == '(EXT_ID:123 AND SRC:MED) OR PMCID:PMC4567 OR DOI:"10.1000/ab"'


# -- HTTP ---------------------------------------------------------------------------------------


async def test_search_sends_the_documented_parameters(client_for):
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=body("epmc_search_cancer_lite.json"))

    outcome = await client_for(handler).search("cancer", limit=25, result_type="lite")
    assert outcome.hit_count == 5059039 and len(outcome.records) == 25 and outcome.pages == 1
    params = seen[0].url.params
    assert seen[0].url.path.endswith("/search")
    assert params["query"] == "cancer" and params["format"] == "json" and params["resultType"] == "lite"
    assert params["cursorMark"] == "*" and params["pageSize"] == "25"
    assert "synonym" not in params


async def test_search_follows_the_cursor_until_the_limit(client_for):
    pages = [body("epmc_search_cancer_page2_cursor.json"), body("epmc_search_cancer_lite.json")]
    cursors: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        cursors.append(request.url.params["cursorMark"])
        return httpx.Response(200, json=pages[min(len(cursors) - 1, 1)])

    outcome = await client_for(handler).search("cancer", limit=8, result_type="lite")
    assert cursors == ["*", "AoIIP4lkIig1MzE0NTMwOA=="]
    assert len(outcome.records) == 8 and outcome.pages == 2


async def test_search_without_hits_and_empty_query(client_for):
    client = client_for(lambda request: httpx.Response(200, json=body("epmc_search_no_results.json")))
    outcome = await client.search("asdkfjhasdkfjhasdfasdasdasdfgsagsd")
    assert outcome.hit_count == 0 and outcome.records == [] and outcome.next_cursor is None
    with pytest.raises(EmptyQuery):
        await client.search("   ")


async def test_search_rejects_a_malformed_answer(client_for):
    client = client_for(lambda request: httpx.Response(200, json={"unexpected": True}))
    with pytest.raises(BadResponse, match="hitCount"):
        await client.search("cancer")


async def test_lookup_batches_ids_into_or_queries(client_for, monkeypatch):
    import tools.europepmc as module

    monkeypatch.setattr(module, "ID_BATCH", 2)
    queries: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        queries.append(request.url.params["query"])
        return httpx.Response(200, json=body("epmc_search_post_synonym.json"))

    found = await client_for(handler).lookup(
        pmids=["40353141", "1"], dois=["10.17912/micropub.biology.001529"]
    )
    assert queries == [
        "(EXT_ID:40353141 AND SRC:MED) OR (EXT_ID:1 AND SRC:MED)",
        'DOI:"10.17912/micropub.biology.001529"',
    ]
    assert found[0].pmcid == "PMC12062895" and found[0].fulltext_available
    assert len({f"{r.source}:{r.id}" for r in found}) == len(found)  # the same record twice is kept once


async def test_fulltext_xml_returns_the_jats_article(client_for):
    xml = (DIR / "epmc_fulltext_PMC3258128.xml").read_text(encoding="utf-8")
    paths: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.path)
        return httpx.Response(200, text=xml, headers={"content-type": "application/xml"})

    text = await client_for(handler).fulltext_xml("3258128")
    assert paths == ["/europepmc/webservices/rest/PMC3258128/fullTextXML"]
    assert "<article" in text and "microRNA-122" in text


async def test_fulltext_xml_not_found_and_bad_bodies(client_for):
    missing = client_for(lambda request: httpx.Response(404, text="<html>not here</html>"))
    with pytest.raises(NotFound):
        await missing.fulltext_xml("PMC1")
    with pytest.raises(NotFound, match="not a PMCID"):
        await missing.fulltext_xml("doi:10.1/x")
    empty = client_for(lambda request: httpx.Response(200, text=""))
    with pytest.raises(NotFound, match="empty"):
        await empty.fulltext_xml("PMC1")
    html_page = client_for(
        lambda request: httpx.Response(200, text="<!DOCTYPE html><html><body>maintenance</body></html>")
    )
    with pytest.raises(BadResponse, match="HTML"):
        await html_page.fulltext_xml("PMC1")
