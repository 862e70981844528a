"""Benchmark: the web app's Aggregated tab on a Run of 3 sources x 2,000 records, in headless Chromium.

    .venv/bin/python -m evals.bench_webapp [--per-source 2000] [--pages 30]

A Run is written to a temporary data folder (synthetic records of realistic size: 6-10 authors with
affiliations, a 1,200-character abstract, MeSH headings, evidence and a score breakdown; half of each
source's records are found by all three), the app is served by uvicorn on 127.0.0.1 (no database: the
result routes do not need one), and Chromium opens the project's page, where the Aggregated tab shows
first. Measured in the page (performance.now() from navigation start, a PerformanceObserver for long
tasks, and a requestAnimationFrame loop for the longest gap between frames):

    RESULT webapp_first_rows_ms <navigation start to the first rows of the Aggregated tab>  (goal < 1000)
    RESULT webapp_full_page_ms <navigation start to a full page (50 rows) drawn>
    RESULT webapp_next_page_p50_ms / _max_ms <click on Next to the new page drawn>
    RESULT webapp_sort_ms / webapp_filter_ms <a sort by year / a text filter, to the rows drawn; the
           filter waits 150 ms after the last keystroke before it asks, which is counted>
    RESULT webapp_tab_switch_ms <a click on the PubMed tab (2,000 records, not loaded yet) to its rows>
    RESULT webapp_max_stall_ms <longest main-thread task while loading, paging, sorting, filtering>  (goal < 200)
    RESULT webapp_max_frame_gap_ms <longest gap between animation frames over the same time>
    RESULT webapp_baseline_parse_stall_ms <longest task when the page parses the same JSON itself>
    RESULT webapp_stall_ratio <max stall / baseline stall>: what keeping rows in a worker saves

The baseline is measured in the same run: the aggregated JSON fetched and parsed on the page's main
thread, as an app without the worker would, with the same long-task observer.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agent.models import (
    Affiliation,
    AggregatedPaper,
    Author,
    MeshHeading,
    Paper,
    Run,
    RunStatus,
    ScoreBreakdown,
    Source,
    SourceEvidence,
)

SOURCES = (Source.PUBMED, Source.SEMANTIC_SCHOLAR, Source.OPENALEX)
WORDS = [
    "speech",
    "decoding",
    "electrocorticography",
    "cortical",
    "neural",
    "network",
    "deep",
    "learning",
    "epilepsy",
    "patients",
    "language",
    "brain",
    "computer",
    "interface",
    "signal",
    "spectral",
    "gamma",
    "band",
    "phoneme",
    "articulatory",
    "kinematics",
    "recurrent",
    "transformer",
    "intracranial",
    "recordings",
    "high",
    "density",
    "grid",
    "temporal",
    "lobe",
    "motor",
    "cortex",
    "classification",
    "regression",
    "synthesis",
    "vocoder",
    "latency",
    "closed",
    "loop",
    "real",
    "time",
    "chronic",
    "implant",
]
INSTITUTIONS = (
    ("University of California, San Francisco", "San Francisco", "US"),
    ("Tsinghua University", "Beijing", "CN"),
    ("Maastricht University", "Maastricht", "NL"),
    ("University College London", "London", "GB"),
    ("Max Planck Institute for Psycholinguistics", "Nijmegen", "NL"),
)

INIT_SCRIPT = """
window.__bench = { longtasks: [], frameGap: 0, firstRows: null, fullPage: null };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__bench.longtasks.push([entry.startTime, entry.duration]);
}).observe({ type: "longtask", buffered: true });
(function frames(last) {
  requestAnimationFrame((now) => {
    if (last !== null) window.__bench.frameGap = Math.max(window.__bench.frameGap, now - last);
    frames(now);
  });
})(null);
// the moment of the user's action (click, typing) and of the table drawn after it (#papers' data-ready/view)
addEventListener("click", () => { window.__bench.actionAt = performance.now(); }, true);
addEventListener("input", () => { window.__bench.actionAt = performance.now(); }, true);
new MutationObserver(() => {
  const papers = document.querySelector("#papers");
  if (papers) window.__bench.drawnAt = performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready", "data-view"] });
new MutationObserver(() => {
  const rows = document.querySelectorAll("#papers tbody tr").length;
  if (rows && window.__bench.firstRows === null) window.__bench.firstRows = performance.now();
  if (rows >= 50 && window.__bench.fullPage === null) window.__bench.fullPage = performance.now();
}).observe(document, { subtree: true, childList: true });
"""


def _paper(rng: random.Random, n: int, source: Source | None) -> Paper:
    title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 16))).capitalize()
    authors = []
    for position in range(1, rng.randint(6, 10) + 1):
        name, city, country = rng.choice(INSTITUTIONS)
        authors.append(
            Author(
                name=f"{rng.choice('ABCDEFGHJKLMNPRSTW')}. {rng.choice(WORDS).capitalize()}son",
                position=position,
                affiliations=[
                    Affiliation(
                        raw=f"Department of Neurosurgery, {name}, {city}", city=city, country_code=country
                    )
                ],
            )
        )
    authors[-1].is_last = True
    return Paper(
        title=title,
        authors=authors,
        year=rng.randint(1995, 2025),
        venue=rng.choice(("Nature", "Neuron", "J Neural Eng", "NeuroImage", "eLife", "Brain", "PLoS One")),
        doi=f"10.5555/bench.{n}",
        pmid=str(30_000_000 + n),
        abstract=" ".join(rng.choice(WORDS) for _ in range(170))[:1200],
        mesh_headings=[MeshHeading(descriptor=rng.choice(WORDS).capitalize()) for _ in range(8)],
        keywords=[rng.choice(WORDS) for _ in range(5)],
        citation_count=rng.randint(0, 500),
        source=source,
    )


def write_run(data_dir: Path, per_source: int, seed: int = 0) -> tuple[Any, str]:
    """A project `bench` with one Run of `per_source` records per source; returns (settings, run id)."""
    from agent.runs.store import RunStore, new_run_id
    from agent.settings import load_settings

    rng = random.Random(seed)
    settings = load_settings(data_dir=data_dir, llm="rules")
    store = RunStore(settings.projects_dir)
    store.create_project("Bench", project_id="bench")
    shared = per_source // 2
    results: dict[Source, list[Paper]] = {source: [] for source in SOURCES}
    merged: list[AggregatedPaper] = []
    for number, i in enumerate(range(shared + (per_source - shared) * len(SOURCES)), start=1):
        found_by = SOURCES if i < shared else (SOURCES[(i - shared) // (per_source - shared)],)
        base = _paper(rng, number, None)
        evidence = []
        for source in found_by:
            rank = len(results[source]) + 1
            results[source].append(base.model_copy(update={"source": source, "source_rank": rank}))
            evidence.append(SourceEvidence(source=source, source_id=str(number), rank=rank, title=base.title))
        total = rng.random()
        merged.append(
            AggregatedPaper(
                key=f"doi:{base.doi}",
                paper=base,
                evidence=evidence,
                score=ScoreBreakdown(rrf=total / 2, agreement=len(found_by) / 3, recency=0.5, total=total),
                merged_by=["doi"] if len(found_by) > 1 else [],
            )
        )
    merged.sort(key=lambda paper: -paper.score.total)
    for rank, paper in enumerate(merged, start=1):
        paper.rank = rank
    run = Run(
        id=new_run_id(),
        project_id="bench",
        status=RunStatus.COMPLETED,
        sources=list(SOURCES),
        counts={**{s.value: len(results[s]) for s in SOURCES}, "aggregated": len(merged)},
    )
    store.save_run(run, results=results, aggregated=merged)
    return settings, run.id


def find_chromium() -> str | None:
    """The browser the tests use: SCHOLARMAP_CHROMIUM, else a Chromium or Chrome on the PATH."""
    configured = os.environ.get("SCHOLARMAP_CHROMIUM")
    if configured and Path(configured).exists():
        return configured
    names = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    return next((found for name in names if (found := shutil.which(name))), None)


@contextlib.contextmanager
def serve(app: Any) -> Iterator[str]:
    """The app on uvicorn, 127.0.0.1, in a thread of this process; yields its base URL."""
    import uvicorn

    from evals.fake_process import free_port

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the app did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def measure(url: str, run_id: str, pages: int, verbose: bool = False) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    executable = find_chromium()
    if executable is None:
        raise SystemExit(
            "bench_webapp: no Chromium found (set SCHOLARMAP_CHROMIUM or run .ci/install-browser)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        page.set_default_timeout(60_000)
        page.add_init_script(INIT_SCRIPT)

        # baseline: the same JSON parsed on the page's main thread
        page.goto(f"{url}/app/index.html#/")
        page.wait_for_selector("#projects-view:not([hidden])")
        page.evaluate("window.__bench.longtasks = []")
        page.evaluate(
            f"fetch('/runs/{run_id}/results').then((r) => r.json()).then((d) => (window.__parsed = d.length))"
        )
        page.wait_for_function("window.__parsed > 0")
        page.wait_for_timeout(200)
        baseline = max((d for _, d in page.evaluate("window.__bench.longtasks")), default=0.0)

        page.goto("about:blank")
        page.goto(f"{url}/#/p/bench")
        page.wait_for_function("window.__bench.fullPage !== null")
        first_rows = page.evaluate("window.__bench.firstRows")
        full_page = page.evaluate("window.__bench.fullPage")

        # Actions are dispatched in the page: Playwright's own locators (accessible names over the whole
        # table) would add long tasks of their own to the figures.
        def press(selector: str) -> None:
            page.evaluate(f"document.querySelector({selector!r}).click()")

        def type_filter(text: str) -> None:
            page.evaluate(
                "(text) => { const f = document.querySelector('#filter'); f.value = text;"
                " f.dispatchEvent(new Event('input', { bubbles: true })); }",
                text,
            )

        def timed(action: Any, attribute: str, value: str) -> float:
            """From the user's action to the table drawn for it, both as the page saw them."""
            action()
            page.wait_for_function(
                f"document.querySelector('#papers').dataset.{attribute} === {value!r}", polling="raf"
            )
            return float(page.evaluate("window.__bench.drawnAt - window.__bench.actionAt"))

        steps = []
        for n in range(1, pages + 1):
            steps.append(
                timed(
                    lambda: press("#next-page"),
                    "ready",
                    f"{run_id}:aggregated:{n * 50}",
                )
            )
        sort = timed(lambda: press("#papers th:nth-child(4) button"), "view", "year:desc:")
        filtered = timed(lambda: type_filter("gamma band"), "view", "year:desc:gamma band")
        tab = timed(lambda: press("#tab-pubmed"), "ready", f"{run_id}:pubmed:0")
        page.wait_for_timeout(300)
        bench = page.evaluate("window.__bench")
        if verbose:
            print(
                "long tasks (start ms, duration ms):", [(round(a), round(b)) for a, b in bench["longtasks"]]
            )
        browser.close()
    return {
        "first_rows": first_rows,
        "full_page": full_page,
        "next_p50": statistics.median(steps),
        "next_max": max(steps),
        "sort": sort,
        "filter": filtered,
        "tab": tab,
        "max_stall": max((d for _, d in bench["longtasks"]), default=0.0),
        "frame_gap": bench["frameGap"],
        "baseline": baseline,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-source", type=int, default=2000, help="records per source (default 2000)")
    parser.add_argument("--pages", type=int, default=30, help="pages turned with Next (default 30)")
    parser.add_argument("--verbose", action="store_true", help="print every long task")
    args = parser.parse_args(argv)

    from agent.llm import RulesLLM
    from agent.runs.store import RunStore
    from server.app import create_app
    from server.deps import Services

    folder = Path(tempfile.mkdtemp(prefix="bench-webapp-"))
    try:
        started = time.perf_counter()
        settings, run_id = write_run(folder, args.per_source)
        size = sum(p.stat().st_size for p in (folder / "projects").rglob("results_aggregated.json"))
        print(
            f"Run {run_id} written in {time.perf_counter() - started:.1f} s (aggregated JSON {size / 1e6:.1f} MB)"
        )
        services = Services(settings=settings, store=RunStore(settings.projects_dir), llm=RulesLLM())
        with serve(create_app(settings, services=services)) as url:
            figures = measure(url, run_id, args.pages, args.verbose)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ratio = figures["max_stall"] / figures["baseline"] if figures["baseline"] else 0.0
    print(f"RESULT webapp_first_rows_ms {figures['first_rows']:.0f}")
    print(f"RESULT webapp_full_page_ms {figures['full_page']:.0f}")
    print(f"RESULT webapp_next_page_p50_ms {figures['next_p50']:.0f}")
    print(f"RESULT webapp_next_page_max_ms {figures['next_max']:.0f}")
    print(f"RESULT webapp_sort_ms {figures['sort']:.0f}")
    print(f"RESULT webapp_filter_ms {figures['filter']:.0f}")
    print(f"RESULT webapp_tab_switch_ms {figures['tab']:.0f}")
    print(f"RESULT webapp_max_stall_ms {figures['max_stall']:.0f}")
    print(f"RESULT webapp_max_frame_gap_ms {figures['frame_gap']:.0f}")
    print(f"RESULT webapp_baseline_parse_stall_ms {figures['baseline']:.0f}")
    print(f"RESULT webapp_stall_ratio {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
