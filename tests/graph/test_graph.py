"""The conversation graph end to end: Scripted LLM, the fake-sources server, checkpoints in PostgreSQL.

The compiled graph is driven directly (no HTTP) with an AsyncPostgresSaver on the test database, the way
server.streaming.threads and the terminal chat drive it: a message as graph input, each interrupt answered with
`Command(resume=...)`, progress read from the custom stream.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from langgraph.types import Command

from agent.db import Database
from agent.llm import LLMCall, ScriptedLLM
from agent.runs.store import RunStore
from agent.search.sources import open_sources
from evals.bench_sse import INTERPRETATION, SLOTS, fast_settings
from evals.fake_sources.config import FakeConfig
from evals.fake_sources.server import RunningFakeSources, running_fake_sources
from graph.build import build_graph, postgres_checkpointer
from graph.context import GraphContext

DESCRIPTION = "I decode speech from electrocorticography (ECoG) recordings in epilepsy patients."


@pytest.fixture(scope="module")
def fake() -> Iterator[RunningFakeSources]:
    with running_fake_sources(FakeConfig(seed=3)) as running:
        yield running


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One data dir for the module: the HTTP cache in it makes the keyword step of later tests cheap.
    # Each test works in its own project, so their Runs never mix.
    return tmp_path_factory.mktemp("graph-data")


@dataclass
class Step:
    """What one pass of the graph produced: custom events, updated nodes, and the interrupt it ended on."""

    events: list[dict[str, Any]] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    interrupt: dict[str, Any] | None = None

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("type") == kind]

    @property
    def started(self) -> list[str]:
        return [e["node"] for e in self.of("node") if e.get("status") == "started"]


class Conversation:
    def __init__(self, graph: Any, context: GraphContext, project_id: str) -> None:
        self.graph = graph
        self.context = context
        self.project_id = project_id
        self.thread_id = f"th_{secrets.token_hex(6)}"
        self.config = {"configurable": {"thread_id": self.thread_id}}

    async def _run(self, graph_input: Any) -> Step:
        step = Step()
        async for mode, chunk in self.graph.astream(
            graph_input, self.config, context=self.context, stream_mode=["custom", "updates"]
        ):
            if mode == "custom":
                step.events.append(chunk)
            elif mode == "updates":
                for node, update in chunk.items():
                    if node == "__interrupt__":
                        step.interrupt = dict(update[0].value)
                    else:
                        step.nodes.append(node)
        # What the checkpoint says is pending must be what the stream showed.
        assert await self.pending() == step.interrupt
        return step

    async def say(self, text: str) -> Step:
        return await self._run({"message": text, "mode": None, "project_id": self.project_id})

    async def reply(self, payload: dict[str, Any]) -> Step:
        return await self._run(Command(resume=payload))

    async def pending(self) -> dict[str, Any] | None:
        snapshot = await self.graph.aget_state(self.config)
        for task in snapshot.tasks or ():
            for item in task.interrupts or ():
                return dict(item.value)
        return None

    async def values(self) -> dict[str, Any]:
        return dict((await self.graph.aget_state(self.config)).values)

    async def search_to_run(self, description: str) -> tuple[str, Step]:
        """Describe, accept the interpretation, accept the keywords: returns the new Run's id."""
        step = await self.say(description)
        assert step.interrupt and step.interrupt["kind"] == "confirmation", step.interrupt
        step = await self.reply({"accept": True})
        assert step.interrupt and step.interrupt["kind"] == "review", step.interrupt
        step = await self.reply({"accept": True})
        ready = step.of("run_ready")
        assert len(ready) == 1, step.events
        return ready[0]["run_id"], step


@dataclass
class Harness:
    graph: Any
    settings: Any
    store: RunStore
    sources: Any
    database: Database

    def conversation(self, llm: ScriptedLLM) -> Conversation:
        project_id = f"p-{secrets.token_hex(4)}"
        self.store.ensure_project(project_id)
        context = GraphContext(
            settings=self.settings,
            store=self.store,
            llm=llm,
            sources=self.sources,
            database=self.database,
            options={"max_per_source": 3},
        )
        return Conversation(self.graph, context, project_id)


@pytest.fixture
async def harness(
    database: Database, pg_url: str, data_dir: Path, fake: RunningFakeSources
) -> AsyncIterator[Harness]:
    settings = fast_settings(data_dir, pg_url, fake.base_urls)
    graph = build_graph(await postgres_checkpointer(database.pool))
    async with open_sources(settings) as sources:
        yield Harness(graph, settings, RunStore(settings.projects_dir), sources, database)


def scripted(interpret: Any = INTERPRETATION, extract: Any = SLOTS) -> ScriptedLLM:
    return ScriptedLLM({"extract_slots": extract, "normalize_terms": SLOTS, "interpret": interpret})


def by_round(replies: dict[int, dict[str, Any]]) -> Callable[[LLMCall], dict[str, Any]]:
    """An `interpret` reply chosen by the clarification round the prompt was rendered for."""
    return lambda call: replies[int(call.values["round"])]


def calls(llm: ScriptedLLM, prompt: str) -> list[LLMCall]:
    return [c for c in llm.calls if c.prompt == prompt]


# --------------------------------------------------------------------------------------------------


async def test_two_clarification_rounds_then_confirmation(harness: Harness) -> None:
    llm = scripted(
        interpret=by_round(
            {
                1: {
                    "summary": "You decode speech.",
                    "questions": [
                        {
                            "slot": "method_measurement",
                            "question": "How are the brain signals recorded?",
                            "options": ["ECoG", "sEEG"],
                        },
                        {"slot": "subject_population", "question": "Who are the participants?"},
                    ],
                    "ready": False,
                },
                2: {
                    "summary": "You decode speech from ECoG.",
                    "questions": [{"slot": "context", "question": "Is this for clinical communication?"}],
                    "ready": False,
                },
                3: INTERPRETATION,
            }
        )
    )
    chat = harness.conversation(llm)

    first = await chat.say(DESCRIPTION)
    assert first.started == ["route", "understand"]
    assert first.interrupt is not None and first.interrupt["kind"] == "clarification"
    assert first.interrupt["round"] == 1
    assert [q["slot"] for q in first.interrupt["questions"]] == ["method_measurement", "subject_population"]
    assert first.interrupt["questions"][0]["options"] == ["ECoG", "sEEG"]

    second = await chat.reply({"answers": ["ECoG grids", "adults with epilepsy"]})
    assert second.nodes[:2] == ["clarify", "understand"]
    assert second.interrupt is not None and second.interrupt["kind"] == "clarification"
    assert second.interrupt["round"] == 2
    assert [q["question"] for q in second.interrupt["questions"]] == ["Is this for clinical communication?"]
    values = await chat.values()
    assert (
        "Clarification (method_measurement): How are the brain signals recorded? Answer: ECoG grids"
        in (values["description"])
    )
    assert "Answer: adults with epilepsy" in values["description"]

    third = await chat.reply({"answers": "yes, bedside communication"})
    assert third.interrupt is not None and third.interrupt["kind"] == "confirmation"
    assert third.interrupt["slots"]["task"] == ["speech decoding"]
    values = await chat.values()
    assert values["round"] == 3 and values["understanding"]["ready"] is True
    assert values["description"].endswith("Answer: yes, bedside communication")

    # Each round understood the description with every answer so far, and told the model what was asked.
    rounds = calls(llm, "interpret")
    assert [c.values["round"] for c in rounds] == [1, 2, 3]
    assert "How are the brain signals recorded?" in rounds[1].values["asked"]
    extracted = [c.values["description"] for c in calls(llm, "extract_slots")]
    assert "ECoG grids" not in extracted[0] and "ECoG grids" in extracted[1]
    assert "bedside communication" in extracted[2]


async def test_never_more_than_three_questions_a_round(harness: Harness) -> None:
    five = [
        {"slot": slot, "question": f"What about the {slot.replace('_', ' ')}?"}
        for slot in ("task", "method_measurement", "subject_population", "context", "output_target")
    ]
    llm = scripted(interpret={"summary": "Unclear.", "questions": five, "ready": False})
    chat = harness.conversation(llm)

    step = await chat.say(DESCRIPTION)
    assert step.interrupt is not None and step.interrupt["kind"] == "clarification"
    shown = step.interrupt["questions"]
    assert len(shown) == 3
    assert [q["slot"] for q in shown] == ["task", "method_measurement", "subject_population"]
    notes = (await chat.values())["understanding"]["notes"]
    assert any("2 proposed question(s) were not asked" in note for note in notes)

    # The model keeps asking five: the next round again shows at most three, none repeated.
    step = await chat.reply({"answers": ["decoding", "ECoG", "patients"]})
    assert step.interrupt is not None and step.interrupt["kind"] == "clarification"
    assert [q["slot"] for q in step.interrupt["questions"]] == ["context", "output_target"]


async def test_rejection_at_confirmation_goes_back_to_understanding(harness: Harness) -> None:
    llm = scripted()
    chat = harness.conversation(llm)

    step = await chat.say(DESCRIPTION)
    assert step.interrupt is not None and step.interrupt["kind"] == "confirmation"

    step = await chat.reply({"accept": False, "feedback": "Only children, not adults."})
    assert step.nodes[:2] == ["confirm", "understand"]
    assert "keywords" not in step.nodes and not step.of("search_progress")
    assert step.interrupt is not None and step.interrupt["kind"] == "confirmation"
    values = await chat.values()
    assert values["description"] == f"{DESCRIPTION}\nOnly children, not adults."
    assert values["round"] == 1 and values["confirmed"] is False
    extracted = [c.values["description"] for c in calls(llm, "extract_slots")]
    assert len(extracted) == 2 and "Only children" in extracted[1]

    # A plain rejection (no feedback) asks again without changing the description.
    step = await chat.reply({"accept": False})
    assert step.interrupt is not None and step.interrupt["kind"] == "confirmation"
    assert (await chat.values())["description"] == f"{DESCRIPTION}\nOnly children, not adults."

    step = await chat.reply({"accept": True})
    assert step.interrupt is not None and step.interrupt["kind"] == "review"


async def test_keyword_edits_at_review_show_a_diff_and_regenerate_queries(harness: Harness) -> None:
    chat = harness.conversation(scripted())
    await chat.say(DESCRIPTION)
    review = (await chat.reply({"accept": True})).interrupt
    assert review is not None and review["kind"] == "review"
    assert review["diff"] is None and review["error"] is None
    canonicals = [t["canonical"] for t in review["terms"]]
    # "epilepsy patients" is searched as its MeSH heading, the phrase as written kept beside it
    assert {"speech decoding", "electrocorticography", "epilepsy"} <= set(canonicals)
    before = review["queries"]["queries"]
    assert set(before) == {"pubmed", "semantic_scholar", "openalex"}
    assert "speech synthesi" not in before["pubmed"]["query"].lower()

    # A structured edit: the plan gains the term, the diff says so, every query is rebuilt with it.
    step = await chat.reply({"edits": [{"op": "add_term", "text": "speech synthesis", "slot": "task"}]})
    review = step.interrupt
    assert review is not None and review["kind"] == "review"
    assert "speech synthesis" in [t["canonical"] for t in review["terms"]]
    assert review["diff"]["terms_added"] == ["speech synthesis"]
    assert "+ term: speech synthesis" in review["diff"]["summary"]
    after = review["queries"]["queries"]
    # PubMed truncates where it is safe ("speech synthesi*"), so compare stems
    assert "speech synthesi" in after["pubmed"]["query"].lower()
    assert "speech synthesi" in after["openalex"]["query"].lower()
    assert set(review["diff"]["queries"]) == {"pubmed", "semantic_scholar", "openalex"}

    # A plain-text edit, as chat clients send it.
    step = await chat.reply({"text": "delete term: epilepsy"})
    review = step.interrupt
    assert review is not None and review["kind"] == "review"
    assert "epilepsy" not in [t["canonical"] for t in review["terms"]]
    assert review["diff"]["terms_removed"] == ["epilepsy"]
    assert "epilepsy" not in review["queries"]["queries"]["pubmed"]["query"].lower()

    # An edit that cannot be read is shown as an error, and the plan stays as it was.
    step = await chat.reply({"text": "make it better please"})
    assert step.interrupt is not None and step.interrupt["error"]
    assert "could not understand the edit" in step.interrupt["error"]
    assert step.interrupt["queries"] == review["queries"]

    # A structured edit of the wrong shape: the fields named, not pydantic's report (input reprs, a URL).
    step = await chat.reply({"edits": [{"op": "add_term", "slot": "task"}]})
    assert step.interrupt is not None and step.interrupt["error"].startswith("these edits cannot be used")
    assert "text" in step.interrupt["error"] and "pydantic" not in step.interrupt["error"]
    assert "input_value" not in step.interrupt["error"]
    assert step.interrupt["queries"] == review["queries"]

    # Accepting searches with exactly the reviewed queries.
    step = await chat.reply({"accept": True})
    [ready] = step.of("run_ready")
    saved = harness.store.load_run(ready["run_id"])
    assert saved.queries is not None
    assert saved.queries.model_dump(mode="json") == review["queries"]
    assert "speech synthesis" in [t.canonical for t in saved.keywords.terms]


async def test_two_runs_in_one_thread(harness: Harness) -> None:
    chat = harness.conversation(scripted())
    first_id, step = await chat.search_to_run(DESCRIPTION)
    progress = step.of("search_progress")
    assert {p["source"] for p in progress} == {"pubmed", "semantic_scholar", "openalex"}
    assert {p["source"] for p in progress if p["stage"] == "done"} == {
        "pubmed",
        "semantic_scholar",
        "openalex",
    }
    [ready] = step.of("run_ready")
    assert ready["project_id"] == chat.project_id and ready["counts"]["aggregated"] > 0
    values = await chat.values()
    assert values["run_ids"] == [first_id] and values["active_run_id"] == first_id

    # With a Run active, a new search is asked for explicitly; the thread keeps both Runs.
    second_id, _ = await chat.search_to_run("/search speech synthesis from sEEG in adults")
    values = await chat.values()
    assert second_id != first_id
    assert values["run_ids"] == [first_id, second_id]
    assert values["active_run_id"] == second_id
    assert values["description"] == "speech synthesis from sEEG in adults"
    runs = harness.store.list_runs(chat.project_id)
    assert {r.id for r in runs} == {first_id, second_id}
    assert {r.thread_id for r in runs} == {chat.thread_id}

    # Switching the active Run back (what PUT /threads/{id}/active-run does) is kept by the checkpoint.
    await harness.graph.aupdate_state(chat.config, {"active_run_id": first_id})
    values = await chat.values()
    assert values["active_run_id"] == first_id and values["run_ids"] == [first_id, second_id]


async def test_a_message_without_a_run_is_not_a_question(harness: Harness) -> None:
    chat = harness.conversation(scripted())
    step = await chat.say("/ask what methods are used?")
    assert step.interrupt is None
    assert step.nodes == ["route", "no_run"]
    assert "no Run" in "".join(e["delta"] for e in step.of("text"))


async def test_ask_after_a_run(harness: Harness) -> None:
    pytest.importorskip("tools.retrieval.engine")
    chat = harness.conversation(scripted())
    run_id, _ = await chat.search_to_run(DESCRIPTION)

    # Plain text after a Run is a question about the active Run.
    step = await chat.say("Which methods decode speech from ECoG?")
    assert step.started[:2] == ["route", "ask"]
    assert step.interrupt is None
    text = "".join(e["delta"] for e in step.of("text"))
    assert text.strip()
    answer = (await chat.values())["answer"]
    assert answer["text"] == text and "[1]" in text
    assert answer["citations"] and all(c["paper_key"] for c in answer["citations"])
    assert [c["n"] for c in step.of("citation")] == [c["n"] for c in answer["citations"]]
    # the answer's decision travels with it: in the state and in the stream's ask events
    assert isinstance(answer["answerable"], bool)
    assert [e.get("answerable") for e in step.of("ask_end")] == [answer["answerable"]]
    values = await chat.values()
    assert values["active_run_id"] == run_id and values["mode"] == "ask"


async def test_options_sent_with_the_description_apply_to_the_search(harness: Harness) -> None:
    chat = harness.conversation(scripted())
    step = await chat._run(
        {
            "message": DESCRIPTION,
            "mode": None,
            "project_id": chat.project_id,
            "options": {"sources": ["pubmed"], "max_per_source": 2},
        }
    )
    assert step.interrupt and step.interrupt["kind"] == "confirmation"
    await chat.reply({"accept": True})
    step = await chat.reply({"accept": True})  # no options here: the earlier ones still hold
    run = harness.store.get_run(step.of("run_ready")[0]["run_id"])
    assert [s.value for s in run.sources] == ["pubmed"]
    assert run.counts["pubmed"] <= 2


async def test_map_after_a_run(harness: Harness) -> None:
    chat = harness.conversation(scripted())
    run_id, _ = await chat.search_to_run(DESCRIPTION)
    step = await chat.say("/map")
    assert step.started == ["route", "map"]
    [ready] = step.of("map_ready")
    assert ready["run_id"] == run_id and ready["url"] == f"/runs/{run_id}/map.html"
    assert ready["counts"]["papers"] > 0 and "this Run" in ready["note"]
    values = await chat.values()
    assert values["map_summary"]["counts"] == ready["counts"]
    assert harness.store.read_derived(run_id, "map.json") is not None  # stored beside the Run


async def test_an_empty_question_is_answered_with_what_to_fix(harness: Harness) -> None:
    chat = harness.conversation(scripted())
    await chat.search_to_run(DESCRIPTION)
    step = await chat.say("/ask   ")
    assert step.started == ["route", "ask"]
    assert "question is empty" in "".join(e["delta"] for e in step.of("text")).lower()
