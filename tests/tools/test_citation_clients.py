"""The citation methods of the OpenAlex and Semantic Scholar clients, against recorded responses.

OpenAlex: the recorded `filter=cites:W…|W…` cursor page (openalexPro's snowball cassette) and its empty
last page. Semantic Scholar: `/paper/{id}/references` and `/citations` answer `{"offset", "next",
"data": [{"citedPaper"|"citingPaper": {...}}]}` (no 200 is recorded; the shape is built around a
recorded paper record), and the recorded 504 of `/citations`.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.tools import test_openalex as oa
from tests.tools import test_semantic_scholar as s2
from tools.errors import SourceUnavailable

server = oa.server
s2_server = s2.server
CITED = ("W3046863325", "W3045921891")


def _params(request: httpx.Request) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(str(request.url)).query).items()}


async def test_citing_works_follows_the_cursor_and_keeps_references(server: oa.Server) -> None:
    pages = iter(["oapro_works_filter_cites_cursor.json", "oapro_works_cursor_page2_last.json"])
    client = server.client(lambda request: oa.replay(next(pages)))
    found = await client.citing_works(list(CITED), limit=200)
    _, body = oa.load("oapro_works_filter_cites_cursor.json")
    assert found.requests == 2 and len(found.works) == len(body["results"])
    first = _params(server.requests[0])
    assert first["filter"] == f"cites:{'|'.join(CITED)}" and first["cursor"] == "*"
    assert _params(server.requests[1])["cursor"] == body["meta"]["next_cursor"]
    # every citing work names, among its references, the work it cites
    assert all(set(w.referenced) & set(CITED) for w in found.works)
    assert all(w.paper.openalex_id and w.paper.title for w in found.works)


async def test_citing_works_stops_at_its_request_allowance(server: oa.Server) -> None:
    client = server.client(lambda request: oa.replay("oapro_works_filter_cites_cursor.json"))
    found = await client.citing_works([f"W{n}" for n in range(1, 121)], max_requests=2)
    assert found.requests == 2 == len(server.requests)


async def test_works_by_ids_batches_fifty_ids_a_request(server: oa.Server) -> None:
    _, work = oa.load("oapy_work_W2741809807.json")
    client = server.client(lambda request: oa.envelope(work))
    found = await client.works_by_ids([f"https://openalex.org/W{n}" for n in range(1, 121)])
    assert found.requests == 3 and len(found.works) == 3
    filters = [_params(r)["filter"] for r in server.requests]
    assert filters[0].startswith("openalex_id:W1|W2|") and filters[0].count("|") == 49
    assert found.works[0].referenced == tuple(w.rsplit("/", 1)[-1] for w in work["referenced_works"])
    by_doi = await client.works_by_ids(["https://doi.org/10.1000/ABC"], kind="doi")
    assert _params(server.requests[-1])["filter"] == "doi:10.1000/abc" and by_doi.requests == 1


def _links(role: str, *records: dict, next_offset: int | None = None) -> httpx.Response:
    body: dict = {"offset": 0, "data": [{role: r} for r in records]}
    if next_offset is not None:
        body["next"] = next_offset
    return httpx.Response(200, json=body)


async def test_references_and_citations_map_the_linked_papers(s2_server: s2.Server) -> None:
    record = s2.load("pqa_paper_doi_10.1016_j.addr.2015.01.008.json")["body"]
    unresolved = {"paperId": None, "title": "A reference S2 could not resolve"}

    def handler(request: httpx.Request) -> httpx.Response:
        role = "citedPaper" if request.url.path.endswith("/references") else "citingPaper"
        return _links(role, record, unresolved)

    client = s2_server.client(handler)
    references = await client.references("10.1000/X")
    citations = await client.citations("PMID:123")
    assert [p.semantic_scholar_id for p in references] == [
        record["paperId"]
    ]  # the unresolved one is left out
    assert citations[0].doi == references[0].doi
    paths = [r.url.path for r in s2_server.requests]
    assert paths[0].endswith("/paper/DOI:10.1000/x/references") and paths[1].endswith(
        "/paper/PMID:123/citations"
    )
    assert _params(s2_server.requests[0])["limit"] == "1000"


async def test_a_recorded_504_on_citations_is_a_typed_error(s2_server: s2.Server) -> None:
    client = s2_server.client(s2.always("ss_504_timeout_citations.json"), retries=1)
    with pytest.raises(SourceUnavailable):
        await client.citations("CorpusId:49313245")
    assert len(s2_server.requests) == 2


async def test_references_batch_is_aligned_with_the_ids(s2_server: s2.Server) -> None:
    record = s2.load("pqa_paper_doi_10.1016_j.addr.2015.01.008.json")["body"]

    def handler(request: httpx.Request) -> httpx.Response:
        sent = json.loads(request.content)["ids"]
        answers = [{"paperId": "a" * 40, "references": [record, {"paperId": None}]}, None][: len(sent)]
        return httpx.Response(200, json=answers + [None] * (len(sent) - len(answers)))

    client = s2_server.client(handler)
    found = await client.references_batch(["10.1000/A", "PMID:9"] + [f"10.1000/{n}" for n in range(30)])
    assert len(found) == 32 and found[1] is None
    assert [p.semantic_scholar_id for p in found[0] or []] == [record["paperId"]]
    assert len(s2_server.requests) == 2  # 25 papers a request
    fields = _params(s2_server.requests[0])["fields"].split(",")
    assert fields[0] == "paperId" and "references.title" in fields and "references.abstract" in fields
