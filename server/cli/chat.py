"""`scholarmap chat`: the conversation in the terminal, in-process, on the same graph as the server.

The graph runs through `server.cli.conversation.LocalConversation`, as for `run` and `ask`; this module
reads the person's lines and shows the graph's events.

Questions, confirmation and keyword review are prompts; the search shows a progress bar per source; the
thread is checkpointed in the project's database, so `--thread ID` continues it later.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from server.streaming.render import render_interrupt, render_progress, render_sources

EXIT_WORDS = frozenset({"/quit", "/exit", "quit", "exit", "q"})


def add_chat_command(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("chat", help="hold the conversation in the terminal")
    parser.add_argument("--project", default="default", help="project id (created if absent)")
    parser.add_argument("--thread", help="continue an earlier conversation by its thread id")
    parser.add_argument("--sources", help="comma-separated sources to search (default: all)")
    parser.add_argument("--max-per-source", type=int, help="records per source (default from settings)")
    parser.set_defaults(handler=chat_command)


def chat_command(args: argparse.Namespace) -> int:
    return asyncio.run(_chat(args, Console(), _read_line))


async def _read_line(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


class TerminalView:
    """Turns the graph's custom-stream events into terminal output."""

    def __init__(self, console: Console, *, limit: int | None = None) -> None:
        self.console = console
        self.progress: Progress | None = None
        self.bars: dict[str, Any] = {}
        self.citations: list[dict[str, Any]] = []
        self.run: dict[str, Any] | None = None
        self.limit = limit  # records asked of each source: progress events carry only the reported total

    def handle(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "text":
            # markup=False everywhere text comes from the conversation: rich would take "[tiab]" or
            # "[task]" for style tags and drop them (and raise on a stray "[/x]").
            self.console.print(event.get("delta", ""), end="", soft_wrap=True, highlight=False, markup=False)
        elif kind == "citation":
            self.citations.append(event)
        elif kind == "search_progress":
            self._progress(event)
        elif kind == "run_ready":
            self._close_progress()
            self.run = event
        elif kind == "node" and event.get("status") == "started":
            labels = {
                "understand": "Understanding",
                "keywords": "Finding terms and synonyms",
                "search": "Searching",
            }
            if event.get("node") in labels:
                self.console.print(f"[dim]{labels[event['node']]}…[/dim]")
        elif kind == "map_ready":
            self.console.print(f"The academic map is ready: {event.get('url')}", markup=False)

    def _progress(self, event: dict[str, Any]) -> None:
        if self.progress is None:
            self.progress = Progress(
                TextColumn("{task.description:<17}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=self.console,
                transient=False,
            )
            self.progress.start()
        source = event.get("source", "?")
        if source not in self.bars:
            self.bars[source] = self.progress.add_task(source, total=None)
        total = event.get("total")
        limit = event.get("limit") or self.limit  # else a bar for 1 of 559 records never fills
        target = (
            min(x for x in (total, limit) if x is not None)
            if (total is not None or limit is not None)
            else None
        )
        self.progress.update(self.bars[source], completed=event.get("fetched") or 0, total=target)
        if line := (render_progress(event) if event.get("stage") == "failed" else None):
            self.progress.console.print(line, markup=False)

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
            self.bars = {}

    def summary(self) -> None:
        if self.run is None:
            return
        run = self.run
        table = Table(title=f"Run {run['run_id']} ({run['status']})")
        table.add_column("source")
        table.add_column("fetched", justify="right")
        table.add_column("reported", justify="right")
        for source, count in (run.get("counts") or {}).items():
            table.add_row(source, str(count), str((run.get("totals") or {}).get(source, "")))
        self.console.print(table)
        for error in run.get("errors") or []:
            self.console.print(f"{error.get('source')}: {error.get('message')}", style="red", markup=False)
        self.run = None

    def finish_answer(self) -> None:
        if self.citations:
            self.console.print("\n" + render_sources(self.citations), markup=False)
            self.citations = []


async def _chat(args: argparse.Namespace, console: Console, read_line: Any) -> int:
    # imported when the command runs, not at the CLI's start-up: the graph and the database are heavy
    from agent.db import Database
    from agent.llm import build_llm
    from agent.runs.store import RunStore
    from agent.search.sources import open_sources
    from agent.settings import get_settings
    from graph.build import postgres_checkpointer
    from graph.context import GraphContext
    from graph.interrupts import reply_from_text
    from server.cli.conversation import LocalConversation
    from server.streaming.threads import new_thread_id

    settings = get_settings()
    store = RunStore(settings.projects_dir)
    store.ensure_project(args.project)
    llm = build_llm(settings)
    if not llm.available:
        console.print("[yellow]No LLM configured: using the rule-based fallbacks.[/yellow]")
    database = await Database.open(settings, max_size=4)
    try:
        async with open_sources(settings) as sources:
            options: dict[str, Any] = {}
            if args.sources:
                options["sources"] = [s.strip() for s in args.sources.split(",") if s.strip()]
            if args.max_per_source:
                options["max_per_source"] = args.max_per_source
            context = GraphContext(
                settings=settings, store=store, llm=llm, sources=sources, database=database, options=options
            )
            conversation = LocalConversation(
                context,
                checkpointer=await postgres_checkpointer(database.pool),
                thread_id=args.thread or new_thread_id(),
            )
            console.print(
                f"[dim]Thread {conversation.thread_id} in project {args.project}. Type /quit to leave.[/dim]"
            )
            view = TerminalView(console, limit=options.get("max_per_source") or settings.max_per_source)
            pending = await conversation.pending()
            if pending is None:
                line = await read_line("Describe your research: ")
                if line is None or line.strip() in EXIT_WORDS:
                    return 0
                message = {"message": line, "mode": None, "project_id": args.project}
                pending = await _pass(conversation.send(message, view.handle), view)
            while True:
                if pending is not None:
                    console.print(render_interrupt(pending), markup=False, highlight=False)
                    line = await read_line("> ")
                    if line is None or line.strip() in EXIT_WORDS:
                        return 0
                    reply = reply_from_text(pending["kind"], line).model_dump(mode="json")
                    pending = await _pass(conversation.reply(reply, view.handle), view)
                    continue
                line = ""
                while not line.strip():
                    line = await read_line(
                        "\nAsk about this Run, '/search ...' for a new search, '/map', or /quit: "
                    )
                    if line is None or line.strip() in EXIT_WORDS:
                        return 0
                message = {"message": line, "mode": None, "project_id": args.project}
                pending = await _pass(conversation.send(message, view.handle), view)
    finally:
        await database.close()


async def _pass(step: Awaitable[dict[str, Any] | None], view: TerminalView) -> dict[str, Any] | None:
    """One pass of the graph, then the Run's summary and the answer's sources; the pause it stopped at."""
    pending = await step
    view.summary()
    view.finish_answer()
    return pending


if __name__ == "__main__":  # pragma: no cover
    sys.exit(
        chat_command(argparse.Namespace(project="default", thread=None, sources=None, max_per_source=None))
    )
