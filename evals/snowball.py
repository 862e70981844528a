"""Evaluation: citation snowballing on the fake sources' planted clusters (issue 22).

    .venv/bin/python -m evals.snowball [--seed 0] [--depth 2] [--budget 200] [--per-source 100]

For each topic, one Run searches the fake sources (PubMed, Semantic Scholar, OpenAlex) and snowballs
with the settings' defaults unless given. The fake sources' citation graph (evals/fake_sources/
citations.py) plants clusters of on-topic papers that no query lists and citations reach. Measured:

- recall of the planted papers by the query alone (the Run's papers found by its queries);
- recall of the planted papers *reachable within the depth* from the Run's seeds (over edges OpenAlex
  or Semantic Scholar shows) by query + snowballing, and of all planted papers;
- requests the snowball sent, whether that stayed within the budget, rounds, and how it stopped.

The keyword plan has one concept per topic word, as a confirmed plan would; the relevance screen has
never seen the planted papers. Rates are raised so that the evaluation takes seconds (speed is the
benchmarks' job). Printed, one line per figure:

    RESULT snowball_recall_query_only <planted found by the queries / planted>
    RESULT snowball_recall_reachable <planted found / planted reachable within the depth>   (goal ≥ 0.9)
    RESULT snowball_recall_all_planted <planted found / planted>
    RESULT snowball_requests_mean <requests per Run>
    RESULT snowball_within_budget <share of Runs whose requests stayed within the budget>  (goal 1.0)
    RESULT snowball_rounds_mean <rounds per Run>
    RESULT snowball_saturated_share <share of Runs that stopped as saturated>
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

TOPICS = (
    "speech decoding intracranial",
    "glioma radiomics survival",
    "wheat drought genomics",
    "battery electrolyte degradation",
    "malaria vaccine efficacy",
)


async def _evaluate(fake: Any, topic: str, args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    from agent.llm import RulesLLM
    from agent.models import SEARCH_SOURCES, KeywordPlan, QueryPlan, Slots, SourceQuery, Term, Understanding
    from agent.runs.store import RunStore
    from agent.search.executor import RunExecution
    from agent.search.ranking import RankingWeights
    from agent.search.snowball import resolve_options
    from agent.search.sources import open_sources
    from agent.settings import load_settings
    from evals.fake_sources.citations import graph_for, reachable_planted
    from evals.fake_sources.universe import query_key

    settings = load_settings(
        data_dir=data_dir,
        cache_ttl=0,
        rate_pubmed=100.0,
        rate_semantic_scholar=100.0,
        rate_openalex=100.0,
        **fake.settings_overrides(),
    )
    words = topic.split()
    plan = KeywordPlan(
        terms=[
            Term(canonical=w, slot=slot)
            for w, slot in zip(words, ("task", "method_algorithm", "context"), strict=False)
        ]
    )
    queries = QueryPlan(queries={s: SourceQuery(source=s, query=topic) for s in SEARCH_SOURCES})
    options = resolve_options(settings, depth=args.depth, budget=args.budget)
    store = RunStore(settings.projects_dir)
    async with open_sources(settings) as sources:
        run = await RunExecution(
            store=store,
            project_id="eval",
            understanding=Understanding(description=topic, slots=Slots(research_goal=topic)),
            keywords=plan,
            queries=queries,
            sources=sources,
            settings=settings,
            llm=RulesLLM(),
            max_per_source=args.per_source,
            weights=RankingWeights(semantic=0.0),  # the ranking's embedding is not what is measured
            snowball=options,
        ).execute()
    universe = fake.app.universe
    key = query_key(topic)
    planted = set(graph_for(universe).planted(key).all())
    aggregated = store.load_aggregated(run.id)

    def index_of(paper: Any) -> int | None:
        for kind, value in (
            ("openalex", paper.openalex_id),
            ("s2", paper.semantic_scholar_id),
            ("doi", paper.doi),
        ):
            found = universe.lookup(kind, value) if value else None
            if found is not None and found.query_key == key:
                return found.k
        return None

    by_query = {index_of(a.paper) for a in aggregated if a.origin != "snowball"}
    by_all = {index_of(a.paper) for a in aggregated}
    report = run.snowball
    assert report is not None
    seed_keys = set(report.seeds)
    seeds = [k for a in aggregated if a.key in seed_keys and (k := index_of(a.paper)) is not None]
    reachable = reachable_planted(universe, topic, seeds, options.depth)
    return {
        "topic": topic,
        "planted": len(planted),
        "reachable": len(reachable),
        "query_found": len(planted & by_query),
        "found_reachable": len(reachable & by_all),
        "found_planted": len(planted & by_all),
        "requests": report.requests,
        "budget": report.budget,
        "rounds": len(report.rounds),
        "stopped": report.stopped,
        "message": report.message,
    }


async def _main(args: argparse.Namespace) -> list[dict[str, Any]]:
    from evals.fake_sources import FakeConfig, running_fake_sources

    rows = []
    with running_fake_sources(FakeConfig(seed=args.seed)) as fake, tempfile.TemporaryDirectory() as tmp:
        for topic in TOPICS:
            rows.append(await _evaluate(fake, topic, args, Path(tmp) / "data"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.snowball", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="the fake universe's seed")
    parser.add_argument("--depth", type=int, default=None, help="snowball rounds (default: the setting)")
    parser.add_argument("--budget", type=int, default=None, help="request budget (default: the setting)")
    parser.add_argument("--per-source", type=int, default=100, help="records per source of each Run")
    args = parser.parse_args(argv)
    rows = asyncio.run(_main(args))
    for row in rows:
        print(
            f"{row['topic']:<34} planted {row['planted']:>2}, reachable {row['reachable']:>2}, "
            f"by query {row['query_found']:>2}, found {row['found_planted']:>2} "
            f"({row['found_reachable']} reachable); {row['requests']}/{row['budget']} requests, "
            f"{row['rounds']} rounds: {row['message']}"
        )
    planted = sum(r["planted"] for r in rows)
    reachable = sum(r["reachable"] for r in rows)
    print(f"RESULT snowball_recall_query_only {sum(r['query_found'] for r in rows) / planted:.3f}")
    print(
        f"RESULT snowball_recall_reachable {sum(r['found_reachable'] for r in rows) / max(1, reachable):.3f}"
    )
    print(f"RESULT snowball_recall_all_planted {sum(r['found_planted'] for r in rows) / planted:.3f}")
    print(f"RESULT snowball_requests_mean {statistics.mean(r['requests'] for r in rows):.1f}")
    print(f"RESULT snowball_within_budget {statistics.mean(r['requests'] <= r['budget'] for r in rows):.3f}")
    print(f"RESULT snowball_rounds_mean {statistics.mean(r['rounds'] for r in rows):.2f}")
    print(f"RESULT snowball_saturated_share {statistics.mean(r['stopped'] == 'saturated' for r in rows):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
