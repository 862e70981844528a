"""The web app: `GET /` serves the browser app, `GET /app/<file>` its scripts and styles.

The app is plain ES modules under `server/static/app/` (no build step, nothing fetched from elsewhere), so
`scholarmap serve` on a fresh machine serves the whole workflow in a browser. It talks to the same API as
every other client, on the same origin. The shell and its assets carry no data, so the auth middleware
lets them through (see `PUBLIC_PATHS` / `PUBLIC_PREFIXES` in server.app): with SCHOLARMAP_API_TOKEN set,
the page asks for the token and sends it as a bearer token with each API call.

`GET /projects/{id}/overview` is the one addition to the API the app needs: a Project with its
Runs (newest first, counts per source, the chosen one marked) in one request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse

from server.deps import StoreDep

APP_DIR = Path(__file__).resolve().parents[1] / "static" / "app"
PUBLIC_PREFIX = "/app/"
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}
# The shell always asks again (a new version of the app is picked up on reload); assets revalidate by ETag.
NO_STORE = {"cache-control": "no-cache"}

router = APIRouter(tags=["web app"])


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def app_shell() -> HTMLResponse:
    return HTMLResponse((APP_DIR / "index.html").read_text(encoding="utf-8"), headers=NO_STORE)


@router.get("/projects/{project_id}/overview", summary="A Project with its Runs, newest first")
async def project_overview(project_id: str, store: StoreDep) -> dict[str, Any]:
    project = store.get_project(project_id)
    runs = sorted(store.list_runs(project_id), key=lambda run: run.created_at, reverse=True)
    return {
        "project": project.model_dump(mode="json"),
        "runs": [
            {
                "id": run.id,
                "created_at": run.created_at.isoformat(),
                "status": run.status.value,
                "counts": run.counts,
                "totals": run.totals,
                "sources": [source.value for source in run.sources],
                "errors": [error.model_dump(mode="json") for error in run.errors],
                "warnings": run.warnings,
                "thread_id": run.thread_id,
                "description": run.description,
                "chosen": run.id == project.chosen_run_id,
            }
            for run in runs
        ],
    }


@router.get("/app/{name:path}", include_in_schema=False)
async def app_asset(name: str) -> FileResponse:
    path = (APP_DIR / name).resolve()
    if APP_DIR not in path.parents or not path.is_file() or path.suffix not in MEDIA_TYPES:
        raise HTTPException(404, f"no such file in the web app: {name}")
    return FileResponse(path, media_type=MEDIA_TYPES[path.suffix], headers=NO_STORE)


__all__ = ["PUBLIC_PREFIX", "router"]
