"""The web app in headless Chromium, against the real app (uvicorn, PostgreSQL, the conversation graph)
and the fake-sources server on 127.0.0.1, with a token set so the page signs in like a real deployment.

One server, one database and one browser serve the whole module, and the tests run in order as one
researcher's session: sign in and create a project, the workflow from a description to a Run (with an
edit that changes the query, and a reload in the middle of the search), the four result tabs and an
export, a second Run, switching and comparing Runs, a question with a citation, the map, the language
switch, then the main path again with the keyboard only. Semantic Scholar answers slowly and fails its
first two requests, so the first Run is partial: its tab shows the error while the others work.

Screenshots of the main screens go to `.artifacts/webapp/` (gitignored; SCHOLARMAP_TEST_ARTIFACTS moves it).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import secrets
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from agent.llm import LLMCall, ScriptedLLM
from evals.bench_sse import DESCRIPTION, INTERPRETATION, SLOTS, fast_settings
from evals.fake_sources.config import FakeConfig
from evals.fake_sources.server import RunningFakeSources, running_fake_sources
from server.app import create_app
from server.routes.map import render_map_page
from tests.asgi_server import serve
from tests.fixtures_db import database_url
from tests.server.test_map_page import find_chromium

pytestmark = pytest.mark.slow

TOKEN = "webapp-test-token"
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("SCHOLARMAP_TEST_ARTIFACTS", REPO / ".artifacts")) / "webapp"
TIMEOUT = 60_000
SECOND_DESCRIPTION = "I classify imagined speech from EEG with deep learning in healthy volunteers."


QUESTIONS = [
    {
        "slot": "method_measurement",
        "question": "How is the EEG recorded?",
        "options": ["scalp EEG", "ear-EEG"],
    },
    {"slot": "subject_population", "question": "Who are the participants?"},
    {"slot": "output_target", "question": "What is decoded: words or phonemes?"},
]


def webapp_llm() -> ScriptedLLM:
    """The scripted conversation of the other server tests; the second description is asked about first."""

    def interpret(call: LLMCall) -> dict[str, Any]:
        if "volunteers" in str(call.values.get("description")) and int(call.values["round"]) == 1:
            return {
                "summary": "You classify imagined speech from EEG.",
                "uncertainties": ["Whether the EEG is recorded on the scalp or in the ear"],
                "questions": QUESTIONS,
                "ready": False,
            }
        return INTERPRETATION

    def slots(call: LLMCall) -> dict[str, Any]:
        if "randomised controlled trials" in str(call.values.get("description")):
            return {**SLOTS, "context": ["randomised controlled trials"]}  # a kind of study asked for
        return SLOTS

    return ScriptedLLM({"extract_slots": slots, "normalize_terms": slots, "interpret": interpret})


@pytest.fixture(scope="module")
def module_pg_url(pg_server_url: str) -> Iterator[str]:
    name = f"w_{secrets.token_hex(6)}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield database_url(pg_server_url, name)
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class DroppingProxy:
    """A TCP proxy in front of the app whose open connections the test can cut, as a network would."""

    def __init__(self, target: str) -> None:
        host, _, port = target.removeprefix("http://").partition(":")
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def drop(self) -> None:
        """Cut every connection open now (the browser sees its streams fail)."""
        with self.lock:
            cut, self.open = self.open, []
        for end in cut:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
                end.close()

    def close(self) -> None:
        self.listener.close()
        self.drop()


@pytest.fixture(scope="module")
def proxy(app_url: str) -> Iterator[DroppingProxy]:
    running = DroppingProxy(app_url)
    yield running
    running.close()


SEMANTIC_SCHOLAR_FAULTS = "latency:1200,500*2"


@pytest.fixture(scope="module")
def fake() -> Iterator[RunningFakeSources]:
    with running_fake_sources(
        FakeConfig(seed=4, faults={"semantic_scholar": SEMANTIC_SCHOLAR_FAULTS})
    ) as running:
        yield running


@pytest.fixture(scope="module")
def app_url(
    fake: RunningFakeSources, module_pg_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    settings = fast_settings(
        tmp_path_factory.mktemp("webapp-data"),
        module_pg_url,
        fake.base_urls,
        api_token=TOKEN,
        max_per_source=10,
    )
    with serve(create_app(settings, llm=webapp_llm()), timeout=60) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    executable = find_chromium()
    if executable is None:
        pytest.skip("no Chromium found (set SCHOLARMAP_CHROMIUM or run .ci/install-browser)")
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield instance
        instance.close()


def test_the_shell_and_its_assets_are_public_and_the_data_is_not(tmp_path: Path) -> None:
    """With a token, `/` and `/app/*` load without it (they carry no data); the API and files outside
    the app's folder do not."""
    from starlette.testclient import TestClient

    from agent.llm import RulesLLM
    from agent.runs.store import RunStore
    from agent.settings import load_settings
    from server.deps import Services

    settings = load_settings(data_dir=tmp_path, llm="rules", api_token=TOKEN)
    store = RunStore(settings.projects_dir)
    store.create_project("Demo")
    services = Services(settings=settings, store=store, llm=RulesLLM())
    with TestClient(create_app(settings, services=services)) as client:
        shell = client.get("/")
        assert shell.status_code == 200 and '<script type="module" src="/app/app.js">' in shell.text
        script = client.get("/app/app.js")
        assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
        assert client.get("/app/results-worker.js").status_code == 200
        for path in ("/app/../app.py", "/app/%2e%2e/routes_webapp.py", "/app/nope.js", "/app/"):
            response = client.get(path)  # a path leaving the folder is refused (401 or 404), never served
            assert response.status_code in (401, 404) and "import" not in response.text, path
        for path in ("/projects", "/projects/demo/overview"):
            assert client.get(path).status_code == 401, path
        auth = {"authorization": f"Bearer {TOKEN}"}
        overview = client.get("/projects/demo/overview", headers=auth)
        assert overview.status_code == 200 and overview.json() == {
            "project": overview.json()["project"],
            "runs": [],
        }
        assert overview.json()["project"]["id"] == "demo"
        assert client.get("/projects/nope/overview", headers=auth).status_code == 404


class Session:
    """One browser tab on the app, refusing every request that leaves the test server."""

    def __init__(self, browser: Any, url: str) -> None:
        self.url = url
        self.context = browser.new_context(
            viewport={"width": 1366, "height": 900}, locale="en-US", accept_downloads=True
        )
        self.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT)
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._only_local)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def _only_local(self, route: Any) -> None:
        if route.request.url.startswith(self.url) or route.request.url.startswith(
            ("blob:", "about:", "data:")
        ):
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()

    def shot(self, name: str, part: Any = None) -> None:
        """A screenshot of the page, or of one part of it (legible at full size)."""
        path = str(ARTIFACTS / f"{name}.png")
        if part is not None:
            part.screenshot(path=path)
        else:
            self.page.screenshot(path=path, full_page=True)


@pytest.fixture(scope="module")
def session(browser: Any, proxy: DroppingProxy) -> Iterator[Session]:
    tab = Session(browser, proxy.url)
    yield tab
    tab.context.close()


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    playwright_expect.set_options(timeout=TIMEOUT)
    return playwright_expect


# --------------------------------------------------------------------------------------------------


def test_sign_in_and_create_a_project(session: Session) -> None:
    page = session.page
    page.goto(session.url + "/")
    token = page.get_by_label("API token")
    expect()(token).to_be_visible()
    session.shot("01-sign-in")
    token.fill("not-the-token")
    token.press("Enter")
    expect()(page.locator("#token-error")).to_have_text("The server did not accept this token.")
    token.fill(TOKEN)
    page.get_by_role("button", name="Sign in").click()
    expect()(page.get_by_role("heading", name="Projects")).to_be_visible()
    assert page.evaluate("sessionStorage.getItem('sm.token')") == TOKEN

    # a bad input: the API's message appears next to the field, and the typed description is kept
    page.get_by_label("Description", exact=True).fill("Decoding speech from the brain")
    page.get_by_role("button", name="Create project").click()
    expect()(page.locator("#project-name-error")).to_contain_text("name")
    expect()(page.locator("#project-name")).to_have_attribute("aria-invalid", "true")
    session.shot("01b-projects-bad-input")
    page.reload()
    expect()(page.get_by_label("Description", exact=True)).to_have_value("Decoding speech from the brain")
    page.get_by_label("Name", exact=True).fill("Speech BCI")
    page.get_by_role("button", name="Create project").click()
    expect()(page.get_by_role("heading", name="Speech BCI")).to_be_visible()
    assert page.url.endswith("#/p/speech-bci")


def test_description_to_a_run_with_an_edit_and_a_reload(session: Session) -> None:
    page = session.page
    # an empty description is refused by the API, and the message shows next to the field
    page.get_by_role("button", name="Send").click()
    expect()(page.locator("#description-error")).to_contain_text("empty")

    page.get_by_label("Research description").fill(DESCRIPTION)
    page.get_by_role("button", name="Send").click()
    confirmation = page.locator("[data-kind='confirmation']")
    expect()(confirmation.locator(".summary")).to_contain_text("You decode speech from ECoG")
    expect()(confirmation).to_contain_text("electrocorticography")
    expect()(page.get_by_role("button", name="Revise")).to_be_visible()
    session.shot("02-interpretation")
    # Revise with a correction: the description is understood again and shown for confirmation again
    page.get_by_label("What should change (for Revise)").fill("Also stereo-EEG recordings.")
    page.get_by_role("button", name="Revise").click()
    expect()(page.get_by_label("What should change (for Revise)")).to_have_value("")
    expect()(page.locator("#activity")).to_have_text("Waiting for your reply.")
    page.get_by_role("button", name="Confirm").click()

    review = page.locator("section.review")
    expect()(review.locator("tr[data-term='speech decoding']")).to_be_visible()
    assert review.locator("tr[data-term='electrocorticography']").count() == 1
    assert review.locator(".synonyms li").count() > 0
    pubmed = page.locator("#query-pubmed")
    before = pubmed.inner_text()

    # an edit that changes the query: the new synonym appears in the queries, marked as added
    page.get_by_label("New synonym for speech decoding").fill("speech neuroprosthesis")
    review.locator("tr[data-term='speech decoding']").get_by_role("button", name="Add synonym").click()
    expect()(pubmed.locator("ins")).to_contain_text("speech neuroprosthesis")
    assert pubmed.inner_text() != before and "speech neuroprosthesis" in pubmed.inner_text()
    expect()(page.locator(".changes")).to_contain_text("speech neuroprosthesis")
    expect()(review.locator("li[data-synonym='speech neuroprosthesis']")).to_be_visible()
    assert page.locator(".query-box").count() == 3
    # removing a synonym shows what left the queries
    review.locator("tr[data-term='speech decoding']").get_by_role("button", name="Remove SD").click()
    expect()(pubmed.locator("del").filter(has_text="SD")).to_have_count(1)
    now = pubmed.evaluate(
        "(pre) => [...pre.childNodes].filter((n) => n.nodeName !== 'DEL').map((n) => n.textContent).join('')"
    )
    assert "SD[tiab]" not in now and "speech neuroprosthesis" in now
    page.get_by_role("button", name="Copy PubMed").click()
    expect()(page.get_by_role("button", name="Copy PubMed")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == now  # the query itself, not the diff
    # moving a term into another concept ORs it there: one AND fewer in the query
    ands = now.count(" AND ")
    concepts = review.locator("fieldset.concepts .concept")
    expect()(concepts).to_have_count(3)
    page.get_by_label("Concept of electrocorticography").select_option(label="speech decoding")
    expect()(concepts).to_have_count(2)
    expect()(page.get_by_label("Concept of electrocorticography")).to_have_value("speech-decoding")
    expect()(pubmed.locator("del").filter(has_text="AND")).to_have_count(1)
    moved = pubmed.evaluate(
        "(pre) => [...pre.childNodes].filter((n) => n.nodeName !== 'DEL').map((n) => n.textContent).join('')"
    )
    assert moved.count(" AND ") == ands - 1
    session.shot("03-keyword-review", page.locator("section.review"))

    # Query, then a reload in the middle of the search: the page catches up with Last-Event-ID
    page.get_by_label("Records per source").fill("8")
    page.get_by_role("button", name="Query").click()
    expect()(page.locator("#progress-pubmed")).to_be_visible()
    expect()(page.locator("#activity")).to_contain_text("Searching the databases")
    session.shot("04-search-progress")
    replays: list[dict[str, str]] = []
    page.on(
        "request",
        lambda request: replays.append(request.headers) if request.url.endswith("/events") else None,
    )
    page.reload()
    expect()(page.locator("#run-select option")).to_have_count(1)
    assert replays and int(replays[0]["last-event-id"]) > 0
    expect()(page.locator("#stage")).to_contain_text("is ready")
    # the reloaded page redrew the whole search: a bar per source, Semantic Scholar's failure shown
    expect()(page.locator("#progress-semantic_scholar")).to_have_attribute("data-stage", "failed")
    for source in ("pubmed", "openalex"):
        expect()(page.locator(f"#progress-{source}")).to_have_attribute("data-stage", "done")
    expect()(page.get_by_label("Research description")).to_have_value(DESCRIPTION)


def test_the_four_tabs_sorting_filtering_and_export(session: Session) -> None:
    page = session.page
    tabs = page.get_by_role("tab")
    expect()(tabs).to_have_count(4)
    assert [re.sub(r"\s*\d+$", "", tabs.nth(i).inner_text()) for i in range(4)] == [
        "PubMed",
        "Semantic Scholar",
        "OpenAlex",
        "Aggregated",
    ]
    table = page.get_by_role("table").filter(has=page.locator("tbody tr[data-key]"))
    rows = page.locator("#papers tbody tr")
    # Aggregated first: evidence and score breakdown, titles linked
    expect()(rows.first).to_be_visible()
    aggregated = rows.count()
    assert aggregated > 0 and table.count() == 1
    first = rows.first
    assert first.locator("td.title a").get_attribute("href").startswith("https://")
    assert first.locator("td.evidence li").count() >= 1
    first.locator("details.breakdown summary").click()
    expect()(first.locator("details.breakdown dl")).to_contain_text("total")
    first.locator("details.abstract summary").click()
    session.shot("05-results-aggregated", page.locator("#results"))

    for name, source in (("PubMed", "pubmed"), ("OpenAlex", "openalex")):
        page.get_by_role("tab", name=name).click()
        expect()(page.locator("#papers")).to_have_attribute("data-ready", re.compile(f":{source}:0$"))
        assert rows.count() > 0
        assert page.locator("#tab-error").is_hidden()
    # the failed source shows its error in its own tab; the others worked
    page.get_by_role("tab", name="Semantic Scholar").click()
    expect()(page.locator("#tab-error")).to_contain_text("Semantic Scholar failed in this Run")
    expect()(page.locator("#run-warnings")).to_contain_text("Semantic Scholar: ")
    session.shot("06-results-failed-source")
    page.get_by_role("tab", name="Aggregated").click()
    expect()(page.locator("#papers")).to_have_attribute("data-ready", re.compile(":aggregated:0$"))

    # sort by year (descending first), then filter by a word of the first title
    page.get_by_role("button", name="Year").click()
    expect()(page.locator("#papers")).to_have_attribute("data-view", "year:desc:")
    years = [int(y) for y in page.locator("#papers tbody td:nth-child(4)").all_inner_texts() if y.strip()]
    assert years == sorted(years, reverse=True)
    word = rows.first.locator("td.doi").inner_text().strip()
    page.get_by_label("Filter").fill(word)
    expect()(page.locator("#row-count")).to_contain_text("filtered from")
    assert 0 < rows.count() <= aggregated
    page.get_by_label("Filter").fill("")
    expect()(page.locator("#row-count")).not_to_contain_text("filtered")

    with page.expect_download() as download_info:
        page.get_by_role("button", name="CSV").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".csv")
    text = Path(download.path()).read_text(encoding="utf-8")
    header = next(csv.reader(io.StringIO(text)))
    assert "title" in [h.lower() for h in header] and len(text.splitlines()) > aggregated
    expect()(page.locator("#export-status")).to_contain_text("Downloaded")


def test_a_second_run_switching_and_comparing(session: Session, proxy: DroppingProxy) -> None:
    page = session.page
    # this description gets clarifying questions first: one answer field each, one filled from its options
    page.get_by_label("Research description").fill(SECOND_DESCRIPTION)
    page.get_by_role("button", name="Send").click()
    clarification = page.locator("[data-kind='clarification']")
    expect()(clarification.locator(".summary")).to_have_text("You classify imagined speech from EEG.")
    expect()(clarification).to_contain_text("recorded on the scalp or in the ear")
    expect()(clarification.locator("input.answer")).to_have_count(3)
    clarification.get_by_role("button", name="scalp EEG").click()
    expect()(page.get_by_label("How is the EEG recorded?")).to_have_value("scalp EEG")
    page.get_by_label("Who are the participants?").fill("healthy adults")
    page.get_by_label("What is decoded: words or phonemes?").fill("words")
    session.shot("06b-clarification")
    page.get_by_role("button", name="Send answers").click()
    expect()(page.locator("[data-kind='confirmation'] .summary")).to_be_visible()
    page.get_by_role("button", name="Confirm").click()
    expect()(page.locator("#review-title")).to_be_visible()
    # the connection drops in the middle of the search: the page reconnects with Last-Event-ID
    replays: list[dict[str, str]] = []
    page.on(
        "request",
        lambda request: replays.append(request.headers) if request.url.endswith("/events") else None,
    )
    # this Run also follows citations (snowballing), switched on beside the Query button
    page.get_by_label("Follow citations of the best papers (snowballing)").check()
    page.get_by_label("Rounds").fill("1")
    page.get_by_role("button", name="Query").click()
    expect()(page.locator("#progress-pubmed")).to_be_visible()
    proxy.drop()
    expect()(page.locator("#run-select option")).to_have_count(2)
    expect()(page.locator("#stage")).to_contain_text("is ready")
    assert replays and int(replays[-1]["last-event-id"]) > 0
    options = page.locator("#run-select option")
    newest, older = options.nth(0).get_attribute("value"), options.nth(1).get_attribute("value")
    assert page.get_by_label("Run", exact=True).input_value() == newest
    expect()(page.locator("#papers")).to_have_attribute("data-ready", f"{newest}:aggregated:0")
    snowball = page.request.get(f"{session.url}/runs/{newest}", headers={"Authorization": f"Bearer {TOKEN}"})
    assert snowball.ok and len(snowball.json()["snowball"]["rounds"]) == 1  # the switch reached the Run
    found = page.locator("#papers .evidence .badge")  # papers reached by citation are marked
    assert found.count() == 0 or "citation" in found.first.inner_text()

    # switching the Run reloads the tabs
    page.get_by_label("Run", exact=True).select_option(older)
    expect()(page.locator("#papers")).to_have_attribute("data-ready", f"{older}:aggregated:0")
    page.get_by_role("tab", name="PubMed").click()
    expect()(page.locator("#papers")).to_have_attribute("data-ready", f"{older}:pubmed:0")
    page.get_by_role("tab", name="Aggregated").click()
    assert page.locator("#runs-table tbody tr").count() == 2

    # side by side: both Runs' queries and the papers only one of them found
    compare = page.locator("#compare")
    page.get_by_label("First Run").select_option(older)
    page.get_by_label("Second Run").select_option(newest)
    compare.get_by_role("button", name="Compare").click()
    columns = compare.locator(".compare-col")
    expect()(columns).to_have_count(2)
    assert "speech neuroprosthesis" in columns.nth(0).locator("pre.query").first.inner_text()
    assert "speech neuroprosthesis" not in columns.nth(1).locator("pre.query").first.inner_text()
    assert columns.nth(0).locator("ol.only li").count() + columns.nth(1).locator("ol.only li").count() > 0
    session.shot("07-compare", page.locator("#compare"))
    page.get_by_label("Second Run").select_option(older)
    compare.get_by_role("button", name="Compare").click()
    expect()(page.locator("#compare-error")).to_have_text("Choose two different Runs.")


def test_a_question_with_a_numbered_citation(session: Session) -> None:
    page = session.page
    page.get_by_label("Question").fill("Which methods decode speech from ECoG?")
    page.get_by_role("button", name="Ask", exact=True).click()
    citation = page.locator("#citations li").first
    expect()(citation).to_be_visible(timeout=120_000)
    expect()(page.locator("#answer a.cite").first).to_be_visible(timeout=120_000)
    page.locator("#answer a.cite").first.click()
    expect()(citation.locator("details")).to_have_attribute("open", "")
    expect()(citation.locator("blockquote")).not_to_be_empty()
    session.shot("08-ask", page.locator("#ask"))


def test_choose_for_map_and_open_the_map(session: Session) -> None:
    page = session.page
    page.get_by_role("button", name="Choose for map").click()
    expect()(page.locator("#chosen-note")).to_be_visible()
    expect()(page.locator("#runs-table")).to_contain_text("Chosen for the map")
    expect()(page.get_by_role("note")).to_contain_text("not the field's global total")
    with page.expect_popup() as popup_info:
        page.get_by_role("link", name="Open the academic map").click()
    popup = popup_info.value
    popup.wait_for_selector("body[data-ready='true']", timeout=TIMEOUT)
    assert "not the field's global total" in popup.locator("#scope-note").inner_text()
    assert popup.locator("path.country-shape").count() > 150
    popup.screenshot(path=str(ARTIFACTS / "09-map.png"))
    popup.close()


def test_institutions_sharing_a_point_are_spread_so_each_can_be_clicked(session: Session) -> None:
    """Three institutions at one city centroid: three markers apart on screen, each opening its own popup."""
    run_id = session.page.get_by_label("Run", exact=True).input_value()
    response = httpx.get(
        f"{session.url}/runs/{run_id}/map", headers={"authorization": f"Bearer {TOKEN}"}, timeout=60
    )
    assert response.status_code == 200, response.text
    data = response.json()
    country = next(c for c in data["countries"] if c["cities"])
    city = country["cities"][0]
    first = city["institutions"][0]
    for n in (1, 2):
        city["institutions"].append(
            {**first, "id": f"{first['id']}-twin{n}", "name": f"{first['name']} Twin {n}"}
        )
    for node in city["institutions"]:
        node["latitude"], node["longitude"] = city["latitude"], city["longitude"]
    page = session.context.new_page()
    page.set_content(render_map_page(json.dumps(data)))
    page.wait_for_selector("body[data-ready='true']")
    page.locator(f"li.country-item[data-country='{country['code']}']").click()
    page.locator(f"li.city-item[data-city='{city['name']}']").click()
    markers = page.locator("path.institution-marker")
    expect()(markers).to_have_count(len(city["institutions"]))
    centres = centres_at_rest(page, markers)  # after the zoom animation of the drill-down
    gaps = [
        ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
        for i, a in enumerate(centres)
        for b in centres[i + 1 :]
    ]
    assert min(gaps) > 12, centres
    # Top marker first: a popup opens above its marker, so it never covers a marker still to click
    # (and opening one closes the one before). An open popup pans the map, so each click waits for the
    # markers to come to rest, and the popup that opened says which institution was hit; a marker
    # another one covers is never hit, and the loop ends without its name.
    names: set[str] = set()
    seen: set[str] = set()
    for _ in range(2 * markers.count()):
        ids = [markers.nth(i).get_attribute("data-institution-id") for i in range(markers.count())]
        remaining = [i for i, found in enumerate(ids) if found not in seen]
        if not remaining:
            break
        centres = centres_at_rest(page, markers)
        markers.nth(min(remaining, key=lambda index: centres[index][1])).click()
        popup = page.locator(".leaflet-popup .institution-popup")
        expect()(popup).to_have_count(1)  # the popup before fades out
        expect()(popup).to_be_visible()
        seen.add(popup.get_attribute("data-institution-id") or "")
        names.add(popup.locator("h3").inner_text())
    assert names == {node["name"] for node in city["institutions"]}
    page.screenshot(path=str(ARTIFACTS / "09b-map-city.png"))
    page.close()


def centres_at_rest(page: Any, markers: Any) -> list[tuple[float, float]]:
    """The markers' centres on screen once two readings 200 ms apart agree (the map stopped moving)."""

    def read() -> list[tuple[float, float]]:
        boxes = [markers.nth(i).bounding_box() for i in range(markers.count())]
        return [(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2) for box in boxes]

    before = read()
    for _ in range(50):
        page.wait_for_timeout(200)
        now = read()
        if now == before:
            return now
        before = now
    raise AssertionError(f"the markers never came to rest: {now}")


def test_the_language_switch(session: Session) -> None:
    page = session.page
    page.get_by_label("Language").select_option("zh")
    expect()(page.locator("label[for='description']")).to_have_text("研究描述")
    expect()(page.locator("#citations summary").first).to_have_text("引用段落")
    expect()(page.locator("#compare-result")).to_contain_text("仅在此次检索中")
    expect()(page.get_by_role("tab", name="PubMed")).to_be_visible()
    session.shot("10-chinese")
    page.get_by_label("语言").select_option("en")
    expect()(page.locator("label[for='description']")).to_have_text("Research description")
    # a record's link that is not a web address (javascript:, //elsewhere) is never made a link
    hrefs = page.evaluate(
        "import('/app/dom.js').then((m) => ['javascript:alert(1)', '//evil.test/x', 'https://doi.org/10.1/x']"
        ".map((href) => m.el('a', { href }).getAttribute('href')))"
    )
    assert hrefs == [None, None, "https://doi.org/10.1/x"]
    assert session.errors == [] and session.outside == []


def test_stop_cancels_a_running_search(session: Session, fake: RunningFakeSources) -> None:
    page = session.page
    page.get_by_label("Research description").fill(DESCRIPTION)
    page.get_by_role("button", name="Send").click()
    page.get_by_role("button", name="Confirm").click()
    # Semantic Scholar holds its answer, so the search is still running however slow the machine is.
    fake.app.set_faults("semantic_scholar", "hang")
    try:
        page.get_by_role("button", name="Query").click()
        expect()(page.locator("#progress-pubmed")).to_be_visible()
        page.get_by_role("button", name="Stop").click()
    finally:
        fake.app.set_faults("semantic_scholar", SEMANTIC_SCHOLAR_FAULTS)
    expect()(page.locator("#activity")).to_have_text("Stopped.")
    expect()(page.get_by_role("button", name="Stop")).to_be_hidden()
    expect()(page.get_by_role("button", name="Send")).to_be_enabled()
    assert page.locator("#run-select option").count() == 2  # a cancelled search saves no Run


def test_a_kind_of_study_asked_for_is_a_filter_the_review_switches_on(session: Session) -> None:
    page = session.page
    page.get_by_label("Research description").fill(f"{DESCRIPTION} Only randomised controlled trials.")
    page.get_by_role("button", name="Send").click()
    page.get_by_role("button", name="Confirm").click()
    review = page.locator("section.review")
    switch = review.get_by_label(re.compile("randomised controlled trials"))
    expect()(switch).not_to_be_checked()  # off: not a concept AND'ed
    pubmed = page.locator("#query-pubmed")
    assert "[pt]" not in pubmed.inner_text()
    switch.check()
    expect()(pubmed.locator("ins")).to_contain_text('"Randomized Controlled Trial"[pt]')
    expect()(review.get_by_label(re.compile("randomised controlled trials"))).to_be_checked()
    switch = review.get_by_label(re.compile("randomised controlled trials"))
    switch.uncheck()
    expect()(pubmed.locator("del")).to_contain_text('"Randomized Controlled Trial"[pt]')
    assert session.errors == []


def test_the_main_path_with_the_keyboard_only(browser: Any, app_url: str) -> None:
    tab = Session(browser, app_url)
    page = tab.page

    def tab_to(check: str, limit: int = 60) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(check):
                return
        raise AssertionError(f"no focusable element for {check} within {limit} Tab presses")

    focused = "(n) => document.activeElement && document.activeElement.matches(n)"
    page.goto(app_url + "/")
    tab_to(f"({focused})('#token')")
    page.keyboard.type(TOKEN)
    page.keyboard.press("Enter")
    expect()(page.get_by_role("heading", name="Projects")).to_be_visible()
    runs = page.locator("tr[data-project='speech-bci'] .runs-cell")
    expect()(runs).to_contain_text("2 Run(s)")
    expect()(runs).to_contain_text("Chosen for the map")
    tab.shot("00-projects")
    tab_to(f"({focused})('a[href=\"#/p/speech-bci\"]')")
    page.keyboard.press("Enter")
    expect()(page.get_by_role("heading", name="Speech BCI")).to_be_visible()
    tab_to(f"({focused})('#description')")
    page.keyboard.type(DESCRIPTION)
    page.keyboard.press("Control+Enter")
    expect()(page.locator("#stage-title")).to_be_focused()
    tab_to(f"({focused})('#confirm')")
    page.keyboard.press("Enter")
    expect()(page.locator("#review-title")).to_be_focused()
    tab_to(f"({focused})('#query-button')", limit=200)
    page.keyboard.press("Enter")
    expect()(page.locator("#stage")).to_contain_text("is ready")
    expect()(page.locator("#run-select option")).to_have_count(3)
    tab_to(f"({focused})('[role=tab][aria-selected=true]')", limit=80)
    page.keyboard.press("ArrowLeft")
    expect()(page.get_by_role("tab", name="OpenAlex")).to_be_focused()
    expect()(page.locator("#papers")).to_have_attribute("data-ready", re.compile(":openalex:0$"))
    tab.shot("11-keyboard", page.locator("#results"))
    assert tab.errors == [] and tab.outside == []
    tab.context.close()
