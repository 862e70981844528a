"""The shared vocabulary of ScholarMap.

Every layer speaks in these pydantic v2 models: tools map outside records into them, the domain
reasons over them, the run store writes them to disk and the server sends them to clients. This
module imports nothing else from the project so that `tools/` can depend on it without depending
on the domain.
"""

from __future__ import annotations

import html
import re
import unicodedata
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


def utcnow() -> datetime:
    return datetime.now(UTC)


class Model(BaseModel):
    """Base for every model: unknown keys are rejected so typos in stored files surface."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


_FIELD_SETS: dict[frozenset[str], set[str]] = {}


class RecordModel(Model):
    """A model a Run builds tens of thousands of times (a record and its parts).

    pydantic keeps, per instance, the set of fields given at construction (`model_fields_set`): a set
    object of 0.2-2 KB for every record, author, affiliation and MeSH heading. Instances with the same
    set share one here, and an instance gets its own copy before an assignment would change it, so
    `model_fields_set` means what it always did. The peak memory of a 3 x 10,000-record Run
    (`evals.bench_run --per-source 10000`) went from 1,193 to 905 MB.
    """

    def model_post_init(self, context: Any, /) -> None:
        fields = self.__pydantic_fields_set__
        shared = _FIELD_SETS.setdefault(frozenset(fields), fields)
        if shared is not fields:
            object.__setattr__(self, "__pydantic_fields_set__", shared)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self.__pydantic_fields_set__ and name in type(self).model_fields:
            object.__setattr__(self, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        super().__setattr__(name, value)


# ----------------------------------------------------------------------------------------------
# Identifiers
# ----------------------------------------------------------------------------------------------

# Compiled once: these run for every record of a Run (tens of thousands), where `re.sub(pattern, ...)`
# would look each pattern up in re's cache on every call.
_DOI_PREFIXES = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*|doi\.org/)", re.IGNORECASE)
_DOI_SHAPE = re.compile(r"^10\.\d{4,9}/\S+$")
_ESCAPED_SLASH = re.compile(r"%2F", re.IGNORECASE)
_PUBMED_URL = re.compile(r"^https?://pubmed\.ncbi\.nlm\.nih\.gov/")
_PMCID_SHAPE = re.compile(r"PMC\d+")
_MARKUP = re.compile(r"<[^>]+>")
_NOT_WORD = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")
_ORCID = re.compile(r"(\d{4}-\d{4}-\d{4}-\d{3}[\dXx])")


def normalize_doi(value: str | None) -> str | None:
    """Canonical DOI: lower-case, no resolver prefix, no trailing punctuation, HTML/URL escapes undone.

    DOIs are case-insensitive by definition (Semantic Scholar keeps the registrant's case,
    OpenAlex lower-cases and adds the resolver URL), so lower-casing is what makes them joinable.
    Returns None for anything that is not shaped like a DOI.
    """
    if not value:
        return None
    text = html.unescape(str(value)).strip()
    text = _DOI_PREFIXES.sub("", text)
    text = _ESCAPED_SLASH.sub("/", text)
    text = text.strip().rstrip(".,;:)]}>'\"").strip().lower()
    return text if _DOI_SHAPE.match(text) else None


def normalize_pmid(value: str | int | None) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    text = _PUBMED_URL.sub("", text).strip("/")
    return text if text.isdigit() else None


def normalize_pmcid(value: str | None) -> str | None:
    if not value:
        return None
    text = str(value).strip().rstrip("/").rsplit("/", 1)[-1].upper()
    if text.isdigit():
        text = f"PMC{text}"
    return text if _PMCID_SHAPE.fullmatch(text) else None


def normalize_title(value: str | None) -> str:
    """Title key for fuzzy matching: NFKC, lower-case, letters and digits only, single spaces."""
    if not value:
        return ""
    text = unicodedata.normalize("NFKC", html.unescape(value)).lower()
    text = _MARKUP.sub(" ", text)
    text = _NOT_WORD.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


# ----------------------------------------------------------------------------------------------
# Sources
# ----------------------------------------------------------------------------------------------


class Source(StrEnum):
    """The literature databases a Run searches."""

    PUBMED = "pubmed"
    SEMANTIC_SCHOLAR = "semantic_scholar"
    OPENALEX = "openalex"

    @property
    def label(self) -> str:
        """The database's own name, as people write it."""
        return _SOURCE_LABELS[self]


_SOURCE_LABELS = {
    Source.PUBMED: "PubMed",
    Source.SEMANTIC_SCHOLAR: "Semantic Scholar",
    Source.OPENALEX: "OpenAlex",
}
SEARCH_SOURCES: tuple[Source, ...] = tuple(Source)


class ErrorKind(StrEnum):
    UNAVAILABLE = "unavailable"
    RATE_LIMITED = "rate_limited"
    BAD_RESPONSE = "bad_response"
    NOT_FOUND = "not_found"
    TIMEOUT = "timeout"
    BAD_QUERY = "bad_query"
    CANCELLED = "cancelled"
    INTERNAL = "internal"


class SourceError(Model):
    """A failure of one outside service, recorded in the Run and shown to the user."""

    source: str
    kind: ErrorKind
    message: str
    at: datetime = Field(default_factory=utcnow)


# ----------------------------------------------------------------------------------------------
# Understanding: the eight slots
# ----------------------------------------------------------------------------------------------

SLOT_NAMES: tuple[str, ...] = (
    "research_goal",
    "task",
    "method_measurement",
    "method_algorithm",
    "subject_population",
    "signal_feature",
    "output_target",
    "context",
)
LIST_SLOT_NAMES: tuple[str, ...] = SLOT_NAMES[1:]


def _clean_phrase(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"\s+", " ", text).strip(" \t\n,;.")


class Slots(Model):
    """The fixed semantic slots of a research description (requirements 4.1.2)."""

    model_config = ConfigDict(extra="ignore")  # an LLM may add keys; they are dropped, not fatal

    research_goal: str = ""
    task: list[str] = Field(default_factory=list)
    method_measurement: list[str] = Field(default_factory=list)
    method_algorithm: list[str] = Field(default_factory=list)
    subject_population: list[str] = Field(default_factory=list)
    signal_feature: list[str] = Field(default_factory=list)
    output_target: list[str] = Field(default_factory=list)
    context: list[str] = Field(default_factory=list)

    @field_validator("research_goal", mode="before")
    @classmethod
    def _goal(cls, value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, list):
            value = "; ".join(str(v) for v in value if v)
        return _clean_phrase(str(value))

    @field_validator(*LIST_SLOT_NAMES, mode="before")
    @classmethod
    def _phrases(cls, value: Any) -> list[str]:
        """Accept a string or list, trim, drop empties and case-insensitive duplicates, keep order."""
        if value is None:
            return []
        items = [value] if isinstance(value, str) else list(value)
        seen: set[str] = set()
        out: list[str] = []
        for item in items:
            phrase = _clean_phrase(str(item)) if item is not None else ""
            if phrase and phrase.casefold() not in seen:
                seen.add(phrase.casefold())
                out.append(phrase)
        return out

    def filled(self) -> list[str]:
        return [name for name in SLOT_NAMES if getattr(self, name)]

    def empty(self) -> list[str]:
        return [name for name in SLOT_NAMES if not getattr(self, name)]


class Produced(StrEnum):
    """Who produced a piece of understanding: a real LLM, the scripted test LLM, or the rules fallback."""

    LLM = "llm"
    SCRIPTED = "scripted"
    RULES = "rules"


class ClarifyingQuestion(Model):
    slot: str
    question: str
    options: list[str] = Field(default_factory=list)

    @field_validator("slot")
    @classmethod
    def _known_slot(cls, value: str) -> str:
        if value not in SLOT_NAMES:
            raise ValueError(f"unknown slot {value!r}; expected one of {', '.join(SLOT_NAMES)}")
        return value


MAX_QUESTIONS_PER_ROUND = 3


class Understanding(Model):
    """What the system understood of a description, its doubts, and what it asks next."""

    description: str
    slots: Slots
    summary: str = ""
    uncertainties: list[str] = Field(default_factory=list)
    questions: list[ClarifyingQuestion] = Field(default_factory=list, max_length=MAX_QUESTIONS_PER_ROUND)
    round: int = 1
    ready: bool = False
    produced_by: Produced = Produced.LLM
    notes: list[str] = Field(default_factory=list)
    # English slot phrase -> the Chinese written; left out of the JSON when there is none
    originals: dict[str, str] = Field(default_factory=dict, exclude_if=lambda value: not value)


# ----------------------------------------------------------------------------------------------
# Keywords: canonical terms and their synonyms
# ----------------------------------------------------------------------------------------------


class SynonymOrigin(StrEnum):
    MESH = "mesh"
    OPENALEX = "openalex"
    WIKIDATA = "wikidata"
    WIKIPEDIA = "wikipedia"
    LLM = "llm"
    MORPHOLOGY = "morphology"
    USER = "user"


class Synonym(Model):
    text: str
    origins: list[SynonymOrigin] = Field(default_factory=list)
    # hit counts per database ("pubmed", "openalex", ...); None = not checked or the check failed
    hits: dict[str, int | None] = Field(default_factory=dict)
    kept: bool = True
    reason: str = ""  # why it was dropped, when kept is False


class MeshDescriptor(Model):
    ui: str  # "D006973"
    heading: str
    entry_terms: list[str] = Field(default_factory=list)
    tree_numbers: list[str] = Field(default_factory=list)
    scope_note: str = ""


class Term(Model):
    """A canonical English term for one slot, with its validated synonyms.

    `concept` names the `Concept` (query block) the term belongs to; terms of one concept are OR'ed.
    `original` keeps the words the user wrote when they were not English (the Chinese beside the term).
    """

    canonical: str
    slot: str
    synonyms: list[Synonym] = Field(default_factory=list)
    mesh: MeshDescriptor | None = None
    hits: dict[str, int | None] = Field(default_factory=dict)
    concept: str = ""
    original: str = ""
    # ancestors of `mesh` that the text names inside the term ("tuberculosis" in "pulmonary
    # tuberculosis"): searched unexploded ([Mesh:NoExp]) beside it, for papers indexed only that generally
    broader: list[MeshDescriptor] = Field(default_factory=list)

    def kept_synonyms(self) -> list[Synonym]:
        return [s for s in self.synonyms if s.kept]


class Facet(Model):
    """One slot as a block of a Boolean query: its terms are OR'd, facets are AND'ed."""

    slot: str
    enabled: bool = True
    required: bool = True  # False: the facet only adds recall and is not AND'ed in


class ConceptRole(StrEnum):
    """What a concept is to the search, which decides whether it is AND'ed (see agent/keywords/concepts.py)."""

    CONDITION = "condition"  # a disease, disorder or pathogen
    INTERVENTION = "intervention"  # a drug, substance, exposure or treatment
    METHOD = "method"  # a technique, test, device or task
    ALGORITHM = "algorithm"  # an analysis method or model the user applies (it narrows)
    POPULATION = "population"  # people or organisms studied
    OUTCOME = "outcome"  # a process, function or behaviour measured
    ANATOMY = "anatomy"  # a body part, tissue or fluid
    SETTING = "setting"  # a place, care setting or context


class Concept(Model):
    """One block of a Boolean query: its terms are OR'ed; required concepts are AND'ed."""

    id: str
    label: str
    role: ConceptRole = ConceptRole.METHOD
    required: bool = True
    enabled: bool = True
    reason: str = ""  # why it is required or optional, in words a user reads


class StudyFilter(Model):
    """Words of the description that say which *kind* of study is wanted (not a concept to AND).

    Off by default; switched on in the review (`set_study_filter`), it is AND'ed into every query: in
    PubMed as the heading MeSH files the design under (a publication type, `[pt]`, or a study design,
    `[Mesh]`) OR the words, elsewhere as the words."""

    text: str
    enabled: bool = False  # the user may switch it on in the review
    heading: str = ""  # the MeSH heading of the whole phrase, when MeSH names the design
    publication_type: bool = False  # the heading is a publication type (searched as [pt])
    # a limit on the publication years instead ("published since 2010"): the first and last year kept
    first_year: int | None = None
    last_year: int | None = None

    @property
    def limits_years(self) -> bool:
        return self.first_year is not None or self.last_year is not None


class BlockCount(Model):
    """Hits of one concept block, and of the query, in one database (execution-checked queries)."""

    concept: str  # a concept id, or "" for the whole query
    source: str
    hits: int | None = None
    note: str = ""


class KeywordPlan(Model):
    terms: list[Term] = Field(default_factory=list)
    # plans written before concepts existed have facets (one block per slot); new plans have concepts
    facets: list[Facet] = Field(default_factory=list)
    concepts: list[Concept] = Field(default_factory=list)
    study_filters: list[StudyFilter] = Field(default_factory=list)
    source_errors: list[SourceError] = Field(default_factory=list)
    produced_by: Produced = Produced.LLM
    notes: list[str] = Field(default_factory=list)
    # Semantic Scholar fieldsOfStudy the research implies ("Medicine", "Computer Science"); empty = no filter
    fields_of_study: list[str] = Field(default_factory=list)

    def terms_for(self, slot: str) -> list[Term]:
        return [t for t in self.terms if t.slot == slot]

    def terms_of(self, concept_id: str) -> list[Term]:
        return [t for t in self.terms if t.concept == concept_id]

    def concept(self, concept_id: str) -> Concept | None:
        return next((c for c in self.concepts if c.id == concept_id), None)


class SourceQuery(Model):
    """One reproducible query for one database: the query text and every parameter sent."""

    source: Source
    query: str
    params: dict[str, Any] = Field(default_factory=dict)
    url: str = ""  # a human-readable URL reproducing the search, when the service has one


class QueryPlan(Model):
    queries: dict[Source, SourceQuery] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    counts: list[BlockCount] = Field(default_factory=list)  # per concept block and query, when checked


# ----------------------------------------------------------------------------------------------
# Papers
# ----------------------------------------------------------------------------------------------


class Affiliation(RecordModel):
    raw: str = ""
    institution: str | None = None
    ror: str | None = None
    openalex_id: str | None = None
    country_code: str | None = None
    city: str | None = None
    region: str | None = None
    latitude: float | None = None
    longitude: float | None = None


class Author(RecordModel):
    name: str
    given: str | None = None
    family: str | None = None
    position: int = Field(1, ge=1)  # 1-based order in the byline
    is_last: bool = False
    corresponding: bool = False
    collective: bool = False  # a group author ("The XYZ Consortium")
    orcid: str | None = None
    affiliations: list[Affiliation] = Field(default_factory=list)
    openalex_id: str | None = None
    semantic_scholar_id: str | None = None

    @field_validator("orcid", mode="before")
    @classmethod
    def _orcid(cls, value: Any) -> str | None:
        if not value:
            return None
        match = _ORCID.search(str(value))
        return match.group(1).upper() if match else None


class MeshHeading(RecordModel):
    descriptor: str
    ui: str | None = None
    major: bool = False
    qualifiers: list[str] = Field(default_factory=list)


class AbstractSection(RecordModel):
    label: str | None = None
    text: str


class Paper(RecordModel):
    """One record from one source, mapped into a common shape (the source's own ids are kept)."""

    title: str = ""
    vernacular_title: str | None = None
    authors: list[Author] = Field(default_factory=list)
    year: int | None = None
    publication_date: str | None = None
    venue: str | None = None
    doi: str | None = None
    pmid: str | None = None
    pmcid: str | None = None
    semantic_scholar_id: str | None = None
    openalex_id: str | None = None
    arxiv_id: str | None = None
    abstract: str | None = None
    abstract_sections: list[AbstractSection] = Field(default_factory=list)
    mesh_headings: list[MeshHeading] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    publication_types: list[str] = Field(default_factory=list)
    fields_of_study: list[str] = Field(default_factory=list)
    languages: list[str] = Field(default_factory=list)
    citation_count: int | None = None
    oa_url: str | None = None
    is_book: bool = False
    source: Source | None = None
    source_rank: int | None = None  # 1-based rank in that source's result list

    @field_validator("doi", mode="before")
    @classmethod
    def _doi(cls, value: Any) -> str | None:
        return normalize_doi(value)

    @field_validator("pmid", mode="before")
    @classmethod
    def _pmid(cls, value: Any) -> str | None:
        return normalize_pmid(value)

    @field_validator("pmcid", mode="before")
    @classmethod
    def _pmcid(cls, value: Any) -> str | None:
        return normalize_pmcid(value)

    @model_validator(mode="after")
    def _mark_last_author(self) -> Paper:
        authors = self.authors
        # the last author is mostly marked already (a merged paper's byline comes from a record)
        if len(authors) > 1 and not authors[-1].is_last and not any(a.is_last for a in authors):
            authors[-1].is_last = True
        return self

    def source_id(self) -> str | None:
        return getattr(self, _SOURCE_ID_FIELDS[self.source]) if self.source else None


# The field holding a record's id at its own source (`Paper.source_id`).
_SOURCE_ID_FIELDS = {
    Source.PUBMED: "pmid",
    Source.SEMANTIC_SCHOLAR: "semantic_scholar_id",
    Source.OPENALEX: "openalex_id",
}


class CitationPath(Model):
    """How citation snowballing reached a paper: which paper of the Run it is linked to, and how.

    `relation` is what the found paper is to `linked`: `cited_by` (it is in the references of `linked`:
    backward) or `cites` (it cites `linked`: forward). `depth` is the snowball round (1 = linked to a seed).
    """

    relation: Literal["cites", "cited_by"]
    linked: str  # the linked paper's id at this source (OpenAlex "W…", a Semantic Scholar paperId)
    linked_key: str | None = None  # the linked paper's key in the Run, when it is one of its papers
    depth: int = Field(1, ge=1)

    def describe(self) -> str:
        return f"{self.relation.replace('_', ' ')} {self.linked} (depth {self.depth})"


class SourceEvidence(RecordModel):
    """That one source found a paper: its id there, its rank, and the query that found it.

    Papers reached by citation snowballing have no rank and carry the `via` path; the field is left
    out of the JSON when empty, so Runs without snowballing are written exactly as before.
    """

    source: Source
    source_id: str | None = None
    rank: int | None = None
    title: str = ""
    doi: str | None = None
    via: CitationPath | None = Field(None, exclude_if=lambda value: value is None)


class ScoreBreakdown(Model):
    """Every component of a merged paper's score, so a ranking can be explained and re-weighted."""

    source_weight: float = 0.0
    rrf: float = 0.0
    agreement: float = 0.0
    recency: float = 0.0
    citations: float = 0.0
    semantic: float = 0.0
    llm_relevance: float | None = None
    total: float = 0.0


class AggregatedPaper(Model):
    """A paper merged across sources, with the evidence for it and where each field came from."""

    key: str  # "doi:10.x/y", "pmid:123", or "title:<hash>" — stable within a Run
    paper: Paper
    evidence: list[SourceEvidence] = Field(default_factory=list)
    field_sources: dict[str, Source] = Field(default_factory=dict)
    score: ScoreBreakdown = Field(default_factory=ScoreBreakdown)
    rank: int | None = None
    merged_by: list[str] = Field(default_factory=list)  # "doi", "pmid", "pmcid", "title"
    # keys of other papers in the same Run that are versions of this work (preprint <-> journal
    # article): separate works with their own DOIs, linked rather than merged (see agent/search/merge.py)
    related: list[str] = Field(default_factory=list)
    # how the Run found it: its queries, citation snowballing (agent/search/snowball.py), or both; "query" is
    # left out of the JSON, so Runs without snowballing are written exactly as before
    origin: Literal["query", "snowball", "both"] = Field("query", exclude_if=lambda value: value == "query")

    @property
    def sources(self) -> list[Source]:
        return sorted({e.source for e in self.evidence}, key=list(Source).index)


# ----------------------------------------------------------------------------------------------
# Projects and Runs
# ----------------------------------------------------------------------------------------------


class RunStatus(StrEnum):
    COMPLETED = "completed"  # every enabled source answered
    PARTIAL = "partial"  # some sources failed, the rest are in the Run
    FAILED = "failed"  # every source failed; the Run is kept so the errors can be seen


class RunTimings(Model):
    started_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
    seconds: dict[str, float] = Field(default_factory=dict)  # per step / per source


class SnowballRound(Model):
    """One round of citation snowballing: what it looked at, what it kept, and the saturation figure."""

    depth: int
    seeds: int  # papers whose references and citations were followed
    candidates: int  # distinct papers linked to them
    relevant: int  # of those, the ones the relevance screen passed (found before or not)
    new_relevant: int  # relevant ones neither in the Run nor found in an earlier round
    kept: int  # new relevant papers fetched in full and added
    requests: int
    requests_by_source: dict[str, int] = Field(default_factory=dict)
    seconds: float = 0.0  # the whole round
    seconds_linking: float = 0.0  # reading the links, before the relevant ones are fetched in full
    new_share: float | None = None  # new_relevant / relevant: near 0 means the search has saturated
    errors: list[SourceError] = Field(default_factory=list)


class SnowballReport(Model):
    """Citation snowballing of a Run (issue 22): its limits, its rounds, and why it stopped."""

    depth: int
    budget: int  # requests allowed to the sources
    threshold: float  # stop when a round's new_share falls below this
    seeds: list[str] = Field(default_factory=list)  # Run keys (or named ids) of the seeds
    notes: list[str] = Field(default_factory=list)  # seeds skipped and why, screening remarks
    rounds: list[SnowballRound] = Field(default_factory=list)
    candidates_seen: int = 0
    kept: int = 0
    requests: int = 0
    estimate: float | None = None  # the last round's new_share
    stopped: Literal["saturated", "depth", "budget", "no_seeds", "no_candidates"] = "depth"
    message: str = ""  # "search saturated after 2 rounds", "stopped at the budget", ...


class Project(Model):
    id: str
    name: str = ""
    description: str = ""
    created_at: datetime = Field(default_factory=utcnow)
    chosen_run_id: str | None = None  # the Run used for Phase 2 (the academic map)


class Run(Model):
    id: str
    project_id: str
    created_at: datetime = Field(default_factory=utcnow)
    status: RunStatus = RunStatus.COMPLETED
    description: str = ""
    sources: list[Source] = Field(default_factory=list)
    counts: dict[str, int] = Field(default_factory=dict)  # per source, plus "aggregated"
    totals: dict[str, int | None] = Field(default_factory=dict)  # hits each database reported
    timings: RunTimings = Field(default_factory=RunTimings)
    errors: list[SourceError] = Field(default_factory=list)
    # non-fatal remarks, "<source>: <text>" (a cap reached, records PubMed did not return, a ranking note)
    warnings: list[str] = Field(default_factory=list)
    thread_id: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)  # the non-secret knobs the Run used
    # citation snowballing, when the Run was asked for it; absent from run.json otherwise
    snowball: SnowballReport | None = Field(None, exclude_if=lambda value: value is None)


class RunData(Model):
    """Everything a Run folder holds, loaded."""

    run: Run
    understanding: Understanding | None = None
    keywords: KeywordPlan | None = None
    queries: QueryPlan | None = None
    results: dict[Source, list[Paper]] = Field(default_factory=dict)
    aggregated: list[AggregatedPaper] = Field(default_factory=list)


# ----------------------------------------------------------------------------------------------
# Academic map
# ----------------------------------------------------------------------------------------------


class Institution(Model):
    id: str  # ROR id when known, else a stable slug of the normalised name
    name: str
    ror: str | None = None
    aliases: list[str] = Field(default_factory=list)
    country_code: str | None = None
    country: str | None = None
    city: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    coordinates_from: Literal["ror", "openalex", "geocoder", "city_centroid", "none"] = "none"
    paper_keys: list[str] = Field(default_factory=list)


class Researcher(Model):
    id: str
    name: str
    institution_id: str | None = None
    orcid: str | None = None
    openalex_id: str | None = None
    paper_keys: list[str] = Field(default_factory=list)
    last_author_count: int = 0
    first_author_count: int = 0
    corresponding_count: int = 0
    is_pi: bool = False
    pi_confidence: float = Field(0.0, ge=0.0, le=1.0)
    pi_reasons: list[str] = Field(default_factory=list)
    first_year_in_run: int | None = None
    first_year_overall: int | None = None  # from OpenAlex author records, when fetched
    career_years: int | None = None
    summary: str = ""
    summary_produced_by: Produced = Produced.RULES
