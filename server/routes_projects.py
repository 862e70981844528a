"""REST views of Projects and their Runs (read-only for Runs: a Run is immutable once saved)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Response
from pydantic import BaseModel, Field

from agent.models import Project, Run, Source
from server.deps import StoreDep

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


@router.get("/runs/{run_id}/results")
async def merged_results(run_id: str, store: StoreDep) -> Any:
    return store.read_run_file(run_id, "results_aggregated.json")


@router.get("/runs/{run_id}/results/{source}")
async def source_results(run_id: str, source: str, store: StoreDep) -> Any:
    if source == "aggregated":
        return store.read_run_file(run_id, "results_aggregated.json")
    try:
        Source(source)
    except ValueError:
        names = ", ".join(s.value for s in Source)
        raise HTTPException(
            404, f"unknown source '{source}'; expected one of {names} or aggregated"
        ) from None
    return store.read_run_file(run_id, f"results_{source}.json")


@router.get("/runs/{run_id}/files/{name}")
async def run_file(
    run_id: str, name: Literal["understanding", "keywords", "queries", "run"], store: StoreDep
) -> Any:
    return store.read_run_file(run_id, f"{name}.json")


@router.get("/runs/{run_id}/export")
async def export_run(run_id: str, store: StoreDep, format: ExportFormat = "ris") -> Response:
    from agent.exports import CONTENT_TYPES, export_filename, export_papers

    papers = store.load_aggregated(run_id)
    body = export_papers(papers, format)
    filename = export_filename(f"scholarmap_{run_id}", format)
    return Response(
        body,
        media_type=CONTENT_TYPES[format],
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )
