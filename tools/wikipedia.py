"""Wikipedia (MediaWiki action API): the titles that redirect to a page, and title search.

Redirects are a cheap, human-curated source of synonyms: "Douglas Noël Adams", "Adams, Douglas" and
misspellings all redirect to "Douglas Adams". The page is resolved first (title normalisation and
the input itself being a redirect are followed by `redirects=1`), then `prop=redirects` lists every
article-namespace redirect to it, following `continue` until the list is complete.

Language: the policy's base URL names one wiki. A `{lang}` placeholder in it
(`https://{lang}.wikipedia.org/w/api.php`) is filled per call; a `*.wikipedia.org` host has its
language subdomain swapped (`en.` → `zh.`); any other base URL (a mirror, the fake-sources server) is
used as it is for every language.

Wikimedia's User-Agent policy requires a descriptive User-Agent naming the project and a contact;
the caller sets it in the policy's `SourceConfig.headers` (see `tools.http.USER_AGENT`). Requests
without one may be refused with 403.

MediaWiki reports errors with HTTP 200 and `{"error": {"code", "info"}}`; `check_mediawiki` turns
them into typed errors, and is shared with the Wikidata client (Wikibase runs on MediaWiki).
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field

from tools.errors import (
    BadQuery,
    BadResponse,
    EmptyQuery,
    NotFound,
    RateLimited,
    ServiceCallError,
    SourceUnavailable,
)
from tools.http import HttpPolicy

log = logging.getLogger(__name__)

SERVICE = "wikipedia"
MAX_CONTINUATIONS = 20  # 20 × 500 redirects: more than any article has; stops a looping server
_LANGUAGE = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$")


class WikipediaPage(BaseModel):
    """A resolved Wikipedia article and the titles that redirect to it."""

    model_config = ConfigDict(extra="forbid")

    title: str
    pageid: int | None = None
    language: str = "en"
    redirects: list[str] = Field(default_factory=list)  # titles redirecting here, without `title` itself
    resolved_from: str | None = None  # the asked title, when it was normalised or was itself a redirect
    wikidata_id: str | None = None  # pageprops.wikibase_item, e.g. "Q42"
    disambiguation: bool = False


def check_mediawiki(service: str, body: Any) -> dict[str, Any]:
    """Return the body if it is a MediaWiki success, else raise the typed error it describes."""
    if not isinstance(body, dict):
        raise BadResponse(service, "expected a JSON object from the MediaWiki API")
    error = body.get("error")
    if isinstance(error, dict):
        code = str(error.get("code") or "unknown")
        info = str(error.get("info") or error.get("*") or "")[:300]
        exc: ServiceCallError
        if code in {"ratelimited", "maxlag"}:
            exc = RateLimited(service, f"asked us to slow down ({code}): {info}", status=200)
        elif code in {"readonly"} or code.startswith("internal_api_error"):
            exc = SourceUnavailable(service, f"could not answer ({code}): {info}", status=200)
        else:
            exc = BadQuery(service, f"rejected the request ({code}): {info}", status=200)
        raise exc
    for module, warning in (body.get("warnings") or {}).items():
        log.debug("%s: warning from %s: %s", service, module, warning)
    return body


def language_url(base_url: str, language: str) -> str:
    """The API URL of the `language` wiki, derived from the configured base URL (see module doc)."""
    language = language.strip().lower()
    if not _LANGUAGE.match(language):
        raise BadQuery(SERVICE, f"{language!r} is not a language code such as 'en' or 'zh'")
    if "{lang}" in base_url:
        return base_url.replace("{lang}", language)
    parts = urlsplit(base_url)
    host = parts.hostname or ""
    if host.endswith(".wikipedia.org") and host.count(".") == 2:
        netloc = parts.netloc.replace(host, f"{language}.wikipedia.org", 1)
        return urlunsplit(parts._replace(netloc=netloc))
    return base_url


def _pages(query: dict[str, Any]) -> list[dict[str, Any]]:
    pages = query.get("pages") or []
    if isinstance(pages, dict):  # formatversion=1 keys pages by id
        pages = list(pages.values())
    return [p for p in pages if isinstance(p, dict)]


def _missing(page: dict[str, Any]) -> bool:
    # formatversion=2 says `true`, formatversion=1 says `""`: presence is what counts
    return "missing" in page or "invalid" in page


class WikipediaClient:
    """Typed access to Wikipedia's action API through the shared HTTP policy."""

    service = SERVICE

    def __init__(self, http: HttpPolicy) -> None:
        self.http = http

    def _url(self, language: str) -> str:
        return language_url(self.http.config.base_url, language)

    async def _query(self, language: str, params: dict[str, Any]) -> dict[str, Any]:
        body = await self.http.get_json(
            self._url(language), {"action": "query", "format": "json", "formatversion": 2, **params}
        )
        return check_mediawiki(SERVICE, body)

    async def page(self, title: str, *, language: str = "en") -> WikipediaPage:
        """Resolve `title` (normalisation and redirects followed) and collect every redirect to it.

        `NotFound` when the wiki has no such page.
        """
        title = (title or "").strip()
        if not title:
            raise EmptyQuery(SERVICE)
        if "|" in title:  # the API would read it as several titles; no real title contains one
            raise BadQuery(SERVICE, f"{title[:120]!r} is not a page title: titles cannot contain '|'")
        params: dict[str, Any] = {
            "titles": title,
            "redirects": 1,  # follow the input title if it is itself a redirect
            "prop": "redirects|pageprops",
            "ppprop": "wikibase_item|disambiguation",
            "rdprop": "title",
            "rdnamespace": 0,  # article namespace only: talk pages and drafts are not synonyms
            "rdshow": "!fragment",  # a redirect to a section names a sub-topic, not the page's subject
            "rdlimit": "max",
        }
        result: WikipediaPage | None = None
        seen_tokens: set[str] = set()
        for _ in range(MAX_CONTINUATIONS):
            body = await self._query(language, params)
            query = body.get("query")
            if not isinstance(query, dict):
                raise BadResponse(SERVICE, "the query answer has no query object")
            pages = _pages(query)
            if not pages:
                raise BadResponse(SERVICE, "the query answer has no pages")
            page = pages[0]
            if _missing(page):
                raise NotFound(SERVICE, f"no {language} Wikipedia page titled {title[:120]!r}")
            if result is None:
                props = page.get("pageprops") or {}
                resolved = (query.get("redirects") or query.get("normalized") or [None])[0]
                result = WikipediaPage(
                    title=page.get("title") or title,
                    pageid=page.get("pageid"),
                    language=language,
                    resolved_from=title if resolved else None,
                    wikidata_id=props.get("wikibase_item"),
                    disambiguation="disambiguation" in props,
                )
            for redirect in page.get("redirects") or []:
                name = (redirect.get("title") or "").strip() if isinstance(redirect, dict) else ""
                if name and name != result.title and name not in result.redirects:
                    result.redirects.append(name)
            # Follow only our own continuation; other modules' tokens (e.g. a random list) are not ours.
            token = (body.get("continue") or {}).get("rdcontinue")
            if not token or token in seen_tokens:
                break
            seen_tokens.add(token)
            params = {**params, **body["continue"]}
        assert result is not None
        return result

    async def redirects(self, title: str, *, language: str = "en") -> list[str]:
        """The titles that redirect to the page `title` resolves to (the page's own title excluded)."""
        return (await self.page(title, language=language)).redirects

    async def search(self, term: str, *, language: str = "en", limit: int = 5) -> list[str]:
        """Article titles matching `term` (full-text search), best first."""
        term = (term or "").strip()
        if not term:
            raise EmptyQuery(SERVICE)
        body = await self._query(
            language, {"list": "search", "srsearch": term, "srlimit": max(1, min(limit, 50)), "srprop": ""}
        )
        hits = (body.get("query") or {}).get("search")
        if not isinstance(hits, list):
            raise BadResponse(SERVICE, "the search answer has no query.search list")
        return [h["title"] for h in hits if isinstance(h, dict) and h.get("title")][:limit]
