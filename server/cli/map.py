"""`scholarmap map RUN [--open] [--force] [--json]`: the academic map of one Run.

Computes the map from the Run's merged results (or reuses the stored one), stores `map.json` and a
self-contained `map.html` beside the Run (never inside it), prints a short summary and the two paths,
and with `--open` opens the page in a browser. Every failure is one line on stderr and a non-zero
exit: 1 for a missing Run or a broken registry file, 2 for a bad option or configuration.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import webbrowser
from typing import Any, TextIO

from agent.academic_map.build import AcademicMap, map_for_run
from agent.errors import ConfigError
from agent.runs.store import RunStore, StoreError
from agent.settings import Settings, get_settings
from server.cli.errors import fail


def add_map_command(subparsers: Any) -> None:
    """Register `map` on the `scholarmap` command's sub-parsers."""
    p = subparsers.add_parser(
        "map",
        help="draw the academic map of a Run: countries, cities, institutions, researchers",
        description=(
            "Build the academic map of one Run (world -> country -> city -> institution -> researchers) "
            "from that Run's merged papers, and write map.json and map.html beside the Run."
        ),
    )
    p.add_argument("run", help="run id (see: scholarmap runs PROJECT)")
    p.add_argument("--open", action="store_true", help="open map.html in a web browser")
    p.add_argument("--force", action="store_true", help="recompute even if a map is stored")
    p.add_argument("--json", action="store_true", help="print map.json instead of the summary")
    p.set_defaults(handler=map_command)


def map_command(args: argparse.Namespace) -> int:
    """The `map` handler: 0 on success, else one line on stderr and 1 or 2."""
    try:
        return asyncio.run(run_map(args))
    except KeyboardInterrupt:
        return fail("interrupted", 130)


async def run_map(
    args: argparse.Namespace,
    *,
    settings: Settings | None = None,
    llm: Any = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out = out or sys.stdout
    try:
        settings = settings or get_settings()
        store = RunStore(settings.projects_dir)
        if llm is None:
            # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
            from agent.llm import build_llm

            llm = build_llm(settings)
        result = await map_for_run(store, args.run, llm=llm, settings=settings, force=args.force)
        # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
        from server.routes.map import render_map_page

        json_path = store.derived_dir(args.run) / "map.json"
        html_path = store.write_derived(
            args.run, "map.html", render_map_page(result.model_dump_json()).encode()
        )
    except ConfigError as exc:
        return fail(str(exc), 2, err)
    except (StoreError, FileNotFoundError) as exc:
        return fail(str(exc), 1, err)
    if args.json:
        out.write(result.model_dump_json(indent=2) + "\n")
    else:
        out.write(summary(result) + "\n")
        out.write(f"map.json  {json_path}\nmap.html  {html_path}\n")
    if args.open:
        webbrowser.open(html_path.resolve().as_uri())
    return 0


def _n(count: int, word: str) -> str:
    plural = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{count} {word if count == 1 else plural}"


def summary(result: AcademicMap) -> str:
    """A few lines for the terminal: totals, then the leading countries."""
    c = result.counts
    lines = [
        f"Academic map of run {result.run_id}: {_n(c.researchers, 'researcher')} at "
        f"{_n(c.institutions, 'institution')} in {_n(c.countries, 'country')} "
        f"({_n(c.unplaced_institutions, 'institution')} without coordinates).",
        result.note,
    ]
    for country in result.countries[:8]:
        cities = ", ".join(city.name for city in country.cities[:3])
        lines.append(
            f"  {country.name:<24} {_n(country.researcher_count, 'researcher'):>16}  "
            f"{_n(country.institution_count, 'institution'):>16}" + (f"  ({cities})" if cities else "")
        )
    if len(result.countries) > 8:
        lines.append(f"  ... and {_n(len(result.countries) - 8, 'more country')}")
    lines.extend(f"note: {note}" for note in result.notes)
    return "\n".join(lines)
