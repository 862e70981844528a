"""`scholarmap run "DESCRIPTION"`: the whole search flow in one command, without a conversation.

The command is the conversation graph (`graph/build.py`) run in this process with an in-memory
checkpointer (`server.cli.conversation`): understand, clarify, confirm, keywords, review and search are
the graph's nodes, as for `chat`, the web app, the API and the bots; this module only answers the
graph's pauses and shows its events. With `--yes` every pause gets the automatic reply: the
interpretation is taken as it stands (no questions), confirmed, and the keyword plan accepted. Without
it the pauses happen on the terminal: each clarifying question is a prompt (all left empty: go on with
the interpretation as it is), the interpretation is confirmed with y/n (a "no" asks what to change),
and the keyword plan is accepted with Enter or changed by typing edits (`agent.keywords.review.
parse_edit_text`: "add term: X", "delete term: Y", "add synonym A to B", ...; several separated by ';').

The search shows one progress bar per source; at the end a summary table, the top papers and the Run's
folder are printed. A source that cannot be reached is one line on stderr and an error recorded in the
saved Run. Exit codes: 0 a Run was saved (completed or partial), 2 every source failed (the Run is still
saved), 1 any other error (one line on stderr), 130 interrupted (no Run is saved).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.prompt import Confirm, Prompt
from rich.table import Table

from agent.models import SEARCH_SOURCES, KeywordPlan, Run, RunStatus, Source, Term
from agent.runs.exports import EXPORT_FORMATS, export_filename, export_papers
from agent.runs.store import RunStore
from agent.settings import ConfigError, load_settings
from graph.interrupts import ClarificationReply, ConfirmationReply, Reply, ReviewReply
from server.cli.errors import CommandError, fail
from server.streaming.failures import public_failure
from server.streaming.render import render_queries

log = logging.getLogger(__name__)

EXIT_OK, EXIT_ERROR, EXIT_ALL_FAILED, EXIT_INTERRUPTED = 0, 1, 2, 130
ACCEPT_WORDS = frozenset({"", "y", "yes", "ok", "accept", "go"})
TOP_PAPERS_SHOWN = 10


def add_run_command(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="search PubMed, Semantic Scholar and OpenAlex for a research description and save a Run",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    parser.add_argument("description", help="your research in a few sentences (English, Chinese or mixed)")
    parser.add_argument(
        "--project", default="default", help="project id (created if absent; default: default)"
    )
    parser.add_argument(
        "--yes", "-y", action="store_true", help="accept the interpretation and keywords as generated"
    )
    parser.add_argument(
        "--sources",
        type=parse_sources,
        default=None,
        help="comma-separated sources to search (default: pubmed,semantic_scholar,openalex)",
    )
    parser.add_argument(
        "--max-per-source", type=int, help="records per source, 1-10000 (default from settings: 200)"
    )
    parser.add_argument(
        "--snowball",
        action="store_true",
        help="after the search, follow the references and citations of the best papers (see --depth)",
    )
    parser.add_argument("--depth", type=int, help="snowballing rounds, 1-5 (default from settings: 2)")
    parser.add_argument(
        "--budget", type=int, help="requests snowballing may send, 1-5000 (default from settings: 200)"
    )
    parser.add_argument(
        "--seed",
        action="append",
        default=[],
        metavar="ID",
        help="a paper to snowball from besides the best ones (DOI, pmid:N, OpenAlex W…, S2 id); repeatable",
    )
    parser.add_argument("--export", choices=EXPORT_FORMATS, help="also write the merged list in this format")
    parser.add_argument(
        "--output", type=Path, help="where to write the export (default: beside the Run, in derived/)"
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="show log records (retries, fallbacks)")
    parser.set_defaults(handler=run_command)


def parse_sources(text: str) -> list[Source]:
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    known = {s.value for s in SEARCH_SOURCES}
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown source(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(sorted(known))}"
        )
    return [Source(n) for n in names]


def run_command(args: argparse.Namespace) -> int:
    """The handler of `scholarmap run`; returns the exit code."""
    _quiet_libraries(getattr(args, "verbose", False))
    stderr = Console(stderr=True, highlight=False)
    try:
        settings = load_settings()
        if not args.description or not args.description.strip():
            raise CommandError("the description is empty; describe your research in a few sentences")
        return asyncio.run(_run(args, settings, Console(highlight=False), stderr))
    except KeyboardInterrupt:
        fail("interrupted; no Run was saved")
        return EXIT_INTERRUPTED
    except CommandError as exc:
        fail(str(exc))
        return exc.code
    except ConfigError as exc:
        fail(str(exc))
        return EXIT_ERROR
    except Exception as exc:  # a named failure's own message; a bug's text only in the log (with a reference)
        failure = public_failure(
            exc, log, doing="running the search", where="scholarmap run", details="the log above"
        )
        fail(failure.message)
        return EXIT_ERROR


def _quiet_libraries(verbose: bool) -> None:
    """The terminal shows our lines, not the libraries' log records and download bars.

    Failures reach the user as recorded source errors (one line each); per-attempt retry warnings and
    the model loader's progress bar would bury them. `--verbose` shows the log records again.
    """
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    logging.basicConfig(
        level=logging.INFO if verbose else logging.ERROR,
        format="scholarmap: %(levelname)s %(name)s: %(message)s",
    )


async def _run(args: argparse.Namespace, settings: Any, console: Console, stderr: Console) -> int:
    # imported when the command runs, not at the CLI's start-up: the graph and the search stack are heavy
    from agent.llm import build_llm
    from agent.search.executor import RunConfigError, resolve_cap
    from agent.search.guard import NothingToSearch
    from agent.search.sources import open_sources
    from graph.context import GraphContext
    from server.cli.conversation import LocalConversation, automatic_reply

    try:
        cap = resolve_cap(args.max_per_source, settings)
    except RunConfigError as exc:
        raise CommandError(str(exc)) from None
    enabled = args.sources or list(SEARCH_SOURCES)
    options: dict[str, Any] = {
        "sources": [source.value for source in enabled],
        "max_per_source": cap,
        **_snowball_options(args, settings),
    }
    store = RunStore(settings.projects_dir)
    store.ensure_project(args.project)
    llm = build_llm(settings)
    if not llm.available:
        print(
            "note: no LLM is configured (SCHOLARMAP_LLM / OPENAI_API_KEY); using the rule-based fallback",
            file=sys.stderr,
        )

    view = _SearchView(stderr, enabled)
    async with open_sources(settings) as sources:
        # record_thread=False: the conversation lives only in this process, so the Run names no thread
        context = GraphContext(
            settings=settings, store=store, llm=llm, sources=sources, options=options, record_thread=False
        )
        answer = automatic_reply if args.yes else TerminalReplies(console)
        message = {"message": args.description.strip(), "mode": "search", "project_id": args.project}
        try:
            state = await LocalConversation(context).converse(message, view.handle, answer)
        except NothingToSearch as exc:  # one line, exit 1, and no failed Run saved
            raise CommandError(str(exc)) from None
        finally:
            view.close()

    run = store.get_run(state["active_run_id"])
    folder = store.run_dir(run.id)
    _report_unreachable(run, KeywordPlan.model_validate(state["keywords"]))
    print(render_queries(state["queries"]), flush=True)
    _summary(run, store, console)
    if args.export:
        _export(run, store, args.export, args.output, console)
    # plain print: a path must not be wrapped or styled, scripts read this line
    print(f"Run saved: {folder}", flush=True)
    return EXIT_ALL_FAILED if run.status is RunStatus.FAILED else EXIT_OK


# ----------------------------------------------------------------------------------------------
# the pauses of the conversation, answered on the terminal
# ----------------------------------------------------------------------------------------------


def _snowball_options(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    """The search node's snowballing options, checked here: a value out of range is a one-line error."""
    from agent.search.snowball import SnowballConfigError, resolve_options  # CLI start-up: loaded on use

    asked = args.depth is not None or args.budget is not None or args.seed
    if not args.snowball:
        if asked:
            raise CommandError("--depth, --budget and --seed belong to --snowball; add --snowball")
        return {}
    try:
        resolve_options(settings, depth=args.depth, budget=args.budget, named=args.seed)
    except SnowballConfigError as exc:
        raise CommandError(str(exc)) from None
    return {
        "snowball": True,
        "snowball_depth": args.depth,
        "snowball_budget": args.budget,
        "snowball_seeds": list(args.seed),
    }


def _ask(prompt: str, **kwargs: Any) -> str:
    try:
        return Prompt.ask(prompt, **kwargs)
    except EOFError:
        raise CommandError(
            "no answer on standard input (use --yes to accept everything as generated)"
        ) from None


def _confirm(prompt: str) -> bool:
    try:
        return Confirm.ask(prompt, default=True)
    except EOFError:
        raise CommandError(
            "no answer on standard input (use --yes to accept everything as generated)"
        ) from None


class TerminalReplies:
    """The graph's pauses as prompts: each clarifying question, the interpretation (y/n, then what to
    change), the keyword plan (Enter, or typed edits). Returns the reply the graph expects
    (`graph.interrupts`); a reply that does not fit (too long) is said in red and asked again."""

    def __init__(self, console: Console) -> None:
        self.console = console

    async def __call__(self, pending: dict[str, Any]) -> dict[str, Any]:
        ask = {
            "clarification": self._clarification,
            "confirmation": self._confirmation,
            "review": self._review,
        }[pending["kind"]]
        while True:
            try:
                return ask(pending).model_dump(mode="json")
            except ValidationError as exc:
                problems = "; ".join(str(error["msg"]) for error in exc.errors())
                self.console.print(f"[red]{problems}[/red]")

    def _clarification(self, pending: dict[str, Any]) -> Reply:
        if pending.get("summary"):
            self.console.print(f"[bold]So far:[/bold] {pending['summary']}")
        answers = []
        for question in pending.get("questions") or []:
            options = f" ({' / '.join(question['options'])})" if question.get("options") else ""
            answers.append(_ask(f"[bold]{question['question']}[/bold]{options}", default=""))
        if any(answer.strip() for answer in answers):
            return ClarificationReply(answers=answers)
        return ClarificationReply(accept=True)  # nothing answered: confirm the interpretation as it is

    def _confirmation(self, pending: dict[str, Any]) -> Reply:
        _show_understanding(pending, self.console)
        if _confirm("Is this what you are looking for?"):
            return ConfirmationReply(accept=True)
        feedback = _ask("What should change? (empty to stop)", default="").strip()
        if not feedback:
            raise CommandError("stopped at the confirmation; nothing was searched", EXIT_ERROR)
        return ConfirmationReply(accept=False, feedback=feedback)

    def _review(self, pending: dict[str, Any]) -> Reply:
        if pending.get("error"):  # the last edits could not be understood
            self.console.print(f"[red]{pending['error']}[/red]")
        _show_plan(pending, self.console)
        text = _ask(
            "Press Enter to accept, or type edits (e.g. 'add term: speech synthesis; delete term: EEG')",
            default="",
        )
        if text.strip().lower() in ACCEPT_WORDS:
            return ReviewReply(accept=True)
        return ReviewReply(text=text)


def _show_understanding(pending: dict[str, Any], console: Console) -> None:
    table = Table(title="What I understood", show_lines=False)
    table.add_column("slot")
    table.add_column("value")
    for name, value in (pending.get("slots") or {}).items():
        if value:
            table.add_row(name, value if isinstance(value, str) else "; ".join(value))
    console.print(table)
    for note in pending.get("notes") or []:
        console.print(f"[dim]{note}[/dim]")


def _show_plan(pending: dict[str, Any], console: Console) -> None:
    table = Table(title="Keywords")
    for column in ("slot", "term", "synonyms"):
        table.add_column(column)
    for term in (Term.model_validate(item) for item in pending.get("terms") or []):
        table.add_row(term.slot, term.canonical, ", ".join(s.text for s in term.kept_synonyms()))
    console.print(table)


def _report_unreachable(run: Run, plan: KeywordPlan) -> None:
    """One line on stderr per outside source that failed, in the search or in the keyword step.

    A database that failed in both steps is reported once, with its search error (the one that cost
    the Run its results); services only the keyword step uses (MeSH, Wikidata, ...) follow.
    """
    seen: set[str] = set()
    for stage, errors in (("search", run.errors), ("keywords", plan.source_errors)):
        for error in errors:
            if error.source in seen:
                continue
            seen.add(error.source)
            message = error.message.removeprefix(f"{error.source}: ")
            print(f"{error.source}: {error.kind.value} ({stage}): {message}", file=sys.stderr)


# ----------------------------------------------------------------------------------------------
# progress, summary, export
# ----------------------------------------------------------------------------------------------


class _SearchView:
    """The search node's events on stderr: one rich progress bar per source, the snowball's lines."""

    def __init__(self, console: Console, sources: list[Source]) -> None:
        self.console = console
        self.sources = sources
        self.progress: Progress | None = None
        self.tasks: dict[str, TaskID] = {}

    def handle(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "node" and event.get("node") == "search" and event.get("status") == "started":
            self._open()
        elif kind == "search_progress":
            self._update(event)
        elif kind == "run_ready":
            self.close()
        elif kind == "info" and event.get("message"):  # "snowball: ..." lines
            self.console.print(str(event["message"]))

    def _open(self) -> None:
        self.progress = Progress(
            TextColumn("{task.fields[source]:<17}"),
            BarColumn(),
            TextColumn("{task.completed:>5.0f}/{task.fields[shown_total]:<6}"),
            TextColumn("{task.fields[status]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        )
        self.tasks = {
            s.value: self.progress.add_task("", source=s.value, shown_total="?", status="waiting", total=None)
            for s in self.sources
        }
        self.progress.start()

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None

    def _update(self, event: dict[str, Any]) -> None:
        task = self.tasks.get(str(event.get("source")))
        if task is None or self.progress is None:
            return
        stage, fetched = event.get("stage"), event.get("fetched", 0)
        fields: dict[str, Any] = {}
        if stage == "started":
            fields["status"] = "searching"
        elif stage == "page":
            fields.update(status=f"page {event.get('page', 0)}", completed=fetched)
        elif stage == "done":
            fields.update(status="done", completed=fetched, total=max(fetched, 1))
        elif stage == "failed":
            fields.update(status="failed", total=1, completed=0)
        if event.get("total") is not None:
            fields["shown_total"] = str(event["total"])
        self.progress.update(task, **fields)


def _summary(run: Run, store: Any, console: Console) -> None:
    table = Table(title=f"Run {run.id} ({run.status.value})")
    for column in ("source", "status", "fetched", "reported", "seconds"):
        table.add_column(column, justify="right" if column in {"fetched", "reported", "seconds"} else "left")
    failed = {e.source: e for e in run.errors}
    for source in run.sources:
        error = failed.get(source.value)
        total = run.totals.get(source.value)
        table.add_row(
            source.value,
            f"failed ({error.kind.value})" if error else "ok",
            str(run.counts.get(source.value, 0)),
            "-" if total is None else f"{total:,}",
            f"{run.timings.seconds.get(source.value, 0):.1f}",
        )
    if run.snowball is not None:
        table.add_row("snowball", run.snowball.stopped, str(run.counts.get("snowball", 0)), "", "")
    table.add_row("merged", "", str(run.counts.get("aggregated", 0)), "", "")
    table.caption = f"{run.timings.seconds.get('total', 0):.1f} s in all"
    console.print(table)
    for warning in run.warnings:
        console.print(f"[yellow]warning:[/yellow] {warning}")
    if run.snowball is not None:
        _snowball_summary(run, console)
    papers = store.load_aggregated(run.id)[:TOP_PAPERS_SHOWN]
    if papers:
        top = Table(title="Top papers")
        for column in ("#", "title", "year", "sources"):
            top.add_column(column)
        for paper in papers:
            top.add_row(
                str(paper.rank or ""),
                paper.paper.title[:100],
                str(paper.paper.year or ""),
                ", ".join(s.value for s in paper.sources),
            )
        console.print(top)


def _snowball_summary(run: Run, console: Console) -> None:
    """The snowball's rounds and its verdict: "search saturated after N rounds" or "stopped at the budget"."""
    report = run.snowball
    if report is None:
        return
    for note in report.notes:
        console.print(f"[dim]snowball: {note}[/dim]")
    for round_ in report.rounds:
        share = "-" if round_.new_share is None else f"{round_.new_share:.0%}"
        console.print(
            f"snowball round {round_.depth}: {round_.seeds} seeds, {round_.candidates} linked papers, "
            f"{round_.relevant} relevant, {round_.new_relevant} new ({share}), {round_.kept} kept, "
            f"{round_.requests} requests"
        )
        for error in round_.errors:
            console.print(f"[yellow]snowball round {round_.depth}: {error.source}: {error.message}[/yellow]")
    # plain print: scripts read this line
    print(f"Snowball: {report.message}; {report.kept} papers added, {report.requests} requests", flush=True)


def _export(run: Run, store: Any, fmt: str, output: Path | None, console: Console) -> None:
    data = export_papers(store.load_aggregated(run.id), fmt)
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_bytes(data)
        path = output
    else:
        path = store.write_derived(run.id, export_filename("papers", fmt), data)
    print(f"Exported {run.counts.get('aggregated', 0)} papers as {fmt}: {path}", flush=True)
