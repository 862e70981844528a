"""The HTTP policy and the real clients against the fake-sources server over a real socket.

One test per fault kind (the expected typed error, or a successful retry, within bounded time), the
rate a client really produces as measured at the server, and a smoke test per client through
`open_sources` with every base URL pointing at the fake server.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agent.models import normalize_doi
from agent.search.sources import SourceClients, open_sources
from agent.settings import Settings, load_settings
from evals.fake_sources import FakeConfig, RunningFakeSources, running_fake_sources
from evals.fake_sources.__main__ import main as fake_sources_main
from tests.paths import REPO
from tools.errors import BadResponse, RateLimited, ServiceCallError, SourceTimeout, SourceUnavailable
from tools.http import HttpPolicy, RateLimiterRegistry, SourceConfig

TIMEOUT = 0.5
RETRIES = 2  # for faults a retry gets past; a fault that persists is given one retry (two attempts)


def s2_policy(
    fake: RunningFakeSources, client: httpx.AsyncClient, fault: str | None = None, **extra: Any
) -> HttpPolicy:
    values: dict[str, Any] = {
        "service": "semantic_scholar",
        "base_url": fake.base_urls["semantic_scholar"],
        "rate": 1000.0,
        "timeout": TIMEOUT,
        "retries": RETRIES,
        "backoff": 0.01,
        "max_retry_after": 2.0,
        "headers": {"X-Fake-Fault": fault} if fault else {},
    }
    values.update(extra)
    return HttpPolicy(client, SourceConfig(**values))


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as http:
        yield http


async def search(http: HttpPolicy) -> Any:
    return await http.get_json("paper/search", {"query": "sleep apnea", "limit": 3, "fields": "title"})


# ------------------------------------------------------------------------------------------------
# one test per fault kind
# ------------------------------------------------------------------------------------------------

# fault spec -> requests the server should see before the client succeeds
RECOVERED = {
    "latency:150": 1,
    "429*2": 3,
    "500*1": 2,
    "502*1": 2,
    "503*2": 3,
    "504*1": 2,
    "hang*1": 2,
    "reset*1": 2,
    "truncate-abort*1": 2,
}


@pytest.mark.parametrize("fault", list(RECOVERED))
async def test_faults_that_a_retry_gets_past(
    fake_sources: RunningFakeSources, client: httpx.AsyncClient, fault: str
) -> None:
    # a slow answer well inside the timeout is taken at the first attempt; 4x the margin, so that a
    # busy machine does not turn the 150 ms into a timeout and a retry
    extra = {"timeout": 4 * TIMEOUT} if fault.startswith("latency") else {}
    started = time.monotonic()
    body = await search(s2_policy(fake_sources, client, fault, **extra))
    elapsed = time.monotonic() - started
    assert body["total"] > 0 and len(body["data"]) == 3
    records = fake_sources.app.requests_for("semantic_scholar")
    assert len(records) == RECOVERED[fault]
    assert records[-1].status == 200 and records[-1].fault is None
    if fault.startswith("latency"):
        assert elapsed >= 0.15
    assert elapsed < TIMEOUT * RETRIES + 1.0


# fault spec -> (error type, words in its message)
FAILED: dict[str, tuple[type[ServiceCallError], str]] = {
    "429": (RateLimited, "semantic_scholar: rate-limited us (HTTP 429) after 2 attempt(s)"),
    "503": (SourceUnavailable, "semantic_scholar: HTTP 503 after 2 attempt(s)"),
    "hang": (SourceTimeout, "semantic_scholar: no answer within 0.5 s"),
    "reset": (SourceUnavailable, "semantic_scholar: connection failed"),
    "truncate-abort": (SourceUnavailable, "semantic_scholar: connection failed"),
    "truncate": (BadResponse, "but got malformed JSON"),
    "malformed": (BadResponse, "but got malformed JSON"),
    "html": (BadResponse, "but got an HTML page"),
    "latency:900": (SourceTimeout, "no answer within 0.5 s"),
}


@pytest.mark.parametrize("fault", list(FAILED))
async def test_faults_that_end_in_a_typed_error(
    fake_sources: RunningFakeSources, client: httpx.AsyncClient, fault: str
) -> None:
    error_type, words = FAILED[fault]
    started = time.monotonic()
    with pytest.raises(error_type) as caught:
        await search(s2_policy(fake_sources, client, fault, retries=1))
    elapsed = time.monotonic() - started
    assert type(caught.value) is error_type
    assert caught.value.service == "semantic_scholar" and words in str(caught.value)
    # attempts x timeout plus backoffs is the most any failure may take
    assert elapsed < TIMEOUT * 2 + 0.5
    attempts = len(fake_sources.app.requests_for("semantic_scholar"))
    assert attempts == (1 if error_type is BadResponse else 2)


async def test_429_retry_after_is_honoured_over_the_wire(
    fake_sources: RunningFakeSources, client: httpx.AsyncClient
) -> None:
    await search(s2_policy(fake_sources, client, "429:0.6*1"))
    first, second = fake_sources.app.request_times("semantic_scholar")
    assert second - first >= 0.59


async def test_retry_after_beyond_the_ceiling_ends_the_source_at_once(
    fake_sources: RunningFakeSources, client: httpx.AsyncClient
) -> None:
    started = time.monotonic()
    with pytest.raises(RateLimited, match="wait 120 s"):
        await search(s2_policy(fake_sources, client, "429:120*1", max_retry_after=0.3))
    assert time.monotonic() - started < 1.0
    assert len(fake_sources.app.requests_for("semantic_scholar")) == 1


async def test_fault_by_query_parameter(fake_sources: RunningFakeSources, client: httpx.AsyncClient) -> None:
    http = s2_policy(fake_sources, client, default_params={"fake_fault": "503*1"})
    assert (await search(http))["data"]
    assert [r.status for r in fake_sources.app.requests_for("semantic_scholar")] == [503, 200]


async def test_fault_and_latency_from_start_options(client: httpx.AsyncClient) -> None:
    config = FakeConfig(latency_ms=120, faults={"openalex": "500*1"})
    with running_fake_sources(config) as fake:
        http = HttpPolicy(
            client, SourceConfig(service="openalex", base_url=fake.base_urls["openalex"], backoff=0.01)
        )
        started = time.monotonic()
        body = await http.get_json("works", {"search": "sleep apnea", "per_page": 2})
        assert len(body["results"]) == 2
        assert time.monotonic() - started >= 0.24  # two requests, 120 ms each
        assert [r.status for r in fake.app.requests_for("openalex")] == [500, 200]


async def test_malformed_xml_reaches_the_pubmed_parser_as_bad_response(
    fake_sources: RunningFakeSources,
) -> None:
    settings = _settings(fake_sources, Path("/nonexistent"), cache_ttl=0)
    async with (
        httpx.AsyncClient(headers={"X-Fake-Fault": "malformed"}) as http,
        open_sources(settings, client=http) as sources,
    ):
        with pytest.raises(BadResponse) as caught:
            await sources.pubmed.efetch(["35108047"])
    assert caught.value.service == "pubmed"


# ------------------------------------------------------------------------------------------------
# rate, measured at the server
# ------------------------------------------------------------------------------------------------


def assert_rate(times: list[float], rate: float) -> None:
    """No one-second window holds more than `rate` starts (+1: arrival jitter at a window's edge), and
    the mean rate is at most 5 % above `rate`, with one interval of arrival jitter allowed (a first
    request that reaches a loaded server late shortens the measured span: 30 starts granted 1/30 s apart
    arrived within 0.915 s once, at load 2.5)."""
    times = sorted(times)
    for i, start in enumerate(times):
        in_window = sum(1 for t in times[i:] if t - start < 1.0)
        assert in_window <= rate + 1, f"{in_window} requests within 1 s of t={start - times[0]:.3f}"
    assert (len(times) - 1) / (times[-1] - times[0] + 1 / rate) <= rate * 1.05


async def test_thirty_concurrent_requests_never_exceed_the_rate(
    fake_sources: RunningFakeSources, client: httpx.AsyncClient
) -> None:
    rate = 30.0
    config = SourceConfig(
        service="openalex", base_url=fake_sources.base_urls["openalex"], rate=rate, concurrency=30
    )
    http = HttpPolicy(client, config)
    await asyncio.gather(
        *(http.get_json("works", {"search": f"topic {i}", "per_page": 1}) for i in range(30))
    )
    times = fake_sources.app.request_times("openalex")
    assert len(times) == 30
    assert_rate(times, rate)


async def test_pubmed_and_mesh_share_one_ncbi_budget(
    fake_sources: RunningFakeSources, tmp_path: Path
) -> None:
    rate = 30.0
    settings = _settings(fake_sources, tmp_path, rate_pubmed=rate, cache_ttl=0)
    async with open_sources(settings) as sources:
        pubmed = [sources.pubmed.count(f"sleep {i}") for i in range(15)]
        # MeSH's own E-utilities policy; which database it asks does not matter here, its limiter does
        mesh = [
            sources.mesh.http.get_json(
                "esearch.fcgi", {"db": "pubmed", "term": f"sleep {i}", "retmode": "json"}
            )
            for i in range(15)
        ]
        await asyncio.gather(*pubmed, *mesh)
    times = fake_sources.app.request_times("pubmed")  # MeSH goes to E-utilities too
    assert len(times) == 30
    assert_rate(times, rate)


# ------------------------------------------------------------------------------------------------
# the real clients through open_sources
# ------------------------------------------------------------------------------------------------

QUERY = "wearable ecg atrial fibrillation"
TOTAL = 600


def _settings(fake: RunningFakeSources, data_dir: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "data_dir": data_dir,
        "rate_pubmed": 100.0,
        "rate_semantic_scholar": 100.0,
        "rate_openalex": 100.0,
        "rate_wikimedia": 100.0,
        "http_backoff": 0.01,
        "http_timeout": 5.0,
        **fake.settings_overrides(),
    }
    values.update(overrides)
    return load_settings(**values)


@pytest.fixture
async def sources(fake_sources: RunningFakeSources, tmp_path: Path) -> AsyncIterator[SourceClients]:
    # every generated search lists TOTAL results, whatever the query (the fake reads X-Fake-Total)
    async with (
        httpx.AsyncClient(headers={"X-Fake-Total": str(TOTAL)}) as http,
        open_sources(_settings(fake_sources, tmp_path), client=http) as clients,
    ):
        yield clients


async def test_pubmed_search_through_history_and_efetch(
    sources: SourceClients, fake_sources: RunningFakeSources
) -> None:
    outcome = await sources.pubmed.search(QUERY, limit=250)
    truth = fake_sources.app.truth_for(QUERY, limit=250, fake_total=TOTAL)
    assert outcome.total == TOTAL
    assert len(outcome.papers) == 250 and outcome.pages == 2
    expected = [
        r.ids["pubmed"]
        for r in sorted(truth.records, key=lambda r: r.ranks.get("pubmed", 10**9))
        if "pubmed" in r.ids
    ]
    assert [p.pmid for p in outcome.papers] == expected
    assert all(p.title and p.authors for p in outcome.papers)
    assert outcome.translation and "[Title/Abstract]" not in QUERY
    paths = [r.path for r in fake_sources.app.requests_for("pubmed")]
    assert paths.count("/esearch.fcgi") == 1 and paths.count("/efetch.fcgi") == 2


async def test_openalex_search_works_cursor_paging(
    sources: SourceClients, fake_sources: RunningFakeSources
) -> None:
    outcome = await sources.openalex.search_works(search=QUERY, limit=250, paging="cursor")
    assert len(outcome.papers) == 250 and outcome.total == TOTAL
    pages = [r for r in fake_sources.app.requests_for("openalex") if r.path == "/works"]
    assert len(pages) == 2 and "cursor=%2A" in pages[0].query


async def test_openalex_search_works_numbered_pages(
    sources: SourceClients, fake_sources: RunningFakeSources
) -> None:
    cursor = await sources.openalex.search_works(search=QUERY, limit=450, paging="cursor")
    fake_sources.app.reset()
    pages = await sources.openalex.search_works(search=QUERY, limit=450)
    requests = [r for r in fake_sources.app.requests_for("openalex") if r.path == "/works"]
    assert len(requests) == 3 and all("page=" in r.query for r in requests)
    assert [p.openalex_id for p in pages.papers] == [p.openalex_id for p in cursor.papers]


async def test_semantic_scholar_search_bulk(sources: SourceClients, fake_sources: RunningFakeSources) -> None:
    outcome = await sources.semantic_scholar.search_bulk(QUERY, limit=250)
    assert len(outcome.papers) == 250
    assert outcome.total == TOTAL
    assert all(p.semantic_scholar_id for p in outcome.papers)


async def test_the_three_searches_agree_with_the_truth_on_dois(
    sources: SourceClients, fake_sources: RunningFakeSources
) -> None:
    pubmed, openalex, s2 = await asyncio.gather(
        sources.pubmed.search(QUERY, limit=150),
        sources.openalex.search_works(search=QUERY, limit=150),
        sources.semantic_scholar.search_bulk(QUERY, limit=150),
    )
    found = (
        {("pubmed", p.pmid): p.doi for p in pubmed.papers}
        | {("openalex", (p.openalex_id or "").rsplit("/", 1)[-1]): p.doi for p in openalex.papers}
        | {("semantic_scholar", p.semantic_scholar_id): p.doi for p in s2.papers}
    )
    truth = fake_sources.app.truth_for(QUERY, limit=150, fake_total=TOTAL)
    shared = [r for r in truth.records if r.shared and r.doi]
    assert len(shared) > 50
    for record in shared:
        for service, source_id in record.ids.items():
            assert found[(service, source_id)] == normalize_doi(record.doi)


async def test_mesh_lookup(sources: SourceClients) -> None:
    descriptors = await sources.mesh.lookup("hypertension")
    assert descriptors[0].ui == "D006973" and descriptors[0].heading == "Hypertension"
    assert "C14.907.489" in descriptors[0].tree_numbers


async def test_wikidata_search_entities(sources: SourceClients) -> None:
    entities = await sources.wikidata.search_entities("deep learning")
    assert entities and entities[0].label == "deep learning"
    names = await sources.wikidata.aliases("deep learning")
    assert "深度学习" in names


async def test_wikipedia_redirects(sources: SourceClients) -> None:
    redirects = await sources.wikipedia.redirects("deep learning")
    assert "DL" in redirects and "Deep learning" not in redirects


async def test_recorded_responses_reach_the_clients(sources: SourceClients) -> None:
    [paper] = await sources.pubmed.efetch(["35108047"])
    assert paper.doi == "10.1126/sciadv.abl6449"
    assert any("China" in a.raw for author in paper.authors for a in author.affiliations)
    work = await sources.openalex.get_work("10.1016/j.xgen.2025.100814")
    assert work.title.startswith("High-throughput screening of human genetic variants")


# ------------------------------------------------------------------------------------------------
# the command line
# ------------------------------------------------------------------------------------------------


def test_print_env_lines_configure_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert fake_sources_main(["--port", "8799", "--print-env"]) == 0
    lines = capsys.readouterr().out.split()
    assert len(lines) == 9
    for line in lines:
        name, _, value = line.partition("=")
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert settings.base_url("pubmed") == "http://127.0.0.1:8799/pubmed"
    assert settings.base_url("zotero") == "http://127.0.0.1:8799/zotero"


def test_command_line_serves_until_stopped() -> None:
    with socket_port() as port:
        pass
    process = subprocess.Popen(
        [sys.executable, "-m", "evals.fake_sources", "--port", str(port), "--fault", "pubmed=503*1"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/pubmed/esearch.fcgi"
        deadline = time.monotonic() + 30
        statuses = []
        while time.monotonic() < deadline:
            try:
                statuses.append(
                    httpx.get(url, params={"term": "sleep", "retmode": "json"}, timeout=2).status_code
                )
            except httpx.TransportError:
                time.sleep(0.1)
                continue
            if statuses[-1] == 200:
                break
        assert statuses == [503, 200]
    finally:
        os.kill(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


class socket_port:
    """A free TCP port on 127.0.0.1 (closed again on exit, so a child process can bind it)."""

    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        return int(self.sock.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


def test_limiter_registry_is_keyed_like_the_fake_prefixes(fake_sources: RunningFakeSources) -> None:
    # On the fake server every service shares one host; they must still get their own limiters.
    registry = RateLimiterRegistry()
    client = httpx.AsyncClient()
    policies = [
        HttpPolicy(client, SourceConfig(service=name, base_url=url), limiters=registry)
        for name, url in fake_sources.base_urls.items()
    ]
    assert len({id(p.limiter) for p in policies}) == len(policies)
