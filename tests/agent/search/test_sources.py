"""agent/search/sources.py: Settings -> SourceConfigs, and what open_sources shares between the clients."""

from __future__ import annotations

from pathlib import Path

import httpx

from agent.search.sources import POLICIES, configured_secrets, http_limits, open_sources, source_configs
from agent.settings import load_settings
from tools.mesh_build import EMBEDDED_MESH


def test_configs_follow_the_settings(tmp_path: Path) -> None:
    settings = load_settings(
        data_dir=tmp_path,
        contact_email="lab@example.edu",
        http_timeout=7.5,
        http_retries=2,
        http_backoff=0.25,
        http_max_retry_after=30,
        http_concurrency=3,
        rate_openalex=8,
        mesh_base_url="http://127.0.0.1:9/mesh",
    )
    configs = source_configs(settings)
    assert set(configs) == set(POLICIES)
    assert configs["pubmed"].rate == configs["mesh"].rate == configs["mesh_rdf"].rate == 3.0  # no NCBI key
    assert configs["semantic_scholar"].rate == 1.0 and configs["openalex"].rate == 8.0
    assert configs["wikidata"].rate == configs["wikipedia"].rate == settings.rate_wikimedia
    # MeSH's E-utilities policy shares PubMed's base URL (one NCBI budget); the RDF API has its own
    assert configs["mesh"].base_url == settings.base_url("pubmed") and configs["mesh"].service == "mesh"
    assert configs["mesh_rdf"].base_url == "http://127.0.0.1:9/mesh" and configs["mesh_rdf"].service == "mesh"
    for config in configs.values():
        assert (config.timeout, config.retries, config.backoff, config.max_retry_after) == (7.5, 2, 0.25, 30)
        assert config.concurrency == 3 and config.cache_ttl == settings.cache_ttl
        assert (
            "ScholarMap" in config.headers["User-Agent"] and "lab@example.edu" in config.headers["User-Agent"]
        )
        assert config.secrets == ()
    assert http_limits(settings).max_connections == 3 * len(POLICIES)


def test_keys_raise_the_ncbi_rate_and_are_scrubbed_everywhere(tmp_path: Path) -> None:
    settings = load_settings(
        data_dir=tmp_path,
        ncbi_api_key="ncbi-secret",
        semantic_scholar_api_key="s2-secret",
        openalex_api_key="",
    )
    assert configured_secrets(settings) == ("ncbi-secret", "s2-secret")
    configs = source_configs(settings)
    assert configs["pubmed"].rate == configs["mesh"].rate == 10.0
    assert all(c.secrets == ("ncbi-secret", "s2-secret") for c in configs.values())


async def test_open_sources_shares_one_client_limiter_registry_and_cache(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, ncbi_api_key="ncbi-secret", unpaywall_email="oa@example.org")
    async with open_sources(settings) as sources:
        policies = [
            sources.pubmed.http,
            sources.mesh.http,
            sources.mesh.rdf,
            sources.openalex.http,
            sources.semantic_scholar.http,
            sources.wikidata.http,
            sources.wikipedia.http,
            sources.europepmc.http,
        ]
        assert sources.unpaywall is not None
        policies.append(sources.unpaywall.http)
        assert all(p is not None and p.client is sources.http for p in policies)
        assert sources.pubmed.http.limiter is sources.mesh.http.limiter  # one NCBI budget
        assert sources.openalex.http.limiter is not sources.pubmed.http.limiter
        assert sources.cache is not None and all(p is not None and p.cache is sources.cache for p in policies)
        assert (tmp_path / "cache" / "http.sqlite").is_file()
        assert sources.mesh_file is not None and sources.mesh_file.path == EMBEDDED_MESH  # the shipped table
        client = sources.http
    assert client is not None and client.is_closed  # opened here, so closed here


async def test_an_injected_client_is_used_and_left_open_and_no_cache_without_ttl(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, cache_ttl=0, mesh_file=tmp_path / "mesh.jsonl")
    async with httpx.AsyncClient() as client:
        async with open_sources(settings, client=client) as sources:
            assert sources.http is client and sources.cache is None
            assert sources.pubmed.http.cache is None
            assert sources.mesh_file is not None and sources.mesh_file.path == tmp_path / "mesh.jsonl"
        assert not client.is_closed
    assert not (tmp_path / "cache").exists()
