"""The academic map over HTTP: `GET /runs/{run_id}/map` (JSON) and `GET /runs/{run_id}/map.html` (page).

The JSON is the Run's stored `map.json`, computed and stored on the first request (`?force=true`
recomputes it). The page is `server/static/map.html` with its scripts, styles, the world shapes and
the map data all inlined, so it is one self-contained document: it renders with no network, needs no
second request (which a token-protected server could not authorise from a <script> tag), and can be
saved and shared as a file. `render_map_page` is shared with `scholarmap map`.
"""

from __future__ import annotations

import asyncio
import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import HTMLResponse, Response

from agent.academic_map.build import AcademicMap, map_for_run
from agent.llm import LLM
from agent.runs.store import RunStore, validate_run_id
from agent.settings import Settings
from server.deps import get_llm, get_settings, get_store

STATIC = Path(__file__).resolve().parents[1] / "static"
WORLD_SHAPES = "vendor/world-atlas/countries-110m.json"

router = APIRouter(tags=["map"])


def _script_json(text: str) -> str:
    """JSON safe inside <script>: no '</script>' or '<!--' can end or confuse the element."""
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


@lru_cache(maxsize=8)
def _asset(relative: str) -> str:
    path = (STATIC / relative).resolve()
    if STATIC not in path.parents:
        raise ValueError(f"asset outside the static folder: {relative}")
    return path.read_text(encoding="utf-8")


def render_map_page(map_json: str) -> str:
    """map.html with every asset and the map data inlined: one file that works offline."""
    page = _asset("map.html")

    def style(match: re.Match[str]) -> str:
        return f"<style>/* {match.group(1)} */\n{_asset(match.group(1))}\n</style>"

    def script(match: re.Match[str]) -> str:
        return f"<script>/* {match.group(1)} */\n{_asset(match.group(1))}\n</script>"

    page = re.sub(r'<link rel="stylesheet" href="([^"]+)" data-inline>', style, page)
    page = re.sub(r'<script src="([^"]+)" data-inline></script>', script, page)
    world = _script_json(_asset(WORLD_SHAPES))
    page = page.replace(
        f'<script id="world-data" type="application/json" data-src="{WORLD_SHAPES}"></script>',
        f'<script id="world-data" type="application/json" data-src="{WORLD_SHAPES}">{world}</script>',
    )
    return page.replace(
        '<script id="map-data" type="application/json"></script>',
        f'<script id="map-data" type="application/json">{_script_json(map_json)}</script>',
    )


async def _map(run_id: str, store: RunStore, llm: LLM, settings: Settings, force: bool) -> AcademicMap:
    validate_run_id(run_id)  # InvalidId -> 422 through the app's error handlers
    return await map_for_run(store, run_id, llm=llm, settings=settings, force=force)


@router.get(
    "/runs/{run_id}/map", summary="The academic map of one Run (computed and stored on first request)"
)
async def get_map(
    run_id: str,
    store: Annotated[RunStore, Depends(get_store)],
    llm: Annotated[LLM, Depends(get_llm)],
    settings: Annotated[Settings, Depends(get_settings)],
    force: Annotated[bool, Query(description="recompute even if map.json is stored")] = False,
) -> Response:
    result = await _map(run_id, store, llm, settings, force)
    # A map of thousands of researchers is MBs of JSON: encoded in a worker thread, off the event loop.
    return Response(await asyncio.to_thread(result.model_dump_json), media_type="application/json")


@router.get(
    "/runs/{run_id}/map.html", response_class=HTMLResponse, summary="The interactive map page of one Run"
)
async def get_map_page(
    run_id: str,
    store: Annotated[RunStore, Depends(get_store)],
    llm: Annotated[LLM, Depends(get_llm)],
    settings: Annotated[Settings, Depends(get_settings)],
    force: bool = False,
) -> HTMLResponse:
    result = await _map(run_id, store, llm, settings, force)
    return HTMLResponse(await asyncio.to_thread(lambda: render_map_page(result.model_dump_json())))


__all__ = ["render_map_page", "router"]
