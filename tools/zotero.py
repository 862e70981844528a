"""Zotero: a researcher's own library as a full-text source (Web API v3, and Zotero 7's local API).

Requirement 002 is written around a reference manager: for a paper the user names, ask the library
for its full text (`zotero_get_item_fulltext`): Zotero's full-text index first, else the attached PDF
(downloaded and parsed), else "No attachment" and the caller falls back to the abstract.

Web API: `https://api.zotero.org/users/<id>` or `/groups/<id>`, the key in the `Zotero-API-Key`
header, `Zotero-API-Version: 3`. Items come as `{"key", "version", "library", "links", "meta",
"data": {...}}`; a full-text record as `{"content", "indexedPages", "totalPages"}` on the attachment
item; the file at `/items/<attachment>/file`. A wrong or revoked key is a 403: `ZoteroAuthError`
names the setting to fix (`zotero_api_key`) and never the key itself. The local API of the Zotero 7
desktop app (`http://localhost:23119/api/users/0`, no key) answers in the same shapes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

import httpx
from pydantic import BaseModel, ConfigDict, Field

from agent.errors import ServiceError
from agent.models import normalize_doi
from tools.pdftext import MAX_PDF_BYTES, PdfError, parse_pdf, sections_from_lines
from tools.retrieval.types import FullTextSection

WEB_API = "https://api.zotero.org"
LOCAL_API = "http://localhost:23119/api"
PAGE = 100
_DOI_IN_EXTRA = re.compile(r"^DOI:\s*(\S+)", re.IGNORECASE | re.MULTILINE)
_LIBRARY = re.compile(r"^(users|groups)/(\d+)$")


class ZoteroError(ServiceError):
    """A Zotero request failed; the message says what to check."""


class ZoteroAuthError(ZoteroError):
    """The API key was refused (403) or is missing for a private library."""


@dataclass(frozen=True)
class ZoteroLibrary:
    kind: Literal["users", "groups"]
    id: str

    @classmethod
    def parse(cls, text: str) -> ZoteroLibrary:
        """'users/475425' or 'groups/123' (the setting `zotero_library`)."""
        match = _LIBRARY.match((text or "").strip().strip("/"))
        if not match:
            raise ZoteroError(
                f"zotero_library must look like 'users/<id>' or 'groups/<id>', not {text!r} "
                "(your user id is on https://www.zotero.org/settings/keys)"
            )
        return cls(match.group(1), match.group(2))  # type: ignore[arg-type]

    @property
    def prefix(self) -> str:
        return f"/{self.kind}/{self.id}"


class ZoteroItem(BaseModel):
    """The fields of a Zotero item this project uses (any item type, attachments included)."""

    model_config = ConfigDict(extra="ignore")

    key: str
    version: int = 0
    item_type: str = ""
    title: str = ""
    doi: str | None = None
    abstract: str = ""
    date: str = ""
    url: str = ""
    creators: list[str] = Field(default_factory=list)
    parent: str | None = None  # attachments and notes: the item they belong to
    content_type: str | None = None  # attachments: application/pdf, text/html, ...
    filename: str | None = None
    link_mode: str | None = None  # imported_file, imported_url, linked_file, linked_url
    children: int = 0

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> ZoteroItem:
        data = record.get("data") or record
        doi = data.get("DOI") or None
        if not doi and (match := _DOI_IN_EXTRA.search(data.get("extra") or "")):
            doi = match.group(1)
        creators = [
            c.get("name") or " ".join(x for x in (c.get("firstName"), c.get("lastName")) if x)
            for c in data.get("creators") or []
        ]
        return cls(
            key=data.get("key") or record.get("key") or "",
            version=int(data.get("version") or record.get("version") or 0),
            item_type=data.get("itemType") or "",
            title=data.get("title") or "",
            doi=normalize_doi(doi) if doi else None,
            abstract=data.get("abstractNote") or "",
            date=data.get("date") or "",
            url=data.get("url") or "",
            creators=[c for c in creators if c],
            parent=data.get("parentItem"),
            content_type=data.get("contentType"),
            filename=data.get("filename"),
            link_mode=data.get("linkMode"),
            children=int((record.get("meta") or {}).get("numChildren") or 0),
        )

    @property
    def is_pdf(self) -> bool:
        return self.item_type == "attachment" and (self.content_type or "").lower() == "application/pdf"


class ZoteroClient:
    """Reads one Zotero library over HTTP (web or local API); see the module docstring."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        *,
        library: ZoteroLibrary,
        api_key: str | None = None,
        base_url: str = WEB_API,
        max_file_bytes: int = MAX_PDF_BYTES,
        timeout: float = 30.0,
    ) -> None:
        self.client = client
        self.library = library
        self._api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_file_bytes = max_file_bytes
        self.timeout = timeout
        self.local = self.base_url.startswith(("http://localhost", "http://127.0.0.1"))

    @classmethod
    def local_api(cls, client: httpx.AsyncClient, *, base_url: str = LOCAL_API) -> ZoteroClient:
        """The Zotero 7 desktop app's local API (its own library is user 0; no key)."""
        return cls(client, library=ZoteroLibrary("users", "0"), base_url=base_url)

    def _headers(self) -> dict[str, str]:
        headers = {"Zotero-API-Version": "3"}
        if self._api_key:
            headers["Zotero-API-Key"] = self._api_key
        return headers

    async def _get(self, path: str, params: dict[str, Any] | None = None) -> httpx.Response:
        url = f"{self.base_url}{self.library.prefix}{path}"
        try:
            response = await self.client.get(
                url, params=params, headers=self._headers(), timeout=self.timeout, follow_redirects=True
            )
        except httpx.HTTPError as exc:
            where = (
                "the Zotero desktop app (is it running, with the local API enabled?)"
                if self.local
                else "Zotero"
            )
            raise ZoteroError(f"could not reach {where}: {type(exc).__name__}") from exc
        if response.status_code in (401, 403):
            if self.local:
                raise ZoteroAuthError(
                    "the Zotero desktop app refused the request: enable 'Allow other applications on this "
                    "computer to communicate with Zotero' in Zotero's settings"
                )
            what = "was refused" if self._api_key else "is not set"
            raise ZoteroAuthError(
                f"Zotero answered {response.status_code}: the API key {what} for library "
                f"{self.library.kind}/{self.library.id}; check the setting zotero_api_key "
                "(SCHOLARMAP_ZOTERO_API_KEY) and that the key may read this library"
            )
        if response.status_code == 429:
            raise ZoteroError("Zotero is rate-limiting this key (429); try again later")
        return response

    async def _json(self, path: str, params: dict[str, Any] | None = None) -> Any:
        response = await self._get(path, {"format": "json", **(params or {})})
        if response.status_code == 404:
            raise ZoteroError(f"not found in library {self.library.kind}/{self.library.id}: {path}")
        if response.status_code >= 400:
            raise ZoteroError(f"Zotero answered {response.status_code} for {path}")
        try:
            return response.json()
        except ValueError as exc:
            raise ZoteroError(f"Zotero sent something that is not JSON for {path}") from exc

    async def items(
        self, *, top: bool = True, query: str | None = None, limit: int = 500
    ) -> list[ZoteroItem]:
        """Items of the library (top-level ones by default), newest changes first, up to `limit`."""
        out: list[ZoteroItem] = []
        start = 0
        params: dict[str, Any] = {"qmode": "everything", "q": query} if query else {}
        while len(out) < limit:
            page = await self._json(
                "/items/top" if top else "/items", {**params, "start": start, "limit": PAGE}
            )
            if not isinstance(page, list) or not page:
                break
            out.extend(ZoteroItem.from_json(record) for record in page)
            if len(page) < PAGE:
                break
            start += PAGE
        return out[:limit]

    async def item(self, key: str) -> ZoteroItem:
        return ZoteroItem.from_json(await self._json(f"/items/{key}"))

    async def children(self, key: str) -> list[ZoteroItem]:
        page = await self._json(f"/items/{key}/children")
        return [ZoteroItem.from_json(record) for record in page] if isinstance(page, list) else []

    async def fulltext(self, attachment_key: str) -> str | None:
        """The text Zotero indexed for an attachment; None when it has none (404)."""
        response = await self._get(f"/items/{attachment_key}/fulltext")
        if response.status_code == 404:
            return None
        if response.status_code >= 400:
            raise ZoteroError(f"Zotero answered {response.status_code} for the full text of {attachment_key}")
        try:
            content = response.json().get("content")
        except (ValueError, AttributeError) as exc:
            raise ZoteroError(f"unreadable full-text record for {attachment_key}") from exc
        return content if isinstance(content, str) and content.strip() else None

    async def file(self, attachment_key: str) -> bytes:
        """An attachment's file, refused past `max_file_bytes`."""
        response = await self._get(f"/items/{attachment_key}/file")
        if response.status_code == 404:
            raise ZoteroError(f"attachment {attachment_key} has no file in Zotero storage")
        if response.status_code >= 400:
            raise ZoteroError(f"Zotero answered {response.status_code} for the file of {attachment_key}")
        if len(response.content) > self.max_file_bytes:
            raise PdfError(f"the attachment is over the {self.max_file_bytes / 2**20:.3g} MB limit")
        return response.content

    async def find(self, *, doi: str | None = None, title: str | None = None) -> ZoteroItem | None:
        """The library's item for a paper: by DOI, else by exact title (case and spacing ignored)."""
        if doi:
            wanted = normalize_doi(doi)
            for item in await self.items(query=wanted, limit=25):
                if item.doi == wanted:
                    return item
        if title:
            plain = " ".join(title.casefold().split())
            for item in await self.items(query=title[:200], limit=25):
                if " ".join(item.title.casefold().split()) == plain:
                    return item
        return None

    async def item_fulltext(self, key: str) -> tuple[list[FullTextSection], str]:
        """002's `zotero_get_item_fulltext` for one item: (sections, how), `([], "No attachment")`
        when there is nothing to read. The full-text index is tried before the PDF file."""
        attachments = [child for child in await self.children(key) if child.item_type == "attachment"]
        if not attachments:
            return [], "No attachment"
        for attachment in sorted(attachments, key=lambda a: not a.is_pdf):
            text = await self.fulltext(attachment.key)
            if text:
                return sections_from_lines(text.splitlines()), f"Zotero full-text index ({attachment.key})"
        notes: list[str] = []
        for attachment in attachments:
            if not attachment.is_pdf or attachment.link_mode in ("linked_url",):
                continue
            try:
                return parse_pdf(await self.file(attachment.key)), f"Zotero PDF attachment ({attachment.key})"
            except (PdfError, ZoteroError) as exc:
                notes.append(f"{attachment.key}: {exc}")
        return [], "; ".join(notes) or "No attachment with text (no index, no PDF)"
