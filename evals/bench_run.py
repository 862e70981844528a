"""Benchmark: one full Run of 3 sources × 1,000 results (or 3 × 10,000, systematic-review scale)
through the fake-sources server.

    .venv/bin/python -m evals.bench_run [--per-source 1000] [--latency-ms 100] [--seed 0]
    .venv/bin/python -m evals.bench_run --per-source 10000

The fake server answers every request after `--latency-ms` and serves at least `--per-source` results
per source; the clients keep the *default* rate limits (PubMed 3/s without a key, Semantic Scholar 1/s,
OpenAlex 10/s). The Run (search ‖ merge ‖ rank ‖ atomic save) executes in a child process so that its
peak RSS is measured alone, with the packaged MiniLM model loaded beforehand, as a server holds it
(the load time is printed as information).

The rate-limit floor of a source is the least time its requests can take under its limit:
`(requests − 1) / rate + latency` (the last request cannot start earlier, and takes the latency to
answer); the requests counted are the ones the server saw. Printed:

    RESULT bench_run_records <records asked of each source>
    RESULT bench_run_wall_ratio <Run wall time / floor of the slowest source>   (goal: ≤ 1.35 at 3 × 1,000,
                                                                                  ≤ 1.15 at 3 × 10,000)
    RESULT bench_run_peak_rss_mb <peak RSS of the Run's process, MB>              (goal: ≤ 700 at 3 × 10,000)

With `--snowball` the Run also follows citations (agent/search/snowball.py, the settings' depth and budget,
a keyword plan of the query's words), and each round is compared with its own floor: per source,
`(requests − 1) / rate + latency × dependent steps` (OpenAlex: seed lookup, links, full records;
Semantic Scholar: links, full records), the slowest source's. Also printed:

    RESULT bench_run_snowball_round_ratio <median over rounds of round wall / round floor>  (goal ≤ 1.2)
    RESULT bench_run_snowball_extra_seconds <median over rounds of round wall − round floor>
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SERVICES = ("pubmed", "semantic_scholar", "openalex")


def _child(
    base_urls: dict[str, str],
    data_dir: str,
    per_source: int,
    semantic: bool,
    queue: Any,
    snowball: bool = False,
) -> None:
    """Runs in the child process: load the model, execute one Run, report timings and peak RSS."""
    try:
        queue.put(asyncio.run(_run_once(base_urls, data_dir, per_source, semantic, snowball)))
    except BaseException as exc:  # report, so the parent prints one clear line instead of hanging
        queue.put({"error": f"{type(exc).__name__}: {exc}"})


async def _run_once(
    base_urls: dict[str, str], data_dir: str, per_source: int, semantic: bool, snowball: bool = False
) -> dict[str, Any]:
    from agent.llm import RulesLLM
    from agent.models import SEARCH_SOURCES, QueryPlan, Slots, SourceQuery, Understanding
    from agent.runs.store import RunStore
    from agent.search.executor import RunExecution
    from agent.search.ranking import RankingWeights, ranking_embedder
    from agent.search.sources import open_sources
    from agent.settings import load_settings

    settings = load_settings(
        data_dir=Path(data_dir),
        cache_ttl=0,  # a warm response cache would measure the cache, not the Run
        **{f"{service}_base_url": url for service, url in base_urls.items()},
    )
    started = time.perf_counter()
    if semantic:
        ranking_embedder(settings).encode(["warm up"])
    load_seconds = time.perf_counter() - started

    query = "closed loop deep brain stimulation parkinson"
    queries = QueryPlan(queries={s: SourceQuery(source=s, query=query) for s in SEARCH_SOURCES})
    understanding = Understanding(
        description=query,
        slots=Slots(research_goal="adaptive closed-loop deep brain stimulation for Parkinson's disease"),
    )
    store = RunStore(settings.projects_dir)
    store.ensure_project("bench")
    keywords, snowball_options = None, None
    if snowball:
        from agent.models import KeywordPlan, Term
        from agent.search.snowball import resolve_options

        keywords = KeywordPlan(
            terms=[Term(canonical=word, slot=f"s{i}") for i, word in enumerate(query.split())]
        )
        snowball_options = resolve_options(settings)
    async with open_sources(settings) as sources:
        started = time.perf_counter()
        run = await RunExecution(
            store=store,
            project_id="bench",
            understanding=understanding,
            keywords=keywords,
            queries=queries,
            sources=sources,
            settings=settings,
            max_per_source=per_source,
            llm=RulesLLM(),
            weights=RankingWeights() if semantic else RankingWeights(semantic=0.0),
            snowball=snowball_options,
        ).execute()
        wall = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {
        "wall": wall,
        "load_seconds": load_seconds,
        "peak_rss_mb": peak_kb / 1024,
        "status": run.status.value,
        "counts": run.counts,
        "errors": [e.message for e in run.errors],
        "seconds": run.timings.seconds,
        "snowball": run.snowball.model_dump(mode="json") if run.snowball is not None else None,
        "rates": {
            "pubmed": settings.pubmed_rate,
            "semantic_scholar": settings.rate_semantic_scholar,
            "openalex": settings.rate_openalex,
        },
    }


def _run_in_child(
    base_urls: dict[str, str], per_source: int, semantic: bool, snowball: bool = False
) -> dict[str, Any]:
    """One Run in a fresh interpreter (so its peak RSS is the Run's alone), with its own data folder."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    with tempfile.TemporaryDirectory() as data_dir:
        child = context.Process(
            target=_child, args=(base_urls, data_dir, per_source, semantic, queue, snowball)
        )
        child.start()
        report = queue.get(timeout=1800)
        child.join(timeout=60)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-source", type=int, default=1000)
    parser.add_argument("--latency-ms", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-semantic",
        action="store_true",
        help="diagnosis: rank without the embedding model (not the goal)",
    )
    parser.add_argument(
        "--snowball",
        action="store_true",
        help="also snowball citations, and time each round against its floor",
    )
    args = parser.parse_args(argv)

    from evals.fake_sources import FakeConfig, running_fake_sources

    config = FakeConfig(seed=args.seed, latency_ms=args.latency_ms, total=args.per_source * 3)
    with running_fake_sources(config) as fake:
        # A first Run renders every answer the fake server will give (it remembers them): the measured
        # Run then competes for the 2 cores with the Run's own work only, as against remote servers,
        # whose work is what `--latency-ms` stands for.
        warm_up = _run_in_child(fake.base_urls, args.per_source, not args.no_semantic, args.snowball)
        fake.app.forget_requests()
        report = _run_in_child(fake.base_urls, args.per_source, not args.no_semantic, args.snowball)
        requests = {service: len(fake.app.requests_for(service)) for service in SERVICES}

    if "error" in warm_up:
        report = warm_up
    if "error" in report:
        print(f"bench_run: the Run failed: {report['error']}", file=sys.stderr)
        return 1
    latency = args.latency_ms / 1000
    floors = {
        service: (requests[service] - 1) / report["rates"][service] + latency
        for service in SERVICES
        if requests[service]
    }
    slowest = max(floors, key=floors.__getitem__)
    ratio = report["wall"] / floors[slowest]
    print(f"# status {report['status']}, counts {report['counts']}, errors {report['errors'] or 'none'}")
    print(f"# requests {requests}; floors {', '.join(f'{s} {v:.2f} s' for s, v in floors.items())}")
    print(f"# Run wall {report['wall']:.2f} s (slowest floor: {slowest} {floors[slowest]:.2f} s)")
    print(f"# steps {report['seconds']}")
    print(f"# warm-up Run against the cold fake server (information): {warm_up['wall']:.2f} s")
    print(f"# embedding model load (before the Run, as in a running server) {report['load_seconds']:.1f} s")
    print(f"RESULT bench_run_records {args.per_source}")
    print(f"RESULT bench_run_wall_ratio {ratio:.3f}")
    print(f"RESULT bench_run_peak_rss_mb {report['peak_rss_mb']:.1f}")
    if report.get("snowball"):
        _snowball_rounds(report["snowball"], report["rates"], latency)
    return 0


def _snowball_rounds(snowball: dict[str, Any], rates: dict[str, float], latency: float) -> None:
    """Each snowball round's wall time against its rate-limit floor (see the module docstring)."""
    import statistics

    steps = {"openalex": 3, "semantic_scholar": 2}
    ratios, extras = [], []
    for round_ in snowball["rounds"]:
        floor = max(
            (
                (n - 1) / rates[source] + latency * steps[source]
                for source, n in round_["requests_by_source"].items()
                if n
            ),
            default=0.0,
        )
        if floor <= 0:
            continue
        ratios.append(round_["seconds"] / floor)
        extras.append(round_["seconds"] - floor)
        print(
            f"# snowball round {round_['depth']}: {round_['seconds']:.2f} s, floor {floor:.2f} s, "
            f"requests {round_['requests_by_source']}, {round_['kept']} kept"
        )
    print(f"# snowball: {snowball['message']} ({snowball['requests']} requests)")
    if ratios:
        print(f"RESULT bench_run_snowball_round_ratio {statistics.median(ratios):.3f}")
        print(f"RESULT bench_run_snowball_extra_seconds {statistics.median(extras):.3f}")


if __name__ == "__main__":
    sys.exit(main())
