"""The HTTP app's edges: health, auth, body limits, malformed input, unknown ids (real socket)."""

import httpx
import pytest

from agent.settings import load_settings
from server.app import create_app
from tests.asgi_server import serve


@pytest.fixture
def base_url(pg_url, tmp_path):
    settings = load_settings(data_dir=tmp_path, database_url=pg_url, llm="rules", max_body_bytes=2000)
    with serve(create_app(settings)) as url:
        yield url


@pytest.fixture
def secured_url(pg_url, tmp_path):
    settings = load_settings(data_dir=tmp_path, database_url=pg_url, llm="rules", api_token="s3cret-token")
    with serve(create_app(settings)) as url:
        yield url


def test_healthz_reports_database_and_llm(base_url):
    body = httpx.get(f"{base_url}/healthz").json()
    assert body["ok"] is True
    assert body["database"]["vector"]
    assert body["llm"] == {"kind": "rules", "model": "rules", "configured": False}


def test_projects_rest(base_url):
    created = httpx.post(f"{base_url}/projects", json={"name": "Speech BCI"})
    assert created.status_code == 201 and created.json()["id"] == "speech-bci"
    assert httpx.post(f"{base_url}/projects", json={"name": "Speech BCI"}).status_code == 409
    assert [p["id"] for p in httpx.get(f"{base_url}/projects").json()] == ["speech-bci"]
    assert httpx.get(f"{base_url}/projects/speech-bci/runs").json() == []


def test_unknown_ids_are_404_naming_the_id(base_url):
    for path in (
        "/projects/nope",
        "/projects/nope/runs",
        "/runs/20260101T000000-abcdef",
        "/threads/th_missing",
    ):
        response = httpx.get(f"{base_url}{path}")
        assert response.status_code == 404, path
        assert path.rsplit("/", 1)[-1] in response.json()["detail"] or "nope" in response.json()["detail"]


def test_bad_input(base_url):
    malformed = httpx.post(
        f"{base_url}/projects", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert malformed.status_code == 400
    assert "malformed JSON" in malformed.json()["detail"]
    missing = httpx.post(f"{base_url}/projects", json={})
    assert missing.status_code == 422 and "name" in missing.json()["detail"]
    bad_id = httpx.post(f"{base_url}/projects", json={"name": "x", "id": "../evil"})
    assert bad_id.status_code == 422
    huge = httpx.post(f"{base_url}/projects", json={"name": "x" * 5000})
    assert huge.status_code == 413
    assert httpx.get(f"{base_url}/projects").json() == []  # nothing was stored


def test_token_auth(secured_url):
    assert httpx.get(f"{secured_url}/healthz").status_code == 200
    assert httpx.get(f"{secured_url}/projects").status_code == 401
    wrong = httpx.get(f"{secured_url}/projects", headers={"authorization": "Bearer nope"})
    assert wrong.status_code == 401 and "s3cret" not in wrong.text
    ok = httpx.get(f"{secured_url}/projects", headers={"authorization": "Bearer s3cret-token"})
    assert ok.status_code == 200
    assert httpx.get(f"{secured_url}/v1/models").status_code == 401


def test_run_results_and_exports(base_url, tmp_path):
    from agent.models import AggregatedPaper, Paper, Run, Source
    from agent.runs.store import RunStore, new_run_id

    store = RunStore(tmp_path / "projects")
    store.create_project("p")
    paper = Paper(
        title="Speech decoding from ECoG", doi="10.1000/x", year=2024, source=Source.PUBMED, source_rank=1
    )
    run = Run(id=new_run_id(), project_id="p", sources=[Source.PUBMED], counts={"pubmed": 1, "aggregated": 1})
    store.save_run(
        run, results={Source.PUBMED: [paper]}, aggregated=[AggregatedPaper(key="doi:10.1000/x", paper=paper)]
    )
    assert httpx.get(f"{base_url}/runs/{run.id}").json()["id"] == run.id
    assert httpx.get(f"{base_url}/runs/{run.id}/results").json()[0]["key"] == "doi:10.1000/x"
    assert httpx.get(f"{base_url}/runs/{run.id}/results/pubmed").json()[0]["doi"] == "10.1000/x"
    assert httpx.get(f"{base_url}/runs/{run.id}/results/openalex").json() == []
    assert httpx.get(f"{base_url}/runs/{run.id}/results/scopus").status_code == 404
    ris = httpx.get(f"{base_url}/runs/{run.id}/export", params={"format": "ris"})
    assert ris.status_code == 200 and "TI  - Speech decoding from ECoG" in ris.text
    assert ris.headers["content-disposition"].endswith('.ris"')
    assert httpx.get(f"{base_url}/runs/{run.id}/export", params={"format": "docx"}).status_code == 422
