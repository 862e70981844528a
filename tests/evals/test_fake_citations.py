"""The fake sources' citation graph: deterministic, consistent both ways, planted papers out of any
search's reach, and no change to requests that do not ask for citations."""

from __future__ import annotations

import httpx

from evals.fake_sources.app import FakeSources
from evals.fake_sources.citations import ANCHORS, CLUSTER_SIZE, CLUSTERS, graph_for, reachable_planted
from evals.fake_sources.config import FakeConfig
from evals.fake_sources.universe import Universe, query_key

QUERY = "speech decoding intracranial"


def test_edges_are_deterministic_and_each_others_inverse() -> None:
    key = query_key(QUERY)
    graph, again = graph_for(Universe(seed=2)), graph_for(Universe(seed=2))
    planted = graph.planted(key)
    assert planted == again.planted(key) and len(planted.all()) == CLUSTERS * CLUSTER_SIZE
    for k in [*range(ANCHORS + 5), *planted.all()]:
        assert graph.references(key, k) == again.references(key, k)
        for other in graph.references(key, k):
            assert (key, k) in graph.citations(*other) or other[0] != key
        for other in graph.citations(key, k):
            assert (key, k) in graph.references(*other)
    assert reachable_planted(graph.universe, QUERY, list(range(10)), 2)


async def test_planted_papers_are_reached_by_citations_only() -> None:
    app = FakeSources(FakeConfig(seed=2))
    key = query_key(QUERY)
    planted = set(graph_for(app.universe).planted(key).all())
    for service in ("pubmed", "semantic_scholar", "openalex"):
        listed = app.universe.ranked(QUERY, service, 0, app.universe.total(QUERY, service))
        assert not planted & set(listed)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://fake") as client:
        page = (await client.get("/openalex/works", params={"search": QUERY, "per_page": 5})).json()
        assert all(w["referenced_works"] == [] for w in page["results"])  # not asked for: as before
        work_id = page["results"][0]["id"].rsplit("/", 1)[-1]
        selected = await client.get(
            "/openalex/works", params={"filter": f"openalex_id:{work_id}", "select": "id,referenced_works"}
        )
        references = selected.json()["results"][0]["referenced_works"]
        assert references
        citing = (
            await client.get(
                "/openalex/works", params={"filter": f"cites:{work_id}", "select": "id,referenced_works"}
            )
        ).json()
        assert all(page["results"][0]["id"] in w["referenced_works"] for w in citing["results"])
