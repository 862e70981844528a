"""What the MCP tools do, on the adapter runtime: each one a turn (or a read) of the shared machinery.

A plan is the conversation run up to its keyword review, with the interpretation taken as confirmed; a
search is that review accepted; a question or a map is a message to a thread whose active Run is the one
asked about (one such thread per Run, by the chat key `mcp:run:<id>`). The MCP wiring is in
`server.adapters.mcp_server`; everything here raises `ToolFailure` with a message a user can act on.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from agent.academic_map.build import read_map
from agent.errors import ConversationError
from agent.runs.exports import CONTENT_TYPES, export_filename, export_papers
from agent.runs.store import RUN_FILES, StoreError
from server.adapters.runtime import DEFAULT_PROJECT, AdapterRuntime, TurnOutcome, thread_for_key, turn
from server.streaming.render import SOURCE_NAMES, render_sources
from server.streaming.threads import ResumeMismatch, ThreadBusy, ThreadNotFound, ThreadWaiting

MAP_FILES = ("map.json",)
TOP_SHOWN = 10


class ToolFailure(ConversationError):
    """Raised inside the tools; turned into the SDK's ToolError (an `isError` result) at the boundary."""


# -- results -----------------------------------------------------------------------------------------


class PlanResult(BaseModel):
    thread_id: str = Field(description="pass it to run_search (or plan_search with answers)")
    status: Literal["ready", "needs_answers"]
    understanding: dict[str, Any] | None = None
    questions: list[str] = Field(default_factory=list, description="to answer with plan_search(answers=...)")
    terms: list[dict[str, Any]] = Field(default_factory=list)
    queries: dict[str, str] = Field(default_factory=dict, description="one query per source")
    notes: list[str] = Field(default_factory=list)


class RunResult(BaseModel):
    run_id: str
    project_id: str
    thread_id: str
    status: str
    counts: dict[str, int] = Field(default_factory=dict)
    totals: dict[str, int | None] = Field(default_factory=dict)
    errors: list[str] = Field(default_factory=list)
    resources: list[str] = Field(default_factory=list, description="the Run's files as MCP resources")


class Answer(BaseModel):
    run_id: str
    answer: str
    citations: list[dict[str, Any]] = Field(default_factory=list)
    sources: str = Field("", description="the citations as a numbered list")


class MapSummary(BaseModel):
    run_id: str
    note: str
    counts: dict[str, int]
    countries: list[dict[str, Any]]
    institutions: list[dict[str, Any]]
    researchers: list[dict[str, Any]]
    page: str = Field(description="path of the map page on the web app")


class RunListing(BaseModel):
    runs: list[dict[str, Any]]


class Export(BaseModel):
    run_id: str
    format: str
    filename: str
    content_type: str
    content: str


# -- the tools' work, on a runtime ----------------------------------------------------------------------


def _problem(exc: Exception) -> ToolFailure:
    return ToolFailure(str(exc))


async def _finish(runtime: AdapterRuntime, thread_id: str, **submit: Any) -> TurnOutcome:
    """One turn to its end; a failure of the conversation becomes a ToolFailure."""
    outcome = TurnOutcome()
    try:
        async for event in turn(runtime.threads, thread_id, **submit):
            outcome.add(event)
    except (ThreadBusy, ResumeMismatch, ThreadNotFound) as exc:
        raise _problem(exc) from None
    if outcome.error:
        raise ToolFailure(f"the conversation failed: {outcome.error}")
    return outcome


async def plan(
    runtime: AdapterRuntime,
    *,
    description: str | None,
    project: str,
    thread_id: str | None,
    answers: list[str] | None,
) -> PlanResult:
    """Drive a thread to its keyword review, taking the interpretation as confirmed."""
    threads = runtime.threads
    if thread_id is None:
        if not description or not description.strip():
            raise ToolFailure("give a 'description' of the research (or the 'thread_id' of a plan)")
        try:
            if project == DEFAULT_PROJECT:
                runtime.store.ensure_project(DEFAULT_PROJECT, "Default project")
            else:
                runtime.store.get_project(project)
        except StoreError as exc:
            raise _problem(exc) from None
        thread_id = str((await threads.create(project))["thread_id"])
        outcome = await _finish(runtime, thread_id, text=description, mode="search")
    else:
        pending = await _pending(runtime, thread_id)
        if pending is None:
            raise ToolFailure(f"thread '{thread_id}' is not planning a search; start one with a description")
        if pending["kind"] == "clarification":
            if not answers:
                raise ToolFailure("the thread waits for answers to its questions: pass them as 'answers'")
            outcome = await _finish(runtime, thread_id, resume={"answers": answers})
        else:
            outcome = TurnOutcome(interrupt=pending, state="waiting")
    for _ in range(10):  # each confirmation accepted leads to the review (or a clarification)
        pause = outcome.interrupt if outcome.state == "waiting" else None
        if pause is None:
            raise ToolFailure("the conversation ended without a search plan; describe the research again")
        if pause["kind"] == "confirmation":
            outcome = await _finish(runtime, thread_id, resume={"accept": True})
            continue
        if pause["kind"] == "clarification":
            return PlanResult(
                thread_id=thread_id,
                status="needs_answers",
                understanding={"summary": pause.get("summary"), "uncertainties": pause.get("uncertainties")},
                questions=[str(q.get("question", "")) for q in pause.get("questions") or []],
            )
        values = (await threads.state(thread_id))["values"]
        return _plan_result(thread_id, pause, values.get("understanding"))
    raise ToolFailure("the interpretation kept changing; describe the research more precisely")


def _plan_result(thread_id: str, review: dict[str, Any], understanding: dict[str, Any] | None) -> PlanResult:
    queries = (review.get("queries") or {}).get("queries") or {}
    notes = [
        f"synonym source {e.get('source')} failed: {e.get('message')}"
        for e in review.get("source_errors") or []
    ]
    if review.get("error"):
        notes.append(f"an edit could not be applied: {review['error']}")
    shown = (
        {k: understanding.get(k) for k in ("summary", "slots", "uncertainties")} if understanding else None
    )
    return PlanResult(
        thread_id=thread_id,
        status="ready",
        understanding=shown,
        terms=[
            {
                "slot": term.get("slot"),
                "term": term.get("canonical"),
                "synonyms": [s.get("text") for s in term.get("synonyms", []) if s.get("kept", True)],
            }
            for term in review.get("terms") or []
        ],
        queries={source: str(query.get("query", "")) for source, query in queries.items()},
        notes=notes,
    )


async def _pending(runtime: AdapterRuntime, thread_id: str) -> dict[str, Any] | None:
    try:
        await runtime.threads.project_of(thread_id)
    except ThreadNotFound as exc:
        raise _problem(exc) from None
    return await runtime.threads.pending(thread_id)


class ProgressSink:
    """Turns search_progress events into one rising number: records fetched over records expected.

    MCP requires each notification's progress to be greater than the last, so an event that fetched
    nothing new (a source starting, or failing) is not reported; failures are in the Run's errors.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.fetched: dict[str, int] = {}
        self.expected: dict[str, int] = {}
        self.reported: float | None = None

    def report(self, data: dict[str, Any]) -> tuple[float, float, str] | None:
        progress, total, message = self.update(data)
        if self.reported is not None and progress <= self.reported:
            return None
        self.reported = progress
        return progress, total, message

    def update(self, data: dict[str, Any]) -> tuple[float, float, str]:
        source = str(data.get("source", "?"))
        total = data.get("total")
        self.expected[source] = min(int(total), self.limit) if total is not None else self.limit
        if data.get("stage") in {"done", "failed"}:
            self.expected[source] = int(data.get("fetched") or self.fetched.get(source, 0))
        self.fetched[source] = max(self.fetched.get(source, 0), int(data.get("fetched") or 0))
        name = SOURCE_NAMES.get(source, source)
        message = f"{name}: {data.get('stage')}, {self.fetched[source]} records"
        return float(sum(self.fetched.values())), float(max(sum(self.expected.values()), 1)), message


async def search(
    runtime: AdapterRuntime,
    *,
    thread_id: str,
    edits: str | None,
    options: dict[str, Any],
    report: Any,
) -> RunResult:
    """Accept the thread's keyword review (with edits, if any) and follow the search to its Run."""
    pending = await _pending(runtime, thread_id)
    if pending is None or pending["kind"] != "review":
        waits = f"waits for a {pending['kind']} reply" if pending else "has no search plan"
        raise ToolFailure(f"thread '{thread_id}' {waits}; call plan_search first, then run_search")
    resume: dict[str, Any] = {"accept": True}
    if edits and edits.strip():
        resume["text"] = edits
    sink = ProgressSink(int(options.get("max_per_source") or runtime.settings.max_per_source))
    run: dict[str, Any] | None = None
    error: str | None = None
    try:
        async for event in turn(runtime.threads, thread_id, resume=resume, options=options or None):
            if event.type == "search_progress":
                if (notification := sink.report(event.data)) is not None:
                    await report(*notification)
            elif event.type == "run_ready":
                run = event.data
            elif event.type == "error":
                error = str(event.data.get("message"))
    except (ThreadBusy, ResumeMismatch, ThreadNotFound) as exc:
        raise _problem(exc) from None
    if run is None:
        raise ToolFailure(f"the search did not finish: {error or 'no Run was saved'}")
    run_id = str(run["run_id"])
    return RunResult(
        run_id=run_id,
        project_id=str(run.get("project_id") or ""),
        thread_id=thread_id,
        status=str(run.get("status")),
        counts=run.get("counts") or {},
        totals=run.get("totals") or {},
        errors=[f"{e.get('source')}: {e.get('message')}" for e in run.get("errors") or []],
        resources=[f"scholarmap://runs/{run_id}/{name}" for name in _run_files(runtime, run_id)],
    )


def _run_files(runtime: AdapterRuntime, run_id: str) -> list[str]:
    folder = runtime.store.run_dir(run_id)
    return [name for name in RUN_FILES if (folder / name).exists()]


async def _run_thread(runtime: AdapterRuntime, run_id: str) -> str:
    """The MCP thread for questions and maps about one Run (its active Run is that Run)."""
    try:
        run = runtime.store.get_run(run_id)
    except StoreError as exc:
        raise _problem(exc) from None
    thread_id = await thread_for_key(runtime, f"mcp:run:{run_id}", run.project_id)
    state = await runtime.threads.state(thread_id)
    if state["active_run_id"] != run_id:
        try:
            await runtime.threads.set_active_run(thread_id, run_id)
        except (ThreadBusy, ThreadWaiting, ResumeMismatch) as exc:
            raise _problem(exc) from None
    return thread_id


async def ask(runtime: AdapterRuntime, *, run_id: str, question: str) -> Answer:
    thread_id = await _run_thread(runtime, run_id)
    outcome = await _finish(runtime, thread_id, text=question, mode="ask")
    return Answer(
        run_id=run_id,
        answer=outcome.text.strip(),
        citations=outcome.citations,
        sources=render_sources(outcome.citations) if outcome.citations else "",
    )


async def academic_map(runtime: AdapterRuntime, *, run_id: str) -> MapSummary:
    thread_id = await _run_thread(runtime, run_id)
    outcome = await _finish(runtime, thread_id, text="/map", mode="map")
    found = read_map(runtime.store, run_id)
    if found is None or outcome.map_ready is None:
        raise ToolFailure(f"the academic map of run '{run_id}' could not be made")
    institutions = [
        institution
        for country in found.countries
        for institution in [
            *(i for city in country.cities for i in city.institutions),
            *country.unplaced_institutions,
        ]
    ] + list(found.unplaced_institutions)
    institutions.sort(key=lambda i: (-i.researcher_count, -i.paper_count, i.name))
    researchers: list[tuple[Any, str | None]] = [(r, i.name) for i in institutions for r in i.researchers]
    researchers += [(r, None) for r in found.unaffiliated_researchers]
    researchers.sort(key=lambda pair: (-len(pair[0].paper_keys), -pair[0].pi_confidence, pair[0].name))
    return MapSummary(
        run_id=run_id,
        note=found.note,
        counts=found.counts.model_dump(),
        countries=[
            {
                "name": c.name,
                "code": c.code,
                "researchers": c.researcher_count,
                "institutions": c.institution_count,
            }
            for c in found.countries[:TOP_SHOWN]
        ],
        institutions=[
            {
                "name": i.name,
                "country": i.country_code,
                "researchers": i.researcher_count,
                "papers": i.paper_count,
            }
            for i in institutions[:TOP_SHOWN]
        ],
        researchers=[
            {"name": r.name, "institution": where, "papers": len(r.paper_keys), "is_pi": r.is_pi}
            for r, where in researchers[:TOP_SHOWN]
        ],
        page=str(outcome.map_ready.get("url") or f"/runs/{run_id}/map.html"),
    )


def list_runs(runtime: AdapterRuntime, *, project: str | None) -> RunListing:
    store = runtime.store
    try:
        projects = [project] if project else [p.id for p in store.list_projects()]
        runs = [run for project_id in projects for run in store.list_runs(project_id)]
    except StoreError as exc:
        raise _problem(exc) from None
    runs.sort(key=lambda run: run.created_at, reverse=True)
    return RunListing(
        runs=[
            {
                "run_id": run.id,
                "project_id": run.project_id,
                "created_at": run.created_at.isoformat(),
                "status": run.status.value,
                "description": run.description[:300],
                "counts": run.counts,
            }
            for run in runs
        ]
    )


def export(runtime: AdapterRuntime, *, run_id: str, fmt: str) -> Export:
    try:
        papers = runtime.store.load_aggregated(run_id)
    except StoreError as exc:
        raise _problem(exc) from None
    return Export(
        run_id=run_id,
        format=fmt,
        filename=export_filename(f"run_{run_id}", fmt),
        content_type=CONTENT_TYPES[fmt],
        content=export_papers(papers, fmt).decode("utf-8"),
    )


def read_run_resource(runtime: AdapterRuntime, run_id: str, name: str) -> str:
    """A Run file (`run.json`, `results_aggregated.json`, ...) or its stored `map.json`, as text."""
    if name in MAP_FILES:
        data = runtime.store.read_derived(run_id, name)
        if data is None:
            raise StoreError(f"run '{run_id}' has no {name} yet; call academic_map first")
        return data.decode("utf-8")
    return json.dumps(runtime.store.read_run_file(run_id, name), ensure_ascii=False, indent=2)
