"""The `scholarmap` command.

Every failure prints one line on stderr and exits non-zero; `--help` on any command says what it takes.
Commands import their heavy dependencies (torch, the graph, the server) only when they run, so `--help`
and the listing commands answer at once.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence

from agent.errors import ConfigError
from agent.runs.store import RunStore, StoreError
from agent.settings import Settings, get_settings
from server.cli import adapters, ask, chat, mesh, plan
from server.cli import map as academic_map
from server.cli import run as run_command
from server.cli.errors import CommandError, fail
from server.streaming.failures import public_failure
from server.streaming.render import render_queries

# a bug's traceback goes to the command log only (its handler is added for the report), not the terminal
log = logging.getLogger("scholarmap.cli")
log.propagate = False

# Commands contributed by other modules: (module, function that registers the sub-command).


def _store(settings: Settings) -> RunStore:
    return RunStore(settings.projects_dir)


def cmd_projects(args: argparse.Namespace) -> int:
    settings = get_settings()
    store = _store(settings)
    if args.create is not None:  # `--create ""` is a mistake to report, not a request for the listing
        project = store.create_project(args.create, description=args.description or "")
        print(f"created project {project.id}")
        return 0
    projects = store.list_projects()
    if args.json:
        print(json.dumps([p.model_dump(mode="json") for p in projects], ensure_ascii=False, indent=2))
        return 0
    if not projects:
        print(
            f"no projects yet in {settings.projects_dir} (create one with: scholarmap projects --create NAME)"
        )
        return 0
    for project in projects:
        runs = store.list_runs(project.id)
        chosen = f", chosen run {project.chosen_run_id}" if project.chosen_run_id else ""
        print(f"{project.id}\t{project.name}\t{len(runs)} run(s){chosen}")
    return 0


def cmd_runs(args: argparse.Namespace) -> int:
    store = _store(get_settings())
    runs = store.list_runs(args.project)
    if args.json:
        print(json.dumps([r.model_dump(mode="json") for r in runs], ensure_ascii=False, indent=2))
        return 0
    if not runs:
        print(f"project {args.project} has no runs yet")
    for run in runs:
        counts = ", ".join(f"{k} {v}" for k, v in run.counts.items())
        print(
            f"{run.id}\t{run.status.value}\t{run.created_at:%Y-%m-%d %H:%M}\t{counts}\t{run.description[:60]}"
        )
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    store = _store(get_settings())
    run = store.get_run(args.run)
    if args.json:
        print(run.model_dump_json(indent=2))
        return 0
    print(f"Run {run.id} in project {run.project_id}: {run.status.value}")
    print(f"  created   {run.created_at:%Y-%m-%d %H:%M:%S} UTC")
    if run.description:
        print(f"  about     {run.description}")
    for source in run.sources:
        total = run.totals.get(source.value)
        print(
            f"  {source.value:<17} {run.counts.get(source.value, 0)} fetched of {total if total is not None else '?'}"
        )
    if "aggregated" in run.counts:
        print(f"  merged            {run.counts['aggregated']} papers")
    for error in run.errors:
        print(f"  error  {error.source}: {error.kind} - {error.message}")
    print(f"  folder    {store.run_dir(run.id)}")
    queries = store.read_run_file(run.id, "queries.json")
    if queries:
        print(render_queries(queries))
    return 0


def cmd_choose(args: argparse.Namespace) -> int:
    store = _store(get_settings())
    run = store.get_run(args.run)
    store.choose_run(run.project_id, run.id)
    print(f"run {run.id} is now the chosen run of project {run.project_id}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    import uvicorn

    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from server.app import create_app

    settings = get_settings()
    host = args.host or settings.host
    port = settings.port if args.port is None else args.port
    if not 1 <= port <= 65535:  # uvicorn would listen on port % 65536, or pick 8000 for 0
        raise CommandError(f"--port must be between 1 and 65535, not {port}", 2)
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, not {args.workers}", 2)
    if host not in {"127.0.0.1", "localhost", "::1"} and settings.api_token is None:
        print(
            f"scholarmap: warning: serving on {host} without SCHOLARMAP_API_TOKEN; anyone who can reach "
            "this address can use the service",
            file=sys.stderr,
        )
    if args.workers == 1:
        uvicorn.run(create_app(settings), host=host, port=port, log_level=args.log_level)
    else:  # each worker process builds its own app from the same settings (environment, .env)
        uvicorn.run(
            "server.app:create_app",
            factory=True,
            workers=args.workers,
            host=host,
            port=port,
            log_level=args.log_level,
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scholarmap",
        description="ScholarMap: a conversational literature-research agent (search, merge, ask, map).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("projects", help="list projects (or create one)")
    p.add_argument("--create", metavar="NAME", help="create a project with this name")
    p.add_argument("--description", help="description of the project to create")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_projects)

    p = sub.add_parser("runs", help="list the Runs of a project")
    p.add_argument("project", help="project id")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_runs)

    p = sub.add_parser("show", help="show one Run: status, counts, errors, folder")
    p.add_argument("run", help="run id")
    p.add_argument("--json", action="store_true", help="print run.json")
    p.set_defaults(handler=cmd_show)

    p = sub.add_parser("choose", help="make a Run the chosen Run of its project (used for the map)")
    p.add_argument("run", help="run id")
    p.set_defaults(handler=cmd_choose)

    p = sub.add_parser("serve", help="serve the HTTP API (REST, SSE, OpenAI-compatible chat)")
    p.add_argument("--host", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default 8000)")
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes sharing the port and the database (default 1); see README, Scale",
    )
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(handler=cmd_serve)

    run_command.add_run_command(sub)
    chat.add_chat_command(sub)
    ask.add_ask_command(sub)
    academic_map.add_map_command(sub)
    plan.add_plan_command(sub)
    mesh.add_mesh_command(sub)
    adapters.add_mcp_command(sub)
    adapters.add_slack_command(sub)
    adapters.add_teams_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        # every sub-command sets one (the sub-command is required, so argparse exits without one)
        handler: Callable[[argparse.Namespace], int | None] = args.handler
        return int(handler(args) or 0)
    except ConfigError as exc:
        return fail(str(exc), 2)
    except (StoreError, CommandError) as exc:
        return fail(str(exc), getattr(exc, "code", 1))
    except KeyboardInterrupt:
        return fail("interrupted", 130)
    except Exception as exc:  # a bug: one line for the user, the traceback in the command log
        return fail(_report_bug(exc), 1)


def _report_bug(exc: Exception) -> str:
    """Write the traceback to `<data_dir>/logs/cli.log` and return the line the user sees."""
    try:
        log_file = get_settings().data_dir / "logs" / "cli.log"
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(log_file, encoding="utf-8")
        details = str(log_file)
    except (OSError, ConfigError):
        handler, details = logging.StreamHandler(sys.stderr), "the lines above"
    log.addHandler(handler)
    try:
        return public_failure(exc, log, doing="running this command", details=details).message
    finally:
        log.removeHandler(handler)
        handler.close()


if __name__ == "__main__":
    sys.exit(main())
