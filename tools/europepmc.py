"""Europe PMC: literature search, id-list lookups, and the open-access full text as JATS XML.

Every request goes through the shared `HttpPolicy`; paths are relative to its base URL
(`https://www.ebi.ac.uk/europepmc/webservices/rest` by default).

Shapes and quirks (see the shared fixtures' API_NOTES.md, section 7):
- `search?query=&format=json&resultType=lite|core|idlist&pageSize=&cursorMark=*` answers
  `{hitCount, nextCursorMark?, resultList: {result: [...]}}`; no hits means `hitCount: 0`, an empty list
  and no `nextCursorMark`; the last page repeats the cursor it was given;
- flags are the strings "Y"/"N"; `doi`, `pmcid`, `abstractText` may be absent; `abstractText` is HTML-ish;
- `{PMCID}/fullTextXML` returns a JATS `<article>` for the open-access subset and 404 otherwise.

Records are mapped into `agent.models.Paper`; Europe PMC is not one of the Run's search sources, so the
mapped papers carry no `source`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agent.models import (
    AbstractSection,
    Affiliation,
    Author,
    MeshHeading,
    Paper,
    normalize_doi,
    normalize_pmcid,
    normalize_pmid,
)
from tools.errors import BadResponse, EmptyQuery, NotFound
from tools.http import HttpPolicy

SERVICE = "europepmc"
MAX_PAGE_SIZE = 1000  # Europe PMC's ceiling for pageSize
MAX_PAGES = 200  # a safety stop far beyond any Run
ID_BATCH = 50  # ids OR'ed into one lookup query: keeps the URL well under common 8 KB limits

ResultType = Literal["idlist", "lite", "core"]

_TAG = re.compile(r"<[^>]+>")
_H4 = re.compile(r"<h4>(.*?)</h4>", re.IGNORECASE | re.DOTALL)


def _flag(value: Any) -> bool:
    return str(value or "").strip().upper() == "Y"


def _plain(text: str | None) -> str:
    """Europe PMC's HTML-ish strings (titles, abstracts) as plain text."""
    if not text:
        return ""
    return re.sub(r"\s+", " ", html.unescape(_TAG.sub(" ", text))).strip()


class FullTextLink(BaseModel):
    """One entry of a core record's `fullTextUrlList`."""

    model_config = ConfigDict(extra="ignore")

    url: str
    availability: str = ""  # "Free", "Open access", "Subscription required", ...
    availability_code: str = Field("", alias="availabilityCode")  # OA, F, S, ...
    document_style: str = Field("", alias="documentStyle")  # pdf | html | doi | abs
    site: str = ""

    @property
    def free(self) -> bool:
        return self.availability_code.upper() in {"OA", "F"}


class EuropePMCRecord(BaseModel):
    """One search result (lite or core), with the fields ScholarMap reads."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    id: str
    source: str = ""  # MED, PMC, PPR (preprint), AGR, ...
    pmid: str | None = None
    pmcid: str | None = None
    doi: str | None = None
    title: str = ""
    author_string: str = Field("", alias="authorString")
    journal_title: str = Field("", alias="journalTitle")
    pub_year: int | None = Field(None, alias="pubYear")
    is_open_access: bool = Field(False, alias="isOpenAccess")
    in_epmc: bool = Field(False, alias="inEPMC")
    in_pmc: bool = Field(False, alias="inPMC")
    has_pdf: bool = Field(False, alias="hasPDF")
    cited_by_count: int | None = Field(None, alias="citedByCount")
    abstract_html: str = Field("", alias="abstractText")
    license: str | None = None
    first_publication_date: str | None = Field(None, alias="firstPublicationDate")
    full_text_links: list[FullTextLink] = Field(default_factory=list)
    raw: dict[str, Any] = Field(default_factory=dict, exclude=True, repr=False)

    @classmethod
    def from_api(cls, item: dict[str, Any]) -> EuropePMCRecord:
        data = dict(item)
        for flag in ("isOpenAccess", "inEPMC", "inPMC", "hasPDF"):
            data[flag] = _flag(data.get(flag))
        year = str(data.get("pubYear") or "")
        data["pubYear"] = int(year) if year.isdigit() else None
        data["pmid"] = normalize_pmid(data.get("pmid"))
        data["pmcid"] = normalize_pmcid(data.get("pmcid"))
        data["doi"] = normalize_doi(data.get("doi"))
        data["title"] = _plain(data.get("title"))
        links = ((data.get("fullTextUrlList") or {}).get("fullTextUrl")) or []
        data["full_text_links"] = [FullTextLink.model_validate(link) for link in links if link.get("url")]
        return cls.model_validate({**data, "raw": item})

    @property
    def fulltext_available(self) -> bool:
        """Whether `fullTextXML` should answer: a PMCID and an open-access (or Europe PMC-held) text."""
        return bool(self.pmcid) and (self.is_open_access or self.in_epmc)

    def to_paper(self) -> Paper:
        return record_to_paper(self)


@dataclass
class EuropePMCSearch:
    """One search: the records in Europe PMC's order up to the limit, and what the service reported."""

    query: str
    hit_count: int
    records: list[EuropePMCRecord] = field(default_factory=list)
    pages: int = 0
    next_cursor: str | None = None


def _abstract(record: EuropePMCRecord) -> tuple[str | None, list[AbstractSection]]:
    """Plain abstract, and its labelled parts when Europe PMC marks them with `<h4>` headings."""
    raw = record.abstract_html
    if not raw:
        return None, []
    parts = _H4.split(raw)
    sections: list[AbstractSection] = []
    if len(parts) > 1:
        if lead := _plain(parts[0]):
            sections.append(AbstractSection(text=lead))
        for label, body in zip(parts[1::2], parts[2::2], strict=False):
            if text := _plain(body):
                sections.append(AbstractSection(label=_plain(label) or None, text=text))
    return _plain(raw) or None, sections


def _authors(record: EuropePMCRecord) -> list[Author]:
    authors: list[Author] = []
    listed = ((record.raw.get("authorList") or {}).get("author")) or []
    for position, item in enumerate(listed, start=1):
        name = item.get("fullName") or " ".join(
            part for part in (item.get("firstName"), item.get("lastName")) if part
        )
        collective = bool(item.get("collectiveName")) and not name
        name = name or item.get("collectiveName") or ""
        if not name:
            continue
        orcid = None
        author_id = item.get("authorId") or {}
        if str(author_id.get("type", "")).upper() == "ORCID":
            orcid = author_id.get("value")
        affiliations = [
            Affiliation(raw=aff["affiliation"])
            for aff in ((item.get("authorAffiliationDetailsList") or {}).get("authorAffiliation")) or []
            if aff.get("affiliation")
        ]
        authors.append(
            Author(
                name=name,
                given=item.get("firstName"),
                family=item.get("lastName"),
                position=position,
                collective=collective,
                orcid=orcid,
                affiliations=affiliations,
            )
        )
    if not authors and record.author_string:
        # lite records only carry "Smith J, Doe A." — still worth keeping as names
        names = [n.strip() for n in record.author_string.rstrip(".").split(",") if n.strip()]
        authors = [Author(name=n, position=i) for i, n in enumerate(names, start=1)]
    return authors


def record_to_paper(record: EuropePMCRecord) -> Paper:
    raw = record.raw
    abstract, sections = _abstract(record)
    mesh = [
        MeshHeading(
            descriptor=item["descriptorName"],
            major=_flag(item.get("majorTopic_YN")),
            qualifiers=[
                q.get("qualifierName", "")
                for q in ((item.get("meshQualifierList") or {}).get("meshQualifier")) or []
                if q.get("qualifierName")
            ],
        )
        for item in ((raw.get("meshHeadingList") or {}).get("meshHeading")) or []
        if item.get("descriptorName")
    ]
    journal = ((raw.get("journalInfo") or {}).get("journal")) or {}
    free_links = [link.url for link in record.full_text_links if link.free]
    return Paper(
        title=record.title,
        authors=_authors(record),
        year=record.pub_year,
        publication_date=record.first_publication_date,
        venue=journal.get("title") or record.journal_title or None,
        doi=record.doi,
        pmid=record.pmid,
        pmcid=record.pmcid,
        abstract=abstract,
        abstract_sections=sections,
        mesh_headings=mesh,
        keywords=list(((raw.get("keywordList") or {}).get("keyword")) or []),
        publication_types=list(((raw.get("pubTypeList") or {}).get("pubType")) or []),
        languages=[raw["language"]] if raw.get("language") else [],
        citation_count=record.cited_by_count,
        oa_url=free_links[0] if free_links else None,
    )


def id_query(*, pmids: Iterable[str] = (), pmcids: Iterable[str] = (), dois: Iterable[str] = ()) -> str:
    """A Europe PMC query matching any of the given ids (invalid ids are dropped, not sent)."""
    clauses: list[str] = []
    for value in pmids:
        if pmid := normalize_pmid(value):
            clauses.append(f"(EXT_ID:{pmid} AND SRC:MED)")
    for value in pmcids:
        if pmcid := normalize_pmcid(value):
            clauses.append(f"PMCID:{pmcid}")
    for value in dois:
        if doi := normalize_doi(value):
            clauses.append(f'DOI:"{doi}"')
    return " OR ".join(dict.fromkeys(clauses))


class EuropePMCClient:
    """Typed access to Europe PMC through the shared HTTP policy."""

    service = SERVICE

    def __init__(self, http: HttpPolicy) -> None:
        self.http = http

    # -- search ----------------------------------------------------------------------------------

    async def search(
        self,
        query: str,
        *,
        limit: int = 25,
        result_type: ResultType = "core",
        synonym: bool = False,
        sort: str | None = None,
    ) -> EuropePMCSearch:
        """Records matching `query` in Europe PMC's order, up to `limit`, by cursor paging."""
        query = (query or "").strip()
        if not query:
            raise EmptyQuery(SERVICE)
        outcome = EuropePMCSearch(query=query, hit_count=0)
        cursor = "*"
        while len(outcome.records) < limit and outcome.pages < MAX_PAGES:
            page_size = min(MAX_PAGE_SIZE, limit - len(outcome.records))
            body = await self.http.get_json(
                "search",
                {
                    "query": query,
                    "format": "json",
                    "resultType": result_type,
                    "pageSize": page_size,
                    "cursorMark": cursor,
                    "synonym": "true" if synonym else None,
                    "sort": sort,
                },
            )
            results = self._results(body)
            outcome.pages += 1
            outcome.hit_count = int(body.get("hitCount") or 0)
            outcome.records.extend(EuropePMCRecord.from_api(item) for item in results)
            next_cursor = body.get("nextCursorMark")
            outcome.next_cursor = next_cursor
            # the last page has no cursor, or repeats the one it was given
            if not results or not next_cursor or next_cursor == cursor:
                break
            cursor = next_cursor
        outcome.records = outcome.records[:limit]
        return outcome

    async def lookup(
        self,
        *,
        pmids: Sequence[str] = (),
        pmcids: Sequence[str] = (),
        dois: Sequence[str] = (),
        result_type: ResultType = "lite",
    ) -> list[EuropePMCRecord]:
        """Records for an id list (PMIDs, PMCIDs, DOIs), in batches of OR'ed ids; unknown ids are simply absent."""
        ids: list[tuple[str, str]] = [
            *(("pmid", v) for v in pmids),
            *(("pmcid", v) for v in pmcids),
            *(("doi", v) for v in dois),
        ]
        records: dict[str, EuropePMCRecord] = {}
        for start in range(0, len(ids), ID_BATCH):
            batch = ids[start : start + ID_BATCH]
            query = id_query(
                pmids=[v for k, v in batch if k == "pmid"],
                pmcids=[v for k, v in batch if k == "pmcid"],
                dois=[v for k, v in batch if k == "doi"],
            )
            if not query:
                continue
            # A DOI can match a MED record and its PMC/PPR twin, hence room for twice the batch.
            found = await self.search(query, limit=2 * len(batch), result_type=result_type)
            for record in found.records:
                records.setdefault(f"{record.source}:{record.id}", record)
        return list(records.values())

    # -- full text -------------------------------------------------------------------------------

    async def fulltext_xml(self, pmcid: str) -> str:
        """The JATS XML of an open-access article; `NotFound` when Europe PMC holds no full text for it."""
        normalized = normalize_pmcid(pmcid)
        if normalized is None:
            raise NotFound(SERVICE, f"{pmcid!r} is not a PMCID")
        text = await self.http.get_text(f"{normalized}/fullTextXML")
        head = text.lstrip()[:4000]
        if not head:
            raise NotFound(SERVICE, f"no full text for {normalized} (empty answer)")
        if "<article" not in head:
            kind = (
                "an HTML page" if head.lower().startswith(("<!doctype html", "<html")) else "no JATS article"
            )
            raise BadResponse(SERVICE, f"full text of {normalized}: expected JATS XML but got {kind}")
        return text

    # -- internals -------------------------------------------------------------------------------

    @staticmethod
    def _results(body: Any) -> list[dict[str, Any]]:
        if not isinstance(body, dict) or "hitCount" not in body:
            raise BadResponse(SERVICE, "search answer has no hitCount")
        result_list = body.get("resultList") or {}
        results = result_list.get("result") if isinstance(result_list, dict) else None
        if results is None:
            results = []
        if not isinstance(results, list):
            raise BadResponse(SERVICE, "resultList.result is not a list")
        return [item for item in results if isinstance(item, dict) and item.get("id")]
