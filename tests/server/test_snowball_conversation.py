"""Snowballing as a conversation option (issue 22): checked before any stream, reported when done."""

from __future__ import annotations

import httpx

from agent.models import Run
from agent.runs.store import RunStore, new_run_id
from evals.bench_sse import DESCRIPTION
from tests.server.conftest import SettingsFactory, interrupt_of, send
from tests.server.test_strict_input import new_thread, refused


def test_snowball_options_out_of_range_are_422(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = new_thread(client)
        for options, word in (
            ({"snowball": True, "snowball_depth": 9}, "snowball_depth"),
            ({"snowball": True, "snowball_budget": 0}, "snowball_budget"),
            ({"snowball_seeds": "10.1/x"}, "snowball_seeds"),
        ):
            refused(
                client.post(f"/threads/{thread_id}/messages", json={"text": DESCRIPTION, "options": options}),
                422,
                word,
            )


def test_a_search_with_snowball_says_how_it_stopped(server: str) -> None:
    with httpx.Client(base_url=server, timeout=120) as client:
        thread_id = new_thread(client)
        assert interrupt_of(send(client, thread_id, {"text": DESCRIPTION}))["kind"] == "confirmation"
        assert interrupt_of(send(client, thread_id, {"resume": {"accept": True}}))["kind"] == "review"
        options = {"max_per_source": 20, "snowball": True, "snowball_depth": 1, "snowball_budget": 6}
        events = send(client, thread_id, {"resume": {"accept": True}, "options": options})
        infos = [e["data"]["message"] for e in events if e["type"] == "info" and "message" in e["data"]]
        assert any(m.startswith("snowball: snowballing from") and "budget of 6 requests" in m for m in infos)
        ready = next(e["data"] for e in events if e["type"] == "run_ready")
        assert ready["snowball"].startswith(("search saturated after 1 round", "stopped at"))
        run = client.get(f"/runs/{ready['run_id']}").json()
        assert run["snowball"]["requests"] <= 6
        finds = client.get(f"/runs/{ready['run_id']}/results/snowball")
        assert finds.status_code == 200 and all(
            f["via"]["relation"] in ("cites", "cited_by") for f in finds.json()
        )
        assert len(finds.json()) >= run["counts"]["snowball"]


def test_a_run_without_snowballing_has_no_snowball_results(
    server: str, app_settings: SettingsFactory
) -> None:
    store = RunStore(app_settings().projects_dir)
    store.ensure_project("plain")
    run = Run(id=new_run_id(), project_id="plain")
    store.save_run(run)
    with httpx.Client(base_url=server, timeout=60) as client:
        refused(client.get(f"/runs/{run.id}/results/snowball"), 404, "was not snowballed")
        assert client.get(f"/runs/{run.id}/results/aggregated").json() == []
