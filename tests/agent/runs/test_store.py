import json
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest

from agent.models import AggregatedPaper, Paper, Run, RunStatus, Source, SourceError
from agent.runs.store import (
    RUN_FILES,
    InvalidId,
    ProjectExists,
    ProjectNotFound,
    RunNotFound,
    RunStore,
    StoreError,
    new_run_id,
    slugify,
)
from tests.paths import REPO


def make_run(project_id: str, **kwargs) -> Run:
    return Run(id=new_run_id(), project_id=project_id, description="speech BCI", **kwargs)


@pytest.fixture
def store(tmp_path) -> RunStore:
    return RunStore(tmp_path / "projects")


def test_project_round_trip(store):
    project = store.create_project("Speech BCI 2026", "decoding speech")
    assert project.id == "speech-bci-2026"
    assert store.get_project("speech-bci-2026") == project
    assert [p.id for p in store.list_projects()] == ["speech-bci-2026"]
    with pytest.raises(ProjectExists):
        store.create_project("Speech BCI 2026")
    assert store.ensure_project("speech-bci-2026") == project


@pytest.mark.parametrize("bad", ["../etc", "UPPER", "", "a/b", ".hidden", "x" * 65, "sp ace", "-lead"])
def test_rejected_project_ids(store, bad):
    with pytest.raises(InvalidId):
        store.get_project(bad)
    with pytest.raises(InvalidId):
        store.create_project("name", project_id=bad)


def test_slugify_never_empty():
    assert slugify("脑机接口") == "project"
    assert slugify("  ECoG / sEEG  ") == "ecog-seeg"


def test_run_round_trip(store):
    store.create_project("p")
    paper = Paper(title="Speech decoding", doi="10.1000/ABC", source=Source.PUBMED, source_rank=1)
    aggregated = AggregatedPaper(key="doi:10.1000/abc", paper=paper)
    run = make_run(
        "p",
        status=RunStatus.PARTIAL,
        counts={"pubmed": 1, "aggregated": 1},
        errors=[SourceError(source="openalex", kind="unavailable", message="HTTP 503")],
    )
    folder = store.save_run(run, results={Source.PUBMED: [paper]}, aggregated=[aggregated])
    assert sorted(p.name for p in folder.iterdir()) == sorted(RUN_FILES)
    for name in RUN_FILES:
        json.loads((folder / name).read_text())
    loaded = store.load_run(run.id)
    assert loaded.run == run
    assert loaded.results[Source.PUBMED][0].doi == "10.1000/abc"
    assert loaded.aggregated == [aggregated]
    assert store.list_runs("p") == [run]
    with pytest.raises(StoreError, match="immutable"):
        store.save_run(run)


def test_unknown_ids(store):
    store.create_project("p")
    with pytest.raises(RunNotFound):
        store.get_run("20260101T000000-abcdef")
    with pytest.raises(InvalidId):
        store.get_run("../../etc/passwd")
    with pytest.raises(ProjectNotFound):
        store.list_runs("nope")
    with pytest.raises(ProjectNotFound):
        store.save_run(make_run("nope"))


def test_choose_run_must_belong_to_project(store):
    store.create_project("a")
    store.create_project("b")
    run = make_run("a")
    store.save_run(run)
    assert store.choose_run("a", run.id).chosen_run_id == run.id
    with pytest.raises(RunNotFound):
        store.choose_run("b", run.id)


def test_concurrent_runs_in_one_project(store):
    store.create_project("p")
    runs = [make_run("p") for _ in range(24)]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda run: store.save_run(run, aggregated=[]), runs))
    assert {r.id for r in store.list_runs("p")} == {r.id for r in runs}


def test_writer_killed_before_rename_leaves_no_run(store, tmp_path):
    store.create_project("p")
    script = textwrap.dedent(
        f"""
        import os, signal, sys
        sys.path.insert(0, {str(REPO)!r})
        from agent.models import Run
        from agent.runs.store import RunStore, new_run_id
        store = RunStore({str(store.root)!r})
        def die(*args):
            os.kill(os.getpid(), signal.SIGKILL)
        os.rename = die
        store.save_run(Run(id=new_run_id(), project_id="p"))
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert result.returncode == -9
    runs_dir = store.root / "p" / "runs"
    assert [p.name for p in runs_dir.iterdir() if p.name.startswith(".tmp-")], (
        "the killed writer left its temp"
    )
    assert store.list_runs("p") == []
    run = make_run("p")
    store.save_run(run)  # the next write succeeds, and sweeps the dead writer's folder
    assert [r.id for r in store.list_runs("p")] == [run.id]
    assert not [p for p in runs_dir.iterdir() if p.name.startswith(".tmp-")]


def test_derived_artefacts_leave_the_run_untouched(store):
    store.create_project("p")
    run = make_run("p")
    folder = store.save_run(run)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    store.write_derived(run.id, "map.json", {"countries": []})
    assert json.loads(store.read_derived(run.id, "map.json")) == {"countries": []}
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    with pytest.raises(StoreError):
        store.write_derived(run.id, "../escape.json", {})


def test_a_run_written_in_parts_is_invisible_until_committed(store: RunStore) -> None:
    store.ensure_project("p")
    run = make_run("p")
    writer = store.begin_run("p", run.id)
    writer.write_results(Source.OPENALEX, [Paper(source=Source.OPENALEX, title="Early", source_rank=1)])
    assert store.list_runs("p") == []  # a part on disk is not a Run
    with pytest.raises(RunNotFound):
        store.get_run(run.id)

    folder = writer.commit(run, aggregated=[])
    assert store.get_run(run.id) == run
    assert json.loads((folder / "results_openalex.json").read_text())[0]["title"] == "Early"
    assert json.loads((folder / "results_pubmed.json").read_text()) == []  # not written: an empty list
    assert sorted(p.name for p in folder.iterdir()) == sorted(RUN_FILES)
    with pytest.raises(StoreError, match="immutable"):
        store.begin_run("p", run.id)


def test_an_aborted_run_leaves_nothing(store: RunStore) -> None:
    store.ensure_project("p")
    run = make_run("p")
    writer = store.begin_run("p", run.id)
    writer.write_results(Source.PUBMED, [])
    writer.abort()
    assert list((store.project_dir("p") / "runs").iterdir()) == []
    assert store.list_runs("p") == []


@pytest.mark.parametrize("count", [0, 1, 3, 250])
def test_record_lists_are_streamed_one_per_line_and_read_back_whatever_their_text(tmp_path, count) -> None:
    from agent.runs.store import _WRITE_BATCH, _write_records

    assert 3 < _WRITE_BATCH < 250  # the cases cover one batch, and several
    tricky = 'A title quoting JSON: },{"key": "doi:10.1/x"} and a "quote"'
    papers = [
        AggregatedPaper(key=f"doi:10.1/{i}", paper=Paper(title=tricky if i % 2 else f"Paper {i}"))
        for i in range(count)
    ]
    _write_records(tmp_path / "list.json", papers)
    data = (tmp_path / "list.json").read_bytes()
    assert [AggregatedPaper.model_validate(item) for item in json.loads(data)] == papers
    if not papers:
        assert data == b"[]"
        return
    lines = data.decode().splitlines()
    assert lines[0] == "[" and lines[-1] == "]" and len(lines) == 2 + len(papers)
    # the same bytes as one serializer call per paper
    assert data == ("[\n" + ",\n".join(p.model_dump_json() for p in papers) + "\n]\n").encode()
