"""OpenAlex: works search with cursor paging, single works, institutions, and vocabulary lookups.

Every request goes through the shared `HttpPolicy` (rate limit, retries, cache, typed errors); paths
here are relative to the policy's base URL (`https://api.openalex.org` by default). Works are mapped
into `agent.models.Paper` keeping OpenAlex's own short ids (`W…`, `A…`, `I…`).

Shapes and quirks (see the shared fixtures' API_NOTES.md):
- list responses are `{"meta": {count, next_cursor, …}, "results": […]}`; `group_by=` answers have no
  `results` at all, which for a works search is a malformed answer, not an empty one;
- cursor paging starts at `cursor=*` and ends when `next_cursor` is null or `results` is empty;
- a 404 for an unknown DOI is an HTML page, which the policy turns into `NotFound` without parsing it;
- `title` can be null, `abstract_inverted_index` can be null, `primary_location.source` can be null.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field

from agent.models import Affiliation, Author, Institution, MeshHeading, Paper, Source, normalize_doi
from tools.base import PageCallback, PageProgress, SearchClient, SearchOutcome, report
from tools.errors import BadQuery, BadResponse, EmptyQuery
from tools.http import HttpPolicy
from tools.values import unique_strings

SERVICE = "openalex"
MAX_PER_PAGE = 200  # OpenAlex's ceiling for per_page
BASIC_PAGING_LIMIT = 10_000  # OpenAlex serves numbered pages up to this many results; cursors beyond
MAX_PAGES = 500  # a safety stop: 500 × 200 = 100,000 works, far beyond any Run

# Root-level work fields the mapping reads; `select=` keeps pages small (a full work is ~20 KB).
DEFAULT_SELECT: tuple[str, ...] = (
    "id",
    "doi",
    "title",
    "display_name",
    "publication_year",
    "publication_date",
    "ids",
    "language",
    "type",
    "primary_location",
    "open_access",
    "authorships",
    "cited_by_count",
    "abstract_inverted_index",
    "keywords",
    "concepts",
    "topics",
    "primary_topic",
    "mesh",
)

# What citation snowballing reads of a linked work before deciding to fetch it whole (agent/search/snowball.py):
# enough to screen it (title, abstract), to know it (ids) and to follow it (referenced_works).
CITATION_SELECT: tuple[str, ...] = (
    "id",
    "doi",
    "title",
    "display_name",
    "publication_year",
    "ids",
    "cited_by_count",
    "abstract_inverted_index",
    "referenced_works",
)
ID_BATCH = 50  # ids OR'ed in one filter (`openalex_id:W1|W2|…`, `cites:W1|…`); OpenAlex allows up to 100

BOOK_TYPES = frozenset({"book", "book-chapter", "monograph", "edited-book", "reference-book"})

_SHORT_ID = re.compile(r"^(?:https?://openalex\.org/)?([WAISCTPF]\d+)$", re.IGNORECASE)
_ROR_ID = re.compile(r"^(?:https?://ror\.org/)?(0[a-z0-9]{6}\d{2})$", re.IGNORECASE)


# ----------------------------------------------------------------------------------------------
# Small models of OpenAlex entities that have no place in the shared vocabulary
# ----------------------------------------------------------------------------------------------


class OpenAlexInstitution(BaseModel):
    """An OpenAlex institution with its ROR id and geography (`geo`)."""

    model_config = ConfigDict(extra="forbid")

    id: str  # short OpenAlex id, "I27837315"
    display_name: str
    ror: str | None = None  # full ROR URL, as OpenAlex and ROR spell it
    type: str | None = None
    country_code: str | None = None
    country: str | None = None
    city: str | None = None
    region: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    aliases: list[str] = Field(default_factory=list)  # acronyms and alternative (other-language) names
    works_count: int | None = None

    def to_institution(self) -> Institution:
        """The shared `Institution` of the academic map (keyed by ROR when known)."""
        return Institution(
            id=self.ror or self.id,
            name=self.display_name,
            ror=self.ror,
            aliases=self.aliases,
            country_code=self.country_code,
            country=self.country,
            city=self.city,
            latitude=self.latitude,
            longitude=self.longitude,
            coordinates_from="openalex" if self.latitude is not None else "none",
        )


VocabularyKind = Literal["concept", "topic", "keyword"]


class VocabularyEntry(BaseModel):
    """A concept, topic or keyword of OpenAlex, as a source of canonical names and synonyms."""

    model_config = ConfigDict(extra="forbid")

    id: str  # "C71924100", "T11636", "keywords/cardiac-imaging"
    name: str
    kind: VocabularyKind
    # other names for the *same* thing: alternatives and the entity's names in the asked languages
    synonyms: list[str] = Field(default_factory=list)
    # neighbouring terms that are not synonyms (a topic's keywords, a concept's related concepts);
    # kept apart so that nobody ORs them into a query as if they meant the same
    related: list[str] = Field(default_factory=list)
    description: str | None = None
    works_count: int | None = None
    wikidata: str | None = None  # "Q11190", so Wikidata aliases can be fetched for the same entity
    level: int | None = None  # concepts only: 0 = broadest


class OpenAlexBudget(BaseModel):
    """The usage budget `GET /rate-limit` reports for an API key (OpenAlex's 2026 usage scheme).

    The key itself, which the service echoes in the body, is deliberately not kept.
    """

    model_config = ConfigDict(extra="ignore")

    daily_budget_usd: float | None = None
    daily_used_usd: float | None = None
    daily_remaining_usd: float | None = None
    prepaid_balance_usd: float | None = None
    prepaid_remaining_usd: float | None = None
    resets_at: str | None = None
    resets_in_seconds: float | None = None
    endpoint_costs_usd: dict[str, float] = Field(default_factory=dict)

    @property
    def exhausted(self) -> bool:
        """True when neither the daily budget nor a prepaid balance is left: list/search calls will fail."""
        daily = self.daily_remaining_usd
        prepaid = self.prepaid_remaining_usd
        return daily is not None and daily <= 0 and (prepaid is None or prepaid <= 0)


@dataclasses.dataclass(frozen=True)
class LinkedWork:
    """A work met by following citations: the mapped paper and the short ids of the works it cites
    (empty unless `referenced_works` was selected)."""

    paper: Paper
    referenced: tuple[str, ...] = ()


@dataclasses.dataclass
class LinkedWorks:
    """Works from a citation lookup, and how many requests the lookup sent (for a request budget)."""

    works: list[LinkedWork] = dataclasses.field(default_factory=list)
    requests: int = 0


# ----------------------------------------------------------------------------------------------
# Mapping
# ----------------------------------------------------------------------------------------------


def short_id(value: Any) -> str | None:
    """ "https://openalex.org/W123" → "W123"; None and other shapes → None or the text unchanged."""
    if not value:
        return None
    text = str(value).strip()
    match = _SHORT_ID.match(text)
    if match:
        return match.group(1).upper()
    return text.removeprefix("https://openalex.org/")


def rebuild_abstract(inverted: dict[str, list[int]] | None) -> str | None:
    """Rebuild the abstract text from OpenAlex's `{"word": [positions]}` index.

    OpenAlex may not redistribute abstracts verbatim, so it ships an inverted index; putting each
    word back at its positions restores the word order (punctuation stays attached to words).
    """
    if not inverted:
        return None
    placed: dict[int, str] = {}
    for word, positions in inverted.items():
        for position in positions or ():
            if isinstance(position, int) and position >= 0:
                placed[position] = word
    if not placed:
        return None
    text = " ".join(placed[i] for i in sorted(placed))
    return text.strip() or None


def _institution_affiliation(inst: dict[str, Any], raw: str) -> Affiliation:
    return Affiliation(
        raw=raw,
        institution=inst.get("display_name") or None,
        ror=inst.get("ror") or None,
        openalex_id=short_id(inst.get("id")),
        country_code=inst.get("country_code") or None,
    )


def _affiliations(authorship: dict[str, Any]) -> list[Affiliation]:
    """Every affiliation of one authorship: raw strings paired with the institutions they name.

    OpenAlex links them in `affiliations[]{raw_affiliation_string, institution_ids}`; a raw string
    naming two institutions yields one `Affiliation` per institution (same raw text), a raw string
    OpenAlex could not match yields a raw-only one, and an institution no raw string names (or, in
    older records without `affiliations`, every institution) yields one with an empty raw text.
    """
    institutions = [i for i in authorship.get("institutions") or [] if isinstance(i, dict)]
    by_id = {short_id(i.get("id")): i for i in institutions if i.get("id")}
    countries = [c for c in authorship.get("countries") or [] if c]
    only_country = countries[0] if len(countries) == 1 else None

    links = authorship.get("affiliations")
    if not isinstance(links, list):  # older records: raw strings and institutions are not linked
        links = [
            {"raw_affiliation_string": r, "institution_ids": []}
            for r in authorship.get("raw_affiliation_strings") or []
        ]

    out: list[Affiliation] = []
    used: set[str | None] = set()
    for link in links:
        raw = (link.get("raw_affiliation_string") or "").strip() if isinstance(link, dict) else ""
        ids = [short_id(i) for i in (link.get("institution_ids") or [])] if isinstance(link, dict) else []
        matched = [by_id[i] for i in ids if i in by_id]
        if matched:
            for inst in matched:
                used.add(short_id(inst.get("id")))
                out.append(_institution_affiliation(inst, raw))
        elif raw:
            out.append(Affiliation(raw=raw, country_code=only_country))
    for inst in institutions:
        if short_id(inst.get("id")) not in used:
            out.append(_institution_affiliation(inst, ""))
    if not out:
        # countries with no institution or raw string behind them are still evidence for the map
        out = [Affiliation(country_code=c) for c in countries]
    return out


def _author(authorship: dict[str, Any], index: int) -> Author | None:
    person = authorship.get("author") or {}
    name = (person.get("display_name") or authorship.get("raw_author_name") or "").strip()
    if not name:
        return None
    return Author(
        name=name,
        position=index,
        is_last=authorship.get("author_position") == "last",
        corresponding=bool(authorship.get("is_corresponding")),
        orcid=person.get("orcid"),
        openalex_id=short_id(person.get("id")),
        affiliations=_affiliations(authorship),
    )


def _mesh(entries: Iterable[dict[str, Any]]) -> list[MeshHeading]:
    """OpenAlex lists one row per descriptor/qualifier pair; fold them into one heading each."""
    headings: dict[str, MeshHeading] = {}
    for entry in entries:
        name = entry.get("descriptor_name")
        if not name:
            continue
        key = entry.get("descriptor_ui") or name
        heading = headings.get(key)
        if heading is None:
            heading = headings[key] = MeshHeading(descriptor=name, ui=entry.get("descriptor_ui"))
        heading.major = heading.major or bool(entry.get("is_major_topic"))
        qualifier = entry.get("qualifier_name")
        if qualifier and qualifier not in heading.qualifiers:
            heading.qualifiers.append(qualifier)
    return list(headings.values())


def work_to_paper(work: dict[str, Any], *, rank: int | None = None) -> Paper:
    """Map one OpenAlex work (full or `select=`-trimmed) into a `Paper`."""
    if not isinstance(work, dict):
        raise BadResponse(SERVICE, f"expected a work object, got {type(work).__name__}")
    ids = work.get("ids") or {}
    location = work.get("primary_location") or {}
    venue_source = location.get("source") or {}
    open_access = work.get("open_access") or {}
    authors = [a for i, auth in enumerate(work.get("authorships") or [], 1) if (a := _author(auth, i))]

    topics = [t for t in work.get("topics") or [] if isinstance(t, dict)]
    primary_topic = work.get("primary_topic") or (topics[0] if topics else None)
    concepts = [c for c in work.get("concepts") or [] if isinstance(c, dict)]
    keywords = unique_strings(
        [k.get("display_name") for k in work.get("keywords") or [] if isinstance(k, dict)]
        + [primary_topic.get("display_name") if primary_topic else None]
    )
    # Broad fields, comparable to Semantic Scholar's fieldsOfStudy: the topics' fields. Level-0
    # concepts only stand in for records without topics; OpenAlex deprecated concepts, and their
    # level-0 tags are noisy ("Political science" on a bibliometrics paper).
    fields = unique_strings([(t.get("field") or {}).get("display_name") for t in topics]) or unique_strings(
        [c.get("display_name") for c in concepts if c.get("level") == 0]
    )
    work_type = work.get("type")
    language = work.get("language")
    return Paper(
        title=(work.get("title") or work.get("display_name") or "").strip(),
        authors=authors,
        year=work.get("publication_year"),
        publication_date=work.get("publication_date"),
        venue=venue_source.get("display_name") or None,
        doi=work.get("doi") or ids.get("doi"),
        pmid=ids.get("pmid"),
        pmcid=ids.get("pmcid"),
        openalex_id=short_id(work.get("id") or ids.get("openalex")),
        abstract=rebuild_abstract(work.get("abstract_inverted_index")),
        mesh_headings=_mesh(m for m in work.get("mesh") or [] if isinstance(m, dict)),
        keywords=keywords,
        publication_types=unique_strings([work_type, work.get("type_crossref")]),
        fields_of_study=fields,
        languages=[language] if language else [],
        citation_count=work.get("cited_by_count"),
        oa_url=open_access.get("oa_url") or None,
        is_book=work_type in BOOK_TYPES,
        source=Source.OPENALEX,
        source_rank=rank,
    )


def institution_from_openalex(record: dict[str, Any]) -> OpenAlexInstitution:
    if not isinstance(record, dict) or not record.get("id") or not record.get("display_name"):
        raise BadResponse(SERVICE, "expected an institution object with id and display_name")
    geo = record.get("geo") or {}
    return OpenAlexInstitution(
        id=short_id(record["id"]) or record["id"],
        display_name=record["display_name"],
        ror=record.get("ror") or (record.get("ids") or {}).get("ror"),
        type=record.get("type"),
        country_code=geo.get("country_code") or record.get("country_code"),
        country=geo.get("country"),
        city=geo.get("city"),
        region=geo.get("region"),
        latitude=geo.get("latitude"),
        longitude=geo.get("longitude"),
        aliases=unique_strings(
            list(record.get("display_name_acronyms") or [])
            + list(record.get("display_name_alternatives") or []),
            exclude=[record["display_name"]],
        ),
        works_count=record.get("works_count"),
    )


def _language_names(international: dict[str, Any] | None, languages: Sequence[str]) -> list[str]:
    """Names from `international.display_name` whose language code is one of `languages` or a variant
    of it ("zh" also takes "zh-hans", "zh-cn", …), in the order the languages were asked."""
    names = (international or {}).get("display_name") or {}
    out: list[str] = []
    for language in languages:
        for code, name in names.items():
            if code == language or code.startswith(f"{language}-"):
                out.append(name)
    return out


def vocabulary_entry(
    record: dict[str, Any], kind: VocabularyKind, languages: Sequence[str] = ("en", "zh")
) -> VocabularyEntry:
    """Map a concept, topic or keyword record into a `VocabularyEntry`."""
    if not isinstance(record, dict) or not record.get("id") or not record.get("display_name"):
        raise BadResponse(SERVICE, f"expected a {kind} object with id and display_name")
    name = record["display_name"]
    synonyms = list(record.get("display_name_alternatives") or []) + _language_names(
        record.get("international"), languages
    )
    if kind == "topic":
        related = list(record.get("keywords") or [])
    else:
        related = [c.get("display_name") for c in record.get("related_concepts") or [] if isinstance(c, dict)]
    wikidata = record.get("wikidata") or (record.get("ids") or {}).get("wikidata")
    return VocabularyEntry(
        id=short_id(record["id"]) or record["id"],
        name=name,
        kind=kind,
        synonyms=unique_strings(synonyms, exclude=[name]),
        related=unique_strings(related, exclude=[name]),
        description=record.get("description"),
        works_count=record.get("works_count"),
        wikidata=str(wikidata).rsplit("/", 1)[-1] if wikidata else None,
        level=record.get("level"),
    )


# ----------------------------------------------------------------------------------------------
# Client
# ----------------------------------------------------------------------------------------------


def _work_path(doi_or_id: str) -> str:
    """The /works/… path for a DOI (any spelling), an OpenAlex id, or a `pmid:`/`pmcid:`/`mag:` id."""
    text = doi_or_id.strip()
    doi = normalize_doi(text)
    if doi:
        # the DOI resolver URL form is what OpenAlex documents; its slashes must be escaped in the path
        return f"works/https://doi.org/{quote(doi, safe=':')}"
    match = _SHORT_ID.match(text)
    if match and match.group(1).upper().startswith("W"):
        return f"works/{match.group(1).upper()}"
    prefix, _, rest = text.partition(":")
    if prefix.lower() in {"pmid", "pmcid", "mag"} and rest.strip():
        return f"works/{prefix.lower()}:{quote(rest.strip(), safe='')}"
    if not text:
        raise EmptyQuery(SERVICE)
    raise BadQuery(
        SERVICE, f"cannot look up {text[:80]!r}: give a DOI, an OpenAlex work id (W…) or pmid:/pmcid:"
    )


def _institution_path(id_or_ror: str) -> str:
    text = id_or_ror.strip()
    match = _SHORT_ID.match(text)
    if match and match.group(1).upper().startswith("I"):
        return f"institutions/{match.group(1).upper()}"
    ror = _ROR_ID.match(text)
    if ror:
        return f"institutions/ror:{ror.group(1).lower()}"
    if not text:
        raise EmptyQuery(SERVICE)
    raise BadQuery(SERVICE, f"cannot look up institution {text[:80]!r}: give an OpenAlex id (I…) or a ROR id")


class OpenAlexClient(SearchClient):
    """Typed access to OpenAlex through the shared HTTP policy.

    `mailto` puts requests in OpenAlex's polite pool; `api_key` (required by OpenAlex for list and
    search calls since 2026) is sent as the `api_key` parameter and registered as a secret, so it is
    scrubbed from every message and left out of cache keys.
    """

    service = SERVICE

    def __init__(self, http: HttpPolicy, *, mailto: str | None = None, api_key: str | None = None) -> None:
        params = dict(http.config.default_params)
        if mailto:
            params["mailto"] = mailto
        if api_key:
            params["api_key"] = api_key
        secrets = tuple(http.config.secrets) + ((api_key,) if api_key else ())
        # a copy, not an edit: the caller's SourceConfig may be shared with other clients
        http.config = dataclasses.replace(http.config, default_params=params, secrets=secrets)
        self.http = http

    # -- works -----------------------------------------------------------------------------------

    async def search(
        self,
        query: str,
        *,
        limit: int,
        on_page: PageCallback | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> SearchOutcome:
        """`SearchClient.search`: `search_works` with the plan's `search=` and/or `filter=` (e.g.
        `title_and_abstract.search:...`), else `query` as the `search=` text."""
        search, filter = _search_and_filter(query, params)
        return await self.search_works(search=search, filter=filter, limit=limit, on_page=on_page)

    async def search_works(
        self,
        *,
        search: str | None = None,
        filter: str | None = None,
        limit: int = 200,
        on_page: PageCallback | None = None,
        select: Sequence[str] | None = DEFAULT_SELECT,
        paging: Literal["auto", "cursor", "pages"] = "auto",
    ) -> SearchOutcome:
        """Works matching `search=` and/or `filter=`, in OpenAlex's order, up to `limit`.

        `auto` pages by number (concurrently) up to OpenAlex's 10,000-result window and by cursor beyond.
        """
        search, filter = _clean(search), _clean(filter)
        if not search and not filter:
            raise EmptyQuery(SERVICE)
        outcome = SearchOutcome(service=SERVICE, query=_describe(search, filter), total=None)
        if limit <= 0:
            return outcome
        params: dict[str, Any] = {"search": search, "filter": filter, "per_page": min(MAX_PER_PAGE, limit)}
        if select:
            params["select"] = ",".join(select)
        if paging == "pages" or (paging == "auto" and limit <= BASIC_PAGING_LIMIT):
            return await self._search_by_pages(params, limit, on_page, outcome)
        cursor: str | None = "*"
        seen: set[str] = set()
        while cursor and len(outcome.papers) < limit and outcome.pages < MAX_PAGES:
            seen.add(cursor)
            # search pages are not cached (a search must reflect the service now; cursors are one-off);
            # counts, single works and vocabulary lookups are
            body = await self.http.get_json("works", {**params, "cursor": cursor}, cache=False)
            meta, results = _list_parts(body, "works search")
            await outcome.add_page(
                results, work_to_paper, limit=limit, total=meta.get("count"), on_page=on_page
            )
            next_cursor = meta.get("next_cursor")
            if not results or not next_cursor or next_cursor in seen:
                break
            cursor = next_cursor
        return outcome

    async def _search_by_pages(
        self, params: dict[str, Any], limit: int, on_page: PageCallback | None, outcome: SearchOutcome
    ) -> SearchOutcome:
        """Numbered pages, all requested at once and put back in order.

        Cursor paging is strictly sequential, so every page pays the full round trip plus parsing of a
        ~2 MB body; with page numbers (allowed up to 10,000 results) the rate limiter, not latency, sets
        the pace. The pages a `limit` needs are asked for before the first answer tells the total: when
        fewer works match, the surplus pages come back empty and cheap, which costs less than waiting a
        round trip before asking for the rest.
        """
        per_page = params["per_page"]
        pages: dict[int, list[tuple[str, Paper]]] = {}
        fetched = 0

        async def fetch(number: int) -> None:
            nonlocal fetched
            if outcome.total is not None and (number - 1) * per_page >= min(limit, outcome.total):
                return  # the total is known by now and this page would be empty
            response = await self.http.request("GET", "works", params={**params, "page": number}, cache=False)
            # Parsing a 2 MB page takes tens of ms of pure Python; in a thread it no longer holds up the
            # event loop, so the next pages still leave when the rate limiter says.
            meta, pages[number] = await asyncio.to_thread(self._parse_page, response)
            if outcome.total is None and isinstance(meta.get("count"), int):
                outcome.total = meta["count"]
            outcome.pages += 1
            fetched += len(pages[number])
            await report(
                on_page,
                PageProgress(
                    SERVICE,
                    outcome.pages,
                    min(fetched, limit),
                    outcome.total,
                    tuple(paper for _, paper in pages[number]),
                    first_rank=(number - 1) * per_page + 1,
                ),
            )

        tasks = [asyncio.create_task(fetch(n)) for n in range(1, -(-limit // per_page) + 1)]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            raise
        seen: set[str] = set()
        for number in sorted(pages):
            for work_id, paper in pages[number]:
                if len(outcome.papers) >= limit:
                    break
                if work_id and work_id in seen:  # pages can shift under concurrent indexing
                    continue
                seen.add(work_id)
                paper.source_rank = len(outcome.papers) + 1
                outcome.papers.append(paper)
        return outcome

    def _parse_page(self, response: Any) -> tuple[dict[str, Any], list[tuple[str, Paper]]]:
        """One page of works, parsed and mapped (run in a worker thread)."""
        meta, results = _list_parts(self.http.parse_json(response), "works search")
        return meta, [(str(work.get("id") or ""), work_to_paper(work)) for work in results]

    async def count(
        self,
        query: str | None = None,
        *,
        params: Mapping[str, Any] | None = None,
        search: str | None = None,
        filter: str | None = None,
    ) -> int:
        """How many works match (meta.count), for hit-count validation; cached by the policy.

        `search=`/`filter=` directly, or a plan's `query` and `params` as `search` reads them."""
        if search is None and filter is None:
            search, filter = _search_and_filter(query or "", params)
        search, filter = _clean(search), _clean(filter)
        if not search and not filter:
            raise EmptyQuery(SERVICE)
        body = await self.http.get_json(
            "works", {"search": search, "filter": filter, "per_page": 1, "select": "id"}, cache=True
        )
        meta, _ = _list_parts(body, "works count")
        count = meta.get("count")
        if not isinstance(count, int):
            raise BadResponse(SERVICE, "the works count answer has no integer meta.count")
        return count

    async def fetch(self, ids: Sequence[str]) -> list[Paper]:
        """`SearchClient.fetch`: full records by OpenAlex id (W…), in the order given."""
        found = await self.works_by_ids(ids, select=DEFAULT_SELECT)
        order = {short_id(i): position for position, i in enumerate(ids)}
        papers = [work.paper for work in found.works]
        return sorted(papers, key=lambda paper: order.get(paper.openalex_id, len(order)))

    async def get_work(self, doi_or_id: str, *, select: Sequence[str] | None = None) -> Paper:
        """One work by DOI (any spelling), OpenAlex id (W…/URL) or `pmid:…`; `NotFound` if OpenAlex has none."""
        params = {"select": ",".join(select)} if select else None
        body = await self.http.get_json(_work_path(doi_or_id), params)
        return work_to_paper(body)

    # -- citations -------------------------------------------------------------------------------

    async def works_by_ids(
        self,
        ids: Sequence[str],
        *,
        kind: Literal["openalex", "doi", "pmid"] = "openalex",
        select: Sequence[str] = CITATION_SELECT,
    ) -> LinkedWorks:
        """Works by OpenAlex id (W…), DOI or PMID, `ID_BATCH` OR'ed in one `filter=` request.

        Ids OpenAlex does not know are simply absent from the answer. With `referenced_works` selected
        this is also how a work's references (backward citations) are read.
        """
        name = {"openalex": "openalex_id", "doi": "doi", "pmid": "pmid"}[kind]
        values = list(dict.fromkeys(_filter_value(kind, i) for i in ids if i and i.strip()))
        outcome = LinkedWorks()
        for chunk in _id_chunks(values):
            body = await self.http.get_json(
                "works",
                {"filter": f"{name}:{'|'.join(chunk)}", "per_page": MAX_PER_PAGE, "select": ",".join(select)},
            )
            outcome.requests += 1
            _, results = _list_parts(body, "works lookup")
            outcome.works.extend(_linked(work) for work in results)
        return outcome

    async def citing_works(
        self,
        ids: Sequence[str],
        *,
        select: Sequence[str] = CITATION_SELECT,
        limit: int = MAX_PER_PAGE,
        max_requests: int | None = None,
    ) -> LinkedWorks:
        """Works that cite any of `ids` (`filter=cites:W1|W2|…`, forward citations), cursor-paged.

        At most `limit` works per batch of `ID_BATCH` ids, and at most `max_requests` requests in all.
        Select `referenced_works` to tell which of `ids` each work cites.
        """
        values = list(dict.fromkeys(short_id(i) or i for i in ids if i and i.strip()))
        outcome = LinkedWorks()
        for chunk in _id_chunks(values):
            params = {"filter": f"cites:{'|'.join(chunk)}", "per_page": min(MAX_PER_PAGE, max(1, limit))}
            if select:
                params["select"] = ",".join(select)
            cursor: str | None = "*"
            seen: set[str] = set()
            taken = 0
            while cursor and taken < limit:
                if max_requests is not None and outcome.requests >= max_requests:
                    return outcome
                seen.add(cursor)
                body = await self.http.get_json("works", {**params, "cursor": cursor}, cache=False)
                outcome.requests += 1
                meta, results = _list_parts(body, "citing works")
                for work in results[: limit - taken]:
                    outcome.works.append(_linked(work))
                taken += len(results)
                next_cursor = meta.get("next_cursor")
                cursor = next_cursor if results and next_cursor and next_cursor not in seen else None
        return outcome

    # -- institutions and vocabulary -------------------------------------------------------------

    async def get_institution(self, id_or_ror: str) -> OpenAlexInstitution:
        """One institution by OpenAlex id (I…) or ROR id/URL, with its geography."""
        body = await self.http.get_json(_institution_path(id_or_ror))
        return institution_from_openalex(body)

    async def search_concepts(
        self, term: str, *, limit: int = 5, languages: Sequence[str] = ("en", "zh")
    ) -> list[VocabularyEntry]:
        return await self._search_vocabulary("concepts", "concept", term, limit, languages)

    async def search_topics(self, term: str, *, limit: int = 5) -> list[VocabularyEntry]:
        return await self._search_vocabulary("topics", "topic", term, limit, ())

    async def search_keywords(self, term: str, *, limit: int = 5) -> list[VocabularyEntry]:
        return await self._search_vocabulary("keywords", "keyword", term, limit, ())

    async def get_vocabulary_entry(
        self, entity_id: str, *, languages: Sequence[str] = ("en", "zh")
    ) -> VocabularyEntry:
        """One concept (C…), topic (T…) or keyword (`keywords/<slug>` or a bare slug) by id."""
        text = entity_id.strip().removeprefix("https://openalex.org/")
        if not text:
            raise EmptyQuery(SERVICE)
        match = _SHORT_ID.match(text)
        kind: VocabularyKind
        if match and match.group(1)[0].upper() == "C":
            path, kind = f"concepts/{match.group(1).upper()}", "concept"
        elif match and match.group(1)[0].upper() == "T":
            path, kind = f"topics/{match.group(1).upper()}", "topic"
        else:
            path, kind = f"keywords/{quote(text.removeprefix('keywords/'), safe='')}", "keyword"
        body = await self.http.get_json(path)
        return vocabulary_entry(body, kind, languages)

    async def rate_limit_status(self) -> OpenAlexBudget:
        """The API key's usage budget (`GET /rate-limit`); 401 → `SourceUnavailable` for a bad key."""
        body = await self.http.get_json("rate-limit", cache=False)
        if not isinstance(body, dict) or not isinstance(body.get("rate_limit"), dict):
            raise BadResponse(SERVICE, "the rate-limit answer has no rate_limit object")
        return OpenAlexBudget.model_validate(body["rate_limit"])

    async def _search_vocabulary(
        self, path: str, kind: VocabularyKind, term: str, limit: int, languages: Sequence[str]
    ) -> list[VocabularyEntry]:
        term = _clean(term) or ""
        if not term:
            raise EmptyQuery(SERVICE)
        body = await self.http.get_json(path, {"search": term, "per_page": max(1, min(limit, MAX_PER_PAGE))})
        _, results = _list_parts(body, f"{kind} search")
        return [vocabulary_entry(r, kind, languages) for r in results[:limit]]


def _filter_value(kind: str, identifier: str) -> str:
    text = identifier.strip()
    if kind == "doi":
        return normalize_doi(text) or text
    if kind == "pmid":
        return text.rsplit("/", 1)[-1].removeprefix("pmid:")
    return short_id(text) or text


def _id_chunks(values: list[str]) -> Iterable[list[str]]:
    for start in range(0, len(values), ID_BATCH):
        yield values[start : start + ID_BATCH]


def _linked(work: dict[str, Any]) -> LinkedWork:
    references = tuple(r for r in (short_id(w) for w in work.get("referenced_works") or []) if r)
    return LinkedWork(work_to_paper(work), references)


def _search_and_filter(query: str, params: Mapping[str, Any] | None) -> tuple[str | None, str | None]:
    """A plan's `search=` and `filter=` for OpenAlex; the query text as `search=` when it gives neither."""
    search, filter = (params or {}).get("search"), (params or {}).get("filter")
    if not search and not filter:
        search = query
    return search, filter


def _clean(text: str | None) -> str | None:
    text = (text or "").strip()
    return text or None


def _describe(search: str | None, filter: str | None) -> str:
    parts = ([f"search={search}"] if search else []) + ([f"filter={filter}"] if filter else [])
    return " ".join(parts)


def _list_parts(body: Any, what: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`meta` and `results` of a list answer, or `BadResponse` saying which part is missing."""
    if not isinstance(body, dict):
        raise BadResponse(SERVICE, f"the {what} answer is not a JSON object")
    meta = body.get("meta")
    results = body.get("results")
    if not isinstance(meta, dict):
        raise BadResponse(SERVICE, f"the {what} answer has no meta object")
    if not isinstance(results, list):
        detail = " (a group_by answer?)" if "group_by" in body else ""
        raise BadResponse(SERVICE, f"the {what} answer has no results list{detail}")
    return meta, [r for r in results if isinstance(r, dict)]
