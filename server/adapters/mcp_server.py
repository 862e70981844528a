"""`scholarmap mcp`: ScholarMap as MCP tools, for researchers who work inside an AI assistant.

Claude Desktop, Cursor or any MCP host gets six tools and the Run files as resources. The tools drive the
same conversation graph as the web app, through the thread manager (`server.adapters.runtime`): a plan is
the conversation run up to its keyword review (the interpretation taken as confirmed), a search is that
review accepted, a question is a message to a thread whose active Run is the one asked about (the work
itself is in `server.adapters.mcp_tools`; this module is the MCP face: typed arguments, progress, resources). So a
thread made here can be continued through the REST API, and every Run lands in the project folders.

Bad input (an unknown Run, a thread that waits for something else, arguments the schema refuses) comes
back as an MCP tool error whose text says what to do; nothing internal is shown.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from pydantic import Field

from agent.llm import LLM
from agent.runs.exports import EXPORT_FORMATS
from agent.runs.store import RUN_FILES, CorruptRun, StoreError
from agent.settings import Settings
from server.adapters.mcp_tools import (
    MAP_FILES,
    Answer,
    Export,
    MapSummary,
    PlanResult,
    RunListing,
    RunResult,
    ToolFailure,
    academic_map,
    ask,
    export,
    list_runs,
    plan,
    read_run_resource,
    search,
)
from server.adapters.runtime import DEFAULT_PROJECT, AdapterRuntime, open_runtime

log = logging.getLogger(__name__)

ExportFormatName = Literal["csv", "ris", "bibtex", "json"]
SourceName = Literal["pubmed", "semantic_scholar", "openalex"]
Description = Annotated[
    str,
    Field(min_length=1, max_length=20_000, description="the research, in a few sentences (any language)"),
]
RunId = Annotated[str, Field(min_length=1, max_length=100, description="a Run id, e.g. from list_runs")]
Project = Annotated[str, Field(min_length=1, max_length=100, description="the project (default: default)")]


def build_server(settings: Settings, *, llm: LLM | None = None) -> Any:
    """The MCPServer; its lifespan opens the runtime (once for stdio, once for all HTTP sessions)."""

    opened: dict[str, AdapterRuntime] = {}

    @asynccontextmanager
    async def lifespan(_server: Any) -> AsyncIterator[AdapterRuntime]:
        async with open_runtime(settings, llm=llm) as runtime:
            opened["runtime"] = runtime  # static resources get no Context to reach it through
            yield runtime

    server: Any = MCPServer(
        "scholarmap",
        instructions=(
            "ScholarMap searches PubMed, Semantic Scholar and OpenAlex for a research description. "
            "Call plan_search first (it returns a thread_id, the interpretation and the queries), then "
            "run_search with that thread_id (optionally with edits), then ask_run / academic_map / "
            "export_run on the Run it returns. list_runs shows earlier Runs."
        ),
        lifespan=lifespan,
    )

    def runtime_of(ctx: Any) -> AdapterRuntime:
        runtime: AdapterRuntime = ctx.request_context.lifespan_context
        return runtime

    @contextmanager
    def tool_errors() -> Iterator[None]:
        try:
            yield
        except ToolFailure as exc:
            raise ToolError(str(exc)) from None

    @server.tool()
    async def plan_search(
        ctx: Context,
        description: Description | None = None,
        project: Project = DEFAULT_PROJECT,
        thread_id: Annotated[str | None, Field(description="continue this plan (after questions)")] = None,
        answers: Annotated[
            list[str] | None, Field(description="answers to the plan's questions, in order")
        ] = None,
    ) -> PlanResult:
        """Turn a research description into concepts, synonyms and one query per source (no search yet).

        The interpretation is taken as confirmed. When the description is too vague, the result has
        status 'needs_answers' and questions: call again with thread_id and answers.
        """
        with tool_errors():
            return await plan(
                runtime_of(ctx),
                description=description,
                project=project,
                thread_id=thread_id,
                answers=answers,
            )

    @server.tool()
    async def run_search(
        ctx: Context,
        thread_id: Annotated[str | None, Field(description="a plan from plan_search")] = None,
        description: Description | None = None,
        edits: Annotated[
            str | None,
            Field(max_length=5000, description="keyword edits: 'add term: X; remove synonym Y from Z'"),
        ] = None,
        project: Project = DEFAULT_PROJECT,
        sources: Annotated[list[SourceName] | None, Field(min_length=1, description="default: all")] = None,
        max_per_source: Annotated[
            int | None, Field(ge=1, le=10_000, description="records per source")
        ] = None,
    ) -> RunResult:
        """Search the sources for a plan (thread_id) or a description, merge and rank: a saved Run.

        Progress is reported as MCP progress notifications (records fetched over records expected).
        """
        runtime = runtime_of(ctx)
        if (thread_id is None) == (description is None):
            raise ToolError("give either 'thread_id' (a plan from plan_search) or 'description', not both")
        if thread_id is None:
            with tool_errors():
                made = await plan(
                    runtime, description=description, project=project, thread_id=None, answers=None
                )
            if made.status != "ready":
                raise ToolError(
                    f"the description needs answers first (thread {made.thread_id}): "
                    + " ".join(made.questions)
                    + " Call plan_search with this thread_id and the answers, then run_search."
                )
            thread_id = made.thread_id
        options: dict[str, Any] = {}
        if sources:
            options["sources"] = list(sources)
        if max_per_source:
            options["max_per_source"] = max_per_source
        with tool_errors():
            return await search(
                runtime, thread_id=thread_id, edits=edits, options=options, report=ctx.report_progress
            )

    @server.tool()
    async def ask_run(
        ctx: Context,
        run_id: RunId,
        question: Annotated[
            str, Field(min_length=1, max_length=2000, description="a question about the papers")
        ],
    ) -> Answer:
        """Answer a question from a Run's papers, with [n] citations and the numbered sources."""
        with tool_errors():
            return await ask(runtime_of(ctx), run_id=run_id, question=question)

    @server.tool(name="academic_map")
    async def academic_map_tool(ctx: Context, run_id: RunId) -> MapSummary:
        """Who works on this: the countries, institutions and researchers behind a Run's papers."""
        with tool_errors():
            return await academic_map(runtime_of(ctx), run_id=run_id)

    @server.tool(name="list_runs")
    async def list_runs_tool(
        ctx: Context, project: Annotated[str | None, Field(description="only this project")] = None
    ) -> RunListing:
        """The saved Runs, newest first: id, project, status, description, counts."""
        with tool_errors():
            return list_runs(runtime_of(ctx), project=project)

    @server.tool()
    async def export_run(
        ctx: Context,
        run_id: RunId,
        format: Annotated[ExportFormatName, Field(description=f"one of {', '.join(EXPORT_FORMATS)}")] = "ris",
    ) -> Export:
        """A Run's merged paper list as CSV, RIS, BibTeX or JSON (for a reference manager)."""
        with tool_errors():
            return export(runtime_of(ctx), run_id=run_id, fmt=format)

    @server.resource(
        "scholarmap://runs/{run_id}/{name}",
        name="run-file",
        description=f"a Run's files: {', '.join((*RUN_FILES, *MAP_FILES))}",
        mime_type="application/json",
    )
    async def run_file(run_id: str, name: str, ctx: Context) -> str:
        try:
            return read_run_resource(runtime_of(ctx), run_id, name)
        except CorruptRun as exc:
            raise ResourceError(str(exc)) from None
        except StoreError as exc:  # no such Run, no such file
            raise ResourceNotFoundError(str(exc)) from None

    @server.resource(
        "scholarmap://runs",
        name="runs",
        description="every saved Run, newest first (what list_runs returns)",
        mime_type="application/json",
    )
    async def runs_index() -> str:
        try:
            listing = list_runs(opened["runtime"], project=None)
        except ToolFailure as exc:
            raise ResourceError(str(exc)) from None
        return listing.model_dump_json(indent=2)

    return server


def run_mcp(
    settings: Settings,
    *,
    http: bool = False,
    host: str | None = None,
    port: int = 8765,
    path: str = "/mcp",
    llm: LLM | None = None,
) -> None:
    """Serve until stdin closes (stdio) or the process is stopped (HTTP)."""
    # imported when this adapter runs: the other entry points never load its SDK or web server
    import anyio

    server = build_server(settings, llm=llm)
    if not http:
        anyio.run(server.run_stdio_async)
        return
    # imported when this adapter runs: the other entry points never load its SDK or web server
    import uvicorn

    bind = host or settings.host
    app = server.streamable_http_app(streamable_http_path=path, host=bind)
    uvicorn.run(app, host=bind, port=port, log_level="warning")
