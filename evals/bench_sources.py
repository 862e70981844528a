"""Benchmark: fetch N generated works from PubMed, Semantic Scholar and OpenAlex through the real
clients and the fake-sources server, and compare each wall time with what the rate limit allows.

    .venv/bin/python -m evals.bench_sources [--n 1000] [--latency-ms 100] [--seed 0]

The fake server runs in a child process (`python -m evals.fake_sources`, so its CPU does not share
the client's interpreter) and answers every request after `--latency-ms`. The clients use the
*default* rate limits from Settings (PubMed 3/s without a key, Semantic Scholar 1/s, OpenAlex 10/s)
and no response cache. The searches:

    PubMed            esearch with the history server, then efetch batches of 200
    Semantic Scholar  /paper/search/bulk, token paging (up to 1000 per page)
    OpenAlex          /works, cursor paging with per_page=200

Each source is searched twice, one after the other: an untimed pass first, so the fake server has
generated and remembered its answers (what is measured is the client under its rate limit, not the
fake's rendering), then the timed pass with fresh clients (fresh rate limiters).

    floor = requests needed / rate + one latency        ratio = wall / floor     (goal <= 1.15)

"Requests needed" is the fewest the API allows for N works (PubMed: 1 + ceil(N/200); Semantic
Scholar: ceil(N/1000); OpenAlex: ceil(N/200)); the requests actually made are printed beside it.
Every figure ends up in a line `RESULT <name> <value>`.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import httpx

from evals.fake_process import fake_sources_process

SERVICES = ("pubmed", "semantic_scholar", "openalex")
QUERY = "sleep apnea electrocardiogram deep learning"


@dataclass
class Measurement:
    service: str
    wall: float
    papers: int
    requests: int
    needed: int
    rate: float
    latency: float

    @property
    def floor(self) -> float:
        return self.needed / self.rate + self.latency

    @property
    def ratio(self) -> float:
        return self.wall / self.floor


def requests_needed(service: str, n: int) -> int:
    if service == "pubmed":
        return 1 + math.ceil(n / 200)
    if service == "semantic_scholar":
        return math.ceil(n / 1000)
    return math.ceil(n / 200)


async def fetch(service: str, root: str, n: int, data_dir: Path) -> tuple[float, int, int, float]:
    """One search of `service` for `n` works: (wall seconds, papers, requests made, rate used)."""
    from agent.search.sources import open_sources
    from agent.settings import load_settings
    from evals.fake_sources.server import base_urls

    settings = load_settings(
        data_dir=data_dir,
        cache_ttl=0,  # a cache would measure the cache, not the client under its rate limit
        **{f"{name}_base_url": url for name, url in base_urls(root).items()},
    )
    rate = {
        "pubmed": settings.pubmed_rate,
        "semantic_scholar": settings.rate_semantic_scholar,
        "openalex": settings.rate_openalex,
    }[service]
    counted: Counter[str] = Counter()

    async def count(request: httpx.Request) -> None:
        counted[request.url.path.split("/")[1]] += 1

    async with (
        httpx.AsyncClient(event_hooks={"request": [count]}, timeout=settings.http_timeout) as http,
        open_sources(settings, client=http) as sources,
    ):
        started = time.perf_counter()
        if service == "pubmed":
            outcome = await sources.pubmed.search(QUERY, limit=n)
        elif service == "semantic_scholar":
            outcome = await sources.semantic_scholar.search_bulk(QUERY, limit=n)
        else:
            outcome = await sources.openalex.search_works(search=QUERY, limit=n)
        wall = time.perf_counter() - started
    return wall, len(outcome.papers), counted[service], rate


async def measure(root: str, n: int, latency: float, data_dir: Path) -> list[Measurement]:
    results = []
    for service in SERVICES:
        await fetch(service, root, n, data_dir)  # untimed: the fake generates and remembers its answers
        wall, papers, made, rate = await fetch(service, root, n, data_dir)
        results.append(Measurement(service, wall, papers, made, requests_needed(service, n), rate, latency))
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="works to fetch from each source")
    parser.add_argument("--latency-ms", type=float, default=100.0, help="the fake server's delay per request")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    latency = args.latency_ms / 1000

    with (
        fake_sources_process(latency_ms=args.latency_ms, total=args.n * 2, seed=args.seed) as root,
        tempfile.TemporaryDirectory() as data_dir,
    ):
        results = asyncio.run(measure(root, args.n, latency, Path(data_dir)))

    failed = [m.service for m in results if m.papers != args.n]
    for m in results:
        print(
            f"# {m.service}: {m.papers} works in {m.wall:.2f} s; {m.requests} requests "
            f"({m.needed} needed) at {m.rate:g}/s + {latency * 1000:.0f} ms latency -> floor {m.floor:.2f} s, "
            f"ratio {m.ratio:.3f}"
        )
    if failed:
        print(f"# fetched fewer than {args.n} works from {', '.join(failed)}", file=sys.stderr)
    for m in results:
        print(f"RESULT bench_sources_{m.service}_ratio {m.ratio:.3f}")
        print(f"RESULT bench_sources_{m.service}_wall_s {m.wall:.3f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
