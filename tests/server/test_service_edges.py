"""The service's edges (issue 20): chunked bodies over the limit, damaged Run files, results served as
stored (pages, fields, ETag), and the `serve` / `projects` commands' argument checks."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from agent.models import AggregatedPaper, Paper, Run, Source
from agent.runs.store import RunStore, new_run_id
from agent.settings import get_settings, load_settings
from server.app import create_app
from server.cli.main import main
from tests.asgi_server import serve


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def base_url(pg_url: str, data_dir: Path) -> Iterator[str]:
    settings = load_settings(data_dir=data_dir, database_url=pg_url, llm="rules", max_body_bytes=2000)
    with serve(create_app(settings)) as url:
        yield url


def saved_run(data_dir: Path, papers: int = 30) -> tuple[RunStore, Run]:
    store = RunStore(data_dir / "projects")
    store.ensure_project("p")
    records = [
        Paper(
            title=f"Paper {i}",
            doi=f"10.1000/{i}",
            year=2000 + i % 20,
            source=Source.PUBMED,
            source_rank=i + 1,
        )
        for i in range(papers)
    ]
    run = Run(id=new_run_id(), project_id="p", sources=[Source.PUBMED], counts={"pubmed": papers})
    store.save_run(
        run,
        results={Source.PUBMED: records},
        aggregated=[AggregatedPaper(key=f"doi:{p.doi}", paper=p) for p in records],
    )
    return store, run


def test_an_oversize_chunked_body_is_413(base_url: str) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the server can only count as it reads
        yield b'{"name": "'
        for _ in range(10):
            yield b"x" * 500
        yield b'"}'

    response = httpx.post(
        f"{base_url}/projects", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413, response.text
    assert "larger than the limit of 2000 bytes" in response.json()["detail"]
    assert httpx.get(f"{base_url}/projects").json() == []


def test_a_damaged_run_file_is_a_clear_error_without_server_paths(base_url: str, data_dir: Path) -> None:
    store, run = saved_run(data_dir, papers=3)
    results = store.run_dir(run.id) / "results_aggregated.json"
    results.write_bytes(results.read_bytes()[:-40])  # cut short, as by a full disk
    for path in (f"/runs/{run.id}/results", f"/runs/{run.id}/results?limit=2", f"/runs/{run.id}/export"):
        response = httpx.get(base_url + path)
        assert response.status_code == 500, (path, response.status_code)
        detail = response.json()["detail"]
        assert "damaged" in detail and "results_aggregated.json" in detail, detail
        assert str(data_dir) not in detail and "/tmp" not in detail, detail
    (store.run_dir(run.id) / "run.json").write_text('{"id": 5}')
    response = httpx.get(f"{base_url}/runs/{run.id}")
    assert response.status_code == 500
    assert "damaged" in response.json()["detail"] and str(data_dir) not in response.json()["detail"]


def test_results_are_served_as_stored_with_pages_fields_and_validators(base_url: str, data_dir: Path) -> None:
    store, run = saved_run(data_dir)
    whole = httpx.get(f"{base_url}/runs/{run.id}/results")
    assert whole.status_code == 200
    stored = json.loads((store.run_dir(run.id) / "results_aggregated.json").read_bytes())
    assert whole.content == (store.run_dir(run.id) / "results_aggregated.json").read_bytes()  # no re-encoding
    assert len(whole.json()) == 30 and whole.headers["etag"] and whole.headers["last-modified"]

    page = httpx.get(f"{base_url}/runs/{run.id}/results", params={"offset": 10, "limit": 5})
    assert page.status_code == 200 and page.headers["x-total-count"] == "30"
    assert page.json() == stored[10:15]
    slim = httpx.get(f"{base_url}/runs/{run.id}/results/pubmed", params={"fields": "title,doi", "limit": 2})
    assert slim.json() == [{"title": "Paper 0", "doi": "10.1000/0"}, {"title": "Paper 1", "doi": "10.1000/1"}]
    assert page.headers["etag"] != whole.headers["etag"] != slim.headers["etag"]

    # A Run never changes: a client holding a copy gets a bodiless 304.
    for url, response in (
        (f"/runs/{run.id}/results", whole),
        (f"/runs/{run.id}/results?offset=10&limit=5", page),
    ):
        again = httpx.get(base_url + url, headers={"if-none-match": response.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
    since = httpx.get(
        f"{base_url}/runs/{run.id}/results", headers={"if-modified-since": whole.headers["last-modified"]}
    )
    assert since.status_code == 304
    export = httpx.get(f"{base_url}/runs/{run.id}/export", params={"format": "csv"})
    assert export.status_code == 200 and export.headers["etag"]
    cached = httpx.get(
        f"{base_url}/runs/{run.id}/export",
        params={"format": "csv"},
        headers={"if-none-match": export.headers["etag"]},
    )
    assert cached.status_code == 304

    for params, word in (
        ({"fields": "title,secret"}, "secret"),
        ({"offset": -1}, "offset"),
        ({"limit": 0}, "limit"),
    ):
        bad = httpx.get(f"{base_url}/runs/{run.id}/results", params=params)
        assert bad.status_code == 422 and word in bad.text, bad.text


@pytest.fixture
def cli_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("SCHOLARMAP_DATA_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


@pytest.mark.parametrize("port", ["99999", "0", "-5"])
def test_serve_refuses_a_port_outside_the_range_in_one_line(
    port: str, cli_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # uvicorn listened on 99999 % 65536 = 34463, and on 8000 for 0.
    assert main(["serve", "--port", port]) == 2
    assert capsys.readouterr().err == f"scholarmap: error: --port must be between 1 and 65535, not {port}\n"


def test_creating_a_project_with_an_empty_name_fails(
    cli_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["projects", "--create", ""]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a name" in err
    assert RunStore(cli_data_dir / "projects").list_projects() == []
