"""Fakes of the outside clients the keyword step uses, each standing in for a real client in tools/.

Every fake implements the same method (name, arguments, result type) as the real client it replaces —
`tools.pubmed.PubMedClient.count`, `tools.mesh.MeshClient.lookup`, `tools.openalex.OpenAlexClient.count`
and `search_concepts/topics/keywords` (returning real `VocabularyEntry` models),
`tools.wikidata.WikidataClient.search_entities` (real `WikidataEntity` models) and
`tools.wikipedia.WikipediaClient.redirects` — and records its calls, so tests can count outside calls.
A fake can be told to fail with the real typed errors of `tools.errors`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from agent.language.text import term_key
from agent.models import MeshDescriptor
from tools.errors import SourceUnavailable
from tools.openalex import VocabularyEntry
from tools.wikidata import WikidataEntity


@dataclass
class _Recorder:
    calls: list[tuple[str, str]] = field(default_factory=list)
    fail: Exception | None = None

    def _called(self, method: str, argument: str) -> None:
        self.calls.append((method, argument))
        if self.fail is not None:
            raise self.fail

    def count_of(self, method: str) -> int:
        return Counter(m for m, _ in self.calls)[method]


@dataclass
class FakePubMed(_Recorder):
    """`count(query)` from a table of PubMed queries (case-insensitive, as PubMed searches are); unknown
    queries have `default` hits."""

    hits: dict[str, int] = field(default_factory=dict)
    default: int = 0

    async def count(self, query: str) -> int:
        self._called("count", query)
        table = {k.casefold(): v for k, v in self.hits.items()}
        return table.get(query.casefold(), self.default)


@dataclass
class FakeMesh(_Recorder):
    descriptors: list[MeshDescriptor] = field(default_factory=list)

    async def lookup(self, term: str, *, limit: int = 3) -> list[MeshDescriptor]:
        self._called("lookup", term)
        key = term_key(term)
        found = [d for d in self.descriptors if key in {term_key(t) for t in [d.heading, *d.entry_terms]}]
        return found[:limit]


@dataclass
class FakeOpenAlex(_Recorder):
    """`count(filter=...)` from a table keyed by the filter; vocabulary searches from entry lists."""

    hits: dict[str, int] = field(default_factory=dict)
    default: int = 0
    concepts: list[VocabularyEntry] = field(default_factory=list)
    topics: list[VocabularyEntry] = field(default_factory=list)
    keywords: list[VocabularyEntry] = field(default_factory=list)

    async def count(self, *, search: str | None = None, filter: str | None = None) -> int:
        self._called("count", filter or search or "")
        table = {k.casefold(): v for k, v in self.hits.items()}
        return table.get((filter or search or "").casefold(), self.default)

    def _search(self, entries: list[VocabularyEntry], term: str, limit: int) -> list[VocabularyEntry]:
        words = set(term_key(term).split())
        return [e for e in entries if words & set(term_key(e.name).split())][:limit]

    async def search_concepts(
        self, term: str, *, limit: int = 5, languages=("en", "zh")
    ) -> list[VocabularyEntry]:
        self._called("search_concepts", term)
        return self._search(self.concepts, term, limit)

    async def search_topics(self, term: str, *, limit: int = 5) -> list[VocabularyEntry]:
        self._called("search_topics", term)
        return self._search(self.topics, term, limit)

    async def search_keywords(self, term: str, *, limit: int = 5) -> list[VocabularyEntry]:
        self._called("search_keywords", term)
        return self._search(self.keywords, term, limit)


@dataclass
class FakeWikidata(_Recorder):
    entities: list[WikidataEntity] = field(default_factory=list)

    async def search_entities(
        self, term: str, *, language: str | None = None, limit: int = 5, languages=("en", "zh")
    ) -> list[WikidataEntity]:
        self._called("search_entities", term)
        key = term_key(term)
        found = []
        for entity in self.entities:
            names = [*entity.labels.values(), *(a for values in entity.aliases.values() for a in values)]
            if any(key in term_key(n) for n in names):
                found.append(entity)
        return found[:limit]


@dataclass
class FakeWikipedia(_Recorder):
    pages: dict[str, list[str]] = field(default_factory=dict)

    async def redirects(self, title: str, *, language: str = "en") -> list[str]:
        self._called("redirects", title)
        for page, redirects in self.pages.items():
            if term_key(page) == term_key(title) or term_key(title) in {term_key(r) for r in redirects}:
                return list(redirects)
        from tools.errors import NotFound

        raise NotFound("wikipedia", f"no en Wikipedia page titled {title!r}")


@dataclass
class FakeSources:
    """Has the attributes of `agent.search.sources.SourceClients` that the keyword step reads."""

    pubmed: FakePubMed | None = None
    mesh: FakeMesh | None = None
    openalex: FakeOpenAlex | None = None
    wikidata: FakeWikidata | None = None
    wikipedia: FakeWikipedia | None = None

    def total_calls(self) -> int:
        return sum(
            len(c.calls) for c in (self.pubmed, self.mesh, self.openalex, self.wikidata, self.wikipedia) if c
        )


def unavailable(service: str) -> SourceUnavailable:
    return SourceUnavailable(service, "HTTP 503 after 4 retries")


BCI_MESH = MeshDescriptor(
    ui="D062207",
    heading="Brain-Computer Interfaces",
    entry_terms=["Brain-Computer Interface", "Brain-Machine Interfaces", "Brain Machine Interface"],
    tree_numbers=["E07.305.076"],
)
ECOG_MESH = MeshDescriptor(
    ui="D000069280",
    heading="Electrocorticography",
    entry_terms=["Electrocorticography (EcoG)", "Intracranial Electroencephalography", "Intracranial EEG"],
    tree_numbers=["E01.370.405.245.500"],
)

# PubMed hit counts of the shape real PubMed gives (BMI: body mass index swamps brain-machine interface).
PUBMED_HITS = {
    '"brain-computer interface"[tiab]': 9_800,
    '"brain-computer interfaces"[tiab]': 4_100,
    '"brain computer interface"[tiab]': 9_700,
    '"Brain-Computer Interfaces"[tiab]': 4_100,
    '"Brain-Machine Interfaces"[tiab]': 900,
    '"Brain Machine Interface"[tiab]': 1_500,
    '"brain-machine interface"[tiab]': 1_500,
    "BCI[tiab]": 12_000,
    "BMI[tiab]": 310_000,
    '"neural interface"[tiab]': 2_300,
    '"brain computer interfaces"[tiab]': 4_000,
    '"speech decoding"[tiab]': 310,
    "electrocorticography[tiab]": 4_800,
    "Electrocorticography[tiab]": 4_800,
    "ECoG[tiab]": 5_200,
    '"Intracranial Electroencephalography"[tiab]': 700,
    '"Intracranial EEG"[tiab]': 2_600,
    "stereoelectroencephalography[tiab]": 1_900,
    "sEEG[tiab]": 2_200,
    "SEEG[tiab]": 2_200,
    '"epilepsy patients"[tiab]': 30_000,
    '"epilepsy patient"[tiab]': 3_000,
}
