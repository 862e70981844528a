"""`scholarmap plan "DESCRIPTION" [--json]`: the search strategy for a description, without searching.

The description is taken as confirmed (no questions are asked): ScholarMap understands it, turns it
into concepts with MeSH headings and validated synonyms, and writes one query per database, exactly
as a Run would (`agent.keywords.plan.plan_search`). It prints them for a person (concepts, synonyms with their
origins and hit counts, the three queries), or with `--json` one object
`{"understanding": ..., "keywords": ..., "queries": ...}` in the shapes of a Run's
`understanding.json`, `keywords.json` and `queries.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent.keywords.plan import SearchPlan
    from agent.settings import Settings

EXIT_OK, EXIT_ERROR, EXIT_NOTHING = 0, 1, 2


def add_plan_command(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "plan",
        help="show the concepts, synonyms and queries for a description, without searching",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument("description", help="your research in a few sentences (English, Chinese or mixed)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--dropped", action="store_true", help="also list the synonyms left out, and why")
    parser.set_defaults(handler=plan_command)


def plan_command(args: argparse.Namespace) -> int:
    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from agent.errors import ConfigError

    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from agent.settings import load_settings

    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from agent.understanding.description import InvalidDescription

    logging.basicConfig(level=logging.ERROR, format="scholarmap: %(levelname)s %(name)s: %(message)s")
    try:
        settings = load_settings()
        plan = asyncio.run(_plan(args.description, settings))
    except (InvalidDescription, ConfigError) as exc:
        print(f"scholarmap: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("scholarmap: error: interrupted", file=sys.stderr)
        return EXIT_ERROR
    data = plan.model_dump(mode="json")
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
        from server.streaming.render import render_keywords

        understanding = plan.understanding
        print(f"Understood: {understanding.summary or understanding.slots.research_goal}")
        for note in understanding.notes:
            print(f"note: {note}")
        print(render_keywords(data["keywords"], data["queries"], dropped=args.dropped))
    if not plan.keywords.terms:
        print(
            "scholarmap: error: no searchable concept was found in the description; name what you study, "
            "in whom or what, and how",
            file=sys.stderr,
        )
        return EXIT_NOTHING
    return EXIT_OK


async def _plan(description: str, settings: Settings) -> SearchPlan:
    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from agent.keywords.plan import plan_search

    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from agent.llm import build_llm

    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from agent.search.sources import open_sources

    llm = build_llm(settings)
    async with open_sources(settings) as sources:
        return await plan_search(description, llm, sources, hit_limit=settings.query_hit_limit)
