"""The fake-sources app itself, in process (httpx.ASGITransport, no socket): generated shapes, the
shared universe and its ground truth, replay of the recordings, paging, errors and fault parsing."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from agent.models import normalize_doi
from evals.fake_sources import FakeConfig, FakeSources, FaultSpecError, parse_faults, query_key
from evals.fake_sources.universe import SHARED_FRACTION, orcid_with_checksum

QUERY = "sleep apnea deep learning"


@pytest.fixture
def app() -> FakeSources:
    return FakeSources(FakeConfig(seed=7))


@pytest.fixture
async def http(app: FakeSources) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://fake") as client:
        yield client


async def esearch(http: httpx.AsyncClient, term: str, **params: Any) -> dict[str, Any]:
    response = await http.get(
        "/pubmed/esearch.fcgi", params={"db": "pubmed", "term": term, "retmode": "json", **params}
    )
    assert response.status_code == 200
    return response.json()["esearchresult"]


async def efetch_root(http: httpx.AsyncClient, **params: Any) -> ET.Element:
    response = await http.post("/pubmed/efetch.fcgi", data={"db": "pubmed", "retmode": "xml", **params})
    assert response.status_code == 200
    return ET.fromstring(response.content)


# ------------------------------------------------------------------------------------------------
# the universe
# ------------------------------------------------------------------------------------------------


def test_query_spellings_of_one_search_share_a_universe() -> None:
    pubmed = '("sleep apnea"[tiab] OR "deep learning"[Title/Abstract]) AND sleep[mh]'
    s2 = '"sleep apnea" | "deep learning" + sleep'
    assert (
        query_key(pubmed)
        == query_key(s2)
        == query_key("deep learning sleep apnea")
        == "apnea deep learning sleep"
    )
    assert query_key("") == query_key("AND OR") == ""


async def test_generation_is_deterministic_per_seed() -> None:
    async def ids(seed: int) -> list[str]:
        transport = httpx.ASGITransport(app=FakeSources(FakeConfig(seed=seed)))
        async with httpx.AsyncClient(transport=transport, base_url="http://fake") as client:
            return (await esearch(client, QUERY, retmax=30))["idlist"]

    assert await ids(1) == await ids(1)
    assert await ids(1) != await ids(2)


async def test_totals_come_from_the_query_or_are_forced(app: FakeSources, http: httpx.AsyncClient) -> None:
    derived = int((await esearch(http, QUERY))["count"])
    assert 50 <= derived <= 5000 and derived == app.universe.total(QUERY, "pubmed")
    assert (await esearch(http, QUERY, fake_total=1234))["count"] == "1234"
    response = await http.get("/openalex/works", params={"search": QUERY}, headers={"X-Fake-Total": "77"})
    assert response.json()["meta"]["count"] == 77
    forced = FakeSources(FakeConfig(total=3000))
    assert forced.universe.total("anything at all", "semantic_scholar") == 3000


def test_truth_knows_which_records_are_the_same_paper(app: FakeSources) -> None:
    truth = app.truth_for(QUERY, fake_total=2000)
    # every service lists exactly the forced number of papers
    for service in ("pubmed", "semantic_scholar", "openalex"):
        assert sum(service in r.ids for r in truth.records) == 2000
    assert abs(truth.shared_fraction() - SHARED_FRACTION) < 0.06
    assert all(r.doi for r in truth.records if r.shared) is False  # some shared papers have no DOI
    assert sum(1 for r in truth.records if r.doi is None) / len(truth.records) > 0.05
    # PMIDs: PubMed ids are the PMIDs the other services carry for the same paper
    record = next(r for r in truth.records if {"pubmed", "openalex"} <= r.ids.keys())
    paper = app.universe.lookup("openalex", record.ids["openalex"])
    assert paper is not None and paper.pmid == record.ids["pubmed"]


def test_truth_scores_a_merge(app: FakeSources) -> None:
    truth = app.truth_for(QUERY, limit=200)
    perfect = [r.ids.items() for r in truth.records]
    assert truth.evaluate(perfect) == (1.0, 1.0)
    # merging by DOI alone is precise but misses the shared papers that have no DOI
    by_doi: dict[str, list[tuple[str, str]]] = {}
    for r in truth.records:
        for item in r.ids.items():
            by_doi.setdefault(r.doi or f"none-{item}", []).append(item)
    precision, recall = truth.evaluate(by_doi.values())
    assert precision == 1.0 and 0.8 < recall < 1.0
    # merging everything is as imprecise as it gets
    everything = [[item for r in truth.records for item in r.ids.items()]]
    assert truth.evaluate(everything)[0] < 0.01
    assert truth.key_of("openalex", "https://openalex.org/" + truth.records[0].ids.get("openalex", "W0")) in (
        truth.records[0].key,
        None,
    )


def test_orcids_have_valid_check_digits() -> None:
    def valid(orcid: str) -> bool:
        digits = orcid.replace("-", "")
        total = 0
        for ch in digits[:-1]:
            total = (total + int(ch)) * 2
        check = (12 - total % 11) % 11
        return digits[-1] == ("X" if check == 10 else str(check))

    assert all(valid(orcid_with_checksum(n)) for n in range(0, 10**6, 9973))
    assert valid("0000-0002-1825-0097")  # ORCID's own example


# ------------------------------------------------------------------------------------------------
# PubMed
# ------------------------------------------------------------------------------------------------


async def test_pubmed_records_are_realistic(http: httpx.AsyncClient) -> None:
    result = await esearch(http, QUERY, retmax=200, fake_total=400)
    root = await efetch_root(http, id=",".join(result["idlist"]))
    articles = root.findall("PubmedArticle")
    assert len(articles) == 200
    assert [a.findtext("MedlineCitation/PMID") for a in articles] == result["idlist"]
    affiliations = [a.text or "" for a in root.iter("Affiliation")]
    assert any("China" in text for text in affiliations)
    assert any(re.search(r"[\u4e00-\u9fff]", text) for text in affiliations)  # Chinese script
    countries = {
        frozenset(
            re.findall(r"(China|United States|Germany|Sweden|United Kingdom|Canada)", " ".join(a.itertext()))
        )
        for a in articles
    }
    assert any(len(c) >= 2 for c in countries)  # multi-country papers
    assert any(len(a.findall(".//Author")) >= 10 for a in articles)
    assert any(a.find(".//Identifier[@Source='ORCID']") is not None for a in articles)
    assert any(a.find(".//AbstractText[@Label]") is not None for a in articles)  # structured abstracts
    assert any(a.find(".//ArticleId[@IdType='doi']") is None for a in articles)  # no DOI at all
    assert any(
        a.find(".//ELocationID[@EIdType='doi']") is None and a.find(".//ArticleId[@IdType='doi']") is not None
        for a in articles
    )  # DOI only in the article id list


async def test_pubmed_history_server_pages_in_esearch_order(http: httpx.AsyncClient) -> None:
    first = await esearch(http, QUERY, retmax=30, fake_total=500)
    history = await esearch(http, QUERY, retmax=0, usehistory="y", fake_total=500)
    assert history["idlist"] == [] and history["querykey"] == "1" and history["webenv"].startswith("MCID_")
    root = await efetch_root(
        http, WebEnv=history["webenv"], query_key="1", retstart=10, retmax=20, fake_total=500
    )
    assert [a.findtext("MedlineCitation/PMID") for a in root.findall("PubmedArticle")] == first["idlist"][
        10:30
    ]
    unknown = await http.post(
        "/pubmed/efetch.fcgi", data={"db": "pubmed", "WebEnv": "MCID_nope", "query_key": "1"}
    )
    assert "<ERROR>Unable to obtain query #1</ERROR>" in unknown.text


async def test_pubmed_mixes_recorded_and_generated_records(http: httpx.AsyncClient) -> None:
    generated = (await esearch(http, QUERY, retmax=1))["idlist"][0]
    root = await efetch_root(http, id=f"35108047,{generated},37909814,99999999,20301577")
    assert [a.findtext(".//PMID") for a in root] == ["35108047", generated, "20301577"]
    assert root[2].tag == "PubmedBookArticle"  # the recorded book record, verbatim


async def test_pubmed_in_band_errors_and_empty_results(http: httpx.AsyncClient) -> None:
    assert (await esearch(http, "  "))["ERROR"] == "Empty term and query_key - nothing todo"
    none = await esearch(http, QUERY, fake_total=0)
    assert none["count"] == "0" and none["idlist"] == []
    assert none["warninglist"]["outputmessages"] == ["No items found."]
    bad_field = await esearch(http, "sleep[zzfield]")
    assert bad_field["errorlist"]["fieldsnotfound"] == ["zzfield"]
    stack = (await esearch(http, '("sleep apnea"[tiab] OR snoring[mh]) AND child'))["translationstack"]
    assert [s if isinstance(s, str) else s["field"] for s in stack] == [
        "Title/Abstract",
        "MeSH Terms",
        "OR",
        "GROUP",
        "All Fields",
        "AND",
    ]


async def test_pubmed_xml_esearch_and_recorded_esearch(http: httpx.AsyncClient) -> None:
    response = await http.get(
        "/pubmed/esearch.fcgi", params={"db": "pubmed", "term": QUERY, "usehistory": "y"}
    )
    root = ET.fromstring(response.content)
    assert root.tag == "eSearchResult" and root.findtext("WebEnv", "").startswith("MCID_")
    recorded = await http.post(
        "/pubmed/esearch.fcgi",
        data={"db": "pubmed", "term": "hart rk[author]", "retmode": "xml", "retmax": "250"},
    )
    assert "<WebEnv>MCID_6934533c4c5abba8c303da1d</WebEnv>" in recorded.text


async def test_mesh_answers_from_the_real_descriptor_table(http: httpx.AsyncClient) -> None:
    search = await http.get(
        "/pubmed/esearch.fcgi", params={"db": "mesh", "term": "High Blood Pressure", "retmode": "json"}
    )
    assert search.json()["esearchresult"]["idlist"] == ["68006973"]
    summary = (
        await http.get("/mesh/esummary.fcgi", params={"db": "mesh", "id": "68006973", "retmode": "json"})
    ).json()
    doc = summary["result"]["68006973"]
    assert doc["ds_meshui"] == "D006973" and doc["ds_meshterms"][0] == "Hypertension"
    assert doc["ds_idxlinks"][0]["treenum"] == "C14.907.489"
    lookup = (
        await http.get("/mesh/lookup/descriptor", params={"label": "Hypertension", "match": "exact"})
    ).json()
    assert lookup == [{"resource": "http://id.nlm.nih.gov/mesh/D006973", "label": "Hypertension"}]
    details = (await http.get("/mesh/lookup/details", params={"descriptor": "D006973"})).json()
    assert any(t["preferred"] and t["label"] == "Hypertension" for t in details["terms"])
    nothing = await http.get("/mesh/esearch.fcgi", params={"db": "mesh", "term": "qwxzzy", "retmode": "json"})
    assert nothing.json()["esearchresult"]["count"] == "0"


# ------------------------------------------------------------------------------------------------
# OpenAlex
# ------------------------------------------------------------------------------------------------


async def test_openalex_cursor_paging_ends_with_an_empty_page(http: httpx.AsyncClient) -> None:
    seen: list[str] = []
    cursor = "*"
    pages = 0
    while cursor:
        body = (
            await http.get(
                "/openalex/works",
                params={"filter": f"title_and_abstract.search:{QUERY}", "per_page": 200, "cursor": cursor},
                headers={"X-Fake-Total": "450"},
            )
        ).json()
        seen += [w["id"] for w in body["results"]]
        cursor = body["meta"]["next_cursor"]
        pages += 1
    assert len(seen) == len(set(seen)) == 450 and pages == 4 and body["results"] == []


async def test_openalex_work_shape(http: httpx.AsyncClient) -> None:
    works = (await http.get("/openalex/works", params={"search": QUERY, "per_page": 200})).json()["results"]
    work = next(w for w in works if w["doi"] and len(w["authorships"]) > 1)
    assert work["doi"].startswith("https://doi.org/10.") and work["id"].startswith("https://openalex.org/W")
    authorship = work["authorships"][-1]
    assert authorship["author_position"] == "last" and authorship["raw_affiliation_strings"]
    assert {"id", "display_name", "ror", "country_code"} <= set(
        (authorship["institutions"] or [{}])[0]
    ) or not authorship["institutions"]
    with_abstract = next(w for w in works if w["abstract_inverted_index"])
    words = sorted((p, word) for word, ps in with_abstract["abstract_inverted_index"].items() for p in ps)
    assert [p for p, _ in words] == list(range(len(words)))
    assert any(w["abstract_inverted_index"] is None for w in works)
    assert any("CN" in a["countries"] for w in works for a in w["authorships"])
    single = (await http.get(f"/openalex/works/{work['doi']}", params={"select": "id,doi"})).json()
    assert single == {"id": work["id"], "doi": work["doi"]}
    by_filter = (await http.get("/openalex/works", params={"filter": f"doi:{work['doi']}"})).json()
    assert by_filter["meta"]["count"] == 1 and by_filter["results"][0]["id"] == work["id"]


async def test_openalex_errors_are_real_shapes(http: httpx.AsyncClient) -> None:
    too_big = await http.get("/openalex/works", params={"search": QUERY, "per_page": 201})
    assert too_big.status_code == 400 and too_big.json()["error"] == "Invalid query parameters error."
    unknown_filter = await http.get("/openalex/works", params={"filter": "nonsense_field:1"})
    assert (
        unknown_filter.status_code == 400
        and "nonsense_field is not a valid field" in unknown_filter.json()["message"]
    )
    missing = await http.get("/openalex/works/https://doi.org/10.9999/does-not-exist")
    assert (
        missing.status_code == 404 and "<title>404 Not Found</title>" in missing.text
    )  # the recorded HTML page
    institution = (await http.get("/openalex/institutions/I27837315")).json()  # recorded
    assert institution["geo"]["city"] == "Ann Arbor"
    generated = (await http.get("/openalex/institutions", params={"search": "Zhejiang"})).json()["results"][0]
    assert generated["geo"]["country_code"] == "CN" and "浙江大学" in generated["display_name_alternatives"]


# ------------------------------------------------------------------------------------------------
# Semantic Scholar
# ------------------------------------------------------------------------------------------------


async def test_semantic_scholar_bulk_paging_ends_with_a_null_token(http: httpx.AsyncClient) -> None:
    params = {"query": QUERY, "fields": "title,externalIds"}
    first = (
        await http.get("/semantic_scholar/paper/search/bulk", params=params, headers={"X-Fake-Total": "1500"})
    ).json()
    assert first["total"] == 1500 and len(first["data"]) == 1000 and first["token"]
    second = (
        await http.get(
            "/semantic_scholar/paper/search/bulk",
            params={**params, "token": first["token"]},
            headers={"X-Fake-Total": "1500"},
        )
    ).json()
    assert len(second["data"]) == 500 and second["token"] is None
    dois = [p["externalIds"].get("DOI") for p in first["data"] + second["data"]]
    assert any(d and d != d.lower() for d in dois)  # registrant case, as Semantic Scholar keeps it
    assert any(d is None for d in dois)
    assert set(first["data"][0]) == {"paperId", "title", "externalIds"}


async def test_semantic_scholar_search_shapes_and_limits(http: httpx.AsyncClient) -> None:
    page = (
        await http.get("/semantic_scholar/paper/search", params={"query": QUERY, "offset": 10, "limit": 5})
    ).json()
    assert page["offset"] == 10 and page["next"] == 15 and len(page["data"]) == 5
    none = (
        await http.get(
            "/semantic_scholar/paper/search", params={"query": QUERY}, headers={"X-Fake-Total": "0"}
        )
    ).json()
    assert none == {"total": 0, "offset": 0}  # no "data" key at all
    beyond = await http.get(
        "/semantic_scholar/paper/search", params={"query": QUERY, "offset": 990, "limit": 20}
    )
    assert beyond.status_code == 400
    bad_fields = await http.get(
        "/semantic_scholar/paper/search", params={"query": QUERY, "fields": "title,nonsense"}
    )
    assert bad_fields.json() == {"error": "Unrecognized or unsupported fields: [nonsense]"}


async def test_semantic_scholar_lookups_and_batches(http: httpx.AsyncClient) -> None:
    data = (
        await http.get(
            "/semantic_scholar/paper/search",
            params={"query": QUERY, "limit": 3, "fields": "authors,externalIds"},
        )
    ).json()["data"]
    paper = data[0]
    one = (
        await http.get(f"/semantic_scholar/paper/{paper['paperId']}", params={"fields": "title,year"})
    ).json()
    assert set(one) == {"paperId", "title", "year"}
    batch = (
        await http.post(
            "/semantic_scholar/paper/batch",
            params={"fields": "title"},
            json={"ids": [paper["paperId"], "nope"]},
        )
    ).json()
    assert batch[0]["paperId"] == paper["paperId"] and batch[1] is None
    author_ids = [a["authorId"] for a in paper["authors"] if a["authorId"]]
    authors = (
        await http.post(
            "/semantic_scholar/author/batch",
            params={"fields": "name,affiliations"},
            json={"ids": author_ids + ["0"]},
        )
    ).json()
    assert [a["authorId"] for a in authors[:-1]] == author_ids and authors[-1] is None
    missing = await http.get("/semantic_scholar/paper/0", params={"fields": "title"})
    assert missing.status_code == 404 and missing.json() == {"error": "Paper with id 0 not found"}
    upper = (
        await http.get(
            "/semantic_scholar/paper/DOI:10.1023/a:1007154515475", params={"fields": "externalIds"}
        )
    ).json()
    assert upper["externalIds"]["DOI"] == "10.1023/A:1007154515475"  # recorded


async def test_recorded_429_429_200_sequence_replays_in_order(
    app: FakeSources, http: httpx.AsyncClient
) -> None:
    fields = (
        "abstract,authors,citationCount,citationStyles,corpusId,externalIds,fieldsOfStudy,influentialCitationCount,"
        "isOpenAccess,journal,openAccessPdf,paperId,publicationDate,publicationTypes,publicationVenue,referenceCount,"
        "s2FieldsOfStudy,title,url,venue,year"
    )
    params = {"query": "turing", "fields": fields, "offset": 0, "limit": 100}
    statuses = [
        (await http.get("/semantic_scholar/paper/search", params=params)).status_code for _ in range(4)
    ]
    assert statuses == [429, 429, 200, 200]
    app.reset()
    assert (await http.get("/semantic_scholar/paper/search", params=params)).status_code == 429


# ------------------------------------------------------------------------------------------------
# the cross-service consistency a merge relies on
# ------------------------------------------------------------------------------------------------


async def test_services_render_the_truths_dois_and_pmids(app: FakeSources, http: httpx.AsyncClient) -> None:
    headers = {"X-Fake-Total": "300"}
    pubmed = await esearch(http, QUERY, retmax=100, fake_total=300)
    root = await efetch_root(http, id=",".join(pubmed["idlist"]))
    pubmed_dois = {a.findtext(".//PMID"): a.findtext(".//ArticleId[@IdType='doi']") for a in root}
    openalex = (
        await http.get("/openalex/works", params={"search": QUERY, "per_page": 100}, headers=headers)
    ).json()
    openalex_ids = {w["id"].rsplit("/", 1)[-1]: (w["doi"], w["ids"].get("pmid")) for w in openalex["results"]}
    s2 = (
        await http.get(
            "/semantic_scholar/paper/search",
            params={"query": QUERY, "limit": 100, "fields": "externalIds"},
            headers=headers,
        )
    ).json()
    s2_ids = {p["paperId"]: p["externalIds"] for p in s2["data"]}
    truth = app.truth_for(QUERY, limit=100, fake_total=300)
    checked = 0
    for record in truth.records:
        if "pubmed" in record.ids:
            assert pubmed_dois[record.ids["pubmed"]] == record.doi
        if "openalex" in record.ids:
            doi, pmid = openalex_ids[record.ids["openalex"]]
            assert normalize_doi(doi) == record.doi
            if "pubmed" in record.ids:
                assert pmid == f"https://pubmed.ncbi.nlm.nih.gov/{record.ids['pubmed']}"
        if "semantic_scholar" in record.ids:
            assert normalize_doi(s2_ids[record.ids["semantic_scholar"]].get("DOI")) == record.doi
        checked += record.shared
    assert checked > 30


# ------------------------------------------------------------------------------------------------
# Wikimedia, Europe PMC, Unpaywall, Zotero
# ------------------------------------------------------------------------------------------------


async def test_wikimedia_shapes(http: httpx.AsyncClient) -> None:
    found = (
        await http.get(
            "/wikidata", params={"action": "wbsearchentities", "search": "深度学习", "language": "zh"}
        )
    ).json()
    entity = found["search"][0]
    assert entity["label"] == "深度学习" and found["success"] == 1
    entities = (
        await http.get(
            "/wikidata",
            params={"action": "wbgetentities", "ids": f"{entity['id']}|Q10908976|Q571", "languages": "en|zh"},
        )
    ).json()["entities"]
    assert entities[entity["id"]]["labels"]["en"]["value"] == "deep learning"
    assert entities["Q10908976"] == {"id": "Q10908976", "missing": ""}
    assert set(entities["Q571"]["labels"]) <= {"en", "zh"}  # recorded entity, filtered to the languages asked
    error = (await http.get("/wikidata", params={"action": "wbsearchentities"})).json()
    assert error["error"]["code"] == "missingparam"
    v1 = (
        await http.get(
            "/wikipedia",
            params={"action": "query", "prop": "redirects", "titles": "sleep apnea", "formatversion": "1"},
        )
    ).json()
    [page] = v1["query"]["pages"].values()
    assert page["title"] == "Sleep apnea"
    assert "SA" in [r["title"] for r in page["redirects"]]
    limited = (
        await http.get(
            "/wikipedia",
            params={
                "action": "query",
                "prop": "redirects",
                "titles": "Sleep apnea",
                "rdlimit": "2",
                "formatversion": "2",
            },
        )
    ).json()
    assert len(limited["query"]["pages"][0]["redirects"]) == 2 and "rdcontinue" in limited["continue"]


async def test_europepmc_unpaywall_and_zotero(http: httpx.AsyncClient) -> None:
    search = (
        await http.get(
            "/europepmc/search",
            params={"query": QUERY, "format": "json", "pageSize": 3, "resultType": "core"},
        )
    ).json()
    assert len(search["resultList"]["result"]) == 3 and search["nextCursorMark"]
    assert "authorList" in search["resultList"]["result"][0]
    recorded = (
        await http.get(
            "/europepmc/search",
            params={
                "query": "cancer",
                "format": "json",
                "resultType": "lite",
                "pageSize": 25,
                "cursorMark": "*",
            },
        )
    ).json()
    assert recorded["hitCount"] == 5059039
    assert (await http.get("/unpaywall/10.1073/pnas.1414271111")).status_code == 422  # no email
    record = (await http.get("/unpaywall/10.1073/pnas.1414271111", params={"email": "a@b.org"})).json()
    assert record["oa_status"] == "bronze"
    assert (await http.get("/unpaywall/10.9999/unknown", params={"email": "a@b.org"})).status_code == 404
    items = (await http.get("/zotero/users/475425/items", params={"format": "json"})).json()
    assert len(items) == 20 and items[0]["data"]["itemType"]
    assert (await http.get("/zotero/users/1/items/top")).json() == []


# ------------------------------------------------------------------------------------------------
# faults and options
# ------------------------------------------------------------------------------------------------


def test_fault_specs_parse_and_reject_nonsense() -> None:
    latency, limited, failing = parse_faults("latency:250, 429:2*3, 503*1")
    assert (latency.kind, latency.arg, latency.times) == ("latency", 250.0, None)
    assert (limited.kind, limited.arg, limited.times, limited.is_status) == ("429", 2.0, 3, True)
    assert (failing.kind, failing.times) == ("503", 1)
    assert parse_faults("") == ()
    for bad in ("teapot", "latency", "503*x"):
        with pytest.raises(FaultSpecError):
            parse_faults(bad)
    assert FakeConfig.parse_fault_option("pubmed=hang") == ("pubmed", "hang")
    with pytest.raises(FaultSpecError):
        FakeConfig.parse_fault_option("nowhere=hang")


async def test_faults_by_header_are_counted_and_recorded(app: FakeSources, http: httpx.AsyncClient) -> None:
    headers = {"X-Fake-Fault": "503*2"}
    statuses = [
        (await http.get("/openalex/works", params={"search": "x"}, headers=headers)).status_code
        for _ in range(3)
    ]
    assert statuses == [503, 503, 200]
    assert [(r.service, r.path, r.fault, r.status) for r in app.requests] == [
        ("openalex", "/works", "503*2", 503),
        ("openalex", "/works", "503*2", 503),
        ("openalex", "/works", None, 200),
    ]
    html = await http.get("/openalex/works", params={"search": "x"}, headers={"X-Fake-Fault": "html"})
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    malformed = await http.get("/openalex/works", params={"search": "x", "fake_fault": "malformed"})
    with pytest.raises(ValueError):
        malformed.json()
    truncated = await http.get(
        "/openalex/works", params={"search": "x"}, headers={"X-Fake-Fault": "truncate"}
    )
    assert truncated.status_code == 200 and int(truncated.headers["content-length"]) == len(truncated.content)
    bogus = await http.get("/openalex/works", headers={"X-Fake-Fault": "teapot"})
    assert bogus.status_code == 400


async def test_faults_set_while_serving_apply_to_the_next_request(
    app: FakeSources, http: httpx.AsyncClient
) -> None:
    assert (await http.get("/openalex/works", params={"search": "x"})).status_code == 200
    app.set_faults("openalex", "503")
    assert (await http.get("/openalex/works", params={"search": "x"})).status_code == 503
    assert (await http.get("/pubmed/esearch.fcgi", params={"term": "x"})).status_code == 200
    app.set_faults("openalex", None)
    assert (await http.get("/openalex/works", params={"search": "x"})).status_code == 200
    for service, spec in (("nowhere", "503"), ("openalex", "teapot")):
        with pytest.raises(FaultSpecError):
            app.set_faults(service, spec)


async def test_enforced_rates_answer_429_like_the_real_service() -> None:
    app = FakeSources(FakeConfig(enforce_rates={"pubmed": 3}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://fake") as client:
        statuses = [
            (await client.get("/pubmed/esearch.fcgi", params={"term": "x", "retmode": "json"})).status_code
            for _ in range(5)
        ]
        assert statuses == [200, 200, 200, 429, 429]
        assert (
            "API rate limit exceeded" in (await client.get("/pubmed/esearch.fcgi", params={"term": "x"})).text
        )
