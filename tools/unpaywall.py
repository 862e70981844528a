"""Unpaywall: where a DOI's open-access copy lives (URL, PDF URL, licence, version, host).

`GET /v2/{doi}?email=…` answers one record; an unknown DOI is a 404 (`NotFound`), a missing or invalid
e-mail a 422 (`BadQuery`). Unpaywall has no API key: the e-mail is its only identification, so it is
required here rather than silently sent empty.

Repository copies in PubMed Central are recognised (`pmh_id` "oai:pubmedcentral.nih.gov:NNN" or a PMC
article URL), because such a copy can be read as structured JATS from Europe PMC instead of a PDF.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field

from agent.models import normalize_doi, normalize_pmcid
from tools.errors import BadQuery, BadResponse, EmptyQuery
from tools.http import HttpPolicy

SERVICE = "unpaywall"

_PMC_OAI = re.compile(r"^oai:pubmedcentral\.nih\.gov:(\d+)$", re.IGNORECASE)
_PMC_URL = re.compile(
    r"(?:ncbi\.nlm\.nih\.gov/pmc/articles|europepmc\.org/articles|pmc\.ncbi\.nlm\.nih\.gov/articles)/(?:PMC)?(\d+)",
    re.IGNORECASE,
)


class OALocation(BaseModel):
    """One place an open-access copy can be read."""

    model_config = ConfigDict(extra="ignore")

    url: str | None = None
    url_for_pdf: str | None = None
    url_for_landing_page: str | None = None
    license: str | None = None
    version: str | None = None  # submittedVersion | acceptedVersion | publishedVersion
    host_type: str | None = None  # publisher | repository
    is_best: bool = False
    pmh_id: str | None = None
    repository_institution: str | None = None
    oa_date: str | None = None

    @property
    def pmcid(self) -> str | None:
        """The PMCID when this copy is held by PubMed Central."""
        if self.pmh_id and (match := _PMC_OAI.match(self.pmh_id.strip())):
            return normalize_pmcid(match.group(1))
        for url in (self.url, self.url_for_landing_page, self.url_for_pdf):
            if url and (match := _PMC_URL.search(url)):
                return normalize_pmcid(match.group(1))
        return None


class OAInfo(BaseModel):
    """What Unpaywall knows about one DOI's open-access status."""

    model_config = ConfigDict(extra="ignore")

    doi: str
    title: str | None = None
    year: int | None = None
    genre: str | None = None
    journal_name: str | None = None
    publisher: str | None = None
    is_oa: bool = False
    oa_status: str = "closed"  # gold | hybrid | bronze | green | closed
    has_repository_copy: bool = False
    best_oa_location: OALocation | None = None
    oa_locations: list[OALocation] = Field(default_factory=list)

    @property
    def url(self) -> str | None:
        """The best open-access URL (a landing page or a PDF), or None when closed."""
        best = self.best_oa_location
        return (best.url or best.url_for_pdf or best.url_for_landing_page) if best else None

    @property
    def pdf_url(self) -> str | None:
        """A direct PDF URL: the best location's, else any location's."""
        for location in self._locations():
            if location.url_for_pdf:
                return location.url_for_pdf
        return None

    @property
    def license(self) -> str | None:
        return self.best_oa_location.license if self.best_oa_location else None

    @property
    def pmcid(self) -> str | None:
        """The PMCID of a PubMed Central copy among the locations, if any."""
        for location in self._locations():
            if pmcid := location.pmcid:
                return pmcid
        return None

    def _locations(self) -> list[OALocation]:
        best = [self.best_oa_location] if self.best_oa_location else []
        return best + [loc for loc in self.oa_locations if loc is not self.best_oa_location]


class UnpaywallClient:
    """Typed access to Unpaywall through the shared HTTP policy."""

    service = SERVICE

    def __init__(self, http: HttpPolicy, *, email: str) -> None:
        if not email or "@" not in email:
            raise ValueError("Unpaywall needs a contact e-mail (set SCHOLARMAP_UNPAYWALL_EMAIL)")
        params = {**http.config.default_params, "email": email}
        # a copy, not an edit: the caller's SourceConfig may be shared with other clients
        http.config = dataclasses.replace(http.config, default_params=params)
        self.http = http

    async def lookup(self, doi: str) -> OAInfo:
        """The open-access record of one DOI; `NotFound` when Unpaywall does not know it."""
        normalized = normalize_doi(doi)
        if normalized is None:
            raise (
                EmptyQuery(SERVICE) if not (doi or "").strip() else BadQuery(SERVICE, f"{doi!r} is not a DOI")
            )
        # the DOI is a path segment; its "/" stays literal (that is how Unpaywall documents it)
        body = await self.http.get_json(quote(normalized, safe="/:;()"))
        return parse_record(body)

    async def search(self, query: str) -> list[tuple[OAInfo, float]]:
        """Title search: records with Unpaywall's relevance score, best first."""
        query = (query or "").strip()
        if not query:
            raise EmptyQuery(SERVICE)
        body = await self.http.get_json("search", {"query": query})
        if not isinstance(body, dict) or not isinstance(body.get("results"), list):
            raise BadResponse(SERVICE, "search answer has no results list")
        out = []
        for item in body["results"]:
            if isinstance(item, dict) and isinstance(item.get("response"), dict):
                out.append((parse_record(item["response"]), float(item.get("score") or 0.0)))
        return out


def parse_record(body: Any) -> OAInfo:
    if not isinstance(body, dict) or not body.get("doi"):
        raise BadResponse(SERVICE, "record has no doi")
    try:
        info = OAInfo.model_validate(body)
    except ValueError as exc:
        raise BadResponse(SERVICE, f"record does not match the documented shape: {exc}") from None
    # `best_oa_location` is also one of `oa_locations`; make them the same object so `is` tests work
    if info.best_oa_location is not None:
        for index, location in enumerate(info.oa_locations):
            if location == info.best_oa_location:
                info.oa_locations[index] = info.best_oa_location
    return info
