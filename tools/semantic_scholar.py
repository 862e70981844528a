"""Semantic Scholar Graph API: relevance search, Boolean bulk search, single and batch papers, authors.

Paths are relative to the policy's base URL (`https://api.semanticscholar.org/graph/v1`). Papers are
mapped into `agent.models.Paper` keeping the S2 `paperId` and author ids.

Shapes and quirks (see the shared fixtures' API_NOTES.md):
- `/paper/search` pages by offset (≤100 per page) and never serves past offset+limit = 1000;
  a search with no hits answers `{"total": 0, "offset": 0}` with no `data` key at all;
- `/paper/search/bulk` pages by token (≤1000 per page) and ends with `"token": null`;
- the DOI keeps the registrant's case ("10.1023/A:…"); `Paper` lower-cases it so it joins with OpenAlex;
- nearly any field can be null; `openAccessPdf.url` can be the empty string;
- a 429 comes without Retry-After; the shared policy backs off exponentially.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from agent.models import Affiliation, Author, Paper, Source, normalize_doi
from tools.base import PageCallback, SearchClient, SearchOutcome
from tools.errors import BadQuery, BadResponse, EmptyQuery, NotFound
from tools.http import HttpPolicy

SERVICE = "semantic_scholar"
SEARCH_PAGE = 100  # /paper/search: most results per page
SEARCH_WINDOW = 1000  # /paper/search: offset + limit may not exceed this
BATCH_SIZE = 500  # /paper/batch and /author/batch accept up to 500 (papers) / 1000 (authors) ids
MAX_BULK_PAGES = 1000  # a safety stop for a server that keeps returning tokens

DEFAULT_FIELDS: tuple[str, ...] = (
    "paperId",
    "externalIds",
    "title",
    "abstract",
    "venue",
    "publicationVenue",
    "year",
    "publicationDate",
    "journal",
    "authors",
    "citationCount",
    "openAccessPdf",
    "fieldsOfStudy",
    "s2FieldsOfStudy",
    "publicationTypes",
)
AUTHOR_FIELDS: tuple[str, ...] = ("name", "affiliations")
# What citation snowballing reads of a linked paper before deciding to fetch it whole (agent/search/snowball.py)
CITATION_FIELDS: tuple[str, ...] = ("paperId", "externalIds", "title", "abstract", "year", "citationCount")
LINKS_PAGE = 1000  # /paper/{id}/references and /citations serve at most 1000 per request
# papers per `/paper/batch` request when their references are asked for: the API allows 500, but
# batches of references time out well below that (s2-folks #58 saw 504s at 50)
REFERENCES_BATCH = 25

# Venues that are preprint servers: when S2's `venue` is one of these but `journal.name` names a real
# journal, the paper has been published and the journal is the better venue (S2 merges the two).
_PREPRINT_VENUES = frozenset(
    {"arxiv", "arxiv.org", "biorxiv", "medrxiv", "ssrn", "chemrxiv", "research square", "preprints.org"}
)
_S2_ID = re.compile(r"^[0-9a-f]{40}$", re.IGNORECASE)
_ID_PREFIXES = {
    "doi": "DOI",
    "pmid": "PMID",
    "pmcid": "PMCID",
    "arxiv": "ARXIV",
    "corpusid": "CorpusId",
    "mag": "MAG",
    "acl": "ACL",
    "url": "URL",
}


# ----------------------------------------------------------------------------------------------
# Mapping
# ----------------------------------------------------------------------------------------------


def _venue(record: dict[str, Any]) -> str | None:
    venue = (record.get("venue") or "").strip()
    journal = ((record.get("journal") or {}).get("name") or "").strip()
    publication_venue = ((record.get("publicationVenue") or {}).get("name") or "").strip()
    if venue.casefold() in _PREPRINT_VENUES and journal and journal.casefold() not in _PREPRINT_VENUES:
        return journal
    return venue or journal or publication_venue or None


def _fields_of_study(record: dict[str, Any]) -> list[str]:
    names = list(record.get("fieldsOfStudy") or []) + [
        f.get("category") for f in record.get("s2FieldsOfStudy") or [] if isinstance(f, dict)
    ]
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            out.append(name)
    return out


def paper_from_s2(record: dict[str, Any], *, rank: int | None = None) -> Paper:
    """Map one S2 paper record (any subset of fields, any of them null) into a `Paper`."""
    if not isinstance(record, dict):
        raise BadResponse(SERVICE, f"expected a paper object, got {type(record).__name__}")
    external = record.get("externalIds") or {}
    authors = []
    for position, author in enumerate(record.get("authors") or [], 1):
        if not isinstance(author, dict) or not (author.get("name") or "").strip():
            continue
        authors.append(
            Author(
                name=author["name"].strip(),
                position=position,
                semantic_scholar_id=author.get("authorId"),
                affiliations=[Affiliation(raw=a) for a in author.get("affiliations") or [] if a],
            )
        )
    pdf = record.get("openAccessPdf") or {}
    year = record.get("year")
    return Paper(
        title=(record.get("title") or "").strip(),
        authors=authors,
        year=year if isinstance(year, int) else None,
        publication_date=record.get("publicationDate") or None,
        venue=_venue(record),
        doi=external.get("DOI"),
        pmid=external.get("PubMed"),
        pmcid=external.get("PubMedCentral"),
        arxiv_id=external.get("ArXiv") or None,
        semantic_scholar_id=record.get("paperId") or None,
        abstract=(record.get("abstract") or "").strip() or None,
        publication_types=list(record.get("publicationTypes") or []),
        fields_of_study=_fields_of_study(record),
        citation_count=record.get("citationCount"),
        oa_url=(pdf.get("url") or "").strip() or None,
        source=Source.SEMANTIC_SCHOLAR,
        source_rank=rank,
    )


def paper_id_for(identifier: str) -> str:
    """The S2 path id for a DOI (bare or with a resolver prefix), `PMID:…`, `ARXIV:…`, CorpusId or S2 id."""
    text = identifier.strip()
    if not text:
        raise EmptyQuery(SERVICE)
    prefix, sep, rest = text.partition(":")
    if sep and prefix.lower() in _ID_PREFIXES and rest.strip():
        return f"{_ID_PREFIXES[prefix.lower()]}:{rest.strip()}"
    doi = normalize_doi(text)
    if doi:
        return f"DOI:{doi}"
    if _S2_ID.match(text):
        return text.lower()
    raise BadQuery(
        SERVICE, f"cannot look up {text[:80]!r}: give a DOI, PMID:…, ARXIV:…, CorpusId:… or an S2 paper id"
    )


# ----------------------------------------------------------------------------------------------
# Client
# ----------------------------------------------------------------------------------------------


class SemanticScholarClient(SearchClient):
    """Typed access to the Semantic Scholar Graph API through the shared HTTP policy.

    `api_key` is sent as the `x-api-key` header and registered as a secret, so it is scrubbed from
    every message. Keep the policy's rate at 1 request/s: that is what a key is granted.
    """

    service = SERVICE

    def __init__(self, http: HttpPolicy, *, api_key: str | None = None) -> None:
        if api_key:
            # a copy, not an edit: the caller's SourceConfig may be shared with other clients
            http.config = dataclasses.replace(
                http.config,
                headers={**http.config.headers, "x-api-key": api_key},
                secrets=(*http.config.secrets, api_key),
            )
        self.http = http

    # -- searches --------------------------------------------------------------------------------

    async def search(
        self,
        query: str,
        *,
        limit: int,
        on_page: PageCallback | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> SearchOutcome:
        """`SearchClient.search`: the bulk search (`search_bulk`), which pages beyond 1,000 results.

        The plan's `params` may give the Boolean `query` itself, `fieldsOfStudy` (a list or a comma
        list), a `sort` and a publication `year` range ("2010-", "2000-2020").
        """
        params = params or {}
        return await self.search_bulk(
            params.get("query") or query,
            limit=limit,
            on_page=on_page,
            fields_of_study=_fields_of_study_param(params),
            sort=params.get("sort"),
            year=params.get("year"),
        )

    async def search_relevance(
        self,
        query: str,
        *,
        limit: int,
        on_page: PageCallback | None = None,
        fields: Sequence[str] = DEFAULT_FIELDS,
        fields_of_study: Sequence[str] | None = None,
    ) -> SearchOutcome:
        """Relevance-ranked `/paper/search` with offset paging; at most 1000 results (the API's window)."""
        query = _require(query)
        outcome = SearchOutcome(service=SERVICE, query=query, total=None)
        if limit > SEARCH_WINDOW:
            outcome.warnings.append(
                f"Semantic Scholar relevance search serves at most {SEARCH_WINDOW} results; "
                f"asked for {limit}. Use the bulk search for more."
            )
        limit = min(limit, SEARCH_WINDOW)
        params = {"query": query, "fields": ",".join(fields), **_study_filter(fields_of_study)}
        offset = 0
        while len(outcome.papers) < limit:
            size = min(SEARCH_PAGE, limit - len(outcome.papers), SEARCH_WINDOW - offset)
            if size <= 0:
                break
            # search pages are not cached (a search must reflect the service now); counts are
            body = await self.http.get_json(
                "paper/search", {**params, "offset": offset, "limit": size}, cache=False
            )
            data = _page_data(body, "search")
            await outcome.add_page(data, paper_from_s2, limit=limit, total=body.get("total"), on_page=on_page)
            next_offset = body.get("next")
            # `next` is absent on the last page; a `next` that does not move forward is a broken server
            if not data or not isinstance(next_offset, int) or next_offset <= offset:
                break
            offset = next_offset
        return outcome

    async def search_bulk(
        self,
        query: str,
        *,
        limit: int,
        on_page: PageCallback | None = None,
        fields: Sequence[str] = DEFAULT_FIELDS,
        fields_of_study: Sequence[str] | None = None,
        sort: str | None = None,
        year: str | None = None,
    ) -> SearchOutcome:
        """`/paper/search/bulk`: Boolean syntax (`+ | - " * ( )`), token paging, up to 1000 per page.

        `sort` is e.g. "citationCount:desc" or "publicationDate:desc"; without it the order is S2's
        internal one, not relevance. `year` limits the publication years as the API writes it ("2010-",
        "2000-2020", "-1999").
        """
        query = _require(query)
        outcome = SearchOutcome(service=SERVICE, query=query, total=None)
        params: dict[str, Any] = {
            "query": query,
            "fields": ",".join(fields),
            "sort": sort,
            **_study_filter(fields_of_study),
            **({"year": year} if year else {}),
        }
        token: str | None = None
        seen: set[str] = set()
        while len(outcome.papers) < limit and outcome.pages < MAX_BULK_PAGES:
            # search pages are not cached (a search must reflect the service now; tokens are one-off)
            body = await self.http.get_json("paper/search/bulk", {**params, "token": token}, cache=False)
            data = _page_data(body, "bulk search")
            await outcome.add_page(data, paper_from_s2, limit=limit, total=body.get("total"), on_page=on_page)
            token = body.get("token")
            if not data or not token or token in seen:
                break
            seen.add(token)
        return outcome

    async def count(
        self,
        query: str,
        *,
        params: Mapping[str, Any] | None = None,
        fields_of_study: Sequence[str] | None = None,
    ) -> int:
        """Hits for a Boolean query (the bulk search's `total`), for hit-count validation; cached."""
        query = _require((params or {}).get("query") or query)
        fields_of_study = fields_of_study or _fields_of_study_param(params or {})
        year = (params or {}).get("year")
        body = await self.http.get_json(
            "paper/search/bulk",
            {
                "query": query,
                "fields": "paperId",
                **_study_filter(fields_of_study),
                **({"year": year} if year else {}),
            },
        )
        if not isinstance(body, dict) or not isinstance(body.get("total"), int):
            raise BadResponse(SERVICE, "the bulk search answer has no integer total")
        return body["total"]

    async def match_title(self, title: str, *, fields: Sequence[str] = DEFAULT_FIELDS) -> Paper | None:
        """The paper whose title best matches (`/paper/search/match`); None when S2 has no match.

        S2 says "no match" either as a 404 or as a 200 with an empty `data` list; both become None.
        """
        title = _require(title)
        try:
            body = await self.http.get_json(
                "paper/search/match", {"query": title, "fields": ",".join(fields)}
            )
        except NotFound:
            return None
        data = _page_data(body, "title match")
        return paper_from_s2(data[0], rank=1) if data else None

    # -- papers ----------------------------------------------------------------------------------

    async def get_paper(self, paper_id: str, *, fields: Sequence[str] = DEFAULT_FIELDS) -> Paper:
        """One paper by DOI, `PMID:…`, `ARXIV:…`, `CorpusId:…` or S2 id; `NotFound` if S2 has none."""
        path = f"paper/{quote(paper_id_for(paper_id), safe='/:')}"
        return paper_from_s2(await self.http.get_json(path, {"fields": ",".join(fields)}))

    async def fetch(self, ids: Sequence[str]) -> list[Paper]:
        """`SearchClient.fetch`: the papers S2 knows among `ids` (any form `get_paper` takes), in order."""
        return [paper for paper in await self.get_papers(ids) if paper is not None]

    async def get_papers(
        self, paper_ids: Sequence[str], *, fields: Sequence[str] = DEFAULT_FIELDS
    ) -> list[Paper | None]:
        """Many papers by id (`POST /paper/batch`), aligned with `paper_ids`; None where S2 has none."""
        ids = [paper_id_for(i) for i in paper_ids]
        out: list[Paper | None] = []
        for chunk in _chunks(ids, BATCH_SIZE):
            body = await self.http.post_json("paper/batch", {"ids": chunk}, {"fields": ",".join(fields)})
            if not isinstance(body, list) or len(body) != len(chunk):
                raise BadResponse(SERVICE, "the paper batch answer is not a list aligned with the ids sent")
            out.extend(paper_from_s2(r) if r else None for r in body)
        return out

    # -- citations -------------------------------------------------------------------------------

    async def references(
        self, paper_id: str, *, fields: Sequence[str] = CITATION_FIELDS, limit: int = LINKS_PAGE
    ) -> list[Paper]:
        """The papers `paper_id` cites (`/paper/{id}/references`, `citedPaper`), up to `limit`.

        One request per `LINKS_PAGE` papers; references S2 could not resolve (no paperId) are left out.
        """
        return await self._links(paper_id, "references", "citedPaper", fields, limit)

    async def citations(
        self, paper_id: str, *, fields: Sequence[str] = CITATION_FIELDS, limit: int = LINKS_PAGE
    ) -> list[Paper]:
        """The papers citing `paper_id` (`/paper/{id}/citations`, `citingPaper`), up to `limit`."""
        return await self._links(paper_id, "citations", "citingPaper", fields, limit)

    async def references_batch(
        self, paper_ids: Sequence[str], *, fields: Sequence[str] = CITATION_FIELDS
    ) -> list[list[Paper] | None]:
        """The references of many papers (`POST /paper/batch` with `references.<field>`), aligned with
        `paper_ids`; None where S2 does not know the paper. One request per `REFERENCES_BATCH` papers.

        Only references are read this way: citations through the batch endpoint came back empty for
        most papers (s2-folks #199), so forward citations use `citations()` per paper.
        """
        ids = [paper_id_for(i) for i in paper_ids]
        nested = ",".join(["paperId", *(f"references.{f}" for f in fields)])
        out: list[list[Paper] | None] = []
        for chunk in _chunks(ids, REFERENCES_BATCH):
            body = await self.http.post_json("paper/batch", {"ids": chunk}, {"fields": nested})
            if not isinstance(body, list) or len(body) != len(chunk):
                raise BadResponse(SERVICE, "the paper batch answer is not a list aligned with the ids sent")
            for record in body:
                if not isinstance(record, dict):
                    out.append(None)
                    continue
                linked = [
                    r for r in record.get("references") or [] if isinstance(r, dict) and r.get("paperId")
                ]
                out.append([paper_from_s2(r) for r in linked])
        return out

    async def _links(
        self, paper_id: str, sub: str, role: str, fields: Sequence[str], limit: int
    ) -> list[Paper]:
        path = f"paper/{quote(paper_id_for(paper_id), safe='/:')}/{sub}"
        out: list[Paper] = []
        offset = 0
        while len(out) < limit:
            size = min(LINKS_PAGE, limit - len(out))
            body = await self.http.get_json(
                path, {"fields": ",".join(fields), "offset": offset, "limit": size}, cache=False
            )
            data = _page_data(body, sub)
            for item in data:
                linked = item.get(role)
                if isinstance(linked, dict) and linked.get("paperId"):
                    out.append(paper_from_s2(linked))
            next_offset = body.get("next")
            if not data or not isinstance(next_offset, int) or next_offset <= offset:
                break
            offset = next_offset
        return out[:limit]

    # -- authors ---------------------------------------------------------------------------------

    async def authors_batch(self, author_ids: Sequence[str]) -> dict[str, list[str]]:
        """Affiliations of many authors (`POST /author/batch`): author id → affiliation strings.

        Unknown ids (null entries) are left out; an author with no known affiliation maps to [].
        """
        ids = list(dict.fromkeys(i for i in author_ids if i))
        out: dict[str, list[str]] = {}
        for chunk in _chunks(ids, BATCH_SIZE):
            body = await self.http.post_json(
                "author/batch", {"ids": chunk}, {"fields": ",".join(AUTHOR_FIELDS)}
            )
            if not isinstance(body, list):
                raise BadResponse(SERVICE, "the author batch answer is not a list")
            for sent, record in zip(chunk, body, strict=False):
                if isinstance(record, dict):
                    key = str(record.get("authorId") or sent)
                    out[key] = [a.strip() for a in record.get("affiliations") or [] if a and a.strip()]
        return out

    async def paper_authors(self, paper_id: str) -> list[Author]:
        """The authors of one paper with their S2 affiliations (`/paper/{id}/authors`), in byline order."""
        path = f"paper/{quote(paper_id_for(paper_id), safe='/:')}/authors"
        body = await self.http.get_json(
            path, {"fields": "authorId," + ",".join(AUTHOR_FIELDS), "limit": 1000}
        )
        return paper_from_s2({"authors": _page_data(body, "paper authors")}).authors

    async def with_affiliations(self, papers: Sequence[Paper]) -> list[Paper]:
        """Copies of `papers` whose S2 authors carry the affiliations S2 knows for them.

        Paper search results have no affiliations; one batch lookup per 500 distinct authors fills
        them in. Authors that already have affiliations are left as they are.
        """
        wanted = [
            a.semantic_scholar_id
            for p in papers
            for a in p.authors
            if a.semantic_scholar_id and not a.affiliations
        ]
        if not wanted:
            return list(papers)
        known = await self.authors_batch(wanted)
        out: list[Paper] = []
        for paper in papers:
            authors = [
                a.model_copy(
                    update={
                        "affiliations": [Affiliation(raw=r) for r in known.get(a.semantic_scholar_id, [])]
                    }
                )
                if a.semantic_scholar_id and not a.affiliations
                else a
                for a in paper.authors
            ]
            out.append(paper.model_copy(update={"authors": authors}))
        return out


def _require(query: str | None) -> str:
    text = (query or "").strip()
    if not text:
        raise EmptyQuery(SERVICE)
    return text


def _fields_of_study_param(params: Mapping[str, Any]) -> list[str] | None:
    """A plan's `fieldsOfStudy` (or `fields_of_study`): a list, or a comma list as the API writes it."""
    value = params.get("fieldsOfStudy") or params.get("fields_of_study")
    if isinstance(value, str):
        value = [item for item in value.split(",") if item]
    return list(value) if value else None


def _study_filter(fields_of_study: Sequence[str] | None) -> dict[str, str]:
    values = [f.strip() for f in fields_of_study or () if f and f.strip()]
    return {"fieldsOfStudy": ",".join(values)} if values else {}


def _page_data(body: Any, what: str) -> list[dict[str, Any]]:
    """The `data` list of a search page; a page with no `data` key is S2's way of saying zero hits."""
    if not isinstance(body, dict):
        raise BadResponse(SERVICE, f"the {what} answer is not a JSON object")
    data = body.get("data", [])
    if data is None:
        data = []
    if not isinstance(data, list):
        raise BadResponse(SERVICE, f"the {what} answer's data is not a list")
    return [d for d in data if isinstance(d, dict)]


def _chunks(items: Sequence[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])
