"""PubMed through NCBI E-utilities: esearch (counts, ids, query translation), efetch (records).

Paths are relative to the HttpPolicy base URL, the E-utilities root
(https://eutils.ncbi.nlm.nih.gov/entrez/eutils). Things E-utilities does that shape this client:

- query problems come back as HTTP 200 with `ERROR`, `errorlist` or `warninglist` in the body, so
  the body is checked, not just the status;
- a GET URL has a length limit, so long queries and id lists are sent as a POST form;
- efetch takes at most a few hundred ids per request comfortably; we send batches of 200;
- large result sets are paged from the history server (`usehistory=y`, WebEnv + query_key), so
  the ids never travel back and forth;
- esearch can page only through the first 10,000 records of a search.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import urlencode

import httpx
from pydantic import Field, ValidationError

from agent.models import Model, Paper
from tools.base import PageCallback, PageProgress, SearchClient, SearchOutcome, report
from tools.errors import BadQuery, BadResponse, EmptyQuery, RateLimited, ServiceCallError, SourceUnavailable
from tools.http import HttpPolicy, redact
from tools.pubmed_xml import parse_esearch_xml, parse_pubmed_xml

log = logging.getLogger(__name__)

EFETCH_BATCH = 200  # ids (or history records) per efetch request
MAX_GET_QUERY = 1800  # longest encoded query string we send as a GET; longer ones are POSTed
MAX_RETRIEVABLE = 10_000  # PubMed esearch/efetch cannot page beyond the first 10,000 records

# ERROR texts that mean "the service is having trouble" rather than "your query is wrong".
_TRANSIENT_ERRORS = ("backend", "temporarily", "unavailable", "timeout", "try again", "internal")


class Translation(Model):
    """One automatic term mapping PubMed applied ("heart attack" -> the MeSH heading and text words)."""

    from_: str = Field("", alias="from")
    to: str = ""


class TranslationTerm(Model):
    """A leaf of PubMed's translation stack: a term, the field it searched and its hit count."""

    term: str
    field: str = ""
    count: int | None = None
    explode: bool = False


class ESearchResult(Model):
    count: int
    ids: list[str] = Field(default_factory=list)
    retstart: int = 0
    retmax: int = 0
    query_translation: str | None = None
    translation_set: list[Translation] = Field(default_factory=list)
    # terms and the bare operators ("AND", "OR", "GROUP", "RANGE") in postfix order, as PubMed gives them
    translation_stack: list[TranslationTerm | str] = Field(default_factory=list)
    webenv: str | None = None
    query_key: str | None = None
    warnings: list[str] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)


def _as_int(value: Any, default: int | None = None) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return default


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [str(v).strip() for v in value if v is not None and str(v).strip()]
    return []


class PubMedClient(SearchClient):
    """Async PubMed client over one HttpPolicy (service name, rate, retries, cache come from it)."""

    def __init__(
        self,
        http: HttpPolicy,
        *,
        api_key: str | None = None,
        email: str | None = None,
        tool: str = "scholarmap",
    ) -> None:
        self.http = http
        self.service = http.service
        self.api_key = api_key or None
        self.email = email or None
        self.tool = tool
        # The key travels in every request; make sure the policy scrubs it from any message even
        # when the caller forgot to list it as a secret.
        if self.api_key and self.api_key not in http.config.secrets:
            http.config.secrets = (*http.config.secrets, self.api_key)

    # -- esearch ---------------------------------------------------------------------------------

    async def esearch(
        self,
        query: str,
        *,
        retmax: int = 20,
        retstart: int = 0,
        usehistory: bool = False,
        sort: str | None = None,
        cache: bool = True,
    ) -> ESearchResult:
        """Run one esearch. Raises EmptyQuery before any request for a blank query, BadQuery when
        PubMed could not search it, and carries PubMed's softer complaints in `warnings`.

        `cache=False` asks PubMed afresh even when the policy has a cached answer."""
        query = self._require(query)
        params = self._params(
            term=query,
            retmode="json",
            retmax=max(0, retmax),
            retstart=max(0, retstart),
            usehistory="y" if usehistory else None,
            sort=sort,
        )
        # A history session (WebEnv) is per call and expires, so such answers are never cached.
        response = await self._call("esearch.fcgi", params, cache=cache and not usehistory)
        return self._interpret_esearch(self._esearch_body(response))

    async def count(self, query: str, *, params: Mapping[str, Any] | None = None) -> int:
        """Number of PubMed records matching `query` (retmax=0; cached by the policy)."""
        return (await self.esearch(query, retmax=0)).count

    # -- efetch ----------------------------------------------------------------------------------

    async def efetch(self, pmids: Sequence[str]) -> list[Paper]:
        """Records for PMIDs, in the order given (unknown or withdrawn PMIDs are simply absent)."""
        ids = self._clean_ids(pmids)
        if not ids:
            return []
        batches = [ids[i : i + EFETCH_BATCH] for i in range(0, len(ids), EFETCH_BATCH)]
        results = await _gather_or_cancel([self._efetch_batch(batch) for batch in batches])
        by_pmid = {paper.pmid: paper for papers in results for paper in papers}
        return [by_pmid[pmid] for pmid in ids if pmid in by_pmid]

    async def fetch(self, ids: Sequence[str]) -> list[Paper]:
        """`SearchClient.fetch`: records by PMID (`efetch`)."""
        return await self.efetch(ids)

    async def fetch_history(self, webenv: str, query_key: str, retstart: int, retmax: int) -> list[Paper]:
        """Records `retstart`..`retstart+retmax` of a search kept on the history server."""
        params = self._params(
            WebEnv=webenv,
            query_key=query_key,
            retstart=max(0, retstart),
            retmax=max(0, retmax),
            retmode="xml",
        )
        # Each WebEnv is unique, so caching would only fill the cache.
        response = await self._call("efetch.fcgi", params, cache=False)
        return await asyncio.to_thread(self._parse_records, response)  # a page is ~0.1 s of parsing

    # -- search ----------------------------------------------------------------------------------

    async def search(
        self,
        query: str,
        *,
        limit: int,
        on_page: PageCallback | None = None,
        params: Mapping[str, Any] | None = None,
        sort: str | None = None,
    ) -> SearchOutcome:
        """Up to `limit` records for `query`, in PubMed's order, ranked 1..N; `sort` (or the plan's
        `params["sort"]`) is esearch's sort order.

        Up to one page (200) the ids come straight from esearch and are fetched by id; beyond that
        the search is kept on the history server and fetched in pages of 200, several in flight at
        once (the policy's rate limiter spaces them). `on_page` is called after each page.
        """
        query = self._require(query)
        sort = sort or (params or {}).get("sort")
        warnings: list[str] = []
        if limit > MAX_RETRIEVABLE:
            warnings.append(
                f"PubMed returns at most the first {MAX_RETRIEVABLE:,} records of a search; "
                f"{limit:,} were asked for"
            )
        limit = max(0, min(limit, MAX_RETRIEVABLE))

        if limit <= EFETCH_BATCH:
            # A search is asked afresh (new papers appear daily); only hit counts come from the cache.
            result = await self.esearch(query, retmax=limit, sort=sort, cache=False)
            warnings = result.warnings + warnings
            papers = await self.efetch(result.ids) if result.ids else []
            pages = 1 if result.ids else 0
            if pages:
                await report(on_page, PageProgress(self.service, 1, len(papers), result.count, tuple(papers)))
            expected = len(result.ids)
        else:
            result = await self.esearch(query, retmax=0, usehistory=True, sort=sort)
            warnings = result.warnings + warnings
            expected = min(limit, result.count)
            if expected and not (result.webenv and result.query_key):
                raise BadResponse(
                    self.service, "PubMed esearch with usehistory=y returned no WebEnv/query_key"
                )
            papers, pages = await self._fetch_pages(result, expected, on_page)

        papers = _dedupe_by_pmid(papers)[:limit]
        if len(papers) < expected:
            warnings.append(
                f"PubMed returned {len(papers)} of the {expected} records requested "
                "(the others may have been withdrawn or merged)"
            )
        for rank, paper in enumerate(papers, start=1):
            paper.source_rank = rank
        return SearchOutcome(
            service=self.service,
            query=query,
            total=result.count,
            papers=papers,
            pages=pages,
            warnings=warnings,
            translation=result.query_translation,
        )

    async def _fetch_pages(
        self, result: ESearchResult, expected: int, on_page: PageCallback | None
    ) -> tuple[list[Paper], int]:
        if expected <= 0:
            return [], 0
        pages = math.ceil(expected / EFETCH_BATCH)
        done: dict[int, list[Paper]] = {}
        fetched = 0

        async def page(index: int) -> tuple[int, list[Paper]]:
            start = index * EFETCH_BATCH
            size = min(EFETCH_BATCH, expected - start)
            assert result.webenv and result.query_key
            return index, await self.fetch_history(result.webenv, result.query_key, start, size)

        tasks = [asyncio.ensure_future(page(i)) for i in range(pages)]
        try:
            for next_done in asyncio.as_completed(tasks):
                index, papers = await next_done
                # ranks are known as a page arrives (its place in the search), so work that starts on
                # the page early sees them; the final list is numbered again after de-duplication
                for offset, paper in enumerate(papers):
                    paper.source_rank = index * EFETCH_BATCH + offset + 1
                done[index] = papers
                fetched += len(papers)
                await report(
                    on_page,
                    PageProgress(
                        self.service,
                        len(done),
                        fetched,
                        result.count,
                        tuple(papers),
                        first_rank=index * EFETCH_BATCH + 1,
                    ),
                )
        finally:
            await _cancel(tasks)
        return [paper for index in range(pages) for paper in done[index]], pages

    # -- internals -------------------------------------------------------------------------------

    def _require(self, query: str) -> str:
        if not query or not query.strip():
            raise EmptyQuery(self.service)
        return query.strip()

    def _params(self, **values: Any) -> dict[str, Any]:
        params: dict[str, Any] = {"db": "pubmed"}
        params.update({k: v for k, v in values.items() if v is not None})
        params.update({k: v for k, v in (("tool", self.tool), ("email", self.email)) if v})
        if self.api_key:
            params["api_key"] = self.api_key
        return params

    async def _call(
        self, path: str, params: Mapping[str, Any], *, cache: bool, post: bool = False
    ) -> httpx.Response:
        """GET, or POST as a form when the query string would be too long for a URL."""
        if post or len(urlencode(params)) > MAX_GET_QUERY:
            return await self.http.request("POST", path, data=params, cache=cache)
        return await self.http.request("GET", path, params=params, cache=cache)

    async def _efetch_batch(self, ids: list[str]) -> list[Paper]:
        params = self._params(id=",".join(ids), retmode="xml")
        response = await self._call("efetch.fcgi", params, cache=True, post=True)
        return await asyncio.to_thread(self._parse_records, response)  # a page is ~0.1 s of parsing

    def _parse_records(self, response: httpx.Response) -> list[Paper]:
        try:
            return parse_pubmed_xml(response.content, self.service)
        except ServiceCallError as error:
            raise type(error)(error.service, self._scrub(error.message), status=error.status) from None

    def _esearch_body(self, response: httpx.Response) -> dict[str, Any]:
        """The `esearchresult` mapping, whether the answer came as JSON (asked for) or as XML."""
        text = response.text.lstrip()
        if text.startswith("<") and "<eSearchResult" in text[:2000]:
            return parse_esearch_xml(response.content, self.service)
        data = self.http.parse_json(response)
        if not isinstance(data, dict):
            raise BadResponse(
                self.service, f"PubMed esearch returned a JSON {type(data).__name__}, not an object"
            )
        if "esearchresult" not in data:
            error = data.get("error") or data.get("ERROR")
            if error:
                message = self._scrub(str(error))
                if "rate limit" in message.lower():
                    raise RateLimited(
                        self.service, f"PubMed rate-limited us: {message}", status=response.status_code
                    )
                raise BadQuery(self.service, f"PubMed refused the search: {message}")
            raise BadResponse(self.service, "PubMed esearch answer has no 'esearchresult'")
        body = data["esearchresult"]
        if not isinstance(body, dict):
            raise BadResponse(self.service, "PubMed esearch 'esearchresult' is not an object")
        return body

    def _interpret_esearch(self, body: dict[str, Any]) -> ESearchResult:
        """Turn E-utilities' in-band errors and warnings into typed errors and readable warnings."""
        error = body.get("ERROR")
        if error:
            message = self._scrub(str(error))
            if any(word in message.lower() for word in _TRANSIENT_ERRORS):
                raise SourceUnavailable(self.service, f"PubMed search failed on its side: {message}")
            raise BadQuery(self.service, f"PubMed rejected the query: {message}")

        errorlist = body.get("errorlist") or {}
        phrases = _strings(errorlist.get("phrasesnotfound")) if isinstance(errorlist, dict) else []
        fields = _strings(errorlist.get("fieldsnotfound")) if isinstance(errorlist, dict) else []
        errors = [f"phrase not found: {p}" for p in phrases] + [f"field not found: {f}" for f in fields]
        translation = str(body.get("querytranslation") or "").strip()
        count = _as_int(body.get("count"))
        if count is None:
            raise BadResponse(self.service, f"PubMed esearch count is not a number: {body.get('count')!r}")

        if errors and count == 0 and not translation:
            # PubMed drops what it cannot find and searches the rest; here nothing was left.
            raise BadQuery(self.service, "PubMed found nothing searchable in the query: " + "; ".join(errors))

        warnings = [f"PubMed did not find the phrase '{p}' and left it out of the search" for p in phrases]
        warnings += [f"PubMed does not know the field [{f}] and ignored it" for f in fields]
        warninglist = body.get("warninglist") or {}
        if isinstance(warninglist, dict):
            warnings += [
                f"PubMed ignored the phrase '{p}'" for p in _strings(warninglist.get("phrasesignored"))
            ]
            warnings += [
                f"PubMed did not find the quoted phrase '{p}'"
                for p in _strings(warninglist.get("quotedphrasesnotfound"))
            ]
            warnings += [f"PubMed: {m}" for m in _strings(warninglist.get("outputmessages"))]

        try:
            return ESearchResult(
                count=count,
                ids=_strings(body.get("idlist")),
                retstart=_as_int(body.get("retstart"), 0) or 0,
                retmax=_as_int(body.get("retmax"), 0) or 0,
                query_translation=translation or None,
                translation_set=[
                    Translation.model_validate(
                        {"from": str(t.get("from") or ""), "to": str(t.get("to") or "")}
                    )
                    for t in body.get("translationset") or []
                    if isinstance(t, dict)
                ],
                translation_stack=[_stack_item(item) for item in body.get("translationstack") or []],
                webenv=body.get("webenv") or None,
                query_key=str(body["querykey"]) if body.get("querykey") else None,
                warnings=[self._scrub(w) for w in warnings],
                errors=[self._scrub(e) for e in errors],
            )
        except (ValidationError, TypeError) as error:
            raise BadResponse(
                self.service, f"PubMed esearch answer has an unexpected shape: {error}"
            ) from None

    def _clean_ids(self, pmids: Sequence[str]) -> list[str]:
        if isinstance(pmids, str):  # a single id (or comma list) passed where a sequence was meant
            pmids = pmids.split(",")
        seen: set[str] = set()
        ids: list[str] = []
        for raw in pmids:
            pmid = str(raw).strip()
            if not pmid:
                continue
            if not pmid.isdigit():
                raise BadQuery(self.service, f"PubMed efetch needs numeric PMIDs; {pmid[:40]!r} is not one")
            if pmid not in seen:
                seen.add(pmid)
                ids.append(pmid)
        return ids

    def _scrub(self, text: str) -> str:
        return redact(text, self.http.config.secrets)


def _stack_item(item: Any) -> TranslationTerm | str:
    if isinstance(item, dict):
        return TranslationTerm(
            term=str(item.get("term") or ""),
            field=str(item.get("field") or ""),
            count=_as_int(item.get("count")),
            explode=str(item.get("explode") or "").upper() == "Y",
        )
    return str(item)


def _dedupe_by_pmid(papers: list[Paper]) -> list[Paper]:
    seen: set[str | None] = set()
    out: list[Paper] = []
    for paper in papers:
        if paper.pmid not in seen:
            seen.add(paper.pmid)
            out.append(paper)
    return out


T = TypeVar("T")


async def _gather_or_cancel(awaitables: list[Awaitable[T]]) -> list[T]:
    """gather() that cancels the siblings as soon as one fails, and raises that first error."""
    tasks = [asyncio.ensure_future(a) for a in awaitables]
    try:
        return list(await asyncio.gather(*tasks))
    finally:
        await _cancel(tasks)


async def _cancel(tasks: Sequence[asyncio.Future[Any]]) -> None:
    """Cancel what is still running and wait for it, so no task outlives the call or leaks an error."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


__all__ = ["EFETCH_BATCH", "ESearchResult", "PubMedClient", "Translation", "TranslationTerm"]
