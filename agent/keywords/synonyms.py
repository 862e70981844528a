"""Canonical terms with synonyms from five kinds of source, each checked against the databases.

For every canonical term of the confirmed slots:

1. **candidates** come from (a) MeSH — the descriptor whose heading or entry term *is* the term, with
   its heading and entry terms (inverted forms such as "Interfaces, Brain-Computer" left out);
   (b) OpenAlex concepts, topics and keywords whose name or synonyms are the term, with their names and
   synonyms (never their *related* terms); (c) the Wikidata item labelled or aliased by the term, with
   its English label and aliases, and Wikipedia's redirects to the term's page; (d) the LLM (prompt
   `synonym_candidates`: abbreviations, expansions, spellings), never used unchecked; (e) morphology:
   singular/plural, hyphen/space, prefix closing, and the acronym of a multi-word term. A term written
   "full term (ACRONYM)" keeps the acronym as a synonym the user gave.
   A term not written in English (the rules fallback keeps Chinese as written) is first given its
   English name: the LLM's, else the English label of the Wikidata item found in Chinese.
2. the `MAX_CANDIDATES` best candidates are **validated** by hit counts: `"candidate"[tiab]` in PubMed
   and `title_and_abstract.search:"candidate"` in OpenAlex (`meta.count`). Dropped, with the reason
   kept on the synonym:
   - a candidate with no hits in any database that answered;
   - an outlier: more than `OUTLIER_RATIO` times the canonical term's hits in a database, which for an
     acronym means it is ambiguous (BMI: body mass index, not brain-machine interface) and for a phrase
     that it is broader than the term. MeSH entry terms and the user's own words are exempt: they are
     curated or intended;
   - when no database answered, LLM candidates and generated acronyms (nothing vouches for them);
   - an acronym no one vouches for (not the user's, not a MeSH entry term) that seldom names the term
     in its own papers: the PubMed hits of `ACRONYM AND "full form"` below `ACRONYM_MIN_SHARE` of the
     acronym's hits ("PW" is rarely "pregnant women").
3. the canonical term's own spellings are kept, and at most `MAX_KEPT` other spelling families (a hyphen
   is a space to the databases, and plurals are stemmed): the user's first, then the most used.

A source that fails is skipped for the rest of the plan and recorded in `KeywordPlan.source_errors`;
"not found" answers are simply empty. Expansion always returns a plan.

**Facets** (the rule is `agent.understanding.facets.decide_facets`, documented there): every slot with terms is a
facet whose terms are OR'ed; `task`, `method_measurement`, `subject_population` (unless only generic
words such as "patients") and `context` are required and AND'ed; `method_algorithm`, `output_target` and
`signal_feature` are optional — they narrow only when the user makes them required in the review — except
that while fewer than two facets are required they are promoted in that order.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from agent.keywords.concept_roles import names_the_concept
from agent.keywords.concepts import build_concepts
from agent.keywords.field_of_description import entry_of_another_field
from agent.keywords.phrase_matches import people_category
from agent.keywords.querybuild import openalex_term, pubmed_term
from agent.language.clinical_acronyms import clinical_reading
from agent.language.english_forms import english_word
from agent.language.mesh_organisms import is_organism
from agent.language.mesh_recognition import (
    MeshVocabulary,
    leading_acronym,
    natural_order,
    vocabulary_for,
)
from agent.language.morphology import hyphen_variants, is_acronym, malformed_number, singular
from agent.language.morphology import variants as morphological_variants
from agent.language.text import clean_term, normalize_whitespace, term_key, to_half_width
from agent.llm import LLM, TextList
from agent.models import (
    ErrorKind,
    KeywordPlan,
    MeshDescriptor,
    Produced,
    SourceError,
    Synonym,
    SynonymOrigin,
    Term,
    Understanding,
)
from tools.mesh import MeshFile

log = logging.getLogger(__name__)

MAX_CANDIDATES = 8  # candidates validated per term (each costs one count per database)
MAX_KEPT = 6  # synonyms kept per term
OUTLIER_RATIO = 20.0  # more than an order of magnitude above the term's own hits
# An acronym must name the term in at least this share of the PubMed papers that write it: authors spell
# an acronym out at its first use, so its own papers mostly write the full form too ("ECoG" with
# "electrocorticography"), while an acronym of something else rarely does ("PW" and "pregnant women")
ACRONYM_MIN_SHARE = 0.1
MAX_CANDIDATE_WORDS = 8

S2_FIELDS_OF_STUDY = (
    "Computer Science",
    "Medicine",
    "Chemistry",
    "Biology",
    "Materials Science",
    "Physics",
    "Geology",
    "Psychology",
    "Art",
    "History",
    "Geography",
    "Sociology",
    "Business",
    "Political Science",
    "Economics",
    "Philosophy",
    "Mathematics",
    "Engineering",
    "Environmental Science",
    "Agricultural and Food Sciences",
    "Education",
    "Law",
    "Linguistics",
)

# ----------------------------------------------------------------------------------------------
# What the keyword step needs from the outside clients (the real ones live in tools/)
# ----------------------------------------------------------------------------------------------


class PubMedCounter(Protocol):
    async def count(self, query: str) -> int: ...


class MeshLookup(Protocol):
    async def lookup(self, term: str, *, limit: int = 3) -> list[MeshDescriptor]: ...


class OpenAlexVocabulary(Protocol):
    """`count` answers meta.count; the searches return entries with `name` and `synonyms`."""

    async def count(self, *, search: str | None = None, filter: str | None = None) -> int: ...

    async def search_concepts(self, term: str, *, limit: int = 5) -> Sequence[Any]: ...

    async def search_topics(self, term: str, *, limit: int = 5) -> Sequence[Any]: ...

    async def search_keywords(self, term: str, *, limit: int = 5) -> Sequence[Any]: ...


class WikidataSearch(Protocol):
    """Entities with `labels` (language -> label) and `aliases` (language -> list of aliases)."""

    async def search_entities(
        self, term: str, *, language: str | None = None, limit: int = 5
    ) -> Sequence[Any]: ...


class WikipediaRedirects(Protocol):
    async def redirects(self, title: str, *, language: str = "en") -> list[str]: ...


@dataclass
class SynonymSources:
    """The optional clients the keyword step uses; any of them may be None (that source is skipped)."""

    pubmed: PubMedCounter | None = None
    mesh: MeshLookup | None = None
    mesh_file: MeshLookup | None = None  # an offline descriptor file, asked before the online service
    openalex: OpenAlexVocabulary | None = None
    wikidata: WikidataSearch | None = None
    wikipedia: WikipediaRedirects | None = None

    @classmethod
    def coerce(cls, sources: Any) -> SynonymSources:
        """From `agent.search.sources.SourceClients`, another object with those attributes, or None."""
        if sources is None:
            return cls()
        if isinstance(sources, cls):
            return sources
        return cls(**{name: getattr(sources, name, None) for name in cls.__dataclass_fields__})

    @property
    def counters(self) -> list[str]:
        return [name for name in ("pubmed", "openalex") if getattr(self, name) is not None]


# ----------------------------------------------------------------------------------------------
# Calling sources: failures recorded once, a failed source skipped afterwards
# ----------------------------------------------------------------------------------------------

R = TypeVar("R")
_BREAKING = {ErrorKind.UNAVAILABLE, ErrorKind.TIMEOUT, ErrorKind.RATE_LIMITED, ErrorKind.INTERNAL}


@dataclass
class Session:
    """One keyword step's use of the sources: errors, broken sources, and counts already known."""

    sources: SynonymSources
    errors: list[SourceError] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)
    counts: dict[tuple[str, str], int | None] = field(default_factory=dict)
    calls: int = 0

    async def call(self, name: str, make: Callable[[], Awaitable[R]], empty: R) -> R:
        """The call's result; `empty` for a "not found"; `empty` and a recorded error when it fails."""
        if name in self.broken:
            return empty
        self.calls += 1
        try:
            return await make()
        except Exception as exc:  # every failure is recorded below and shown in the plan
            kind = getattr(exc, "kind", None)
            if kind is ErrorKind.NOT_FOUND:
                return empty
            if kind is ErrorKind.BAD_QUERY:
                # this term cannot be searched there (e.g. characters the service refuses); others can
                self._record(name, ErrorKind.BAD_QUERY, str(exc))
                return empty
            if not isinstance(kind, ErrorKind):
                log.exception("%s failed unexpectedly during synonym expansion", name)
                kind = ErrorKind.INTERNAL
            self._record(name, kind, str(exc) or type(exc).__name__)
            if kind in _BREAKING:
                self.broken.add(name)
            return empty

    def _record(self, name: str, kind: ErrorKind, message: str) -> None:
        if not any(e.source == name and e.kind == kind for e in self.errors):
            self.errors.append(SourceError(source=name, kind=kind, message=message[:500]))


async def count_hits(session: Session, text: str) -> dict[str, int | None]:
    """Hits of one phrase in PubMed (title/abstract) and OpenAlex (title and abstract); None = unknown."""
    sources = session.sources
    jobs: dict[str, Callable[[], Awaitable[int]]] = {}
    if sources.pubmed is not None:
        pubmed = sources.pubmed
        jobs["pubmed"] = lambda: pubmed.count(pubmed_term(text))
    if sources.openalex is not None:
        openalex = sources.openalex
        jobs["openalex"] = lambda: openalex.count(filter=f"title_and_abstract.search:{openalex_term(text)}")

    async def one(name: str, make: Callable[[], Awaitable[int]]) -> tuple[str, int | None]:
        key = (name, variant_key(text))
        if key not in session.counts:
            session.counts[key] = await session.call(name, make, None)
        return name, session.counts[key]

    results = await asyncio.gather(*(one(name, make) for name, make in jobs.items()))
    return dict(results)


# ----------------------------------------------------------------------------------------------
# Candidates
# ----------------------------------------------------------------------------------------------


def variant_key(text: str) -> str:
    """Identity of a spelling: case and dash style do not matter, hyphen versus space does."""
    return normalize_whitespace(to_half_width(text)).casefold()


_ORIGIN_WEIGHT = {
    SynonymOrigin.USER: 100,
    SynonymOrigin.MESH: 50,
    SynonymOrigin.MORPHOLOGY: 5,
    SynonymOrigin.OPENALEX: 4,
    SynonymOrigin.WIKIDATA: 3,
    SynonymOrigin.WIKIPEDIA: 2,
    SynonymOrigin.LLM: 1,
}


@dataclass
class _Candidates:
    canonical: str
    found: dict[str, Synonym] = field(default_factory=dict)

    def add(self, texts: Iterable[str], origin: SynonymOrigin) -> None:
        for raw in texts:
            text = _case_like(_tidy_candidate(raw), self.canonical)
            if not text or variant_key(text) == variant_key(self.canonical):
                continue
            key = variant_key(text)
            synonym = self.found.setdefault(key, Synonym(text=text))
            if origin not in synonym.origins:
                synonym.origins.append(origin)

    def ranked(self) -> list[Synonym]:
        def score(s: Synonym) -> int:
            return sum(_ORIGIN_WEIGHT[o] for o in s.origins) + 10 * (len(s.origins) - 1)

        return sorted(self.found.values(), key=score, reverse=True)


def _tidy_candidate(text: str) -> str:
    text = clean_term(re.sub(r"\s*\([^()]*\)\s*$", "", str(text or "")))  # "BCI (neuroscience)" -> "BCI"
    if not text or ", " in text or len(text.split()) > MAX_CANDIDATE_WORDS or len(text) > 100:
        return ""  # inverted headings ("Interfaces, Brain-Computer") and sentences are not search terms
    return text


def _case_like(text: str, canonical: str) -> str:
    """Title-cased headings and page titles ("Brain-Machine Interfaces", "Neural interface") in lower case
    when the canonical term is written in lower case but for acronyms and its first letter ("SGLT2
    inhibitors" takes "sodium-glucose transporter 2 inhibitors", as a searcher writes it); acronyms,
    mixed-case words ("ECoG", "McGurk") and the capitalised words of the canonical ("Alzheimer") keep
    theirs. A canonical with a capitalised word inside ("Down Syndrome") is a name: its synonyms stay as
    written."""
    words = canonical.split()
    if not text or any(_title_word(w) for w in words[1:]):
        return text
    kept = {_bare(w) for w in words if w[:1].isupper()}

    def lower(word: str) -> str:
        first, *rest = word.split("-")  # "Burn-out" as well as "Brain-Machine"
        if (
            _bare(word) not in kept
            and _title_word(first)
            and all(_title_word(p) or p.islower() for p in rest)
        ):
            return word.lower()
        return word

    return " ".join(lower(w) for w in text.split(" "))


def _title_word(word: str) -> bool:
    """A capitalised word of letters ("Inhibitors", "Alzheimer's"), not an acronym ("SGLT2", "ECoG")."""
    letters = word.removesuffix("'s").removesuffix("\u2019s")
    return letters[:1].isupper() and letters[1:].islower() and letters.isalpha()


def _bare(word: str) -> str:
    return word.removesuffix("'s").removesuffix("\u2019s").casefold()


def _matches(term: str, names: Iterable[str]) -> bool:
    key = term_key(term)
    return any(term_key(name) == key for name in names if name)


def _entity_names(entity: Any, language: str) -> list[str]:
    labels = getattr(entity, "labels", None) or {}
    aliases = getattr(entity, "aliases", None) or {}
    names = [labels.get(language)] if isinstance(labels, dict) else []
    if isinstance(aliases, dict):
        names += list(aliases.get(language) or [])
    elif isinstance(aliases, list):
        names += aliases
    if not names and language == "en":
        names = [getattr(entity, "label", None)]
    return [n for n in names if n]


async def _mesh(session: Session, term: str) -> MeshDescriptor | None:
    for name in ("mesh_file", "mesh"):
        client = getattr(session.sources, name)
        if client is None:
            continue
        found: Sequence[MeshDescriptor] = await session.call(name, partial(client.lookup, term, limit=3), [])
        for descriptor in found:
            if _matches(term, [descriptor.heading, *descriptor.entry_terms]):
                return descriptor
    return None


async def _openalex_names(session: Session, term: str) -> list[str]:
    client = session.sources.openalex
    if client is None:
        return []
    searches = (client.search_concepts, client.search_topics, client.search_keywords)
    nothing: Sequence[Any] = []
    results = await asyncio.gather(
        *(session.call("openalex", partial(search, term, limit=5), nothing) for search in searches)
    )
    names: list[str] = []
    for entries in results:
        for entry in entries:
            name = getattr(entry, "name", None) or getattr(entry, "display_name", None) or ""
            synonyms = list(getattr(entry, "synonyms", None) or [])
            if _matches(term, [name, *synonyms]):
                names += [name, *(s for s in synonyms if s.isascii())]
    return names


async def _wikidata_names(session: Session, term: str) -> list[str]:
    client = session.sources.wikidata
    if client is None:
        return []
    entities: Sequence[Any] = await session.call(
        "wikidata", lambda: client.search_entities(term, language="en", limit=3), []
    )
    for entity in entities:
        names = _entity_names(entity, "en")
        if _matches(term, names):
            return names
    return []


async def _wikipedia_names(session: Session, term: str) -> list[str]:
    client = session.sources.wikipedia
    if client is None:
        return []
    titles: list[str] = await session.call("wikipedia", lambda: client.redirects(term, language="en"), [])
    return [t for t in titles if t.isascii() or to_half_width(t).isascii()]


async def english_name(session: Session, term: str) -> str | None:
    """The English label of the Wikidata item a non-English term names (None when none is found)."""
    client = session.sources.wikidata
    if client is None:
        return None
    entities: Sequence[Any] = await session.call(
        "wikidata", lambda: client.search_entities(term, language="zh", limit=3), []
    )
    for entity in entities:
        labels = getattr(entity, "labels", None) or {}
        english = clean_term(labels.get("en") or "") if isinstance(labels, dict) else ""
        if english and english.isascii():
            return english
    return None


# ----------------------------------------------------------------------------------------------
# The LLM's candidates
# ----------------------------------------------------------------------------------------------


class _TermCandidates(BaseModel):
    model_config = ConfigDict(extra="ignore")

    term: str = ""
    english: str = ""
    candidates: TextList = Field(default_factory=list)


class SynonymCandidates(BaseModel):
    model_config = ConfigDict(extra="ignore")

    terms: list[_TermCandidates] = Field(default_factory=list)
    fields_of_study: list[str] = Field(default_factory=list)


def _fields_of_study(values: Iterable[str]) -> list[str]:
    known = {f.casefold(): f for f in S2_FIELDS_OF_STUDY}
    return list(dict.fromkeys(known[v.strip().casefold()] for v in values if v.strip().casefold() in known))


async def _llm_candidates(
    llm: LLM, terms: Sequence[Term], goal: str
) -> tuple[SynonymCandidates, Produced, str | None]:
    if not terms:
        return SynonymCandidates(), Produced.RULES, None
    payload = json.dumps([{"term": t.canonical, "slot": t.slot} for t in terms], ensure_ascii=False)
    completion = await llm.complete_or_fallback(
        "synonym_candidates",
        {"terms_json": payload, "goal": goal.replace("GOAL>>>", "GOAL") or "(not stated)"},
        SynonymCandidates,
        SynonymCandidates,
    )
    return completion.value, completion.produced_by, completion.note


# ----------------------------------------------------------------------------------------------
# Validation
# ----------------------------------------------------------------------------------------------


def _judge(synonym: Synonym, canonical: str, term_hits: dict[str, int | None]) -> None:
    known = {db: n for db, n in synonym.hits.items() if n is not None}
    trusted = SynonymOrigin.USER in synonym.origins or SynonymOrigin.MESH in synonym.origins
    if not known:
        unvouched = set(synonym.origins) <= {SynonymOrigin.LLM} or (
            set(synonym.origins) <= {SynonymOrigin.MORPHOLOGY, SynonymOrigin.LLM} and is_acronym(synonym.text)
        )
        if unvouched and not trusted:
            synonym.kept, synonym.reason = False, "not validated: no database answered the hit count"
        return
    if all(n == 0 for n in known.values()):
        if SynonymOrigin.USER not in synonym.origins:
            synonym.kept, synonym.reason = False, "no hits in " + " or ".join(_db_names(known))
        return
    if trusted:
        return
    for db, hits in known.items():
        base = term_hits.get(db)
        if base and hits / base > OUTLIER_RATIO:
            ratio = hits / base
            if is_acronym(synonym.text):
                synonym.reason = (
                    f"ambiguous acronym: {ratio:,.0f}× the hits of '{canonical}' in {_db_names([db])[0]}"
                )
            else:
                synonym.reason = (
                    f"much broader than '{canonical}': {ratio:,.0f}× its hits in {_db_names([db])[0]}"
                )
            synonym.kept = False
            return


def _needs_cooccurrence(synonym: Synonym) -> bool:
    """An acronym no one vouches for (not the user's, not a MeSH entry term) that is kept so far and has
    PubMed hits to compare with."""
    trusted = SynonymOrigin.USER in synonym.origins or SynonymOrigin.MESH in synonym.origins
    return synonym.kept and not trusted and is_acronym(synonym.text) and bool(synonym.hits.get("pubmed"))


async def _judge_acronym(session: Session, synonym: Synonym, canonical: str) -> None:
    """Drop an acronym whose PubMed papers seldom write the term it should stand for: the hits of
    `ACRONYM AND "full form"` against the acronym's own (`ACRONYM_MIN_SHARE`)."""
    pubmed = session.sources.pubmed
    alone = synonym.hits.get("pubmed")
    if pubmed is None or not alone:
        return
    query = f"{pubmed_term(synonym.text)} AND {pubmed_term(canonical)}"
    key = ("pubmed", variant_key(query))
    if key not in session.counts:
        session.counts[key] = await session.call("pubmed", lambda: pubmed.count(query), None)
    together = session.counts[key]
    if together is not None and together < ACRONYM_MIN_SHARE * alone:
        synonym.kept = False
        synonym.reason = (
            f"ambiguous acronym: only {together:,} of the {alone:,} PubMed papers with '{synonym.text}' "
            f"also write '{canonical}'"
        )


def _db_names(dbs: Iterable[str]) -> list[str]:
    return [{"pubmed": "PubMed", "openalex": "OpenAlex"}.get(db, db) for db in dbs]


def _order_and_cap(canonical: str, synonyms: list[Synonym]) -> list[Synonym]:
    """Kept synonyms first, grouped by spelling family (case, hyphen/space and number aside).

    The canonical term's own spellings are always kept; of the other families, the user's come first and
    then the most used, up to `MAX_KEPT` families. A family counts once because the databases treat its
    members alike (a hyphen is a space to PubMed, OpenAlex stems plurals), so they cost no recall.
    """

    def total(s: Synonym) -> int:
        return sum(n for n in s.hits.values() if n)

    families: dict[str, list[Synonym]] = {}
    for synonym in synonyms:
        if synonym.kept:
            families.setdefault(term_key(synonym.text), []).append(synonym)
    own = families.pop(term_key(canonical), [])
    ranked = sorted(
        families.values(),
        key=lambda family: (
            0 if any(SynonymOrigin.USER in s.origins for s in family) else 1,
            -max(total(s) for s in family),
        ),
    )
    for family in ranked[MAX_KEPT:]:
        for extra in family:
            extra.kept, extra.reason = False, f"beyond the {MAX_KEPT} most used synonyms of this term"
    kept = sorted(own, key=total, reverse=True) + [
        s for family in ranked[:MAX_KEPT] for s in sorted(family, key=total, reverse=True)
    ]
    return kept + [s for s in synonyms if not s.kept]


# ----------------------------------------------------------------------------------------------
# Terms
# ----------------------------------------------------------------------------------------------


async def expand_term(
    term: Term,
    session: Session,
    llm_candidates: Sequence[str],
    other_canonicals: set[str],
    biomedical: bool = True,
) -> Term:
    """The term with MeSH, candidates from every source, validation and the kept list (see module doc);
    outside `biomedical` descriptions, no heading of another field's sense is looked up for it."""
    canonical = term.canonical
    candidates = _Candidates(canonical)
    for synonym in term.synonyms:  # what the user or the slots already said about this term
        for origin in synonym.origins or [SynonymOrigin.USER]:
            candidates.add([synonym.text], origin)
    mesh, openalex_names, wikidata_names, wikipedia_names = await asyncio.gather(
        _mesh_for(session, term, biomedical),
        _openalex_names(session, canonical),
        _wikidata_names(session, canonical),
        _wikipedia_names(session, canonical),
    )
    if mesh is not None:
        candidates.add(mesh_synonyms(mesh, canonical), SynonymOrigin.MESH)
    candidates.add(openalex_names, SynonymOrigin.OPENALEX)
    candidates.add(wikidata_names, SynonymOrigin.WIKIDATA)
    candidates.add(wikipedia_names, SynonymOrigin.WIKIPEDIA)
    candidates.add(llm_candidates, SynonymOrigin.LLM)
    vocabulary = await _vocabulary(session)
    forms = (
        morphological_variants(canonical)
        if _has_plural(canonical, mesh, vocabulary)
        else hyphen_variants(canonical)  # "C reactive protein": spellings, but no plural of a substance
    )
    candidates.add(attested_forms(canonical, forms, vocabulary), SynonymOrigin.MORPHOLOGY)

    ranked = [
        s
        for s in candidates.ranked()
        if variant_key(s.text) not in other_canonicals and not _malformed(s.text, canonical, vocabulary)
    ]
    chosen = ranked[:MAX_CANDIDATES]
    counts = await asyncio.gather(
        count_hits(session, canonical), *(count_hits(session, s.text) for s in chosen)
    )
    term_hits, synonym_hits = counts[0], counts[1:]
    for synonym, hits in zip(chosen, synonym_hits, strict=True):
        synonym.hits = hits
        _judge(synonym, canonical, term_hits)
    await asyncio.gather(*(_judge_acronym(session, s, canonical) for s in chosen if _needs_cooccurrence(s)))
    return term.model_copy(
        update={"synonyms": _order_and_cap(canonical, chosen), "mesh": mesh, "hits": term_hits}
    )


async def _mesh_for(session: Session, term: Term, biomedical: bool = True) -> MeshDescriptor | None:
    """The descriptor recognition already found for the term, else one looked up by its name and
    judged by the same rule as recognition (`names_the_concept`: "malignancy" is not Neoplasms), and,
    outside a `biomedical` description, not reached through an entry term of another field's sense
    (`entry_of_another_field`: "energy consumption" is no Energy Intake), and not a category of people
    named by one word (`people_category`: "workers" is no Occupational Groups). A clinical acronym MeSH
    does not list, in a `biomedical` description, takes the heading it names in clinical writing
    (`clinical_reading`: "AF" is Atrial Fibrillation, "CKD" Renal Insufficiency, Chronic), also after
    its modifiers ("paroxysmal AF": the heading of the condition, as for "acute MI")."""
    if term.mesh is not None:
        return term.mesh
    found = await _mesh(session, term.canonical)
    if found is None:
        return await _clinical_acronym_heading(session, term.canonical) if biomedical else None
    via = "heading" if term_key(found.heading) == term_key(term.canonical) else "entry term"
    if not biomedical and entry_of_another_field(found, via):
        return None
    one_word = len(term.canonical.split()) == 1
    if (
        one_word
        and (vocabulary := await _vocabulary(session)) is not None
        and people_category(found, vocabulary)
    ):
        return None  # "workers" alone: no group a search is about
    return found if names_the_concept(found, term.canonical, via) else None


async def _clinical_acronym_heading(session: Session, canonical: str) -> MeshDescriptor | None:
    """The heading a clinical acronym MeSH does not list names (`clinical_reading`), written alone or
    after its modifiers ("paroxysmal AF", "moderate-to-severe UC"), looked up by its exact heading."""
    words = canonical.split()
    reading = clinical_reading(words[-1]) if words else None
    if reading is None:
        return None
    vocabulary = await _vocabulary(session)
    if vocabulary is None:
        return await _mesh(session, reading)
    return next((d for d in vocabulary.lookup(reading) if d.heading == reading), None)


def _malformed(candidate: str, canonical: str, vocabulary: MeshVocabulary | None) -> bool:
    """A plural the grammar rejects ("epilepsys") unless MeSH writes it: a noun in "-ic" is rarely
    counted by the grammar, but "Microplastics", "Antibiotics" and "Antipsychotics" are MeSH's own words."""
    if not malformed_number(candidate, canonical):
        return False
    words = candidate.split()
    return not (vocabulary is not None and words and vocabulary.writes_form(words[-1].lower()))


def _has_plural(canonical: str, mesh: MeshDescriptor | None, vocabulary: MeshVocabulary | None) -> bool:
    """Whether the term's morphological variants (plural, truncation) make sense: not for chemicals and
    drugs (MeSH tree D only: mass nouns, "Metformins") unless the user wrote the plural of a class
    ("sulfonylureas": a paper names one "sulfonylurea"), nor for the proper name of a place (a heading
    only among the Geographic Locations, Z01, written with a capital: "Latin America" has no "Latin
    Americas", "United States" no "United State"), nor when the last word is one MeSH only uses as a
    modifier ("apparently healthy" has no "healthies")."""
    if mesh is not None and mesh.tree_numbers and all(t.startswith("D") for t in mesh.tree_numbers):
        last = canonical.split()[-1] if canonical.split() else ""
        return singular(last) != last  # a class written in the plural has members in the singular
    named_place = (
        mesh is not None and mesh.tree_numbers and all(t.startswith("Z01") for t in mesh.tree_numbers)
    )
    if named_place and canonical.split()[-1:] and canonical.split()[-1][:1].isupper():
        return False
    if mesh is not None and _is_species_name(mesh) and term_key(canonical) == term_key(mesh.heading):
        return False  # "Mycobacterium tuberculosis" has no "Mycobacterium tuberculoses"
    words = canonical.split()
    if vocabulary is not None and len(words) == 1 and _hyphenated_modifier(words[0], vocabulary):
        return False  # "dual-band", "solid-state", "open-domain": a modifier of a device, no "dual-bands"
    return not (vocabulary is not None and words and vocabulary.is_modifier(words[-1]))


def _hyphenated_modifier(word: str, vocabulary: MeshVocabulary) -> bool:
    """One hyphenated word of two parts whose first MeSH writes only as a modifier ("dual-band",
    "solid-state", "low-frequency", "open-domain"): an adjective compound, written before the noun it
    qualifies, with no plural and no truncation ("open-domain*" had been searched). Not after a
    prefix, which makes a noun of a noun ("non-smokers", "non-relatives", "self-reports", "co-workers")."""
    parts = word.lower().split("-")
    return (
        len(parts) == 2
        and all(p.isalnum() for p in parts)
        and parts[0] not in _NOUN_PREFIXES
        and vocabulary.is_modifier(parts[0])
    )


# prefixes written with a hyphen before a noun that stays a noun ("non-smokers", "post-doctorates")
_NOUN_PREFIXES = frozenset(
    {"non", "pre", "post", "self", "anti", "co", "semi", "sub", "multi", "inter", "intra"}
)


def _is_species_name(descriptor: MeshDescriptor) -> bool:
    """A Latin name of a species (or a strain below it): an organism whose heading writes a word after
    the first in lower case, as NLM writes the specific epithet and no other heading word of the
    organism tree ("Mycobacterium tuberculosis", "Escherichia coli", "Prunus persica")."""
    words = descriptor.heading.split()
    return len(words) >= 2 and words[0][:1].isupper() and words[1][:1].islower() and is_organism(descriptor)


def attested_forms(canonical: str, forms: list[str], vocabulary: MeshVocabulary | None) -> list[str]:
    """The morphological forms English writes, judged by MeSH, which writes count nouns in both numbers
    ("interface", "interfaces") and mass nouns in one ("hypertension", "obesity", "yoga"). When MeSH
    writes the term's last word, a form whose last word MeSH never writes is dropped: a singular made
    from a word that only looks plural ("prediabete" of "prediabetes", "rabie" of "rabies") and a
    plural of a mass noun ("hypertensions", "obesities"), which a searcher would not sign and which
    takes a synonym's place. A count noun MeSH writes only in the plural ("Home Visits") keeps its
    singular when English writes it (CC-CEDICT's definitions use "visit", never "prediabete"). Words
    MeSH does not know keep what the grammar gives ("perovskites")."""
    last = canonical.split()[-1].lower() if canonical.split() else ""
    if vocabulary is None or not vocabulary.writes_form(last):
        return forms
    kept = []
    for form in forms:
        form_last = form.split()[-1].lower() if form.split() else ""
        english_singular = form_last == singular(last) and english_word(form_last)
        if form_last == last or vocabulary.writes_form(form_last) or english_singular:
            kept.append(form)
    return kept


def mesh_synonyms(descriptor: MeshDescriptor, canonical: str) -> list[str]:
    """The heading and the entry terms a searcher would put in [tiab] beside `descriptor`[Mesh].

    Entry terms of a descriptor include narrower concepts and old names ("Rodentia" lists
    "Capybaras" and "Beavers"; "Down Syndrome" lists "Mongolism" and "47,XY,+21"), so an entry term is
    kept only when it shares a word stem with the heading or the user's term, or is an acronym of it
    (an acronym NLM writes before its expansion only where the expansion is kept: "CFR Case Fatality
    Rate" under Mortality is no synonym of "mortality");
    an inverted form ("Diabetes, Pregnancy-Induced") is written in natural order; never a formula or
    a parenthesised qualifier; and not when it only adds words to the heading or the term ("soluble insulin"), which
    the shorter [tiab] term finds already. A term that shares no word with its heading is mostly a
    member filed under a category ("Montreal Cognitive Assessment" under Mental Status and Dementia
    Tests, "wage" under Salaries and Fringe Benefits, "DOACs" under Factor Xa Inhibitors): only entry
    terms holding all its words are synonyms then. Under a heading of one disease or disorder it is
    another name of it, a lay or an older one ("stammering" for Stuttering, "heart attack" for Myocardial
    Infarction, "bed sores" for Pressure Ulcer), and the heading's own name is searched beside it: papers
    not indexed yet write the heading's words.
    """
    # an acronym has no word stems to compare; "ICU Intensive Care Units" is two synonyms, "ICU" and
    # "Intensive Care Units"
    names = [_stems(descriptor.heading), set() if is_acronym(canonical) else _stems(canonical)]
    anchors = set().union(*names)
    entry_terms: list[str] = []
    for written in descriptor.entry_terms:
        *acronym, expansion = _split_leading_acronym(written)
        if acronym and not _stems(natural_order(expansion)) & anchors:
            continue  # "CFR Case Fatality Rate" under Mortality: the acronym stands for its expansion
        entry_terms += [*acronym, expansion]
    if names[1] and not names[0] & names[1] and not _another_name_of_a_condition(descriptor):
        # the term is filed under a heading that shares none of its words ("Montreal Cognitive
        # Assessment" under Mental Status and Dementia Tests, "sandy soils" under Soil, "DOACs" under
        # Factor Xa Inhibitors): the heading and its other entry terms are broader or siblings, searched
        # by [Mesh] already
        return [natural_order(e) for e in entry_terms if names[1] <= _stems(natural_order(e))]
    out = [descriptor.heading] if ", " not in descriptor.heading else [natural_order(descriptor.heading)]
    for written in entry_terms:
        entry = natural_order(written)  # "Diabetes, Pregnancy-Induced" -> "Pregnancy-Induced Diabetes"
        if re.search(r"[,;()+]", entry):
            continue
        words = _stems(entry)
        if not (is_acronym(entry) or words & anchors):
            continue  # no word in common: a narrower concept or an old name, not a synonym
        if any(name < words for name in names if name):
            continue  # "Metformin Hydrochloride" holds "metformin": the shorter term finds it already
        if _NUMBERED.search(entry):
            # "Polycystic Ovary Syndrome 1": one numbered type of the concept, not a synonym; nor is a
            # numbered type of another ("Inflammatory Bowel Disease 1" under Crohn Disease)
            continue
        if _former_binomial(descriptor, entry):
            continue  # "Bacillus coli" for Escherichia coli: a name the species had in another genus
        if _word_bag(entry) not in {_word_bag(o) for o in out}:
            out.append(entry)
    return out


def _word_bag(text: str) -> tuple[str, ...]:
    """The words of a term in any order: NLM's permuted entry terms ("Antimicrobial Resistance, Drug" beside
    "Antimicrobial Drug Resistance") come back from inversion as word salad ("drug antimicrobial
    resistance"), which a searcher would not write and which finds nothing the first order does not."""
    return tuple(sorted(text.casefold().split()))


_NUMBERED = re.compile(r"\s+\d+$")
# a heading naming two categories at once: "Salaries and Fringe Benefits", "Sleep Initiation and Maintenance Disorders"
_JOINED_CATEGORIES = re.compile(r"\b(?:and|or)\b", re.IGNORECASE)


def _another_name_of_a_condition(descriptor: MeshDescriptor) -> bool:
    """Whether a term filed under `descriptor` that shares none of its words is another name of the
    heading: under a disease or a mental disorder (C, F03) that the heading names alone, not a category
    of people, things or acts, whose entry terms are members ("older people" under Aged)."""
    return not _JOINED_CATEGORIES.search(descriptor.heading) and any(
        t.startswith(("C", "F03")) for t in descriptor.tree_numbers
    )


def _former_binomial(descriptor: MeshDescriptor, entry: str) -> bool:
    """True for an organism's entry term that names the species in another genus ("Bacillus coli",
    "Bacterium coli" under Escherichia coli): classifications searchers leave out. The genus abbreviated
    ("E coli") is the same name."""
    heading, written = descriptor.heading.split(), entry.split()
    if not any(t.startswith("B") for t in descriptor.tree_numbers) or len(heading) != 2 or len(written) < 2:
        return False
    genus, other = heading[0].casefold(), written[0].casefold().rstrip(".")
    same = other == genus or (len(other) <= 2 and genus.startswith(other))
    return written[1].casefold() == heading[1].casefold() and not same


def _split_leading_acronym(entry: str) -> list[str]:
    """NLM's "ICU Intensive Care Units" as the two terms it writes together; any other entry as is."""
    short = leading_acronym(entry)
    return [short, entry[len(short) :].lstrip("- ")] if short else [entry]


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[A-Za-z]{3,}", text)}


def _stem(word: str) -> str:
    return word.lower()[:5]


@dataclass
class Expansion:
    terms: list[Term]
    produced_by: Produced
    fields_of_study: list[str]
    notes: list[str]


async def expand_terms(
    terms: Sequence[Term],
    llm: LLM,
    session: Session,
    *,
    goal: str = "",
    context_canonicals: Iterable[str] = (),
    biomedical: bool = True,
) -> Expansion:
    """Expand `terms` (and only them); `context_canonicals` are the plan's other terms, never synonyms;
    `biomedical` says whether the description names anything of medicine (`field_of_description`)."""
    notes: list[str] = []
    suggestions, produced_by, note = await _llm_candidates(llm, terms, goal)
    if note:
        notes.append(f"synonym candidates: {note}")
    by_term = {variant_key(s.term): s for s in suggestions.terms if s.term}

    named: list[Term] = []
    for term in terms:
        suggestion = by_term.get(variant_key(term.canonical))
        if not term.canonical.isascii():
            english = clean_term(suggestion.english) if suggestion and suggestion.english.isascii() else ""
            source = "LLM"
            if not english:
                english, source = (await english_name(session, term.canonical)) or "", "Wikidata"
            if english:
                notes.append(f"'{term.canonical}' is searched as '{english}' ({source})")
                term = term.model_copy(update={"canonical": english})
            else:
                notes.append(f"no English name found for '{term.canonical}'; it is searched as written")
        named.append(term)

    canonicals = {variant_key(t.canonical) for t in named} | {variant_key(c) for c in context_canonicals}
    expanded = await asyncio.gather(
        *(
            expand_term(
                term,
                session,
                (by_term.get(variant_key(original.canonical)) or _TermCandidates()).candidates,
                canonicals - {variant_key(term.canonical)},
                biomedical,
            )
            for term, original in zip(named, terms, strict=True)
        )
    )
    for term in expanded:
        if (
            term.hits
            and all(n == 0 for n in term.hits.values() if n is not None)
            and any(n is not None for n in term.hits.values())
        ):
            notes.append(f"'{term.canonical}' has no hits as written; consider renaming it in the review")
    return Expansion(list(expanded), produced_by, _fields_of_study(suggestions.fields_of_study), notes)


async def _vocabulary(session: Session) -> MeshVocabulary | None:
    """The MeSH vocabulary for recognition, built off the event loop (None without a MeSH file)."""
    mesh_file = session.sources.mesh_file
    if not isinstance(mesh_file, MeshFile):
        return None
    try:
        return await asyncio.to_thread(vocabulary_for, mesh_file)
    except Exception as exc:  # a broken file degrades recognition only, and says so
        kind = getattr(exc, "kind", ErrorKind.BAD_RESPONSE)
        session.errors.append(SourceError(source="mesh-file", kind=kind, message=str(exc)[:500]))
        return None


_OUTSIDE_VOCABULARIES = {
    SynonymOrigin.OPENALEX: "OpenAlex topics and keywords",
    SynonymOrigin.WIKIDATA: "Wikidata",
    SynonymOrigin.WIKIPEDIA: "Wikipedia",
}


def _vocabulary_notes(terms: Sequence[Term]) -> list[str]:
    """Which vocabulary stood in for MeSH, per term MeSH does not know (materials, economics, ML ...)."""
    notes = []
    for term in terms:
        if term.mesh is not None:
            continue
        used = {o for s in term.kept_synonyms() for o in s.origins if o in _OUTSIDE_VOCABULARIES}
        if used:
            names = ", ".join(_OUTSIDE_VOCABULARIES[o] for o in _OUTSIDE_VOCABULARIES if o in used)
            notes.append(f"'{term.canonical}' has no MeSH heading; its synonyms come from {names}")
    return notes


async def build_keyword_plan(understanding: Understanding, llm: LLM, sources: Any) -> KeywordPlan:
    """Canonical terms per slot with validated synonyms, facets, and the sources' errors.

    `sources` is `agent.search.sources.SourceClients`, a `SynonymSources`, or None (no outside source: only
    morphology, the user's words and checked-nothing LLM candidates, of which the unvouched are dropped).
    """
    session = Session(SynonymSources.coerce(sources))
    vocabulary = await _vocabulary(session)
    found = build_concepts(understanding, vocabulary)
    expansion = await expand_terms(
        found.terms, llm, session, goal=understanding.slots.research_goal, biomedical=found.biomedical
    )
    notes = [*found.notes, *expansion.notes]
    if vocabulary is None:
        notes.append("no MeSH vocabulary is available: terms are searched as written, without headings")
    if not session.sources.counters:
        notes.append("no database is available for hit counts: synonyms could not be validated")
    if session.errors:
        notes.append("skipped after errors: " + ", ".join(sorted({e.source for e in session.errors})))
    if not expansion.terms:
        notes.append("the understanding has no terms to search for")
    notes += _vocabulary_notes(expansion.terms)
    return KeywordPlan(
        terms=expansion.terms,
        concepts=found.concepts,
        study_filters=found.study_filters,
        source_errors=session.errors,
        produced_by=expansion.produced_by,
        notes=notes,
        fields_of_study=expansion.fields_of_study,
    )
