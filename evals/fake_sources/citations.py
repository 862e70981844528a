"""A deterministic citation graph over the universe's invented papers, with planted relevant clusters.

Citation snowballing (issue 22) needs papers that a query cannot reach and citations can. For every
query universe (a query key, see `universe.py`) this module defines:

- **anchors**: the universe's first `ANCHORS` papers (the top of every service's result list, so a
  Run's best-ranked papers). Anchor k links to planted cluster `k % CLUSTERS`.
- **planted clusters**: `CLUSTERS` clusters of `CLUSTER_SIZE` papers of the same topic, taken from
  universe indices from `PLANT_START` on (beyond any result list a search serves: totals stop near
  10,000 results, about 16,000 indices), and only papers both OpenAlex and Semantic Scholar hold.
  In cluster c, papers 0 and 2 are cited by the cluster's anchors (backward, depth 1), 1 and 3 cite
  them (forward, depth 1); paper j+4 is cited by paper j when j is even and cites paper j when j is
  odd (depth 2); papers 5 and 7 also cite paper 0, so a second round meets papers it found already.
- **listed links**: paper k cites papers k+3, k+10 and k+17 of its own universe, below `LISTED_SPAN`
  (relevant, mostly in the Run already: what tells a snowball it has saturated; the field ends there).
- **noise**: every paper cites `NOISE_REFS` off-topic papers (a pottery universe), and anchors and
  planted papers are cited by `NOISE_CITERS` off-topic papers each; a relevance screen drops them.

Edges are pure functions of (seed, key, k); `references` and `citations` are each other's inverse for
every on-topic paper and every off-topic citer. Off-topic cited papers list no citations of their own.
Nothing here changes the answers to requests that do not ask for citations.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

from evals.fake_sources.universe import FakePaper, Universe, stable_hash

ANCHORS = 40
CLUSTERS = 3
CLUSTER_SIZE = 8
PLANT_START = 18_000
LISTED_REF_STEPS = (3, 10, 17)
LISTED_SPAN = 300
NOISE_REFS = 5
NOISE_CITERS = 3
NOISE_TOPIC = "ceramic glaze kiln pottery"
_NOISE_CITER_START = 1_000  # noise citer of target t (an anchor or a planted paper): start + 3 t + i
_NOISE_REF_START = 5_000
_NOISE_REF_SPAN = 10_000
GRAPH_SERVICES = frozenset({"openalex", "semantic_scholar"})

Node = tuple[str, int]  # (universe key, index)


@dataclass(frozen=True)
class Planted:
    """The planted papers of one universe: `clusters[c][j]` is the universe index of paper j of cluster c."""

    clusters: tuple[tuple[int, ...], ...]

    def position(self, k: int) -> tuple[int, int] | None:
        for c, members in enumerate(self.clusters):
            if k in members:
                return c, members.index(k)
        return None

    def all(self) -> list[int]:
        return [k for members in self.clusters for k in members]


class CitationGraph:
    """The graph of one `Universe` (one per server). Thread-safe."""

    def __init__(self, universe: Universe) -> None:
        self.universe = universe
        self._targets: dict[str, str] = {}  # noise key -> the on-topic key whose papers it links to
        self._lock = threading.Lock()
        self._planted = lru_cache(maxsize=1024)(self._compute_planted)

    # -- which papers are which ---------------------------------------------------------------------

    def planted(self, key: str) -> Planted:
        return self._planted(key)

    def _compute_planted(self, key: str) -> Planted:
        clusters: list[tuple[int, ...]] = []
        k = PLANT_START
        for _ in range(CLUSTERS):
            members: list[int] = []
            while len(members) < CLUSTER_SIZE:
                if self.universe.membership(key, k) >= GRAPH_SERVICES:
                    members.append(k)
                k += 1
            clusters.append(tuple(members))
        return Planted(tuple(clusters))

    def noise_key(self, key: str) -> str:
        noise = f"{NOISE_TOPIC} {self.universe._universe_id(key)}"
        with self._lock:
            self._targets[noise] = key
        return noise

    def _target_of_noise(self, key: str) -> str | None:
        with self._lock:
            return self._targets.get(key)

    def _linked_targets(self, key: str) -> list[int]:
        """Papers with off-topic citers: the anchors, then the planted papers (their order fixes the citers)."""
        return list(range(ANCHORS)) + self.planted(key).all()

    # -- edges -----------------------------------------------------------------------------------------

    def references(self, key: str, k: int) -> list[Node]:
        """The papers (key, k) cites, in a fixed order."""
        target = self._target_of_noise(key)
        if target is not None:  # an off-topic paper: a citer names its one target, a cited one nothing
            offset = k - _NOISE_CITER_START
            linked = self._linked_targets(target)
            if 0 <= offset < len(linked) * NOISE_CITERS:
                return [(target, linked[offset // NOISE_CITERS])]
            return []
        planted = self.planted(key)
        out: list[Node] = []
        position = planted.position(k)
        if position is None:
            out += [(key, k + step) for step in LISTED_REF_STEPS if k + step < LISTED_SPAN]
            if k < ANCHORS:
                c = k % CLUSTERS
                out += [(key, planted.clusters[c][0]), (key, planted.clusters[c][2])]
        else:
            c, j = position
            members = planted.clusters[c]
            if j < 4 and j % 2 == 1:
                out += [(key, a) for a in range(c, ANCHORS, CLUSTERS)]
            if j < 4 and j % 2 == 0:
                out.append((key, members[j + 4]))
            if j >= 4 and j % 2 == 1:
                out += [(key, members[j - 4]), (key, members[0])]
        noise = self.noise_key(key)
        out += [
            (noise, _NOISE_REF_START + stable_hash(self.universe.seed, key, k, i, "ref") % _NOISE_REF_SPAN)
            for i in range(NOISE_REFS)
        ]
        return out

    def citations(self, key: str, k: int) -> list[Node]:
        """The papers that cite (key, k), in a fixed order (the inverse of `references`)."""
        if self._target_of_noise(key) is not None:
            return []
        planted = self.planted(key)
        out: list[Node] = []
        position = planted.position(k)
        if position is None:
            out += [(key, k - step) for step in LISTED_REF_STEPS if k - step >= 0 and k < LISTED_SPAN]
            if k < ANCHORS:
                c = k % CLUSTERS
                out += [(key, planted.clusters[c][1]), (key, planted.clusters[c][3])]
        else:
            c, j = position
            members = planted.clusters[c]
            if j < 4 and j % 2 == 0:
                out += [(key, a) for a in range(c, ANCHORS, CLUSTERS)]
            if j < 4 and j % 2 == 1:
                out.append((key, members[j + 4]))
            if j >= 4 and j % 2 == 0:
                out.append((key, members[j - 4]))
            if j == 0:
                out += [(key, members[5]), (key, members[7])]
        linked = self._linked_targets(key)
        if k in linked:
            noise = self.noise_key(key)
            t = linked.index(k)
            out += [(noise, _NOISE_CITER_START + t * NOISE_CITERS + i) for i in range(NOISE_CITERS)]
        return out

    # -- papers as the services see them ------------------------------------------------------------------

    def papers(self, nodes: list[Node], service: str) -> list[FakePaper]:
        """The papers behind `nodes` that `service` holds (built, so their ids can be looked up later)."""
        out = []
        for key, k in nodes:
            if service in self.universe.membership(key, k):
                out.append(self.universe.paper(key, k))
        return out

    def cited_by(self, paper: FakePaper, service: str) -> list[FakePaper]:
        """What `paper` cites, as `service` lists it (its references)."""
        return self.papers(self.references(paper.query_key, paper.k), service)

    def citing(self, paper: FakePaper, service: str) -> list[FakePaper]:
        """What cites `paper`, as `service` lists it."""
        return self.papers(self.citations(paper.query_key, paper.k), service)


_GRAPHS_LOCK = threading.Lock()


def graph_for(universe: Universe) -> CitationGraph:
    """The one graph of a universe (kept on it, so every request of one server sees the same)."""
    with _GRAPHS_LOCK:
        graph = getattr(universe, "_citation_graph", None)
        if graph is None:
            graph = CitationGraph(universe)
            universe._citation_graph = graph  # type: ignore[attr-defined]
        return graph


def reachable_planted(universe: Universe, query: str, seeds: list[int], depth: int) -> set[int]:
    """Planted indices of `query`'s universe reachable from the seed indices within `depth` citation
    steps (either direction) through on-topic papers, over edges OpenAlex or Semantic Scholar shows
    (both ends held by that service): the eval's denominator."""
    from evals.fake_sources.universe import query_key

    key = query_key(query)
    graph = graph_for(universe)
    planted = set(graph.planted(key).all())

    def shown(a: int, b: int) -> bool:
        return bool(universe.membership(key, a) & universe.membership(key, b) & GRAPH_SERVICES)

    frontier = set(seeds)
    seen = set(seeds)
    for _ in range(depth):
        nxt: set[int] = set()
        for k in frontier:
            for other_key, other in graph.references(key, k) + graph.citations(key, k):
                if other_key == key and other not in seen and shown(k, other):
                    nxt.add(other)
        seen |= nxt
        frontier = nxt
    return planted & seen
