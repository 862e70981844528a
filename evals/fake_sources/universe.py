"""A deterministic universe of invented papers that PubMed, Semantic Scholar and OpenAlex share.

For a query (normalised to a *query key*, so the PubMed, Semantic Scholar and OpenAlex spellings of one
search land in one universe) and a seed, paper number k of the universe is a pure function of
(seed, key, k): its title, authors, ids, and which of the three services list it. A known fraction
(`SHARED_FRACTION`) of papers is listed by two or three services under the same DOI; the rest by one.
Each service's result list is the run of papers that it lists, in universe order lightly shuffled
per service, cut at that service's total (derived from the query hash, or forced).

`Universe.truth_for(query)` returns which source records are the same paper, so that merge tests
can measure precision and recall. Nothing here touches the network; services render these papers.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from evals.fake_sources import vocab
from evals.fake_sources.vocab import Institution

SEARCH_SERVICES: tuple[str, ...] = ("pubmed", "semantic_scholar", "openalex")
SHARED_FRACTION = 0.6  # of universe papers, listed by two or three services with the same DOI
BLOCK = 10  # ranks are shuffled per service within blocks of this size
RESEARCHERS_PER_INSTITUTION = 160

_FIELD_TAG = re.compile(r"\[[^\]]*\]")
_BOOLEAN = {"and", "or", "not"}


def stable_hash(*parts: object) -> int:
    """A 64-bit hash that is the same in every process (unlike `hash()`)."""
    data = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def unit(*parts: object) -> float:
    return stable_hash(*parts) / 2**64


def query_key(query: str) -> str:
    """The universe a query belongs to: its words, lower-cased, without field tags or operators, sorted.

    `("deep learning"[tiab] OR ecg[tiab])`, `"deep learning" | ecg` and `deep learning ecg` share a key.
    """
    text = unicodedata.normalize("NFKC", query or "").lower()
    text = _FIELD_TAG.sub(" ", text)
    words = {w for w in re.findall(r"\w+", text) if w not in _BOOLEAN and w != "_"}
    return " ".join(sorted(words))


def orcid_with_checksum(base15: int) -> str:
    """A syntactically valid ORCID (ISO 7064 11,2 check digit) from a 15-digit number."""
    # real ORCIDs are issued from 0000-0001-5000-0007 to 0000-0003-5000-0001 and above 0009-0000-...
    digits = f"0000000{1 + base15 % 3}{base15 // 3 % 10**7:07d}"
    total = 0
    for ch in digits:
        total = (total + int(ch)) * 2
    check = (12 - total % 11) % 11
    last = "X" if check == 10 else str(check)
    full = digits + last
    return f"{full[0:4]}-{full[4:8]}-{full[8:12]}-{full[12:16]}"


# ----------------------------------------------------------------------------------------------
# records
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Researcher:
    index: int
    given: str
    family: str
    institution: Institution
    department: tuple[str, str]  # (English, Chinese)
    orcid: str | None
    s2_id: str
    openalex_id: str  # "A5..."

    @property
    def name(self) -> str:
        return f"{self.given} {self.family}"

    @property
    def initials(self) -> str:
        return "".join(part[0] for part in re.split(r"[\s-]+", self.given) if part).upper()


@dataclass(frozen=True)
class FakeAffiliation:
    institution: Institution
    text: str  # the raw string as a byline prints it
    chinese_script: bool = False


@dataclass(frozen=True)
class FakeAuthor:
    researcher: Researcher | None  # None for a collective (group) author
    collective: str | None = None
    affiliations: tuple[FakeAffiliation, ...] = ()
    corresponding: bool = False

    @property
    def name(self) -> str:
        return self.collective or (self.researcher.name if self.researcher else "")


@dataclass
class FakePaper:
    key: str  # stable across services: "<universe>-<k>"
    query_key: str
    k: int
    services: frozenset[str]
    title: str  # plain text
    title_markup: str  # with inline <i>…</i> as PubMed prints it
    vernacular_title: str | None
    language: str  # PubMed three-letter code
    year: int
    month: int
    day: int
    medline_date: str | None  # "2019 Nov-Dec" instead of Year/Month for a few records
    journal: tuple[str, str, str, str]  # title, ISO abbreviation, ISSN, country
    volume: str
    issue: str
    pages: str
    doi: str | None
    s2_doi: str | None  # the DOI as Semantic Scholar spells it (sometimes upper case)
    pmid: str | None
    pmcid: str | None
    openalex_id: str  # "W..."
    s2_id: str  # 40 hex
    corpus_id: int
    arxiv_id: str | None
    abstract_sections: list[tuple[str | None, str]]
    abstract_in_s2: bool
    abstract_in_openalex: bool
    authors: list[FakeAuthor]
    mesh: list[tuple[str, str, bool, tuple[tuple[str, str], ...]]]  # ui, heading, major, qualifiers
    keywords: list[str]
    publication_types: list[str]
    fields_of_study: list[str]
    citation_count: int
    oa_url: str | None
    oa_status: str

    @property
    def abstract(self) -> str:
        return " ".join(text for _, text in self.abstract_sections)

    @property
    def publication_date(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


@dataclass(frozen=True)
class TruthRecord:
    key: str
    doi: str | None
    ids: dict[str, str]  # service -> that service's id (PMID, S2 paperId, OpenAlex "W…")
    ranks: dict[str, int]  # service -> 1-based rank

    @property
    def shared(self) -> bool:
        return len(self.ids) > 1


@dataclass
class Truth:
    """Which source records of one query are the same paper."""

    query: str
    records: list[TruthRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._by_id = {(s, _clean_id(s, i)): r.key for r in self.records for s, i in r.ids.items()}

    def key_of(self, service: str, source_id: str) -> str | None:
        return self._by_id.get((service, _clean_id(service, source_id)))

    def same_paper_pairs(self) -> set[frozenset[tuple[str, str]]]:
        pairs: set[frozenset[tuple[str, str]]] = set()
        for record in self.records:
            items = sorted(record.ids.items())
            for i, a in enumerate(items):
                for b in items[i + 1 :]:
                    pairs.add(frozenset((a, b)))
        return pairs

    def shared_fraction(self) -> float:
        return sum(r.shared for r in self.records) / len(self.records) if self.records else 0.0

    def evaluate(self, groups: Iterable[Iterable[tuple[str, str]]]) -> tuple[float, float]:
        """Pairwise precision and recall of a merge: each group is the (service, id)s merged into one."""
        found: set[frozenset[tuple[str, str]]] = set()
        for group in groups:
            items = sorted({(s, _clean_id(s, i)) for s, i in group})
            for i, a in enumerate(items):
                for b in items[i + 1 :]:
                    found.add(frozenset((a, b)))
        truth = self.same_paper_pairs()
        precision = len(found & truth) / len(found) if found else 1.0
        recall = len(found & truth) / len(truth) if truth else 1.0
        return precision, recall


def _clean_id(service: str, value: str) -> str:
    value = str(value)
    if service == "openalex":
        return value.rsplit("/", 1)[-1].upper()
    return value


# ----------------------------------------------------------------------------------------------
# the universe
# ----------------------------------------------------------------------------------------------


@dataclass
class _ServiceList:
    ks: list[int] = field(default_factory=list)  # universe indices in universe order
    next_k: int = 0


class Universe:
    """Generates, lists and looks up invented papers. Thread-safe; shared by the server and tests."""

    def __init__(self, seed: int = 0, *, total: int | None = None) -> None:
        self.seed = seed
        self.forced_total = total
        self._lock = threading.RLock()
        self._lists: dict[tuple[str, str], _ServiceList] = {}
        self._ids: dict[tuple[str, str], tuple[str, int]] = {}  # (id kind, value) -> (key, k)
        self._paper = lru_cache(maxsize=20_000)(self._build_paper)
        # ids are asked for again and again (listing, registering, building); they are pure
        self._ids_of = lru_cache(maxsize=100_000)(self._compute_ids)

    # -- totals and lists --------------------------------------------------------------------------

    def total(self, query: str, service: str, fake_total: int | None = None) -> int:
        key = query_key(query)
        if not key:
            return 0
        forced = fake_total if fake_total is not None else self.forced_total
        if forced is not None:
            return max(0, int(forced))
        base = math.exp(math.log(50) + unit(self.seed, key, "total") * (math.log(5000) - math.log(50)))
        factor = {
            "pubmed": 1.0,
            "semantic_scholar": 0.7 + 0.9 * unit(self.seed, key, "s2f"),
            "openalex": 1.0 + unit(self.seed, key, "oaf"),
        }.get(service, 1.0)
        return max(1, int(base * factor))

    def membership(self, key: str, k: int) -> frozenset[str]:
        u = unit(self.seed, key, k, "member")
        if u < SHARED_FRACTION:
            v = unit(self.seed, key, k, "shared")
            if v < 0.5:
                return frozenset(SEARCH_SERVICES)
            if v < 2 / 3:
                return frozenset({"pubmed", "semantic_scholar"})
            if v < 5 / 6:
                return frozenset({"pubmed", "openalex"})
            return frozenset({"semantic_scholar", "openalex"})
        third = int((u - SHARED_FRACTION) / (1 - SHARED_FRACTION) * 3)
        return frozenset({SEARCH_SERVICES[min(third, 2)]})

    def ranked(
        self, query: str, service: str, start: int, stop: int, fake_total: int | None = None
    ) -> list[int]:
        """Universe indices at ranks [start, stop) of `service`'s result list for `query`."""
        key = query_key(query)
        total = self.total(query, service, fake_total)
        stop = min(stop, total)
        if not key or start >= stop:
            return []
        block_start = (start // BLOCK) * BLOCK
        block_stop = min(total, -(-stop // BLOCK) * BLOCK)
        base = self._base_list(key, service, block_stop)
        out: list[int] = []
        for b in range(block_start, block_stop, BLOCK):
            block = base[b : min(b + BLOCK, block_stop)]
            block.sort(key=lambda k: unit(self.seed, key, k, service, "rank"))
            out.extend(block)
        ks = out[start - block_start : stop - block_start]
        with self._lock:
            for k in ks:
                self._register(key, k)
        return ks

    def page(
        self, query: str, service: str, start: int, count: int, fake_total: int | None = None
    ) -> list[FakePaper]:
        key = query_key(query)
        return [self.paper(key, k) for k in self.ranked(query, service, start, start + count, fake_total)]

    def paper(self, key: str, k: int) -> FakePaper:
        return self._paper(key, k)

    def _base_list(self, key: str, service: str, length: int) -> list[int]:
        with self._lock:
            lst = self._lists.setdefault((key, service), _ServiceList())
            while len(lst.ks) < length:
                if service in self.membership(key, lst.next_k):
                    lst.ks.append(lst.next_k)
                lst.next_k += 1
            return lst.ks[:length]

    # -- ids -----------------------------------------------------------------------------------------

    def _bucket(self, key: str, kind: str, buckets: int) -> int:
        return stable_hash(self.seed, key, kind) % buckets

    def ids(self, key: str, k: int) -> dict[str, str | None]:
        """Every id of paper k, computed without building the paper (do not mutate the answer)."""
        return self._ids_of(key, k)

    def _compute_ids(self, key: str, k: int) -> dict[str, str | None]:
        members = self.membership(key, k)
        shared = len(members) > 1
        doi_chance = (
            0.92
            if shared
            else {"pubmed": 0.75, "semantic_scholar": 0.8, "openalex": 0.85}[next(iter(members))]
        )
        has_doi = unit(self.seed, key, k, "doi") < doi_chance
        year = self._year(key, k)
        doi = None
        if has_doi:
            prefix, pattern = vocab.DOI_PREFIXES[
                stable_hash(self.seed, key, k, "pfx") % len(vocab.DOI_PREFIXES)
            ]
            num = f"{self._bucket(key, 'doi', 100_000):05d}{k:05d}"
            doi = f"{prefix}/{pattern.format(year=year, num=num)}".lower()
        in_pubmed = "pubmed" in members
        pmid = str(20_000_000 + self._bucket(key, "pmid", 2000) * 20_000 + k) if in_pubmed else None
        pmcid = None
        if in_pubmed and unit(self.seed, key, k, "pmc") < 0.25:
            pmcid = f"PMC{8_000_000 + self._bucket(key, 'pmc', 2000) * 20_000 + k}"
        openalex = f"W{4_100_000_000 + self._bucket(key, 'oa', 40_000) * 20_000 + k}"
        s2 = hashlib.blake2b(f"{self.seed}\x1f{key}\x1f{k}\x1fs2".encode(), digest_size=20).hexdigest()
        corpus = 200_000_000 + self._bucket(key, "corpus", 5000) * 20_000 + k
        arxiv = None
        if not in_pubmed and unit(self.seed, key, k, "arxiv") < 0.15:
            arxiv = f"{year % 100:02d}{(k % 12) + 1:02d}.{self._bucket(key, 'arx', 90_000) + 10_000:05d}"
        return {
            "doi": doi,
            "pmid": pmid,
            "pmcid": pmcid,
            "openalex": openalex,
            "s2": s2,
            "corpus": str(corpus),
            "arxiv": arxiv,
        }

    def _register(self, key: str, k: int) -> None:
        for kind, value in self.ids(key, k).items():
            if value:
                self._ids[(kind, value.lower())] = (key, k)

    def lookup(self, kind: str, value: str) -> FakePaper | None:
        """A paper already listed (or built) by its id: kind is doi, pmid, pmcid, openalex, s2, corpus, arxiv."""
        value = str(value).strip().lower()
        if kind == "openalex":
            value = value.rsplit("/", 1)[-1]
        found = self._ids.get((kind, value))
        return self.paper(*found) if found else None

    def find_title(self, title: str) -> FakePaper | None:
        """A paper already listed somewhere whose title equals `title` (ignoring case and punctuation)."""
        wanted = _title_key(title)
        with self._lock:
            listed = [found for (kind, _), found in self._ids.items() if kind == "s2"]
        for key, k in listed:
            paper = self.paper(key, k)
            if _title_key(paper.title) == wanted:
                return paper
        return None

    def researcher(self, index: int) -> Researcher:
        return _researcher(self.seed, index)

    def researcher_by_s2_id(self, author_id: str) -> Researcher | None:
        try:
            index = int(author_id) - 30_000_000 - self.seed * 100_000
        except ValueError:
            return None
        if 0 <= index < len(vocab.INSTITUTIONS) * RESEARCHERS_PER_INSTITUTION:
            return self.researcher(index)
        return None

    # -- truth ---------------------------------------------------------------------------------------

    def truth_for(self, query: str, *, limit: int | None = None, fake_total: int | None = None) -> Truth:
        """Ground truth for the first `limit` results of each search service (all of them if None)."""
        key = query_key(query)
        records: dict[int, TruthRecord] = {}
        for service in SEARCH_SERVICES:
            total = self.total(query, service, fake_total)
            stop = total if limit is None else min(limit, total)
            for rank, k in enumerate(self.ranked(query, service, 0, stop, fake_total), start=1):
                ids = self.ids(key, k)
                record = records.get(k)
                if record is None:
                    record = records[k] = TruthRecord(
                        key=f"{self._universe_id(key)}-{k}", doi=ids["doi"], ids={}, ranks={}
                    )
                source_id = {
                    "pubmed": ids["pmid"],
                    "semantic_scholar": ids["s2"],
                    "openalex": ids["openalex"],
                }[service]
                record.ids[service] = str(source_id)
                record.ranks[service] = rank
        return Truth(query=query, records=[records[k] for k in sorted(records)])

    # -- building one paper ----------------------------------------------------------------------------

    def _universe_id(self, key: str) -> str:
        return f"{stable_hash(self.seed, key, 'universe'):016x}"[:10]

    def _year(self, key: str, k: int) -> int:
        return max(1990, 2025 - int(-math.log(1 - unit(self.seed, key, k, "year") * 0.999) * 5))

    def _build_paper(self, key: str, k: int) -> FakePaper:
        with self._lock:
            self._register(key, k)
        rng = random.Random(stable_hash(self.seed, key, k, "paper"))
        ids = self.ids(key, k)
        members = self.membership(key, k)
        words = key.split() or ["research"]
        topic = " ".join(words[:4])
        year = self._year(key, k)
        title, markup = _title(rng, topic)
        language = "eng"
        vernacular = None
        if rng.random() < 0.04:
            language = rng.choice(["chi", "ger"])
            vernacular = (
                f"{topic}的研究：{rng.choice(['回顾性队列研究', '多中心验证'])}"
                if language == "chi"
                else f"Studie zu {topic}"
            )
            title = markup = f"[{title[:-1]}]."  # PubMed brackets translated titles
        authors = self._authors(rng)
        structured = rng.random() < 0.4
        sections = _abstract(rng, topic, structured)
        doi = ids["doi"]
        s2_doi = doi.upper() if doi and len(members) > 1 and rng.random() < 0.2 else doi
        mesh = []
        if rng.random() < 0.8:
            for ui, heading in rng.sample(vocab.MESH, rng.randint(3, 9)):
                quals = tuple(rng.sample(vocab.QUALIFIERS, rng.randint(0, 2)))
                mesh.append((ui, heading, rng.random() < 0.3, quals))
        month = rng.randint(1, 12)
        medline_date = f"{year} {_MONTHS[month - 1]}-{_MONTHS[month % 12]}" if rng.random() < 0.03 else None
        oa = rng.random() < 0.45
        return FakePaper(
            key=f"{self._universe_id(key)}-{k}",
            query_key=key,
            k=k,
            services=members,
            title=title,
            title_markup=markup,
            vernacular_title=vernacular,
            language=language,
            year=year,
            month=month,
            day=rng.randint(1, 28),
            medline_date=medline_date,
            journal=rng.choice(vocab.JOURNALS),
            volume=str(rng.randint(1, 60)),
            issue=str(rng.randint(1, 12)),
            pages=f"{rng.randint(1, 900)}-{rng.randint(901, 999)}",
            doi=doi,
            s2_doi=s2_doi,
            pmid=ids["pmid"],
            pmcid=ids["pmcid"],
            openalex_id=str(ids["openalex"]),
            s2_id=str(ids["s2"]),
            corpus_id=int(ids["corpus"] or 0),
            arxiv_id=ids["arxiv"],
            abstract_sections=sections,
            abstract_in_s2=rng.random() < 0.8,
            abstract_in_openalex=rng.random() < 0.85,
            authors=authors,
            mesh=mesh,
            keywords=rng.sample(list(vocab.TOPIC_WORDS), 3) + words[:2],
            publication_types=["Journal Article"] + (["Review"] if rng.random() < 0.1 else []),
            fields_of_study=rng.sample(list(vocab.FIELDS_OF_STUDY), rng.randint(1, 2)),
            citation_count=int(rng.lognormvariate(2.0, 1.3)),
            oa_url=f"https://europepmc.org/articles/{ids['pmcid']}/pdf"
            if oa and ids["pmcid"]
            else (f"https://doi.org/{doi}" if oa and doi else None),
            oa_status=rng.choice(["gold", "green", "hybrid", "bronze"]) if oa else "closed",
        )

    def _authors(self, rng: random.Random) -> list[FakeAuthor]:
        r = rng.random()
        count = rng.randint(25, 45) if r < 0.04 else 1 if r < 0.08 else rng.randint(2, 12)
        # A lab: the last author (the PI) is drawn with a skew so that some PIs lead many papers.
        lead = (
            rng.choice(vocab.CHINESE_INSTITUTIONS)
            if rng.random() < 0.4
            else rng.choice(vocab.OTHER_INSTITUTIONS)
        )
        pi_index = lead * RESEARCHERS_PER_INSTITUTION + int(RESEARCHERS_PER_INSTITUTION * rng.random() ** 3)
        members: list[int] = []
        for _ in range(count - 1):
            inst = lead if rng.random() < 0.6 else rng.randrange(len(vocab.INSTITUTIONS))
            members.append(inst * RESEARCHERS_PER_INSTITUTION + rng.randrange(RESEARCHERS_PER_INSTITUTION))
        members.append(pi_index)
        people = [self.researcher(i) for i in dict.fromkeys(members)]  # each once, in order
        corresponding = len(people) - 1 if rng.random() < 0.8 else 0
        authors = [
            FakeAuthor(
                researcher=person,
                affiliations=_affiliations(rng, person, corresponding == i),
                corresponding=corresponding == i,
            )
            for i, person in enumerate(people)
        ]
        if len(authors) > 3 and rng.random() < 0.05:
            authors.append(FakeAuthor(researcher=None, collective=rng.choice(vocab.COLLECTIVE_NAMES)))
        return authors


def _title_key(title: str) -> str:
    return re.sub(r"\W+", " ", title.lower()).strip()


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@lru_cache(maxsize=8192)
def _researcher(seed: int, index: int) -> Researcher:
    rng = random.Random(stable_hash(seed, index, "researcher"))
    institution = vocab.INSTITUTIONS[(index // RESEARCHERS_PER_INSTITUTION) % len(vocab.INSTITUTIONS)]
    chinese = institution.country_code == "CN" or (institution.country_code == "SG" and rng.random() < 0.6)
    chinese = chinese or rng.random() < 0.08
    if chinese:
        given, family = rng.choice(vocab.CHINESE_GIVEN), rng.choice(vocab.CHINESE_FAMILY)
    else:
        given, family = rng.choice(vocab.OTHER_GIVEN), rng.choice(vocab.OTHER_FAMILY)
    orcid = orcid_with_checksum(stable_hash(seed, index, "orcid")) if rng.random() < 0.6 else None
    return Researcher(
        index=index,
        given=given,
        family=family,
        institution=institution,
        department=rng.choice(vocab.DEPARTMENTS),
        orcid=orcid,
        s2_id=str(30_000_000 + seed * 100_000 + index),
        openalex_id=f"A5{seed % 100:02d}{index:07d}",
    )


def _affiliation_text(
    rng: random.Random, person: Researcher, inst: Institution, email: bool
) -> FakeAffiliation:
    dept_en, dept_zh = person.department
    if inst.name_zh and inst.city_zh and inst.country_code == "CN" and rng.random() < 0.15:
        text = f"{inst.name_zh}{dept_zh}，{inst.city_zh} {inst.postcode}，中国"
        return FakeAffiliation(inst, text, chinese_script=True)
    country = "P. R. China" if inst.country_code == "CN" and rng.random() < 0.3 else inst.country
    text = f"{dept_en}, {inst.name}, {inst.city} {inst.postcode}, {country}."
    if email:
        handle = re.sub(r"[^a-z]", "", f"{person.given}.{person.family}".lower().replace(".", "")) or "author"
        text += f" Electronic address: {handle}@{inst.email_domain}."
    return FakeAffiliation(inst, text)


def _affiliations(rng: random.Random, person: Researcher, corresponding: bool) -> tuple[FakeAffiliation, ...]:
    affs = [_affiliation_text(rng, person, person.institution, corresponding)]
    extra = 2 if rng.random() < 0.05 else 1 if rng.random() < 0.25 else 0
    for _ in range(extra):
        other = rng.choice(vocab.INSTITUTIONS)
        if other != person.institution:
            affs.append(_affiliation_text(rng, person, other, False))
    return tuple(affs)


def _title(rng: random.Random, topic: str) -> tuple[str, str]:
    adjective = rng.choice(vocab.TOPIC_WORDS)
    extra = rng.choice(vocab.TOPIC_WORDS)
    population = rng.choice(vocab.POPULATIONS)
    design = rng.choice(vocab.DESIGNS)
    pattern = rng.randrange(3)
    if pattern == 0:
        title = f"{adjective.capitalize()} {topic} in {population}: {design}"
    elif pattern == 1:
        title = f"{extra.capitalize()} {adjective} {topic} for {population}"
    else:
        title = f"Towards {adjective} {topic}: {extra} evidence from {population}"
    title += "."
    markup = title
    if rng.random() < 0.05:
        # PubMed titles carry inline markup for species and genes; readers must strip it
        title = title[:-1] + " in Escherichia coli."
        markup = markup[:-1] + " in <i>Escherichia coli</i>."
    return title, markup


def _abstract(rng: random.Random, topic: str, structured: bool) -> list[tuple[str | None, str]]:
    values = {
        "topic": topic,
        "population": rng.choice(vocab.POPULATIONS),
        "word": rng.choice(vocab.TOPIC_WORDS),
        "n": rng.randint(120, 90_000),
        "sites": rng.randint(2, 40),
        "auc": rng.randint(70, 97),
        "lo": rng.randint(60, 69),
        "hi": rng.randint(98, 99),
        "hr": rng.randint(10, 90),
    }
    sections: list[tuple[str | None, str]] = []
    for label, options in vocab.SENTENCES.items():
        sentence = rng.choice(options).format(**values)
        sections.append((label, sentence[0].upper() + sentence[1:]))
    if structured:
        return sections
    return [(None, " ".join(text for _, text in sections))]
