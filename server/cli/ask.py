"""`scholarmap ask RUN "QUESTION"`: a cited answer from a Run's papers, streamed to the terminal.

    scholarmap ask 20261123T101500-1a2b3c "Which papers decode speech from high-gamma activity?" \
        [--probes] [--no-rerank] [--top-k N] [--fulltext [--fulltext-limit N]] [--json | --jsonl] [--trace]

The answer is the conversation graph's ask node run in this process (`server.cli.conversation`), as a
question in `chat`, the web app or the bots: the node indexes the Run on first use (with `--fulltext`,
the node's `fulltext_papers` option: open-access full texts of the best papers are fetched first and the
index is refreshed with them) and streams the answer, which this module prints. The answer streams to stdout, followed by its numbered sources; progress
and notes go to stderr, so `> answer.txt` keeps only the answer. `--json` prints one object instead:
`{"answer", "answerable", "citations", "produced_by", "note"}` (and `"trace"` with `--trace`);
`--jsonl` prints the stream's chunks as they come. `--trace` alone prints each retrieval step's output
(requirement 001's shapes) as JSON on stderr. Every failure is one line on stderr and
a non-zero exit (a bug's traceback is logged before that line, which names it only by a reference): 1 for a missing Run or an unavailable service, 2 for a bad question or option.
Heavy imports (torch, the engine) happen only when the command runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import sys
from typing import Any, TextIO

from pydantic import TypeAdapter

from agent.ask.answer import (
    MAX_QUESTION_CHARS,
    AskChunk,
    AskCitation,
    AskEnd,
    AskStart,
    AskText,
    validate_question,
)
from agent.runs.store import RunStore, StoreError
from agent.settings import ConfigError, Settings, get_settings
from server.cli.errors import CommandError, fail
from server.streaming.failures import public_failure

log = logging.getLogger(__name__)


def add_ask_command(subparsers: Any) -> None:
    """Register `ask` on the `scholarmap` command's sub-parsers."""
    p = subparsers.add_parser(
        "ask",
        help="ask a question about a Run's papers; the answer cites them",
        description="Answer a question from a Run's papers with numbered citations (indexes the Run on first use).",
    )
    p.add_argument("run", help="run id (see: scholarmap runs PROJECT)")
    p.add_argument(
        "question", help=f"the question, in any language (at most {MAX_QUESTION_CHARS} characters)"
    )
    p.add_argument("--probes", action="store_true", help="expand the question with LLM-written search probes")
    p.add_argument("--no-rerank", action="store_true", help="skip the cross-encoder rerank step")
    p.add_argument("--top-k", type=int, default=8, metavar="N", help="passages to answer from (default 8)")
    p.add_argument(
        "--fulltext",
        action="store_true",
        help="fetch open-access full texts (Europe PMC; Unpaywall links) and index them before answering",
    )
    p.add_argument(
        "--fulltext-limit", type=int, default=20, metavar="N", help="papers, by rank, to fetch full text for"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"answer", "answerable", "citations", ...} as one JSON object',
    )
    p.add_argument("--jsonl", action="store_true", help="print the answer's stream chunks as JSON lines")
    p.add_argument(
        "--trace", action="store_true", help="show each retrieval step's output (normalisation … assembly)"
    )
    p.set_defaults(handler=ask_command)


def ask_command(args: argparse.Namespace) -> int:
    """The `ask` handler: exit code 0 on an answer (even "nothing found"), else 1 or 2 with one line on stderr."""
    try:
        return asyncio.run(run_ask(args))
    except KeyboardInterrupt:
        return fail("interrupted", 130)


async def run_ask(
    args: argparse.Namespace,
    *,
    settings: Settings | None = None,
    engine: Any = None,
    llm: Any = None,
    embedder: Any = None,
    http_client: Any = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """The command itself; tests inject an engine, an LLM, an embedder or an HTTP client for full texts."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        question = validate_question(args.question)
        if args.top_k < 1 or args.top_k > 50:
            raise ValueError("--top-k must be between 1 and 50")
        if args.fulltext_limit < 0:
            raise ValueError("--fulltext-limit must not be negative")
    except ValueError as exc:
        return fail(str(exc), 2, err)
    try:
        settings = settings or get_settings()
        store = RunStore(settings.projects_dir)
        run = store.get_run(args.run)  # a missing Run fails here, before any database or model is opened
    except (StoreError, ConfigError) as exc:  # RunNotFound and InvalidId both name the run id
        return fail(str(exc), 1, err)

    # imported when the command runs, not at the CLI's start-up: the graph and the engine are heavy
    from agent.llm import build_llm
    from agent.search.sources import open_sources
    from graph.context import GraphContext
    from server.cli.conversation import LocalConversation

    llm = llm or build_llm(settings)
    database = None
    try:
        if engine is None:
            database, engine = await _open_engine(settings, embedder, rerank=not args.no_rerank, err=err)
        options: dict[str, Any] = {
            "top_k": args.top_k,
            "rerank": not args.no_rerank,
            "probes": args.probes,
            "trace": bool(getattr(args, "trace", False)),
            # the conversation's per-question full-text step is not the command's: `--fulltext` fetches
            # the Run's best papers in full (the node's `fulltext_papers`), and nothing is fetched without it
            "fulltext": False,
        }
        if args.fulltext:
            options["fulltext_papers"] = args.fulltext_limit
        sources = open_sources(settings, client=http_client) if args.fulltext else contextlib.nullcontext()
        async with sources as opened:
            context = GraphContext(
                settings=settings,
                store=store,
                llm=llm,
                sources=opened,
                database=database,
                retrieval=engine,
                options=options,
            )
            printer = _AnswerPrinter(args, out, err)
            message = {
                "message": question,
                "mode": "ask",
                "project_id": run.project_id,
                "active_run_id": run.id,
            }
            await LocalConversation(context).send(message, printer.handle)
        printer.finish()
        return 0
    except CommandError as exc:
        return fail(str(exc), exc.code, err)
    except Exception as exc:  # a named failure's own message; a bug's text only in the log (with a reference)
        failure = public_failure(
            exc, log, doing="answering the question", where="scholarmap ask", details="the log above"
        )
        return fail(failure.message, 1, err)
    finally:
        if database is not None:
            await database.close()


async def _open_engine(settings: Settings, embedder: Any, *, rerank: bool, err: TextIO) -> tuple[Any, Any]:
    # CLI start-up: the retrieval engine and the database driver load only when a question is asked
    from agent.ask.knowledge import EmbeddingModelError, build_retrieval_engine
    from agent.db import Database, DatabaseError

    try:
        database = await Database.open(settings, max_size=4)
    except DatabaseError as exc:
        raise CommandError(str(exc)) from exc
    try:
        engine, notes = build_retrieval_engine(settings, database, embedder=embedder, rerank=rerank)
    except EmbeddingModelError as exc:
        await database.close()
        raise CommandError(str(exc)) from exc
    for note in notes:
        print(f"note: {note}", file=err)
    return database, engine


class _AnswerPrinter:
    """The ask node's events on the terminal: progress on stderr, the answer on stdout.

    The node streams the answer's chunks (`agent.ask.answer`: start, text, citation, end) as events;
    they are turned back into those chunks, so `--jsonl` prints exactly what the answer streamed.
    """

    def __init__(self, args: argparse.Namespace, out: TextIO, err: TextIO) -> None:
        self.out, self.err = out, err
        self.jsonl = bool(getattr(args, "jsonl", False))
        self.as_object = bool(getattr(args, "json", False))
        self.trace = bool(getattr(args, "trace", False))
        self.start: AskStart | None = None
        self.end: AskEnd | None = None
        self.answer: list[str] = []
        self.citations: list[AskCitation] = []

    def handle(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "node":
            self._progress(event)
        elif kind == "fulltext_prefetch":
            for note in event.get("notes") or []:
                print(f"  {note}", file=self.err)
            print(f"  {event.get('summary', '')}", file=self.err)
            for key, url in (event.get("links") or [])[:10]:
                print(f"  open-access copy (not parsed): {key} {url}", file=self.err)
        elif (chunk := _chunk_of(event)) is not None:
            self.chunk(chunk)

    def _progress(self, event: dict[str, Any]) -> None:
        status = event.get("status")
        if status == "fetching_fulltext":
            print(f"fetching full texts for up to {event.get('limit')} papers…", file=self.err, flush=True)
        elif status == "indexing":
            print(
                f"indexing run {event.get('run_id')}: {event.get('papers')} papers…",
                file=self.err,
                flush=True,
            )
        elif status == "indexed":
            print(
                f"  indexed {event.get('sections')} sections of {event.get('papers')} papers "
                f"({event.get('embedded')} embedded, {event.get('reused')} reused) in "
                f"{float(event.get('seconds') or 0):.1f} s",
                file=self.err,
            )

    def chunk(self, chunk: AskChunk) -> None:
        if self.jsonl:
            print(chunk.model_dump_json(), file=self.out, flush=True)
            return
        if isinstance(chunk, AskStart):
            self.start = chunk
        elif isinstance(chunk, AskCitation):
            self.citations.append(chunk)
        elif isinstance(chunk, AskEnd):
            self.end = chunk
        elif isinstance(chunk, AskText):
            self.answer.append(chunk.delta)
        if self.as_object:
            return
        if isinstance(chunk, AskStart) and self.trace and chunk.trace is not None:
            print(json.dumps({"trace": chunk.trace}, ensure_ascii=False, indent=2), file=self.err, flush=True)
        if isinstance(chunk, AskStart) and chunk.probes is not None:
            meta = chunk.probes
            queries = "; ".join(meta.expanded_queries) or "none"
            print(
                f"probes: {queries} ({meta.dedup.final_count} distinct of {meta.dedup.original_count} hits)",
                file=self.err,
            )
            for failure in meta.failures:
                print(f"  probe fallback: {failure}", file=self.err)
        elif isinstance(chunk, AskText):
            self.out.write(chunk.delta)
            self.out.flush()

    def finish(self) -> None:
        """After the stream: the JSON object, or the numbered sources and who answered."""
        if self.jsonl:
            return
        start, end, out = self.start, self.end, self.out
        if self.as_object:
            body: dict[str, Any] = {
                "answer": "".join(self.answer).strip(),
                "answerable": end.answerable if end is not None else None,
                "citations": [c.model_dump(mode="json", exclude={"type"}) for c in self.citations],
                "produced_by": end.produced_by.value if end is not None else None,
                "note": end.note if end is not None else None,
            }
            if start is not None and start.answerability is not None:
                body["answerability"] = start.answerability.model_dump(mode="json")
            if self.trace and start is not None:
                body["trace"] = start.trace
            print(json.dumps(body, ensure_ascii=False), file=out, flush=True)
            return
        out.write("\n")
        if self.citations:
            out.write("\nSources:\n")
            for citation in sorted(self.citations, key=lambda c: c.n):
                out.write(_source_line(citation) + "\n")
        out.flush()
        if end is not None:
            who = {
                "llm": "the language model",
                "scripted": "a scripted model",
                "rules": "rules (no language model)",
            }
            line = f"answered by {who.get(end.produced_by.value, end.produced_by.value)} in {end.timings.get('total', 0):.1f} s"
            print(line + (f"; {end.note}" if end.note else ""), file=self.err)


def _chunk_of(event: dict[str, Any]) -> AskChunk | None:
    """The answer chunk an ask-node event carries (`text`, `citation`, `ask_start`, `ask_end`), else None."""
    kind = event.get("type")
    if kind == "text":
        return AskText(delta=str(event.get("delta", "")))
    if kind == "citation":
        return AskCitation.model_validate(event)
    if kind in ("ask_start", "ask_end"):
        return _CHUNK.validate_python({**event, "type": kind.removeprefix("ask_")})
    return None


_CHUNK: TypeAdapter[AskChunk] = TypeAdapter(AskChunk)


def _source_line(citation: AskCitation) -> str:
    year = f" ({citation.year})" if citation.year else ""
    where = citation.heading or citation.section
    link = f" https://doi.org/{citation.doi}" if citation.doi else ""
    line = f"[{citation.n}] {citation.title or citation.paper_key}{year} — {where}.{link}"
    if citation.quote:
        line += f'\n    "{citation.quote}"'
    return line
