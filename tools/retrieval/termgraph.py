"""The term-graph leg: a networkx graph of a Run's papers, sections, terms, MeSH headings, authors
and institutions; a question's entities → their neighbours → sections, scored by the path.

Nodes are typed by the prefix of their id (`paper:`, `section:`, `term:`, `mesh:`, `keyword:`,
`author:`, `inst:`). Edges: paper–section, section–term (the section's text names the term or one
of its synonyms; `count` times), term–mesh (the plan mapped the term to that heading), paper–mesh,
paper–keyword, paper–author, author–institution, paper–institution.

Scoring follows fixed path shapes rather than a free graph walk so one query stays a few
milliseconds on a 100,000-section Run: a term reaches the sections that name it (1.0, more with
repeated mentions), and through its MeSH heading the front sections (title, abstract) of the
papers indexed with it (0.5); a MeSH heading, keyword or author reaches its papers' front sections
(0.7), an institution 0.6 directly and 0.5 through its authors. A section's score is the mean over
the question's entities of the best path from each, so sections that meet every entity lead.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from agent.models import AggregatedPaper, KeywordPlan

from .text import CJK, to_half_width
from .types import SectionRecord

GRAPH_FORMAT = 1

_KEY_TOKEN = re.compile(f"[{CJK}]|[^\\W_{CJK}]+")
_MAX_SURFACE_TOKENS = 16  # CJK surfaces count one token per character

# Path weights (see the module docstring).
W_MESH_PATH = 0.5
W_PAPER_ENTITY = 0.7
W_INSTITUTION = 0.6
W_INSTITUTION_VIA_AUTHOR = 0.5


def key_tokens(text: str) -> list[str]:
    """Matching tokens: case-folded Latin words and single CJK characters (so mixed 'CHO细胞' matches)."""
    return [t.casefold() for t in _KEY_TOKEN.findall(to_half_width(text))]


def surface_key(text: str) -> str:
    return " ".join(key_tokens(text))


def _name_key(name: str) -> str:
    return surface_key(name)


@dataclass(frozen=True)
class _Surface:
    tokens: tuple[str, ...]
    node: str
    case_sensitive: bool = False  # family names alone must be written capitalised to count


class SurfaceMatcher:
    """Finds known surfaces in token sequences: dictionary lookups by first token, longest match wins."""

    def __init__(self) -> None:
        self._by_first: dict[str, list[_Surface]] = defaultdict(list)
        self._seen: set[tuple[tuple[str, ...], str]] = set()
        self.firsts: set[str] = set()  # first tokens of all surfaces: a cheap "can anything match here?"

    def add(self, surface: str, node: str, *, case_sensitive: bool = False) -> None:
        tokens = tuple(key_tokens(surface))
        if not tokens or len(tokens) > _MAX_SURFACE_TOKENS or (tokens, node) in self._seen:
            return
        self._seen.add((tokens, node))
        bucket = self._by_first[tokens[0]]
        self.firsts.add(tokens[0])
        bucket.append(_Surface(tokens, node, case_sensitive))
        bucket.sort(key=lambda s: -len(s.tokens))

    def find(self, text: str) -> list[tuple[str, str]]:
        """(node, surface text) for each non-overlapping match, longest first at each position."""
        original = list(_KEY_TOKEN.findall(to_half_width(text)))
        folded = [t.casefold() for t in original]
        if not self.firsts or self.firsts.isdisjoint(folded):
            return []
        found: list[tuple[str, str]] = []
        i = 0
        while i < len(folded):
            advanced = False
            for surface in self._by_first.get(folded[i], ()):
                n = len(surface.tokens)
                if tuple(folded[i : i + n]) != surface.tokens:
                    continue
                if surface.case_sensitive and not original[i][:1].isupper():
                    continue
                # every node sharing this surface (a term and a MeSH heading of the same name)
                same = [s for s in self._by_first[folded[i]] if s.tokens == surface.tokens]
                found.extend((s.node, " ".join(original[i : i + n])) for s in same)
                i += n
                advanced = True
                break
            if not advanced:
                i += 1
        return found


@dataclass
class GraphHit:
    section_id: str
    score: float
    path: list[str]


def _mention_weight(count: int) -> float:
    # one mention 0.8, three or more 1.0: repeated naming is evidence, but with a ceiling
    return min(1.0, 0.6 + 0.2 * math.log2(1 + count))


class TermGraph:
    def __init__(self, graph: nx.Graph) -> None:
        self.graph = graph
        self._matcher: SurfaceMatcher | None = None

    # -- building -------------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        papers: Sequence[AggregatedPaper],
        records: Sequence[SectionRecord],
        plan: KeywordPlan | None = None,
    ) -> TermGraph:
        g = nx.Graph()
        terms = SurfaceMatcher()
        for term in plan.terms if plan else []:
            node = f"term:{surface_key(term.canonical)}"
            if node == "term:":
                continue
            # MeSH entry terms are further names of the same concept ("ECoG" for Electrocorticography)
            synonyms = [s.text for s in term.kept_synonyms()] + (term.mesh.entry_terms if term.mesh else [])
            g.add_node(node, kind="term", label=term.canonical, slot=term.slot, synonyms=synonyms)
            for surface in [term.canonical, *synonyms]:
                terms.add(surface, node)
            if term.mesh:
                mesh = f"mesh:{surface_key(term.mesh.heading)}"
                g.add_node(mesh, kind="mesh", label=term.mesh.heading, ui=term.mesh.ui)
                g.add_edge(node, mesh, rel="mesh")

        for ap in papers:
            p = ap.paper
            paper = f"paper:{ap.key}"
            g.add_node(paper, kind="paper", label=p.title, year=p.year, doi=p.doi)
            for heading in p.mesh_headings:
                mesh = f"mesh:{surface_key(heading.descriptor)}"
                if mesh not in g:
                    g.add_node(mesh, kind="mesh", label=heading.descriptor, ui=heading.ui)
                g.add_edge(paper, mesh, rel="indexed_as", major=heading.major)
            for keyword in p.keywords:
                kw = f"keyword:{surface_key(keyword)}"
                if kw == "keyword:":
                    continue
                if kw not in g:
                    g.add_node(kw, kind="keyword", label=keyword)
                g.add_edge(paper, kw, rel="keyword")
            for author in p.authors:
                key = _name_key(author.name)
                if not key:
                    continue
                node = f"author:{key}"
                if node not in g:
                    g.add_node(
                        node, kind="author", label=author.name, family=author.family, orcid=author.orcid
                    )
                g.add_edge(paper, node, rel="authored", position=author.position, last=author.is_last)
                for aff in author.affiliations:
                    name = aff.institution
                    if not name or not surface_key(name):
                        continue
                    inst = f"inst:{surface_key(name)}"
                    if inst not in g:
                        g.add_node(
                            inst, kind="institution", label=name, ror=aff.ror, country=aff.country_code
                        )
                    g.add_edge(node, inst, rel="affiliated")
                    g.add_edge(paper, inst, rel="affiliated")

        firsts = terms.firsts
        for rec in records:
            section = f"section:{rec.section_id}"
            front = rec.kind == "title" or rec.metadata.get("part") == "abstract"
            g.add_node(section, kind="section", paper=rec.paper_key, section_kind=rec.kind, front=front)
            g.add_edge(f"paper:{rec.paper_key}", section, rel="has_section")
            if not firsts or firsts.isdisjoint(key_tokens(rec.text)):
                continue  # the common case on a large Run: skip the scan
            counts: dict[str, int] = defaultdict(int)
            for node, _surface in terms.find(rec.text):
                counts[node] += 1
            for node, count in counts.items():
                g.add_edge(node, section, rel="mentions", count=count)
        return cls(g)

    # -- persistence ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A compact JSON form (node and edge lists) for the Run's row in PostgreSQL."""
        return {
            "format": GRAPH_FORMAT,
            "nodes": [[n, d] for n, d in self.graph.nodes(data=True)],
            "edges": [[u, v, d] for u, v, d in self.graph.edges(data=True)],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TermGraph:
        if data.get("format") != GRAPH_FORMAT:
            raise ValueError(f"unknown term-graph format {data.get('format')!r}")
        g = nx.Graph()
        g.add_nodes_from((n, d) for n, d in data["nodes"])
        g.add_edges_from((u, v, d) for u, v, d in data["edges"])
        return cls(g)

    # -- querying -------------------------------------------------------------------------------

    @property
    def matcher(self) -> SurfaceMatcher:
        """Surfaces of every entity node, built on first use (questions only, so built once per Run)."""
        if self._matcher is None:
            matcher = SurfaceMatcher()
            for node, data in self.graph.nodes(data=True):
                kind = data.get("kind")
                if kind in ("term", "mesh", "keyword", "institution"):
                    matcher.add(str(data.get("label") or ""), node)
                    for synonym in data.get("synonyms") or ():
                        matcher.add(synonym, node)
                elif kind == "author":
                    matcher.add(str(data.get("label") or ""), node)
                    family = data.get("family")
                    if family and len(family) >= 3:
                        matcher.add(family, node, case_sensitive=True)
            self._matcher = matcher
        return self._matcher

    def link(self, text: str) -> list[tuple[str, str]]:
        """The entities a text names: (node id, surface as written), de-duplicated by node."""
        seen: set[str] = set()
        out: list[tuple[str, str]] = []
        for node, surface in self.matcher.find(text):
            if node not in seen:
                seen.add(node)
                out.append((node, surface))
        return out

    def label(self, node: str) -> str:
        data = self.graph.nodes.get(node, {})
        return str(data.get("label") or node.split(":", 1)[-1])

    def _front_sections(self, paper: str) -> Iterable[str]:
        for n in self.graph.neighbors(paper):
            data = self.graph.nodes[n]
            if data.get("kind") == "section" and data.get("front"):
                yield n

    def _reach(self, entity: str) -> dict[str, tuple[float, list[str]]]:
        """Best (score, path) from one entity to each section it reaches."""
        g = self.graph
        kind = g.nodes[entity].get("kind")
        best: dict[str, tuple[float, list[str]]] = {}

        def offer(section: str, score: float, path: list[str]) -> None:
            if score > best.get(section, (0.0, []))[0]:
                best[section] = (score, path)

        def via_papers(papers: Iterable[str], weight: float, prefix: list[str]) -> None:
            for paper in papers:
                for section in self._front_sections(paper):
                    offer(section, weight, [*prefix, self.label(paper), section.removeprefix("section:")])

        name = self.label(entity)
        if kind == "term":
            for n in g.neighbors(entity):
                data = g.nodes[n]
                if data.get("kind") == "section":
                    count = int(g.edges[entity, n].get("count", 1))
                    offer(n, _mention_weight(count), [name, "mentioned in", n.removeprefix("section:")])
                elif data.get("kind") == "mesh":
                    papers = [p for p in g.neighbors(n) if g.nodes[p].get("kind") == "paper"]
                    via_papers(papers, W_MESH_PATH, [name, "MeSH", self.label(n), "indexes"])
        elif kind in ("mesh", "keyword", "author"):
            papers = [p for p in g.neighbors(entity) if g.nodes[p].get("kind") == "paper"]
            via_papers(
                papers,
                W_PAPER_ENTITY,
                [name, {"mesh": "indexes", "keyword": "keyword of"}.get(kind, "wrote")],
            )
        elif kind == "institution":
            papers = [p for p in g.neighbors(entity) if g.nodes[p].get("kind") == "paper"]
            via_papers(papers, W_INSTITUTION, [name, "affiliation of"])
            for author in g.neighbors(entity):
                if g.nodes[author].get("kind") != "author":
                    continue
                papers = [p for p in g.neighbors(author) if g.nodes[p].get("kind") == "paper"]
                via_papers(
                    papers, W_INSTITUTION_VIA_AUTHOR, [name, "affiliation of", self.label(author), "wrote"]
                )
        return best

    def search(self, entities: Sequence[str], k: int = 100) -> list[GraphHit]:
        """Sections reached from the entities, best first (mean over entities of the best path)."""
        entities = [e for e in dict.fromkeys(entities) if e in self.graph]
        if not entities:
            return []
        totals: dict[str, float] = defaultdict(float)
        paths: dict[str, tuple[float, list[str]]] = {}
        for entity in entities:
            for section, (score, path) in self._reach(entity).items():
                totals[section] += score / len(entities)
                if score > paths.get(section, (0.0, []))[0]:
                    paths[section] = (score, path)
        ranked = sorted(totals.items(), key=lambda kv: -kv[1])[:k]
        return [GraphHit(s.removeprefix("section:"), score, paths[s][1]) for s, score in ranked]

    @property
    def size(self) -> tuple[int, int]:
        return self.graph.number_of_nodes(), self.graph.number_of_edges()
