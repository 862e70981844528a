"""Benchmark: the CPU time of merging a Run's records (`agent.search.merge.merge_papers`), against a
baseline measured in the same process, so that a noisy shared machine cannot fool the comparison.

    .venv/bin/python -m evals.bench_merge [--per-source 10000] [--repeat 5] [--baseline 77d2916]
    .venv/bin/python -m evals.bench_merge --profile      # cProfile of one merge, sorted by tottime

What runs after PubMed's last page of `evals.bench_run --per-source 10000` is mostly the merge of the
30,000 records (README, "Systematic-review scale"). The wall time of that benchmark moves with the
other processes on the machine; CPU time (`time.process_time`, every thread of this process) moves much
less, and a baseline timed in the same run, interleaved with the current code, moves with it.

The records are those of the benchmark: the real clients against the fake sources (`evals.fake_sources`,
on localhost, with no rate limit), the query of `evals.bench_run`, each page's strings shared as the
executor shares them (`SharedStrings`), and the merge timed under `relaxed_gc`, as in a Run. The
baseline is `agent/search/merge.py` at `--baseline` (a git revision, read with `git show` and loaded as
a separate module); both merges must give the same papers (compared as the JSON the Run writes).
Printed (the best of `--repeat` interleaved rounds each):

    RESULT bench_merge_records <records merged>
    RESULT bench_merge_cpu_seconds <current code, best CPU seconds>
    RESULT bench_merge_baseline_cpu_seconds <baseline, best CPU seconds>
    RESULT bench_merge_cpu_ratio <current / baseline>      (below 1: the current code is faster)
    RESULT bench_merge_identical <1 when both merges wrote the same bytes, else 0>
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import importlib.util
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from agent.models import SEARCH_SOURCES, AggregatedPaper, Paper, Source
from agent.search import merge
from agent.search.gc_tuning import SharedStrings, relaxed_gc, wait_for_housekeeping

QUERY = "closed loop deep brain stimulation parkinson"  # the query of evals.bench_run
DEFAULT_BASELINE = "77d2916"  # main before the merge was made faster (session 33)

Merge = Callable[[Mapping[Source, Sequence[Paper]]], list[AggregatedPaper]]


async def _search_all(base_urls: Mapping[str, str], per_source: int) -> dict[Source, list[Paper]]:
    """The real clients against the fake sources, without rate limits; pages shared as in a Run."""
    import httpx

    from tools.http import HttpPolicy, RateLimiterRegistry, SourceConfig
    from tools.openalex import OpenAlexClient
    from tools.pubmed import PubMedClient
    from tools.semantic_scholar import SemanticScholarClient

    strings = SharedStrings()

    async def share(progress: Any) -> None:
        strings.share(progress.papers)

    async with httpx.AsyncClient(timeout=300) as client:
        limiters = RateLimiterRegistry()

        def policy(name: str) -> HttpPolicy:
            # no rate limit; a few requests at a time and a long timeout, as the local server is slow
            config = SourceConfig(name, base_urls[name], rate=1000, retries=0, timeout=600, concurrency=2)
            return HttpPolicy(client, config, limiters=limiters)

        outcomes = await asyncio.gather(
            PubMedClient(policy("pubmed")).search(QUERY, limit=per_source, on_page=share),
            SemanticScholarClient(policy("semantic_scholar")).search(QUERY, limit=per_source, on_page=share),
            OpenAlexClient(policy("openalex")).search(QUERY, limit=per_source, on_page=share),
        )
    by_client = dict(zip((Source.PUBMED, Source.SEMANTIC_SCHOLAR, Source.OPENALEX), outcomes, strict=True))
    return {source: by_client[source].papers for source in SEARCH_SOURCES}


def bench_records(per_source: int, seed: int = 0) -> dict[Source, list[Paper]]:
    """The records a `evals.bench_run --per-source N` Run merges (same fake universe, same query)."""
    from evals.fake_sources import FakeConfig, running_fake_sources

    config = FakeConfig(seed=seed, latency_ms=0, total=per_source * 3)
    with running_fake_sources(config) as fake:
        return asyncio.run(_search_all(fake.base_urls, per_source))


def load_baseline(revision: str) -> ModuleType:
    """`agent/search/merge.py` as it was at `revision`, as a module of its own."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{revision}:agent/search/merge.py"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    with tempfile.NamedTemporaryFile("w", suffix="_merge_baseline.py", delete=False) as handle:
        handle.write(source)
    spec = importlib.util.spec_from_file_location("merge_baseline", handle.name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["merge_baseline"] = module  # dataclasses look their module up by name
    try:
        spec.loader.exec_module(module)
    finally:
        Path(handle.name).unlink()  # the module is loaded; the copy of the old source is not kept
    return module


def written(papers: Sequence[AggregatedPaper]) -> bytes:
    """The merged papers as the Run's `results_aggregated.json` holds them (one JSON line each)."""
    return b"\n".join(paper.__pydantic_serializer__.to_json(paper) for paper in papers)


def timed(function: Merge, results: Mapping[Source, Sequence[Paper]]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one merge, the collector relaxed as in a Run."""
    gc.collect()
    with relaxed_gc():
        cpu, wall = time.process_time(), time.perf_counter()
        merged = function(results)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    del merged
    wait_for_housekeeping()  # its collection must not fall into the next timing
    gc.collect()
    return cpu, wall


def profile(function: Merge, results: Mapping[Source, Sequence[Paper]], lines: int = 30) -> None:
    with relaxed_gc():
        profiler = cProfile.Profile()
        profiler.enable()
        function(results)
        profiler.disable()
    wait_for_housekeeping()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-source", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=5, help="interleaved rounds; the best of each is kept")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision of the baseline merge")
    parser.add_argument("--profile", action="store_true", help="profile one merge of each, then stop")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    results = bench_records(args.per_source, args.seed)
    count = sum(len(papers) for papers in results.values())
    print(f"# {count} records from the fake sources in {time.perf_counter() - started:.1f} s")
    baseline = load_baseline(args.baseline)
    current: Merge = merge.merge_papers
    old: Merge = baseline.merge_papers

    if args.profile:
        for name, function in (("current", current), (f"baseline {args.baseline}", old)):
            print(f"# profile: {name}")
            profile(function, results)
        return 0

    identical = written(current(results)) == written(old(results))
    cpu: dict[str, list[float]] = {"current": [], "baseline": []}
    wall: dict[str, list[float]] = {"current": [], "baseline": []}
    for round_ in range(args.repeat):
        order = [("current", current), ("baseline", old)]
        for name, function in order if round_ % 2 == 0 else reversed(order):
            seconds, elapsed = timed(function, results)
            cpu[name].append(seconds)
            wall[name].append(elapsed)
    for name in cpu:
        print(f"# {name}: CPU {' '.join(f'{s:.3f}' for s in cpu[name])}; wall {min(wall[name]):.3f} best")
    best, best_baseline = min(cpu["current"]), min(cpu["baseline"])
    print(f"RESULT bench_merge_records {count}")
    print(f"RESULT bench_merge_cpu_seconds {best:.3f}")
    print(f"RESULT bench_merge_baseline_cpu_seconds {best_baseline:.3f}")
    print(f"RESULT bench_merge_cpu_ratio {best / best_baseline:.3f}")
    print(f"RESULT bench_merge_identical {int(identical)}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
