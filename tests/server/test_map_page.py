"""The academic map over HTTP and the CLI, and the page itself in headless Chromium (offline).

The app here is the map router alone with its dependencies overridden (no database needed); the
routes are served by uvicorn on 127.0.0.1 and the page is driven by Playwright with a system Chromium
(see .ci/install-browser). Every request the page makes beyond the test server is refused, so the
test also proves the page renders with no network.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from agent.llm import RulesLLM
from agent.models import AggregatedPaper, Run
from agent.runs.store import InvalidId, RunNotFound, RunStore, new_run_id
from agent.settings import load_settings
from server.cli.map import add_map_command, run_map
from server.deps import get_llm, get_settings, get_store
from server.routes.map import render_map_page, router
from tests.asgi_server import serve

PAPERS = Path(__file__).resolve().parents[1] / "agent" / "academic_map" / "data" / "map_papers.json"


def sample_papers() -> list[AggregatedPaper]:
    return [AggregatedPaper.model_validate(item) for item in json.loads(PAPERS.read_text(encoding="utf-8"))]


@pytest.fixture
def run_setup(tmp_path):
    settings = load_settings(data_dir=tmp_path, llm="rules")
    store = RunStore(settings.projects_dir)
    store.create_project("Speech BCI")
    run = Run(id=new_run_id(), project_id="speech-bci")
    store.save_run(run, aggregated=sample_papers())
    return settings, store, run


def map_app(settings, store) -> FastAPI:
    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides[get_store] = lambda: store
    app.dependency_overrides[get_llm] = lambda: RulesLLM()
    app.dependency_overrides[get_settings] = lambda: settings

    async def not_found(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    app.add_exception_handler(RunNotFound, not_found)  # as server.app maps them
    app.add_exception_handler(InvalidId, invalid)
    return app


@pytest.fixture
def served(run_setup):
    settings, store, run = run_setup
    with serve(map_app(settings, store)) as url:
        yield url, store, run


def test_map_json_is_computed_and_stored_on_first_request(served):
    url, store, run = served
    assert store.read_derived(run.id, "map.json") is None
    response = httpx.get(f"{url}/runs/{run.id}/map", timeout=60)
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["run_id"] == run.id and "not the field's global total" in body["note"]
    assert {c["code"] for c in body["countries"]} == {"US", "CN", "GB", "DE", "HK", "SG"}
    stored = json.loads(store.read_derived(run.id, "map.json"))
    assert stored["generated_at"] == body["generated_at"]
    assert httpx.get(f"{url}/runs/{run.id}/map").json()["generated_at"] == body["generated_at"]
    assert httpx.get(f"{url}/runs/{run.id}/map?force=true").json()["generated_at"] != body["generated_at"]


def test_map_errors(served):
    url, _store, _run = served
    missing = httpx.get(f"{url}/runs/20200101T000000-000000/map")
    assert missing.status_code == 404 and "20200101T000000-000000" in missing.json()["detail"]
    assert httpx.get(f"{url}/runs/not-a-run/map.html").status_code == 422


def test_the_page_is_one_self_contained_document(served):
    url, _store, run = served
    response = httpx.get(f"{url}/runs/{run.id}/map.html", timeout=60)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    # nothing is loaded from elsewhere: no script or stylesheet URLs, only inline content
    assert not re.search(r"<script[^>]*\ssrc=", page) and not re.search(r"<link[^>]*\shref=", page)
    data = re.search(r'<script id="map-data" type="application/json">(.*?)</script>', page, re.S).group(1)
    assert json.loads(data.replace("<\\/", "</"))["run_id"] == run.id
    assert '"countries"' in re.search(r'<script id="world-data"[^>]*>(.*?)</script>', page, re.S).group(1)


def test_script_breaking_text_is_escaped():
    page = render_map_page(json.dumps({"note": "</script><script>alert(1)</script>"}))
    assert "</script><script>alert(1)" not in page


async def test_cli_writes_map_json_and_html(run_setup):
    settings, store, run = run_setup
    parser = argparse.ArgumentParser()
    add_map_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["map", run.id])
    out, err = io.StringIO(), io.StringIO()
    assert await run_map(args, settings=settings, llm=RulesLLM(), out=out, err=err) == 0
    text = out.getvalue()
    assert f"Academic map of run {run.id}" in text and "not the field's global total" in text
    assert "United States" in text and "map.html" in text
    html = store.derived_dir(run.id) / "map.html"
    assert html.exists() and "map-data" in html.read_text(encoding="utf-8")
    missing = parser.parse_args(["map", "20200101T000000-000000"])
    assert await run_map(missing, settings=settings, llm=RulesLLM(), out=out, err=err) == 1
    assert err.getvalue().count("\n") == 1 and "does not exist" in err.getvalue()
    bad_registry = load_settings(
        data_dir=settings.data_dir, llm="rules", ror_registry=settings.data_dir / "nope.jsonl"
    )
    err = io.StringIO()
    assert (
        await run_map(
            parser.parse_args(["map", run.id, "--force"]), settings=bad_registry, llm=RulesLLM(), err=err
        )
        == 1
    )
    assert "SCHOLARMAP_ROR_REGISTRY" in err.getvalue()


# -- the page in a browser ----------------------------------------------------------------------------


def find_chromium() -> str | None:
    configured = os.environ.get("SCHOLARMAP_CHROMIUM")
    if configured and Path(configured).exists():
        return configured
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if found := shutil.which(name):
            return found
    return None


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (see .ci/install-browser)"
    )
    executable = find_chromium()
    if executable is None:
        pytest.skip("no Chromium found (set SCHOLARMAP_CHROMIUM or run .ci/install-browser)")
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield instance
        instance.close()


def test_drill_down_and_popup_in_chromium(served, browser, tmp_path):
    url, _store, run = served
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    outside: list[str] = []

    def only_the_test_server(route):
        if route.request.url.startswith(url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_test_server)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{url}/runs/{run.id}/map.html")
    page.wait_for_selector("body[data-ready='true']", timeout=30_000)

    # world level: country shapes from the bundled atlas, shaded by researchers
    assert page.locator("path.country-shape").count() > 150
    assert "not the field's global total" in page.locator("#scope-note").inner_text()
    china = page.locator("path.country-shape[data-country='CN']")
    assert china.count() == 1 and china.get_attribute("fill") not in (None, "#f4f4f2")
    assert (
        page.locator("path.country-shape[data-iso='250']").get_attribute("fill") == "#f4f4f2"
    )  # France: none
    assert page.locator("li.country-item").count() == 6
    page.screenshot(path=str(tmp_path / "world.png"))

    # drill down: China -> Beijing -> Tsinghua University
    page.locator("li.country-item[data-country='CN']").click()
    assert re.sub(r"\s+", "", page.locator("#breadcrumb").inner_text()) == "World›China"
    assert page.locator("path.city-marker").count() == 2
    assert {page.locator("li.city-item").nth(i).get_attribute("data-city") for i in range(2)} == {
        "Beijing",
        "Hangzhou",
    }
    page.locator("li.city-item[data-city='Beijing']").click()
    assert "Beijing" in page.locator("#breadcrumb").inner_text()
    assert page.locator("path.institution-marker").count() == 1
    page.locator("li.institution-item").first.click()
    popup = page.locator(".leaflet-popup .institution-popup")
    popup.wait_for(timeout=5_000)
    assert popup.locator("h3").inner_text() == "Tsinghua University"
    rows = popup.locator("tr.researcher")
    names = [rows.nth(i).locator("td.name").inner_text() for i in range(rows.count())]
    assert "Xiaorong Gao" in names and "Wei Wang" in names
    gao = rows.nth(names.index("Xiaorong Gao"))
    assert gao.locator("td.pi-yes").inner_text().startswith("Yes (")
    assert "earliest paper in this Run" in gao.locator("td.career").inner_text()
    assert "Top terms in this Run" in gao.locator("td.summary").inner_text()
    page.screenshot(path=str(tmp_path / "popup.png"))

    # an institution without coordinates: listed at world level, its researchers in the panel
    page.locator("#breadcrumb a[data-level='world']").click()
    page.locator("#unplaced li.institution-item").first.click()
    details = page.locator("#details .institution-popup")
    assert details.locator("h3").inner_text() == "Acme Neurotech Inc"
    assert details.locator("td.name").inner_text() == "Jane Doe"

    assert (tmp_path / "world.png").stat().st_size > 20_000 and (
        tmp_path / "popup.png"
    ).stat().st_size > 20_000
    assert errors == [] and outside == []
    page.close()
