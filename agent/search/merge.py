"""Merge the per-source result lists of a Run into one evidence-keeping list (`results_aggregated.json`).

Records are the nodes of a union-find; three passes link them, strongest evidence first:

1. **DOI** — the DOI canonicalised by `canonical_doi` (lower-case, resolver prefixes and `doi:` stripped,
   URL/HTML escapes undone, trailing punctuation dropped). Equal DOIs are the same work, always.
2. **PMID, then PMCID** — a record without a DOI (PubMed often has none for older papers) joins the
   record of another source that lists the same PubMed / PubMed Central id among its cross-ids.
3. **Title** — normalised titles compared with rapidfuzz (`fuzz.ratio`, 0-100) at `title_threshold` or
   above, and then checked: every differing word must have a look-alike on the other side (a typo,
   not a substituted word: templated titles differ in one word and still score above 90), years at most one apart (online-first vs issue year), the same
   first author (family name, accents folded) when both records name one, and the same numbers in the
   title ("Part II" is not "Part III"; "COVID-19" is not "COVID-20"). Very short titles ("Correction",
   "Reply to Smith") must be equal *and* share year and first author. Candidate pairs are taken best
   score first, so the closest match wins when several compete.

Constraints ("cannot-link") keep the weaker passes from gluing distinct works together:

- two groups with *different* DOIs never merge through a PMID, PMCID or title; the same holds for
  different PMIDs or PMCIDs in the title pass;
- a title merge never joins two groups that already hold a record of the same source: one index
  rarely lists the same work twice, while it often lists an erratum, a reply or a part II under an
  almost identical title.

**Preprints and journal versions are not merged.** An arXiv/bioRxiv preprint and the article it became
have different DOIs and are registered as different works by Crossref, DataCite and OpenAlex; they
differ in text, date and sometimes authors, and a researcher citing one must cite it by its own DOI.
Merging them would also make a Run's counts depend on which source happens to conflate versions
(Semantic Scholar does; OpenAlex does not). So they stay two papers, and each lists the other's key in
`related`, found through an arXiv DOI (`10.48550/arxiv.<id>`) matching another record's `arxiv_id`, or
through a title match that the different-DOI constraint refused.

**Which value each field takes** (`field_sources` records the source it came from):

- identity and bibliographic fields (`IDENTITY_FIELDS`: title, year, date, venue, ids, oa_url, ...):
  the first non-empty value in the precedence PubMed > OpenAlex > Semantic Scholar. PubMed records are
  curated by indexers and OpenAlex tracks the version of record, while Semantic Scholar often folds a
  preprint's year and venue into the journal record (the `10.1016/j.xgen.2025.100814` fixture says
  bioRxiv 2024; the journal is Cell Genomics 2025);
- content fields: the richest value. Text (`abstract`) — the longest; lists (`LIST_FIELDS`: MeSH,
  keywords, abstract sections, ...) — the longest list; `authors` — the byline with the most
  affiliations, then ORCIDs, then names; `citation_count` — the largest (counts only grow, so the
  largest is the most recent);
- ties go to the precedence order, then to the better source rank, so the result is deterministic.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import unquote

from rapidfuzz import fuzz, process

from agent.models import (
    AggregatedPaper,
    Author,
    Paper,
    ScoreBreakdown,
    Source,
    SourceEvidence,
    normalize_doi,
    normalize_title,
)

DEFAULT_TITLE_THRESHOLD = 92.0
# Field precedence for identity/bibliographic fields (see the module docstring for why).
PRECEDENCE: tuple[Source, ...] = (Source.PUBMED, Source.OPENALEX, Source.SEMANTIC_SCHOLAR)
IDENTITY_FIELDS: tuple[str, ...] = (
    "title",
    "vernacular_title",
    "year",
    "publication_date",
    "venue",
    "doi",
    "pmid",
    "pmcid",
    "semantic_scholar_id",
    "openalex_id",
    "arxiv_id",
    "oa_url",
    "is_book",
)
LIST_FIELDS: tuple[str, ...] = (
    "abstract_sections",
    "mesh_headings",
    "keywords",
    "publication_types",
    "fields_of_study",
    "languages",
)
# A title this short (in words or characters) is generic ("Editorial", "Correction") and needs more proof.
SHORT_TITLE_WORDS = 4
SHORT_TITLE_CHARS = 25
_ROMAN = frozenset({"ii", "iii", "iv", "vi", "vii", "viii", "ix", "xi", "xii", "xiii", "xiv", "xv"})
_STOP_WORDS = frozenset({"a", "an", "the", "of", "in", "on", "for", "and", "with", "to", "by", "at", "from"})
_WORD_SIMILARITY = 75.0  # two differing words this alike are one word misspelt, not two words
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$")
_ARXIV_VERSION = re.compile(r"v\d+$")
_NON_WORDS = re.compile(r"[^\w]+")
_SOURCE_ORDER = {source: position for position, source in enumerate(Source)}
_PRECEDENCE_ORDER = {source: position for position, source in enumerate(PRECEDENCE)}


def canonical_doi(value: str | None) -> str | None:
    """The joinable form of a DOI, or None: URL-unescaped, then `normalize_doi` (lower-case, no prefix)."""
    if not value:
        return None
    return normalize_doi(unquote(str(value)))


def canonical_arxiv(value: str | None) -> str | None:
    """An arXiv id without prefix or version: 'arXiv:2304.05376v2' -> '2304.05376'."""
    if not value:
        return None
    text = str(value).strip().lower().removeprefix("arxiv:").strip()
    text = _ARXIV_VERSION.sub("", text)
    return text or None


# ----------------------------------------------------------------------------------------------
# Records and the union-find
# ----------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Record:
    index: int
    source: Source
    rank: int
    paper: Paper
    doi: str | None
    title_key: str
    first_author: Author | None


_NONE: frozenset[Any] = frozenset()
_ONLY = {source: frozenset({source}) for source in Source}


@dataclass(slots=True)
class _Group:
    """What a union-find root knows about its component, for the cannot-link checks.

    Frozen sets, shared while empty (most records have no PMCID and no merge reason yet), and replaced
    by their union when two groups merge: 30,000 records no longer hold 150,000 sets.
    """

    dois: frozenset[str] = _NONE
    pmids: frozenset[str] = _NONE
    pmcids: frozenset[str] = _NONE
    sources: frozenset[Source] = _NONE
    reasons: frozenset[str] = _NONE


class _UnionFind:
    def __init__(self, records: list[_Record]) -> None:
        self.parent = list(range(len(records)))
        self.groups = [
            _Group(
                dois=frozenset((r.doi,)) if r.doi else _NONE,
                pmids=frozenset((r.paper.pmid,)) if r.paper.pmid else _NONE,
                pmcids=frozenset((r.paper.pmcid,)) if r.paper.pmcid else _NONE,
                sources=_ONLY[r.source],
            )
            for r in records
        ]

    def find(self, i: int) -> int:
        root = i
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[i] != root:  # path compression
            self.parent[i], i = root, self.parent[i]
        return root

    def group(self, i: int) -> _Group:
        return self.groups[self.find(i)]

    def union(self, a: int, b: int, reason: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[rb] = ra
        ga, gb = self.groups[ra], self.groups[rb]
        ga.dois |= gb.dois
        ga.pmids |= gb.pmids
        ga.pmcids |= gb.pmcids
        ga.sources |= gb.sources
        ga.reasons |= gb.reasons | {reason}  # `|=` on a frozen set binds a new one: shared ones stay
        return True


def _conflict(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two groups disagree on an identifier when both have one and they share none."""
    return bool(a) and bool(b) and not (a & b)


# ----------------------------------------------------------------------------------------------
# Title-pass helpers
# ----------------------------------------------------------------------------------------------


def _fold(text: str) -> str:
    """Lower-case, accents removed, letters only: 'Andrés' -> 'andres'."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _NON_WORDS.sub(" ", stripped.lower()).strip()


def _family_name(name: str, family: str | None) -> str:
    if family:
        folded = _fold(family)
        return folded.split(" ")[-1] if folded else ""
    name = name.strip()
    if "," in name:  # "Adak, Subrata"
        return _fold(name.split(",", 1)[0]).split(" ")[-1]
    tokens = _fold(name).split()
    return tokens[-1] if tokens else ""


def _name_tokens_of(name: str, family: str | None, given: str | None) -> frozenset[str]:
    return frozenset(t for t in _fold(" ".join(filter(None, [name, family, given]))).split() if len(t) > 1)


def _numbers_of(title_key: str) -> tuple[str, ...]:
    return tuple(sorted(t for t in title_key.split() if t.isdigit() or t in _ROMAN))


def _is_short_key(title_key: str) -> bool:
    return len(title_key.split()) < SHORT_TITLE_WORDS or len(title_key) < SHORT_TITLE_CHARS


class _TitleChecks:
    """The title pass's checks, each name's and title's derived values computed once per merge.

    A title is in many candidate pairs and a prolific author's name in many records, so the folded
    family name, the name's tokens and a title's numbers are remembered, in caches of this object
    (`functools.cache` around the plain functions): one merge creates it and drops it. A long-running
    server keeps nothing of a Run once its merge is done.
    """

    def __init__(self) -> None:
        self._family_name = cache(_family_name)
        self._name_tokens = cache(_name_tokens_of)
        self.numbers = cache(_numbers_of)
        self.is_short = cache(_is_short_key)

    def family(self, author: Author) -> str:
        return self._family_name(author.name, author.family)

    def name_tokens(self, author: Author) -> frozenset[str]:
        return self._name_tokens(author.name, author.family, author.given)

    def same_first_author(self, a: Author | None, b: Author | None) -> bool | None:
        """True/False when both records name a (personal) first author; None when either does not."""
        if a is None or b is None or a.collective or b.collective:
            return None
        fa, fb = self.family(a), self.family(b)
        if not fa or not fb:
            return None
        if fa == fb or fa in self.name_tokens(b) or fb in self.name_tokens(a):
            return True  # also covers "Bran AM" vs "Andres M. Bran": name order differs between sources
        return fuzz.ratio(fa, fb) >= 85

    def title_match(self, a: _Record, b: _Record) -> bool:
        """The checks after the fuzzy score passed (see the module docstring); the cheap ones first."""
        if self.numbers(a.title_key) != self.numbers(b.title_key) or not _same_words(
            a.title_key, b.title_key
        ):
            return False
        ya, yb = a.paper.year, b.paper.year
        if self.is_short(a.title_key) or self.is_short(b.title_key):
            return (
                a.title_key == b.title_key
                and ya is not None
                and ya == yb
                and self.same_first_author(a.first_author, b.first_author) is True
            )
        if ya is not None and yb is not None and abs(ya - yb) > 1:
            return False
        return self.same_first_author(a.first_author, b.first_author) is not False


def _same_words(a: str, b: str) -> bool:
    """Every word that differs has a look-alike on the other side (a typo or a spelling variant).

    Templated titles differ by one substituted word ("Bayesian ... for older adults" vs "Benchmark ...
    for older adults") and still score above 90 overall; a whole-word substitution is a different paper.
    Dropped stop words and split compounds ("data sets" / "datasets") are tolerated.
    """
    if a.replace(" ", "") == b.replace(" ", ""):
        return True
    words_a, words_b = set(a.split()), set(b.split())
    only_a, only_b = words_a - words_b - _STOP_WORDS, words_b - words_a - _STOP_WORDS
    return all(any(fuzz.ratio(x, y) >= _WORD_SIMILARITY for y in only_b) for x in only_a) and all(
        any(fuzz.ratio(y, x) >= _WORD_SIMILARITY for x in only_a) for y in only_b
    )


def _title_candidates(
    records: list[_Record], uf: _UnionFind, threshold: float
) -> list[tuple[float, int, int]]:
    """Scored pairs (score, i, j) worth checking, best first.

    Only records whose group has no DOI need a title match: two groups that both have DOIs either share
    them (already merged) or may not merge. Records are blocked by year (±1; unknown years compare with
    everything) so a Run of thousands of records stays fast. Two queries of neighbouring years are
    scored once, in the block of the first: a block leaves out the queries of the blocks before it.
    """
    queries = [r for r in records if r.title_key and not uf.group(r.index).dois]
    if not queries:
        return []
    by_year: dict[int | None, list[_Record]] = defaultdict(list)
    for r in records:
        if r.title_key:
            by_year[r.paper.year].append(r)
    pairs: dict[tuple[int, int], float] = {}
    queries_by_year: dict[int | None, list[_Record]] = defaultdict(list)
    for q in queries:
        queries_by_year[q.paper.year].append(q)
    scored: set[int] = set()  # queries already scored against every record their year allows
    for year, block in queries_by_year.items():
        if year is None:
            years: Iterable[Sequence[_Record]] = by_year.values()
        else:
            years = (
                by_year.get(year - 1, ()),
                by_year.get(year, ()),
                by_year.get(year + 1, ()),
                by_year.get(None, ()),
            )
        # a pair of two queries is scored in the block of the first: the years that allow it are symmetric
        choices = [r for rs in years for r in rs if r.index not in scored]
        scored.update(q.index for q in block)
        if not choices:
            continue
        for i, j, score in _score_titles(block, choices, threshold):
            if i != j:
                pairs[(min(i, j), max(i, j))] = score
    return sorted(((s, i, j) for (i, j), s in pairs.items()), key=lambda t: (-t[0], t[1], t[2]))


def _score_titles(
    block: Sequence[_Record], choices: Sequence[_Record], threshold: float
) -> list[tuple[int, int, float]]:
    """(i, j, score) for every query i of `block` and choice j whose titles score `threshold` or more.

    Each distinct title is scored once: a work's records in several sources mostly share one (30,000
    records of a 3 x 10,000 Run hold about 10,000 titles), and a score depends on the two titles alone.
    Titles of the same length are scored together, and only against titles whose length allows the
    threshold (`_length_window`): half the pairs of a Run's titles could never score 92.
    """
    if not block or not choices:
        return []
    queries, targets = _by_title(block), _by_title(choices)
    by_length = sorted(targets, key=len)
    lengths = [len(title) for title in by_length]
    found: list[tuple[int, int, float]] = []
    for length, titles in _by_length(queries).items():
        low, high = _length_window(length, threshold)
        window = by_length[bisect_left(lengths, low) : bisect_right(lengths, high)]
        if not window:
            continue
        matrix = process.cdist(  # on every core: rapidfuzz releases the GIL
            titles, window, scorer=fuzz.ratio, score_cutoff=threshold, dtype="float32", workers=-1
        )
        rows, cols = matrix.nonzero()
        found.extend(
            (i, j, float(matrix[row, col]))
            for row, col in zip(rows.tolist(), cols.tolist(), strict=True)
            for i in queries[titles[row]]
            for j in targets[window[col]]
        )
    return found


def _by_length(titles: Iterable[str]) -> dict[int, list[str]]:
    by_length: dict[int, list[str]] = defaultdict(list)
    for title in titles:
        by_length[len(title)].append(title)
    return by_length


def _length_window(length: int, threshold: float) -> tuple[float, float]:
    """The lengths a title needs to score `threshold` against a title of `length` characters, with a
    character to spare either side (a sure superset: the scorer decides).

    `fuzz.ratio` is 100 * (1 - d / (la + lb)) with d at least |la - lb| edits, so with c = 1 - threshold
    / 100 the other length lies in [la (1 - c) / (1 + c), la (1 + c) / (1 - c)]: within 15 % for 92.
    """
    spare = 1 - threshold / 100
    if spare >= 1:
        return (0, float("inf"))
    return (length * (1 - spare) / (1 + spare) - 1, length * (1 + spare) / (1 - spare) + 1)


def _by_title(records: Sequence[_Record]) -> dict[str, list[int]]:
    """The records' indices by title key, in order of first appearance."""
    by_title: dict[str, list[int]] = defaultdict(list)
    for record in records:
        by_title[record.title_key].append(record.index)
    return by_title


# ----------------------------------------------------------------------------------------------
# Choosing each field's value
# ----------------------------------------------------------------------------------------------


def _empty(value: Any) -> bool:
    """None, "", [] and False are no value; 0 is one (a paper cited by nobody)."""
    return not value and (value is None or value is False or isinstance(value, str | list))


def _order_key(record: _Record) -> tuple[int, int, int]:
    return (_PRECEDENCE_ORDER[record.source], record.rank, record.index)


def _authors_richness(authors: list[Author]) -> tuple[int, int, int]:
    return (
        sum([len(a.affiliations) for a in authors]),
        sum([1 for a in authors if a.orcid]),
        len(authors),
    )


def _list_length(name: str) -> Callable[[Paper], int]:
    return lambda paper: len(getattr(paper, name))


# How rich a record's value of a content field is; the richest wins (see the module docstring).
_RICHNESS: tuple[tuple[str, Callable[[Paper], Any]], ...] = (
    ("abstract", lambda p: len((p.abstract or "").strip())),
    ("authors", lambda p: _authors_richness(p.authors)),
    ("citation_count", lambda p: p.citation_count if p.citation_count is not None else -1),
    *((name, _list_length(name)) for name in LIST_FIELDS),
)


_CHOSEN_FIELDS = IDENTITY_FIELDS + tuple(name for name, _measure in _RICHNESS)


def _choose_fields(records: list[_Record], doi: str | None) -> tuple[Paper, dict[str, Source]]:
    values: dict[str, Any] = {}
    origins: dict[str, Source] = {}
    if len(records) == 1:  # a work one source found (40 % of a Run's papers): its own values
        [record] = records
        fields = record.paper.__dict__
        for name in _CHOSEN_FIELDS:
            if (value := fields[name]) or not _empty(value):  # most values are there: no call
                values[name], origins[name] = value, record.source
    else:
        ordered = sorted(records, key=_order_key)
        for name in IDENTITY_FIELDS:
            for record in ordered:
                if (value := getattr(record.paper, name)) or not _empty(value):
                    values[name], origins[name] = value, record.source
                    break
        # richest content: the first of equals, and `ordered` is in precedence order
        papers = [record.paper for record in ordered]
        for name, measure in _RICHNESS:
            richness = [measure(paper) for paper in papers]
            best = ordered[richness.index(max(richness))]
            if (value := getattr(best.paper, name)) or not _empty(value):
                values[name], origins[name] = value, best.source
    if doi:  # the canonical form, whichever source's spelling was chosen
        values["doi"] = doi
    # Validating with the chosen model instances is fast (pydantic does not re-validate instances) and
    # gives the merged paper its own lists; the authors/MeSH objects in them are shared with the
    # per-source records, which are read-only once a source has answered.
    return Paper.model_validate({**values, "source": None, "source_rank": None}), origins


# ----------------------------------------------------------------------------------------------
# The merge
# ----------------------------------------------------------------------------------------------


def _records(results: Mapping[Source, Sequence[Paper]]) -> list[_Record]:
    records: list[_Record] = []
    # A work's title and DOI mostly come from two or three sources: each text is normalised once.
    title_keys: dict[str, str] = {}
    dois: dict[str, str | None] = {}
    for source in Source:  # a fixed order makes every tie-break deterministic
        for position, paper in enumerate(results.get(source, ()) or (), start=1):
            title, doi = paper.title, paper.doi
            if title not in title_keys:
                title_keys[title] = normalize_title(title)
            if doi and doi not in dois:
                dois[doi] = canonical_doi(doi)
            records.append(
                _Record(
                    index=len(records),
                    source=source,
                    rank=paper.source_rank or position,
                    paper=paper,
                    doi=dois[doi] if doi else None,
                    title_key=title_keys[title],
                    first_author=paper.authors[0] if paper.authors else None,
                )
            )
    return records


def _component_work(
    members: list[_Record], doi: str | None
) -> tuple[Paper, dict[str, Source], list[SourceEvidence]]:
    """A component's merged paper, field origins and evidence."""
    paper, origins = _choose_fields(members, doi)
    evidence = [
        SourceEvidence(
            source=r.source, source_id=r.paper.source_id(), rank=r.rank, title=r.paper.title, doi=r.doi
        )
        for r in sorted(members, key=lambda r: (_SOURCE_ORDER[r.source], r.rank))
    ]
    return paper, origins, evidence


def _link_by(records: list[_Record], uf: _UnionFind, attribute: str, reason: str, *, guard: bool) -> None:
    """Union every pair of records that share a value of `attribute` (unless their DOIs disagree)."""
    buckets: dict[str, list[int]] = defaultdict(list)
    for r in records:
        value = r.doi if attribute == "doi" else getattr(r.paper, attribute)
        if value:
            buckets[value].append(r.index)
    for members in buckets.values():
        first = members[0]
        for other in members[1:]:
            if guard and _conflict(uf.group(first).dois, uf.group(other).dois):
                continue
            uf.union(first, other, reason)


def _key_for(paper: Paper, used: set[str], checks: _TitleChecks) -> str:
    if paper.doi:
        key = f"doi:{paper.doi}"
    elif paper.pmid:
        key = f"pmid:{paper.pmid}"
    else:
        first = checks.family(paper.authors[0]) if paper.authors else ""
        basis = f"{normalize_title(paper.title)}|{paper.year or ''}|{first}"
        key = f"title:{hashlib.sha1(basis.encode()).hexdigest()[:16]}"
    unique, n = key, 2
    while unique in used:  # same-titled distinct works ("Correction") must still have distinct keys
        unique, n = f"{key}~{n}", n + 1
    used.add(unique)
    return unique


def merge_papers(
    results: Mapping[Source, Sequence[Paper]],
    *,
    title_threshold: float = DEFAULT_TITLE_THRESHOLD,
) -> list[AggregatedPaper]:
    """Merge per-source result lists into one list of `AggregatedPaper`, best source rank first.

    `title_threshold` is the rapidfuzz `fuzz.ratio` (0-100) two normalised titles need before the
    year/author/number checks are applied. See the module docstring for the rules.
    """
    if not 0 < title_threshold <= 100:
        raise ValueError(f"title_threshold must be in (0, 100], got {title_threshold}")
    records = _records(results)
    uf = _UnionFind(records)
    _link_by(records, uf, "doi", "doi", guard=False)
    _link_by(records, uf, "pmid", "pmid", guard=True)
    _link_by(records, uf, "pmcid", "pmcid", guard=True)

    checks = _TitleChecks()  # this merge's own: dropped with it
    refused: list[tuple[int, int]] = []  # title matches kept apart by different DOIs: related versions
    for _score, i, j in _title_candidates(records, uf, title_threshold):
        gi, gj = uf.group(i), uf.group(j)
        if gi is gj:
            continue
        if not checks.title_match(records[i], records[j]):
            continue
        if _conflict(gi.dois, gj.dois):
            refused.append((i, j))
            continue
        if _conflict(gi.pmids, gj.pmids) or _conflict(gi.pmcids, gj.pmcids) or gi.sources & gj.sources:
            continue
        uf.union(i, j, "title")

    components: dict[int, list[_Record]] = defaultdict(list)
    for r in records:
        components[uf.find(r.index)].append(r)

    merged: list[tuple[tuple[int, int], int, AggregatedPaper]] = []
    used_keys: set[str] = set()
    key_of_root: dict[int, str] = {}
    for root, members in components.items():
        group = uf.groups[root]
        doi = min(group.dois) if group.dois else None
        paper, origins, evidence = _component_work(members, doi)
        key = _key_for(paper, used_keys, checks)
        key_of_root[root] = key
        # validation keeps the paper and evidence instances as they are (it is faster than
        # `model_construct`, which is Python code)
        aggregated = AggregatedPaper(
            key=key,
            paper=paper,
            evidence=evidence,
            field_sources=origins,
            score=ScoreBreakdown(),
            rank=None,
            merged_by=[reason for reason in ("doi", "pmid", "pmcid", "title") if reason in group.reasons],
            related=[],
        )
        best = min((r.rank, _SOURCE_ORDER[r.source]) for r in members)
        merged.append((best, root, aggregated))

    _link_related(records, uf, refused, key_of_root, {root: agg for _b, root, agg in merged})
    merged.sort(key=lambda item: (item[0], item[2].key))
    return [aggregated for _best, _root, aggregated in merged]


def _link_related(
    records: list[_Record],
    uf: _UnionFind,
    refused: list[tuple[int, int]],
    key_of_root: dict[int, str],
    by_root: dict[int, AggregatedPaper],
) -> None:
    """Fill `related` for preprint/journal pairs: arXiv DOI ↔ arXiv id, and refused title matches."""
    pairs: set[tuple[int, int]] = {(uf.find(i), uf.find(j)) for i, j in refused}
    arxiv_doi_roots: dict[str, int] = {}
    for r in records:
        if r.doi and (match := _ARXIV_DOI.match(r.doi)):
            arxiv_doi_roots[canonical_arxiv(match.group(1)) or ""] = uf.find(r.index)
    for r in records:
        arxiv = canonical_arxiv(r.paper.arxiv_id)
        if arxiv and arxiv in arxiv_doi_roots:
            pairs.add((uf.find(r.index), arxiv_doi_roots[arxiv]))
    for a, b in pairs:
        if a == b:
            continue
        for x, y in ((a, b), (b, a)):
            if key_of_root[y] not in by_root[x].related:
                by_root[x].related.append(key_of_root[y])
    for aggregated in by_root.values():
        aggregated.related.sort()
