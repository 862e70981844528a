"""The MCP server through the official `mcp` client: over stdio (a child process) and streamable HTTP.

Both run against the fake sources, with the scripted LLM of the server tests. Over HTTP (the server in
this process) every tool is called; over stdio (a child process) all but the two that load the
retrieval and map models again in the child (ask_run, academic_map), and the thread and Run it made are
then opened and continued through the REST API: the MCP server is an adapter over the same threads.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, get_args

import anyio
import httpx
import pytest
from mcp import Client, MCPError, StdioServerParameters

from agent.models import Source
from evals.bench_sse import DESCRIPTION, conversation_llm
from evals.fake_sources.server import RunningFakeSources
from server.adapters import mcp_server
from server.adapters.mcp_server import build_server
from tests.asgi_server import serve
from tests.paths import REPO
from tests.server.conftest import ServerFactory, SettingsFactory, read_events

TOOLS = {"plan_search", "run_search", "ask_run", "academic_map", "list_runs", "export_run"}


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    return dict(result.structured_content)


def error_text(result: Any) -> str:
    assert result.is_error, result.structured_content
    return " ".join(part.text for part in result.content)


async def plan_and_search(
    client: Client, progress: list[tuple[float, float | None, str | None]]
) -> dict[str, Any]:
    plan = structured(await client.call_tool("plan_search", {"description": DESCRIPTION}))
    assert plan["status"] == "ready" and plan["thread_id"].startswith("th_")
    assert plan["understanding"]["slots"]["method_measurement"] == ["electrocorticography"]
    assert {"speech decoding", "electrocorticography"} <= {t["term"] for t in plan["terms"]}
    assert set(plan["queries"]) == {"pubmed", "semantic_scholar", "openalex"}
    assert '"Electrocorticography"[Mesh]' in plan["queries"]["pubmed"]

    async def on_progress(progress_now: float, total: float | None, message: str | None) -> None:
        progress.append((progress_now, total, message))

    run = structured(
        await client.call_tool(
            "run_search",
            {"thread_id": plan["thread_id"], "edits": "add term: speech synthesis"},
            progress_callback=on_progress,
        )
    )
    assert run["status"] == "completed" and run["thread_id"] == plan["thread_id"]
    assert run["counts"] == {"pubmed": 1, "semantic_scholar": 1, "openalex": 1, "aggregated": 3}
    assert f"scholarmap://runs/{run['run_id']}/results_aggregated.json" in run["resources"]
    # Notifications rise strictly (as MCP requires), from nothing fetched to every record fetched.
    values = [p for p, _total, _message in progress]
    assert values == [0.0, 1.0, 2.0, 3.0] and progress[-1][1] == 3.0
    assert {m.split(":")[0] for _p, _t, m in progress[1:] if m} == {"PubMed", "Semantic Scholar", "OpenAlex"}
    return run


async def ask_and_map(client: Client, run_id: str) -> None:
    answer = structured(
        await client.call_tool("ask_run", {"run_id": run_id, "question": "Which methods decode speech?"})
    )
    assert answer["citations"] and all(f"[{c['n']}]" in answer["answer"] for c in answer["citations"])
    assert answer["sources"].startswith("Sources:\n[")
    # which fake papers are cited varies with the ranking; a cited paper's DOI is linked when it has one
    assert all(c["doi"] in answer["sources"] for c in answer["citations"] if c.get("doi"))

    found = structured(await client.call_tool("academic_map", {"run_id": run_id}))
    assert found["counts"]["papers"] == 3 and found["countries"] and found["institutions"]
    assert found["researchers"][0]["name"] and found["page"] == f"/runs/{run_id}/map.html"
    stored_map = await client.read_resource(f"scholarmap://runs/{run_id}/map.json")
    assert json.loads(stored_map.contents[0].text)["run_id"] == run_id


@pytest.mark.slow
def test_tools_over_stdio_then_the_thread_continues_on_the_rest_api(
    pg_url: str,
    sources_server: RunningFakeSources,
    app_settings: SettingsFactory,
    start_server: ServerFactory,
) -> None:
    settings = app_settings()
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "SCHOLARMAP_TEST_MCP": json.dumps(
            {
                "data_dir": str(settings.data_dir),
                "database_url": pg_url,
                "base_urls": sources_server.base_urls,
            }
        ),
    }
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "tests.server.adapters.mcp_stdio_server"], env=env, cwd=str(REPO)
    )

    async def session() -> dict[str, Any]:
        progress: list[tuple[float, float | None, str | None]] = []
        async with Client(params, read_timeout_seconds=120) as client:
            assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
            run = await plan_and_search(client, progress)
            run_id = run["run_id"]
            keywords = await client.read_resource(f"scholarmap://runs/{run_id}/keywords.json")
            assert "speech synthesis" in keywords.contents[0].text  # the edit given to run_search

            listing = structured(await client.call_tool("list_runs", {"project": "default"}))
            assert run_id in [r["run_id"] for r in listing["runs"]]

            ris = structured(await client.call_tool("export_run", {"run_id": run_id, "format": "ris"}))
            assert ris["filename"].endswith(".ris") and ris["content"].count("ER  -") == 3

            # Bad input: a tool error saying what to do, never a crash.
            assert "either 'thread_id'" in error_text(await client.call_tool("run_search", {}))
            assert "greater than or equal to 1" in error_text(
                await client.call_tool("run_search", {"thread_id": run["thread_id"], "max_per_source": 0})
            )
            assert "has no search plan" in error_text(
                await client.call_tool("run_search", {"thread_id": run["thread_id"]})
            )
            assert "20261123T101500-1a2b3c" in error_text(
                await client.call_tool("ask_run", {"run_id": "nope", "question": "why?"})
            )
            assert "run '20200101T000000-abcdef'" in error_text(
                await client.call_tool("export_run", {"run_id": "20200101T000000-abcdef"})
            )
        return run

    run = anyio.run(session)
    run_id = run["run_id"]

    # The same thread and Run, seen and continued through the REST API of `scholarmap serve`.
    with start_server(settings) as url, httpx.Client(base_url=url, timeout=60) as http:
        state = http.get(f"/threads/{run['thread_id']}").json()
        assert state["active_run_id"] == run_id and state["run_ids"] == [run_id]
        assert http.get(f"/runs/{run_id}").json()["thread_id"] == run["thread_id"]
        events = read_events(
            http, "POST", f"/threads/{run['thread_id']}/messages", json={"text": "Which cohorts?"}
        )
        assert [e for e in events if e["type"] == "citation"] and events[-1]["data"]["state"] == "finished"


@pytest.mark.slow
def test_tools_over_streamable_http(app_settings: SettingsFactory) -> None:
    server = build_server(app_settings(), llm=conversation_llm())
    with serve(server.streamable_http_app(streamable_http_path="/mcp"), timeout=60) as url:

        async def session() -> None:
            progress: list[tuple[float, float | None, str | None]] = []
            async with Client(f"{url}/mcp", read_timeout_seconds=120) as client:
                assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS
                run = await plan_and_search(client, progress)
                listing = structured(await client.call_tool("list_runs", {}))
                assert run["run_id"] in [r["run_id"] for r in listing["runs"]]
                csv = structured(
                    await client.call_tool("export_run", {"run_id": run["run_id"], "format": "csv"})
                )
                assert csv["content"].lstrip("\ufeff").startswith("rank,key,title")
                assert "Input should be 'csv'" in error_text(
                    await client.call_tool("export_run", {"run_id": run["run_id"], "format": "docx"})
                )
                await ask_and_map(client, run["run_id"])
                listed = await client.list_resources()
                assert "scholarmap://runs" in [str(r.uri) for r in listed.resources]
                index = await client.read_resource("scholarmap://runs")
                assert run["run_id"] in [r["run_id"] for r in json.loads(index.contents[0].text)["runs"]]
                with pytest.raises(MCPError, match="run '20200101T000000-abcdef' does not exist"):
                    await client.read_resource("scholarmap://runs/20200101T000000-abcdef/run.json")
                assert "thread 'th_0000000000000000' does not exist" in error_text(
                    await client.call_tool("plan_search", {"thread_id": "th_0000000000000000"})
                )

        anyio.run(session)


def clarifying_llm() -> Any:
    """The scripted conversation, but a first round that asks who the subjects are."""
    from agent.llm import LLMCall, ScriptedLLM
    from evals.bench_sse import INTERPRETATION, SLOTS

    def interpret(call: LLMCall) -> dict[str, Any]:
        if int(call.values.get("round", 1)) > 1:
            return INTERPRETATION
        question = {"slot": "subject_population", "question": "In whom?", "options": ["adults", "children"]}
        return {**INTERPRETATION, "ready": False, "questions": [question]}

    return ScriptedLLM({"extract_slots": SLOTS, "normalize_terms": SLOTS, "interpret": interpret})


@pytest.mark.slow
async def test_a_vague_description_comes_back_with_questions(app_settings: SettingsFactory) -> None:
    """In process (the SDK's in-memory transport): the tools are the same, only the wire differs."""
    server = build_server(app_settings(), llm=clarifying_llm())
    async with Client(server) as client:
        asked = structured(await client.call_tool("plan_search", {"description": "speech from the brain"}))
        assert asked["status"] == "needs_answers" and asked["questions"] == ["In whom?"]
        refused = error_text(await client.call_tool("run_search", {"thread_id": asked["thread_id"]}))
        assert "waits for a clarification reply" in refused and "call plan_search first" in refused
        assert "pass them as 'answers'" in error_text(
            await client.call_tool("plan_search", {"thread_id": asked["thread_id"]})
        )
        plan = structured(
            await client.call_tool("plan_search", {"thread_id": asked["thread_id"], "answers": ["adults"]})
        )
        assert plan["status"] == "ready" and plan["thread_id"] == asked["thread_id"] and plan["queries"]
        direct = error_text(await client.call_tool("run_search", {"description": "speech from the brain"}))
        assert "needs answers first" in direct and "In whom?" in direct


def test_the_tools_source_names_are_the_databases() -> None:
    """The MCP schema spells the sources out (a Literal); it must name exactly the databases a Run searches."""
    assert get_args(mcp_server.SourceName) == tuple(source.value for source in Source)
