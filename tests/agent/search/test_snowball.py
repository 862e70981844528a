"""Citation snowballing (agent/search/snowball.py) against the fake sources' citation graph, over real HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent.llm import RulesLLM
from agent.models import AggregatedPaper, CitationPath, KeywordPlan, Paper, Run, Source, Term
from agent.runs.store import RUN_FILES, RunStore
from agent.search.executor import RunExecution
from agent.search.snowball import (
    Budget,
    Screen,
    SnowballConfigError,
    SnowballOptions,
    _Round,
    named_node,
    resolve_options,
)
from agent.search.sources import open_sources
from evals.fake_sources import FakeConfig, running_fake_sources
from evals.fake_sources.citations import graph_for
from evals.fake_sources.universe import query_key
from tests.agent.search.test_executor import plan, settings_for, understanding
from tests.agent.search.test_ranking import BagOfWords

QUERY = "speech decoding intracranial"
KEYWORDS = KeywordPlan(
    terms=[
        Term(canonical="speech", slot="task"),
        Term(canonical="decoding", slot="method_algorithm"),
        Term(canonical="intracranial", slot="method_measurement"),
    ]
)


@pytest.fixture(scope="module")
def fake():
    with running_fake_sources(FakeConfig(seed=3)) as server:
        yield server


@pytest.fixture(scope="module")
def fake_s2_down():
    with running_fake_sources(FakeConfig(seed=3, faults={"semantic_scholar": "503"})) as server:
        yield server


async def run_with(
    fake: Any, tmp_path: Path, snowball: SnowballOptions | None, **kwargs: Any
) -> tuple[Run, Path]:
    settings = settings_for(fake, tmp_path / "data")
    store = RunStore(settings.projects_dir)
    lines: list[str] = kwargs.pop("lines", [])
    async with open_sources(settings) as sources:
        run = await RunExecution(
            store=store,
            project_id="p1",
            understanding=understanding(),
            keywords=KEYWORDS,
            queries=plan(QUERY),
            sources=sources,
            settings=settings,
            llm=RulesLLM(),
            embedder=BagOfWords(),
            max_per_source=60,
            snowball=snowball,
            on_snowball=lines.append,
            **kwargs,
        ).execute()
    return run, store.run_dir(run.id)


def test_options_out_of_range_say_what_to_fix(tmp_path: Path) -> None:
    settings = settings_for(type("F", (), {"settings_overrides": lambda self: {}})(), tmp_path)
    with pytest.raises(SnowballConfigError, match=r"depth.*1-5.*got 9"):
        resolve_options(settings, depth=9)
    with pytest.raises(SnowballConfigError, match=r"budget.*1-5000.*got 0"):
        resolve_options(settings, budget=0)
    assert resolve_options(settings, depth=3).depth == 3


def test_named_seeds_and_the_screen() -> None:
    assert named_node("10.1000/ABC").doi == "10.1000/abc"  # type: ignore[union-attr]
    assert named_node("pmid:123").pmid == "123"  # type: ignore[union-attr]
    assert named_node("https://openalex.org/w42").openalex_id == "W42"  # type: ignore[union-attr]
    assert named_node("not an id") is None
    screen = Screen(KEYWORDS, 0.5)
    assert screen.relevant(Paper(title="Decoding speech from intracranial recordings"))
    assert screen.relevant(Paper(title="Scalp EEG", abstract="Decoding of speech."))  # 2 of 3 concepts
    assert not screen.relevant(Paper(title="Ceramic glaze kiln pottery for speech"))  # 1 of 3


async def test_snowball_finds_planted_papers_with_their_paths(fake: Any, tmp_path: Path) -> None:
    lines: list[str] = []
    run, folder = await run_with(fake, tmp_path, SnowballOptions(depth=2, budget=300), lines=lines)
    report = run.snowball
    assert report is not None and report.rounds and report.requests <= 300
    assert lines[0].startswith("snowballing from 10 seeds") and "budget of 300 requests" in lines[0]
    aggregated = [
        AggregatedPaper.model_validate(a)
        for a in json.loads((folder / "results_aggregated.json").read_text())
    ]
    found = [a for a in aggregated if a.origin != "query"]
    assert found and run.counts["snowball"] == len(found)
    graph = graph_for(fake.app.universe)
    planted = {
        fake.app.universe.ids(query_key(QUERY), k)["openalex"] for k in graph.planted(query_key(QUERY)).all()
    }
    found_planted = {a.paper.openalex_id for a in found} & planted
    assert len(found_planted) >= len(planted) // 2  # the eval measures recall against reachability
    for item in found:
        vias = [e.via for e in item.evidence if e.via is not None]
        assert vias and all(e.rank is None for e in item.evidence if e.via is not None)
        assert all(v.depth in (1, 2) and v.relation in ("cites", "cited_by") for v in vias)
        assert "pottery" not in item.paper.title  # the off-topic links were screened out
    finds = json.loads((folder / "results_snowball.json").read_text())
    assert len(finds) >= len(found) and all(f["via"]["linked"] for f in finds)
    stored = json.loads((folder / "run.json").read_text())
    assert stored["snowball"]["stopped"] in ("saturated", "depth", "budget")
    assert stored["snowball"]["message"] == report.message


async def test_without_snowball_the_run_files_are_as_before(fake: Any, tmp_path: Path) -> None:
    run, folder = await run_with(fake, tmp_path, None)
    assert run.snowball is None and "snowball" not in run.counts
    assert sorted(p.name for p in folder.iterdir()) == sorted(RUN_FILES)
    text = (folder / "results_aggregated.json").read_text() + (folder / "run.json").read_text()
    assert '"via"' not in text and '"origin"' not in text and '"snowball' not in text


async def test_the_budget_is_honoured_and_said(fake: Any, tmp_path: Path) -> None:
    before = len(fake.app.requests)
    run, _ = await run_with(fake, tmp_path, SnowballOptions(depth=3, budget=4))
    report = run.snowball
    assert report is not None and report.stopped == "budget" and report.requests <= 4
    assert report.message.startswith("stopped at the budget")

    def snowballing(path: str, query: str) -> bool:
        if path.endswith(("/references", "/citations", "paper/batch")):
            return True
        return path == "/works" and any(w in query for w in ("cites", "openalex_id", "referenced_works"))

    sent = [r for r in fake.app.requests[before:] if snowballing(r.path, r.query)]
    assert len(sent) == report.requests


async def test_bad_seeds_are_skipped_with_a_note(fake: Any, tmp_path: Path) -> None:
    options = SnowballOptions(depth=1, budget=50, seeds=0, named=["no such thing", "10.9999/unknown.1"])
    run, _ = await run_with(fake, tmp_path, options)
    report = run.snowball
    assert report is not None
    assert any("'no such thing' skipped" in note for note in report.notes)
    assert report.seeds == ["10.9999/unknown.1"]  # looked for, found nowhere: nothing linked
    assert any("Semantic Scholar does not know" in note for note in report.notes)
    assert report.rounds[0].candidates == 0 and report.stopped == "no_candidates"


async def test_a_failing_source_is_recorded_and_the_round_completes(
    fake_s2_down: Any, tmp_path: Path
) -> None:
    run, _ = await run_with(fake_s2_down, tmp_path, SnowballOptions(depth=1, budget=100))
    report = run.snowball
    assert report is not None and report.rounds
    errors = report.rounds[0].errors
    assert errors and errors[0].source == "semantic_scholar"
    assert report.rounds[0].candidates > 0  # OpenAlex's links were still followed


def test_a_paper_reached_twice_keeps_the_same_link_whatever_answers_first() -> None:
    """The requests of a round answer in any order; the Run's files must not depend on it."""
    paper = Paper(source=Source.OPENALEX, title="A paper linked twice", doi="10.1/twice")
    links = [
        CitationPath(relation="cites", linked="W2", depth=1),
        CitationPath(relation="cited_by", linked="W9", depth=1),
        CitationPath(relation="cited_by", linked="W1", depth=1),
    ]
    kept = set()
    for order in (links, links[::-1], links[1:] + links[:1]):
        round_ = _Round(clients=None, budget=Budget(10), depth=1)  # type: ignore[arg-type]
        for path in order:
            round_.offer(Source.OPENALEX, paper, path)
        [candidate] = round_.candidates.values()
        kept.add(candidate.paths[Source.OPENALEX].linked)
    assert kept == {"W1"}
