"""`scholarmap ask RUN "QUESTION"`: a cited answer from a Run's papers, streamed to the terminal.

    scholarmap ask 20261123T101500-1a2b3c "Which papers decode speech from high-gamma activity?" \
        [--probes] [--no-rerank] [--top-k N] [--fulltext [--fulltext-limit N]] [--json | --jsonl] [--trace]

The Run is indexed on first use (with `--fulltext`, open-access full texts are fetched first and the
index is refreshed with them). The answer streams to stdout, followed by its numbered sources; progress
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
import json
import logging
import sys
import time
from typing import Any, TextIO

from agent.ask.answer import MAX_QUESTION_CHARS, AskCitation, AskEnd, AskStart, AskText, validate_question
from agent.runs.store import RunStore, StoreError
from agent.settings import ConfigError, Settings, get_settings
from server.streaming.failures import public_failure

log = logging.getLogger(__name__)


class AskCommandError(Exception):
    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


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
        return _fail("interrupted", 130)


def _fail(message: str, code: int, err: TextIO | None = None) -> int:
    print(f"scholarmap: error: {message}", file=err or sys.stderr)
    return code


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
        return _fail(str(exc), 2, err)
    try:
        settings = settings or get_settings()
        store = RunStore(settings.projects_dir)
        run = store.get_run(args.run)  # a missing Run fails here, before any database or model is opened
    except (StoreError, ConfigError) as exc:  # RunNotFound and InvalidId both name the run id
        return _fail(str(exc), 1, err)

    from agent.llm import build_llm

    llm = llm or build_llm(settings)
    database = None
    try:
        if engine is None:
            database, engine = await _open_engine(settings, embedder, rerank=not args.no_rerank, err=err)
        await _ensure_index(args, run.id, store, engine, settings, http_client, err)
        await _stream_answer(args, run.id, question, engine, llm, out, err)
        return 0
    except AskCommandError as exc:
        return _fail(str(exc), exc.code, err)
    except Exception as exc:  # a named failure's own message; a bug's text only in the log (with a reference)
        failure = public_failure(
            exc, log, doing="answering the question", where="scholarmap ask", details="the log above"
        )
        return _fail(failure.message, 1, err)
    finally:
        if database is not None:
            await database.close()


async def _open_engine(settings: Settings, embedder: Any, *, rerank: bool, err: TextIO) -> tuple[Any, Any]:
    from agent.ask.knowledge import EmbeddingModelError, build_retrieval_engine
    from agent.db import Database, DatabaseError

    try:
        database = await Database.open(settings, max_size=4)
    except DatabaseError as exc:
        raise AskCommandError(str(exc)) from exc
    try:
        engine, notes = build_retrieval_engine(settings, database, embedder=embedder, rerank=rerank)
    except EmbeddingModelError as exc:
        await database.close()
        raise AskCommandError(str(exc)) from exc
    for note in notes:
        print(f"note: {note}", file=err)
    return database, engine


async def _ensure_index(
    args: argparse.Namespace,
    run_id: str,
    store: RunStore,
    engine: Any,
    settings: Settings,
    http_client: Any,
    err: TextIO,
) -> None:
    """Index the Run when it has no index yet, or when full texts were asked for."""
    from agent.ask.knowledge import index_run

    if await engine.run_has_index(run_id) and not args.fulltext:
        return
    from agent.ask.fulltext_ask import CachedFulltext, fulltext_cache

    data = store.load_run(run_id)
    cache = fulltext_cache(settings)
    fulltext = None
    if args.fulltext and data.aggregated:
        from agent.ask.fulltext import fetch_fulltext
        from agent.ask.fulltext_ask import fulltext_clients
        from agent.search.sources import open_sources

        print(f"fetching full texts for up to {args.fulltext_limit} papers…", file=err, flush=True)
        async with open_sources(settings, client=http_client) as sources:
            clients = fulltext_clients(settings, sources)
            for note in clients.notes:
                print(f"  {note}", file=err)
            fulltext = await fetch_fulltext(
                data.aggregated,
                europepmc=clients.europepmc,
                unpaywall=clients.unpaywall,
                pdf_fetcher=clients.pdf_fetcher,
                zotero=clients.zotero,
                limit=args.fulltext_limit,
                concurrency=min(4, settings.http_concurrency),
            )
        for key, blocks in fulltext.items():  # kept for later questions and re-indexing
            cache.put(CachedFulltext(paper_key=key, tier=fulltext.outcomes[key].tier.value, blocks=blocks))
        print(f"  {fulltext.summary()}", file=err)
        links = [o for o in fulltext.outcomes.values() if o.oa_url]
        for outcome in links[:10]:
            print(
                f"  open-access copy (not parsed): {outcome.paper_key} {outcome.pdf_url or outcome.oa_url}",
                file=err,
            )
    print(f"indexing run {run_id}: {len(data.aggregated)} papers…", file=err, flush=True)
    began = time.perf_counter()
    report = await index_run(
        engine,
        store,
        run_id,
        data=data,
        fulltext={**cache.blocks_for(data.aggregated), **dict(fulltext or {})},
    )
    print(
        f"  indexed {report.sections} sections of {report.papers} papers "
        f"({report.embedded} embedded, {report.reused} reused) in {time.perf_counter() - began:.1f} s",
        file=err,
    )


async def _stream_answer(
    args: argparse.Namespace, run_id: str, question: str, engine: Any, llm: Any, out: TextIO, err: TextIO
) -> None:
    from agent.ask.answer import ask

    citations: list[AskCitation] = []
    end: AskEnd | None = None
    start: AskStart | None = None
    answer: list[str] = []
    trace = bool(getattr(args, "trace", False))
    as_object = bool(getattr(args, "json", False))
    async for chunk in ask(
        run_id,
        question,
        engine=engine,
        llm=llm,
        top_k=args.top_k,
        rerank=not args.no_rerank,
        probes=args.probes,
        trace=trace,
    ):
        if getattr(args, "jsonl", False):
            print(chunk.model_dump_json(), file=out, flush=True)
            continue
        if as_object:
            if isinstance(chunk, AskStart):
                start = chunk
            elif isinstance(chunk, AskText):
                answer.append(chunk.delta)
            elif isinstance(chunk, AskCitation):
                citations.append(chunk)
            elif isinstance(chunk, AskEnd):
                end = chunk
            continue
        if isinstance(chunk, AskStart) and trace and chunk.trace is not None:
            print(json.dumps({"trace": chunk.trace}, ensure_ascii=False, indent=2), file=err, flush=True)
        if isinstance(chunk, AskStart) and chunk.probes is not None:
            meta = chunk.probes
            queries = "; ".join(meta.expanded_queries) or "none"
            print(
                f"probes: {queries} ({meta.dedup.final_count} distinct of {meta.dedup.original_count} hits)",
                file=err,
            )
            for failure in meta.failures:
                print(f"  probe fallback: {failure}", file=err)
        elif isinstance(chunk, AskText):
            out.write(chunk.delta)
            out.flush()
        elif isinstance(chunk, AskCitation):
            citations.append(chunk)
        elif isinstance(chunk, AskEnd):
            end = chunk
    if getattr(args, "jsonl", False):
        return
    if as_object:
        body: dict[str, Any] = {
            "answer": "".join(answer).strip(),
            "answerable": end.answerable if end is not None else None,
            "citations": [c.model_dump(mode="json", exclude={"type"}) for c in citations],
            "produced_by": end.produced_by.value if end is not None else None,
            "note": end.note if end is not None else None,
        }
        if start is not None and start.answerability is not None:
            body["answerability"] = start.answerability.model_dump(mode="json")
        if trace and start is not None:
            body["trace"] = start.trace
        print(json.dumps(body, ensure_ascii=False), file=out, flush=True)
        return
    out.write("\n")
    if citations:
        out.write("\nSources:\n")
        for citation in sorted(citations, key=lambda c: c.n):
            out.write(_source_line(citation) + "\n")
    out.flush()
    if end is not None:
        who = {
            "llm": "the language model",
            "scripted": "a scripted model",
            "rules": "rules (no language model)",
        }
        line = f"answered by {who.get(end.produced_by.value, end.produced_by.value)} in {end.timings.get('total', 0):.1f} s"
        print(line + (f"; {end.note}" if end.note else ""), file=err)


def _source_line(citation: AskCitation) -> str:
    year = f" ({citation.year})" if citation.year else ""
    where = citation.heading or citation.section
    link = f" https://doi.org/{citation.doi}" if citation.doi else ""
    line = f"[{citation.n}] {citation.title or citation.paper_key}{year} — {where}.{link}"
    if citation.quote:
        line += f'\n    "{citation.quote}"'
    return line
