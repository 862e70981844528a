"""REST views of Projects and their Runs (read-only for Runs: a Run is immutable once saved).

Result files and exports are served by `server/routes/run_files.py`: streamed as stored, parsed only for a
page or a field selection, in worker threads, with ETag and Last-Modified.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import BaseModel, Field

from agent.models import AggregatedPaper, Paper, Project, Run, Source
from agent.runs.exports import CONTENT_TYPES, export_filename, export_papers
from agent.search.snowball import SnowballFind
from server.deps import StoreDep
from server.routes.run_files import not_modified, parse_fields, serve_run_file, validator_headers

router = APIRouter(tags=["projects"])

ExportFormat = Literal["csv", "ris", "bibtex", "json"]


class ProjectCreate(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    description: str = Field("", max_length=5000)
    id: str | None = Field(None, description="optional id; derived from the name when absent")


class ChooseRun(BaseModel):
    run_id: str


@router.post("/projects", status_code=201)
async def create_project(body: ProjectCreate, store: StoreDep) -> Project:
    return store.create_project(body.name, body.description, project_id=body.id)


@router.get("/projects")
async def list_projects(store: StoreDep) -> list[Project]:
    return store.list_projects()


@router.get("/projects/{project_id}")
async def get_project(project_id: str, store: StoreDep) -> Project:
    return store.get_project(project_id)


@router.get("/projects/{project_id}/runs")
async def list_runs(project_id: str, store: StoreDep) -> list[Run]:
    return store.list_runs(project_id)


@router.put("/projects/{project_id}/chosen-run")
async def choose_run(project_id: str, body: ChooseRun, store: StoreDep) -> Project:
    return store.choose_run(project_id, body.run_id)


@router.get("/runs/{run_id}")
async def get_run(run_id: str, store: StoreDep) -> Run:
    return store.get_run(run_id)


Offset = Annotated[int, Query(ge=0, description="skip this many records (paging)")]
Limit = Annotated[int | None, Query(ge=1, le=10_000, description="return at most this many records")]
Fields = Annotated[
    str | None, Query(description="comma-separated record fields to keep, e.g. key,paper,score")
]


@router.get("/runs/{run_id}/results")
async def merged_results(
    run_id: str,
    request: Request,
    store: StoreDep,
    offset: Offset = 0,
    limit: Limit = None,
    fields: Fields = None,
) -> Response:
    """The merged papers; the whole stored list, or a page of it (`X-Total-Count` holds the total)."""
    chosen = parse_fields(fields, AggregatedPaper.model_fields)
    return await serve_run_file(
        request, store, run_id, "results_aggregated.json", offset=offset, limit=limit, fields=chosen
    )


@router.get("/runs/{run_id}/results/{source}")
async def source_results(
    run_id: str,
    source: str,
    request: Request,
    store: StoreDep,
    offset: Offset = 0,
    limit: Limit = None,
    fields: Fields = None,
) -> Response:
    if source == "aggregated":
        return await merged_results(run_id, request, store, offset, limit, fields)
    if source == "snowball":  # what citation snowballing found, when the Run was asked for it
        if not (store.run_dir(run_id) / "results_snowball.json").is_file():
            raise HTTPException(404, f"run '{run_id}' was not snowballed; start a Run with snowballing")
        chosen = parse_fields(fields, SnowballFind.model_fields)
        return await serve_run_file(
            request, store, run_id, "results_snowball.json", offset=offset, limit=limit, fields=chosen
        )
    try:
        Source(source)
    except ValueError:
        names = ", ".join(s.value for s in Source)
        raise HTTPException(
            404, f"unknown source '{source}'; expected one of {names}, aggregated or snowball"
        ) from None
    chosen = parse_fields(fields, Paper.model_fields)
    return await serve_run_file(
        request, store, run_id, f"results_{source}.json", offset=offset, limit=limit, fields=chosen
    )


@router.get("/runs/{run_id}/files/{name}")
async def run_file(
    run_id: str,
    name: Literal["understanding", "keywords", "queries", "run"],
    request: Request,
    store: StoreDep,
) -> Response:
    return await serve_run_file(request, store, run_id, f"{name}.json")


@router.get("/runs/{run_id}/export")
async def export_run(
    run_id: str, request: Request, store: StoreDep, format: ExportFormat = "ris"
) -> Response:
    path = await asyncio.to_thread(store.run_file_path, run_id, "results_aggregated.json")
    headers = await asyncio.to_thread(validator_headers, path, format)
    if not_modified(request, headers):
        return Response(status_code=304, headers=headers)

    def build() -> bytes:  # parsing and formatting thousands of papers: in a worker thread
        return export_papers(store.load_aggregated(run_id), format)

    body = await asyncio.to_thread(build)
    filename = export_filename(f"scholarmap_{run_id}", format)
    return Response(
        body,
        media_type=CONTENT_TYPES[format],
        headers={**headers, "content-disposition": f'attachment; filename="{filename}"'},
    )
