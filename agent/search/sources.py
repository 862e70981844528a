"""The one place that builds the outside-service clients from Settings.

    async with open_sources(settings) as sources:
        outcome = await sources.pubmed.search("...", limit=200)

Everything opened here is shared by every client: one pooled `httpx.AsyncClient`, one registry of
rate limiters (so PubMed and MeSH, both on E-utilities, spend one NCBI budget), and one response
cache on disk. Each service gets its own `SourceConfig` (base URL, rate, timeout, retries, backoff,
User-Agent and the secrets to scrub) built from Settings by `source_configs`, a pure function.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import httpx

from agent.settings import Settings
from tools.cache import ResponseCache
from tools.europepmc import EuropePMCClient
from tools.http import USER_AGENT, HttpPolicy, RateLimiterRegistry, SourceConfig
from tools.mesh import MeshClient, MeshFile
from tools.mesh_build import EMBEDDED_MESH
from tools.openalex import OpenAlexClient
from tools.pubmed import PubMedClient
from tools.semantic_scholar import SemanticScholarClient
from tools.unpaywall import UnpaywallClient
from tools.wikidata import WikidataClient
from tools.wikipedia import WikipediaClient

# The policies open_sources builds. "mesh" is MeSH through E-utilities (the PubMed base URL, so it
# shares NCBI's rate limiter with PubMed); "mesh_rdf" is the NLM MeSH RDF lookup API (mesh_base_url).
POLICIES: tuple[str, ...] = (
    "pubmed",
    "mesh",
    "mesh_rdf",
    "openalex",
    "semantic_scholar",
    "wikidata",
    "wikipedia",
    "europepmc",
    "unpaywall",
)


@dataclass
class SourceClients:
    """Every outside-service client of one session, over one shared HTTP client."""

    pubmed: PubMedClient
    mesh: MeshClient
    openalex: OpenAlexClient
    semantic_scholar: SemanticScholarClient
    wikidata: WikidataClient
    wikipedia: WikipediaClient
    europepmc: EuropePMCClient
    unpaywall: UnpaywallClient | None = None  # None when no usable contact e-mail is configured
    mesh_file: MeshFile | None = None  # the MeSH table: settings.mesh_file, else the one ScholarMap ships
    http: httpx.AsyncClient | None = field(default=None, repr=False)
    cache: ResponseCache | None = field(default=None, repr=False)


def user_agent(settings: Settings) -> str:
    """Names the project and a contact, as NCBI, OpenAlex and the Wikimedia User-Agent policy ask."""
    return USER_AGENT.format(email=settings.contact_email)


def configured_secrets(settings: Settings) -> tuple[str, ...]:
    """The literal values of every configured key, so any policy can scrub any of them."""
    values = []
    for secret in (
        settings.ncbi_api_key,
        settings.openalex_api_key,
        settings.semantic_scholar_api_key,
        settings.zotero_api_key,
        settings.openai_api_key,
    ):
        if secret is not None and secret.get_secret_value():
            values.append(secret.get_secret_value())
    return tuple(values)


def source_configs(settings: Settings) -> dict[str, SourceConfig]:
    """One SourceConfig per policy in POLICIES, from Settings (no I/O)."""
    base_urls = {
        "pubmed": settings.base_url("pubmed"),
        "mesh": settings.base_url("pubmed"),
        "mesh_rdf": settings.base_url("mesh"),
        "openalex": settings.base_url("openalex"),
        "semantic_scholar": settings.base_url("semantic_scholar"),
        "wikidata": settings.base_url("wikidata"),
        "wikipedia": settings.base_url("wikipedia"),
        "europepmc": settings.base_url("europepmc"),
        "unpaywall": settings.base_url("unpaywall"),
    }
    rates = {
        "pubmed": settings.pubmed_rate,
        "mesh": settings.pubmed_rate,
        "mesh_rdf": settings.pubmed_rate,
        "openalex": settings.rate_openalex,
        "semantic_scholar": settings.rate_semantic_scholar,
        "wikidata": settings.rate_wikimedia,
        "wikipedia": settings.rate_wikimedia,
        "europepmc": settings.rate_other,
        "unpaywall": settings.rate_other,
    }
    headers = {"User-Agent": user_agent(settings)}
    secrets = configured_secrets(settings)
    return {
        name: SourceConfig(
            service="mesh" if name == "mesh_rdf" else name,
            base_url=base_urls[name],
            rate=rates[name],
            timeout=settings.http_timeout,
            retries=settings.http_retries,
            backoff=settings.http_backoff,
            max_retry_after=settings.http_max_retry_after,
            concurrency=settings.http_concurrency,
            cache_ttl=settings.cache_ttl,
            headers=dict(headers),
            secrets=secrets,
        )
        for name in POLICIES
    }


def http_limits(settings: Settings) -> httpx.Limits:
    # Each service may have `http_concurrency` requests in flight (its policy's semaphore); the pool
    # must hold all of them at once, or one slow service would starve the others of connections.
    size = settings.http_concurrency * len(POLICIES)
    return httpx.Limits(max_connections=size, max_keepalive_connections=size)


def _secret(value: object) -> str | None:
    getter = getattr(value, "get_secret_value", None)
    return getter() if getter else None


@asynccontextmanager
async def open_sources(
    settings: Settings, *, client: httpx.AsyncClient | None = None
) -> AsyncIterator[SourceClients]:
    """Open every client over one shared HTTP client, registry of rate limiters and cache.

    An injected `client` (tests: a MockTransport or a client with extra headers) is used as is and
    left open; otherwise one is created with pool limits from `settings.http_concurrency` and closed.
    """
    own_client = client is None
    http = client or httpx.AsyncClient(
        limits=http_limits(settings),
        timeout=settings.http_timeout,
        headers={"User-Agent": user_agent(settings)},
        follow_redirects=True,
    )
    cache = ResponseCache(settings.data_dir / "cache" / "http.sqlite") if settings.cache_ttl > 0 else None
    limiters = RateLimiterRegistry()
    configs = source_configs(settings)

    def policy(name: str) -> HttpPolicy:
        return HttpPolicy(http, configs[name], limiters=limiters, cache=cache)

    ncbi_key = _secret(settings.ncbi_api_key)
    unpaywall: UnpaywallClient | None
    try:
        unpaywall = UnpaywallClient(
            policy("unpaywall"), email=settings.unpaywall_email or settings.contact_email
        )
    except ValueError:
        unpaywall = None  # no usable e-mail: open-access lookups are skipped, nothing else is affected
    try:
        yield SourceClients(
            pubmed=PubMedClient(policy("pubmed"), api_key=ncbi_key, email=settings.contact_email),
            mesh=MeshClient(
                policy("mesh"), rdf=policy("mesh_rdf"), api_key=ncbi_key, email=settings.contact_email
            ),
            openalex=OpenAlexClient(
                policy("openalex"),
                mailto=settings.openalex_mailto or settings.contact_email,
                api_key=_secret(settings.openalex_api_key),
            ),
            semantic_scholar=SemanticScholarClient(
                policy("semantic_scholar"), api_key=_secret(settings.semantic_scholar_api_key)
            ),
            wikidata=WikidataClient(policy("wikidata")),
            wikipedia=WikipediaClient(policy("wikipedia")),
            europepmc=EuropePMCClient(policy("europepmc")),
            unpaywall=unpaywall,
            mesh_file=MeshFile(settings.mesh_file or EMBEDDED_MESH),
            http=http,
            cache=cache,
        )
    finally:
        if own_client:
            await http.aclose()
        if cache is not None:
            cache.close()


__all__ = ["POLICIES", "SourceClients", "configured_secrets", "http_limits", "open_sources", "source_configs"]
