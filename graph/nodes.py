"""The graph's nodes. Each one calls one domain function and returns the state update; nothing else.

Nodes that pause (`clarify`, `confirm`, `review`) call `interrupt()` before doing anything with side
effects, because LangGraph re-runs a node from its start when it is resumed.
Progress for clients goes through LangGraph's custom stream (`get_stream_writer()`), as plain dicts with
a `type` that the server turns into typed events.
"""

from __future__ import annotations

import re
import time
from typing import Any

from langgraph.config import get_config, get_stream_writer
from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import TypeAdapter, ValidationError

from agent.academic_map.build import map_for_run
from agent.ask.answer import ask as ask_run
from agent.ask.answer import validate_question
from agent.ask.fulltext_ask import (
    fallback_note,
    fulltext_cache,
    prefetch_fulltext,
    question_fulltext,
    report_json,
)
from agent.ask.knowledge import index_run
from agent.keywords.plan import keywords_and_queries
from agent.keywords.querybuild import build_queries
from agent.keywords.review import KeywordEdit, apply_edits, parse_edit_text
from agent.models import KeywordPlan, QueryPlan, Understanding
from agent.search.executor import RunExecution
from agent.search.guard import ensure_something_to_search
from agent.search.snowball import resolve_options
from agent.step_deadline import keywords_within
from agent.understanding import description  # the module: tests replace its `understand`
from graph.context import GraphContext
from graph.interrupts import ClarificationReply, ConfirmationReply, ReviewReply
from graph.state import ConversationState, Mode

_COMMAND = re.compile(
    r"^\s*(?:/(search|new|ask|map)\b|(new search|search|ask|map)\s*[:：])\s*", re.IGNORECASE
)


def _emit(kind: str, **data: Any) -> None:
    get_stream_writer()({"type": kind, **data})


def _started(node: str) -> None:
    _emit("node", node=node, status="started")


def parse_command(message: str) -> tuple[Mode | None, str]:
    """`/search ...`, `/ask ...`, `/map`, `new search: ...` pick a mode explicitly; returns (mode, rest)."""
    match = _COMMAND.match(message)
    if not match:
        return None, message.strip()
    word = (match.group(1) or match.group(2)).lower()
    mode: Mode = "map" if word == "map" else "ask" if word == "ask" else "search"
    return mode, message[match.end() :].strip()


# -- routing -----------------------------------------------------------------------------------------


async def route(state: ConversationState) -> dict[str, Any]:
    """Decide what the new message asks for. With a Run active, plain text is a question about it."""
    _started("route")
    explicit, text = parse_command(state.get("message", ""))
    mode: Mode = state.get("mode") or explicit or ("ask" if state.get("active_run_id") else "search")
    if mode == "search":
        return {
            "mode": "search",
            "description": text,
            "round": 1,
            "understanding": None,
            "keywords": None,
            "queries": None,
            "review_diff": None,
            "review_error": None,
        }
    return {"mode": mode, "question": text}


def after_route(state: ConversationState) -> str:
    mode = state.get("mode", "search")
    if mode != "search" and not state.get("active_run_id"):
        return "no_run"
    return {"search": "understand", "ask": "ask", "map": "map"}[mode]


async def no_run(state: ConversationState) -> dict[str, Any]:
    _emit(
        "text",
        delta="There is no Run in this conversation yet. Describe your research first, and I will search for it.",
    )
    return {"mode": "search"}


def _active_run(state: ConversationState) -> str:
    """The Run that `ask` and `map` work on; `after_route` sends a conversation without one to `no_run`."""
    run_id = state.get("active_run_id")
    if not run_id:
        raise RuntimeError("no active Run: after_route should have sent this message to no_run")
    return run_id


# -- understanding -----------------------------------------------------------------------------------


async def understand(state: ConversationState, runtime: Runtime[GraphContext]) -> dict[str, Any]:

    _started("understand")
    ctx = runtime.context
    previous = Understanding.model_validate(state["understanding"]) if state.get("understanding") else None
    result = await description.understand(
        state["description"],
        ctx.llm,
        round=state.get("round", 1),
        max_rounds=ctx.settings.clarification_rounds,
        previous=previous,
    )
    return {"understanding": result.model_dump(mode="json")}


def after_understand(state: ConversationState) -> str:
    understanding = Understanding.model_validate(state["understanding"])
    return "confirm" if understanding.ready or not understanding.questions else "clarify"


async def clarify(state: ConversationState) -> dict[str, Any]:

    understanding = Understanding.model_validate(state["understanding"])
    reply = ClarificationReply.model_validate(
        interrupt(
            {
                "kind": "clarification",
                "round": understanding.round,
                "summary": understanding.summary,
                "uncertainties": understanding.uncertainties,
                "questions": [q.model_dump(mode="json") for q in understanding.questions],
            }
        )
    )
    if reply.accept and not _has_text(reply.answers):  # no answers: confirm the interpretation as it is
        return {"clarified": True}
    merged = description.merge_answers(state["description"], understanding.questions, reply.answers)
    return {"description": merged, "round": state.get("round", 1) + 1, "clarified": False}


def _has_text(answers: list[str] | dict[str, str] | str) -> bool:
    values = (
        answers.values() if isinstance(answers, dict) else [answers] if isinstance(answers, str) else answers
    )
    return any(value.strip() for value in values)


def after_clarify(state: ConversationState) -> str:
    return "confirm" if state.get("clarified") else "understand"


async def confirm(state: ConversationState) -> dict[str, Any]:
    understanding = Understanding.model_validate(state["understanding"])
    reply = ConfirmationReply.model_validate(
        interrupt(
            {
                "kind": "confirmation",
                "summary": understanding.summary,
                "slots": understanding.slots.model_dump(mode="json"),
                "uncertainties": understanding.uncertainties,
                "produced_by": understanding.produced_by.value,
                "notes": understanding.notes,
            }
        )
    )
    if reply.accept:
        return {"confirmed": True}
    # A rejection is a correction: fold it into the description and understand again from round 1.
    feedback = (reply.feedback or "").strip()
    corrected = f"{state['description']}\n{feedback}" if feedback else state["description"]
    return {"description": corrected, "round": 1, "understanding": None, "confirmed": False}


def after_confirm(state: ConversationState) -> str:
    return "keywords" if state.get("confirmed") else "understand"


# -- keywords ------------------------------------------------------------------------------------------


async def keywords(state: ConversationState, runtime: Runtime[GraphContext]) -> dict[str, Any]:

    _started("keywords")
    ctx = runtime.context
    understanding = Understanding.model_validate(state["understanding"])
    plan, queries = await keywords_within(
        lambda sources: keywords_and_queries(
            understanding, ctx.llm, sources, hit_limit=ctx.settings.query_hit_limit
        ),
        ctx.sources,
        ctx.settings.step_time_limit,
    )
    ensure_something_to_search(plan, queries)  # NothingToSearch: a clear error, no review, no Run
    return {
        "keywords": plan.model_dump(mode="json"),
        "queries": queries.model_dump(mode="json"),
        "review_error": None,
    }


async def review(state: ConversationState, runtime: Runtime[GraphContext]) -> dict[str, Any]:

    plan = KeywordPlan.model_validate(state["keywords"])
    reply = ReviewReply.model_validate(
        interrupt(
            {
                "kind": "review",
                "terms": [term.model_dump(mode="json") for term in plan.terms],
                "facets": [facet.model_dump(mode="json") for facet in plan.facets],
                "concepts": [concept.model_dump(mode="json") for concept in plan.concepts],
                "study_filters": [f.model_dump(mode="json") for f in plan.study_filters],
                "queries": state.get("queries"),
                "source_errors": [e.model_dump(mode="json") for e in plan.source_errors],
                "diff": state.get("review_diff"),
                "error": state.get("review_error"),
            }
        )
    )
    if reply.accept and not reply.edits and not reply.text:
        return {"review_diff": None, "review_error": None, "reviewed": True}
    try:
        edits = TypeAdapter(list[KeywordEdit]).validate_python(reply.edits)
        if reply.text:
            edits += parse_edit_text(reply.text)
    except ValidationError as exc:  # its str() is pydantic's report (types, input reprs, a docs URL)
        problems = "; ".join(f"edit {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return {
            "review_error": f"these edits cannot be used: {problems}",
            "review_diff": None,
            "reviewed": False,
        }
    except ValueError as exc:  # parse_edit_text says which edit it could not understand
        return {"review_error": str(exc), "review_diff": None, "reviewed": False}
    new_plan, diff = await apply_edits(plan, edits, runtime.context.llm, runtime.context.sources)
    shown = diff.model_dump(mode="json")
    # `summary` is what server.streaming.render.render_diff shows: PlanDiff.text() covers synonyms and query
    # changes too, which a rendering of the dump's list fields alone would leave out.
    shown["summary"] = diff.text()
    return {
        "keywords": new_plan.model_dump(mode="json"),
        "queries": build_queries(new_plan).model_dump(mode="json"),
        "review_diff": shown,
        "review_error": None,
        "reviewed": reply.accept,
    }


def after_review(state: ConversationState) -> str:
    # Edits without acceptance show the changed plan again; acceptance (with or without edits) searches.
    return "search" if state.get("reviewed") else "review"


# -- search, ask, map -------------------------------------------------------------------------------------


async def search(state: ConversationState, runtime: Runtime[GraphContext]) -> dict[str, Any]:

    _started("search")
    ctx = runtime.context
    writer = get_stream_writer()
    understanding = (
        Understanding.model_validate(state["understanding"]) if state.get("understanding") else None
    )
    thread_id = get_config().get("configurable", {}).get("thread_id") if ctx.record_thread else None
    # options sent earlier in the conversation (kept in state) override the runner's defaults
    options = {**ctx.options, **(state.get("options") or {})}

    def progress(event: Any) -> None:
        data = event.model_dump(mode="json") if hasattr(event, "model_dump") else dict(vars(event))
        writer({"type": "search_progress", **data})

    snowball = None
    if options.get("snowball"):
        snowball = resolve_options(
            ctx.settings,
            depth=options.get("snowball_depth"),
            budget=options.get("snowball_budget"),
            named=options.get("snowball_seeds") or (),
        )

    run = await RunExecution(
        store=ctx.store,
        project_id=state["project_id"],
        understanding=understanding,
        keywords=KeywordPlan.model_validate(state["keywords"]),
        queries=QueryPlan.model_validate(state["queries"]),
        sources=ctx.sources,
        settings=ctx.settings,
        enabled=options.get("sources"),
        max_per_source=options.get("max_per_source"),
        llm=ctx.llm,
        on_progress=progress,
        thread_id=thread_id,
        description=state.get("description", ""),
        snowball=snowball,
        on_snowball=lambda line: writer({"type": "info", "message": f"snowball: {line}"}),
    ).execute()
    writer(
        {
            "type": "run_ready",
            "run_id": run.id,
            "project_id": run.project_id,
            "status": run.status.value,
            "counts": run.counts,
            "totals": run.totals,
            "errors": [e.model_dump(mode="json") for e in run.errors],
            **({"snowball": run.snowball.message} if run.snowball is not None else {}),
        }
    )
    return {"run_ids": [*state.get("run_ids", []), run.id], "active_run_id": run.id, "mode": "ask"}


async def ask(state: ConversationState, runtime: Runtime[GraphContext]) -> dict[str, Any]:

    _started("ask")
    ctx = runtime.context
    writer = get_stream_writer()
    run_id = _active_run(state)
    try:
        question = validate_question(state.get("question") or "")
    except ValueError as exc:  # a conversational slip, not a failure: say what to fix
        _emit("text", delta=f"{str(exc)[0].upper()}{str(exc)[1:]}.")
        return {"answer": None}
    options = {**ctx.options, **(state.get("options") or {})}
    engine = ctx.retrieval_engine()
    cache = fulltext_cache(ctx.settings)
    prefetch = options.get("fulltext_papers")  # `scholarmap ask --fulltext`: the best N papers in full first
    if prefetch is not None or not await engine.run_has_index(run_id):
        await _index(ctx, engine, cache, run_id, prefetch)
    text: list[str] = []
    fallback = ""
    if ctx.sources is not None and options.get("fulltext", True):
        report = await question_fulltext(
            question, run_id, engine=engine, store=ctx.store, settings=ctx.settings, sources=ctx.sources
        )
        _emit("fulltext", **report_json(report))  # every paper's tier and reason, for clients that show it
        fallback = fallback_note(report)  # said once, after the answer
    citations: list[dict[str, Any]] = []
    answerable: bool | None = None
    async for chunk in ask_run(
        run_id,
        question,
        engine=engine,
        llm=ctx.llm,
        top_k=int(options.get("top_k", 8)),
        rerank=bool(options.get("rerank", True)),
        probes=bool(options.get("probes", False)),
        trace=bool(options.get("trace", False)),
    ):
        payload = chunk.model_dump(mode="json")
        kind = payload.get("type")
        if kind == "text":
            text.append(payload.get("delta", ""))
            writer({"type": "text", "delta": payload.get("delta", "")})
        elif kind == "citation":
            citations.append(payload)
            writer(payload)
        else:
            if kind == "end":
                answerable = payload.get("answerable")
            writer({"type": f"ask_{kind}", **{k: v for k, v in payload.items() if k != "type"}})
    if fallback:
        text.append(fallback)
        _emit("text", delta=fallback)
    return {"answer": {"text": "".join(text), "citations": citations, "answerable": answerable}}


async def _index(ctx: GraphContext, engine: Any, cache: Any, run_id: str, prefetch: int | None) -> None:
    """(Re-)index the Run with every cached full text, after fetching its first `prefetch` papers in full."""

    data = ctx.store.load_run(run_id)
    fetched: dict[str, Any] = {}
    if prefetch is not None and ctx.sources is not None and data.aggregated:
        _emit("node", node="ask", status="fetching_fulltext", run_id=run_id, limit=prefetch)
        report = await prefetch_fulltext(
            data.aggregated, settings=ctx.settings, sources=ctx.sources, limit=prefetch, cache=cache
        )
        fetched = report.blocks
        _emit("fulltext_prefetch", summary=report.summary, notes=report.notes, links=report.links)
    _emit("node", node="ask", status="indexing", run_id=run_id, papers=len(data.aggregated))
    began = time.perf_counter()
    indexed = await index_run(
        engine, ctx.store, run_id, data=data, fulltext={**cache.blocks_for(data.aggregated), **fetched}
    )
    _emit(
        "node",
        node="ask",
        status="indexed",
        run_id=run_id,
        papers=indexed.papers,
        sections=indexed.sections,
        embedded=indexed.embedded,
        reused=indexed.reused,
        seconds=round(time.perf_counter() - began, 3),
    )


async def map_run(state: ConversationState, runtime: Runtime[GraphContext]) -> dict[str, Any]:

    _started("map")
    ctx = runtime.context
    run_id = _active_run(state)
    academic_map = await map_for_run(ctx.store, run_id, llm=ctx.llm, settings=ctx.settings)
    counts = academic_map.counts.model_dump(mode="json")
    _emit(
        "map_ready",
        run_id=run_id,
        url=f"/runs/{run_id}/map.html",
        json_url=f"/runs/{run_id}/map",
        counts=counts,
        note=academic_map.note,
    )
    return {"map_summary": {"run_id": run_id, "counts": counts, "note": academic_map.note}}
