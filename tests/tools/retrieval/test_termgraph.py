"""The term-graph leg: building, entity linking, path scoring, persistence."""

from __future__ import annotations

import json

from agent.models import AggregatedPaper, KeywordPlan
from tools.retrieval.sections import build_sections
from tools.retrieval.termgraph import SurfaceMatcher, TermGraph
from tools.retrieval.types import FullTextSection


def _graph(papers, plan, fulltext) -> TermGraph:
    records = [r for p in papers for r in build_sections(p, fulltext.get(p.key))]
    return TermGraph.build(papers, records, plan)


def test_nodes_and_edges(
    papers: list[AggregatedPaper], plan: KeywordPlan, fulltext: dict[str, list[FullTextSection]]
) -> None:
    graph = _graph(papers, plan, fulltext)
    g = graph.graph
    kinds = {d["kind"] for _, d in g.nodes(data=True)}
    assert kinds == {"paper", "section", "term", "mesh", "keyword", "author", "institution"}
    assert g.has_edge("paper:doi:10.1000/ecog", "section:doi:10.1000/ecog#title#0")
    assert g.has_edge("term:electrocorticography", "mesh:electrocorticography")
    assert g.has_edge("paper:doi:10.1000/ecog", "mesh:epilepsy")
    assert g.has_edge("author:edward f chang", "inst:university of california san francisco")
    # the title names ECoG (a synonym) and the methods abstract names the canonical term
    assert g.edges["term:electrocorticography", "section:doi:10.1000/ecog#title#0"]["count"] == 1
    assert g.has_edge("term:electrocorticography", "section:doi:10.1000/ecog#abstract-methods#0")
    # Chinese synonyms are found inside Chinese text without spaces
    assert g.has_edge("term:brain computer interface", "section:doi:10.1000/zh#abstract#0")
    assert g.has_edge("term:speech decoding", "section:doi:10.1000/zh#title#0")
    assert not g.has_edge("term:brain computer interface", "section:doi:10.1000/eeg#title#0")


def test_linking_and_search(
    papers: list[AggregatedPaper], plan: KeywordPlan, fulltext: dict[str, list[FullTextSection]]
) -> None:
    graph = _graph(papers, plan, fulltext)
    linked = graph.link("speech decoding with ECoG by Chang at University of California San Francisco")
    nodes = [n for n, _ in linked]
    assert nodes == [
        "term:speech decoding",
        "term:electrocorticography",
        "author:edward f chang",
        "inst:university of california san francisco",
    ]
    assert graph.link("how does pitch change") == []  # 'change' is not the family name 'Chang'
    assert graph.link("a chang b") == []  # a family name alone must be capitalised

    hits = graph.search(["term:electrocorticography", "term:speech decoding"])
    top = hits[0]
    # the title names both terms: the only section with a direct path from each
    assert top.section_id == "doi:10.1000/ecog#title#0"
    assert top.score > hits[1].score
    assert top.path[:2] in (["electrocorticography", "mentioned in"], ["speech decoding", "mentioned in"])

    by_author = graph.search(["author:edward f chang"])
    assert {h.section_id.split("#")[0] for h in by_author} == {"doi:10.1000/ecog"}
    assert all(h.section_id.split("#")[1] != "methods" for h in by_author)  # front sections only
    assert by_author[0].path[1] == "wrote"

    mesh = graph.search(["mesh:epilepsy"])
    assert mesh and mesh[0].score == 0.7
    via_institution = graph.search(["inst:university of california san francisco"])
    assert via_institution[0].score == 0.6
    assert graph.search(["term:unknown"]) == []
    assert len(graph.search(["term:electrocorticography"], k=2)) == 2


def test_json_round_trip(
    papers: list[AggregatedPaper], plan: KeywordPlan, fulltext: dict[str, list[FullTextSection]]
) -> None:
    graph = _graph(papers, plan, fulltext)
    data = json.loads(json.dumps(graph.to_json()))
    again = TermGraph.from_json(data)
    assert again.size == graph.size
    question = ["term:electrocorticography", "author:edward f chang"]
    assert [(h.section_id, h.score) for h in again.search(question)] == [
        (h.section_id, h.score) for h in graph.search(question)
    ]


def test_surface_matcher_prefers_the_longest_surface() -> None:
    matcher = SurfaceMatcher()
    matcher.add("speech", "term:speech")
    matcher.add("speech decoding", "term:speech decoding")
    matcher.add("CHO细胞", "term:cho")
    assert matcher.find("Speech decoding of speech") == [
        ("term:speech decoding", "Speech decoding"),
        ("term:speech", "speech"),
    ]
    assert matcher.find("CHO细胞宿主蛋白") == [("term:cho", "CHO 细 胞")]
