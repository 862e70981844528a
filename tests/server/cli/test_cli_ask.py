"""`scholarmap ask`: errors as one line and an exit code (a real subprocess), and the whole command on a
saved Run with the real retrieval engine and PostgreSQL (in-process, with a bag-of-words embedder)."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from pydantic import TypeAdapter

from agent.ask.answer import AskChunk, AskEnd, AskStart
from agent.llm import RulesLLM, ScriptedLLM
from agent.models import AggregatedPaper, Paper, Run
from agent.runs.store import RunStore
from agent.settings import get_settings, load_settings
from server.cli.ask import run_ask
from tests.agent.ask.test_ask import FakeEngine, HashEmbedder
from tests.paths import FIXTURES, REPO

RUN_ID = "20260102T030405-abc123"
NAR = (FIXTURES / "europepmc" / "epmc_fulltext_PMC3258128.xml").read_text(encoding="utf-8")

PAPERS = [
    AggregatedPaper(
        key="doi:10.1093/nar/gkr715",
        rank=1,
        paper=Paper(
            title="Hepato-specific microRNA-122 facilitates accumulation of newly synthesized miRNA through regulating PRKRA",
            year=2012,
            doi="10.1093/nar/gkr715",
            pmcid="PMC3258128",
            abstract="miR-122 is abundantly expressed in human liver. We identified PRKRA as a new target of miR-122 "
            "by affinity purification with biotinylated miR-122.",
        ),
    ),
    AggregatedPaper(
        key="pmid:2",
        rank=2,
        paper=Paper(
            title="Motor imagery BCI with scalp EEG",
            year=2018,
            abstract="Mu rhythm desynchronisation during motor imagery drove a cursor in twelve volunteers.",
        ),
    ),
]


def save_run(data_dir: Path, papers: list[AggregatedPaper] = PAPERS) -> None:
    store = RunStore(data_dir / "projects")
    store.create_project("Demo", project_id="demo")
    store.save_run(Run(id=RUN_ID, project_id="demo"), aggregated=papers)


def cli(*argv: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SCHOLARMAP_DATA_DIR": str(data_dir), "SCHOLARMAP_LLM": "rules"}
    return subprocess.run(
        [sys.executable, "-m", "server.cli.main", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
    )


# -- errors (subprocess: exit codes and one line on stderr) ------------------------------------------


def test_unknown_run_is_exit_1_naming_the_run(tmp_path):
    done = cli("ask", "20991231T235959-ffffff", "What is PRKRA?", data_dir=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "scholarmap: error: run '20991231T235959-ffffff' does not exist"
    ]


def test_bad_question_and_options_are_exit_2(tmp_path):
    done = cli("ask", RUN_ID, "   ", data_dir=tmp_path)
    assert done.returncode == 2 and "the question is empty" in done.stderr
    done = cli("ask", RUN_ID, "x" * 2001, data_dir=tmp_path)
    assert done.returncode == 2 and "under 2000 characters" in done.stderr
    done = cli("ask", RUN_ID, "q", "--top-k", "0", data_dir=tmp_path)
    assert done.returncode == 2 and "--top-k" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_help_lists_the_options(tmp_path):
    done = cli("ask", "--help", data_dir=tmp_path)
    assert done.returncode == 0
    for option in ("--probes", "--no-rerank", "--top-k", "--fulltext", "--json", "--jsonl", "--trace"):
        assert option in done.stdout


# -- the handler with an injected engine -------------------------------------------------------------


def namespace(question: str, **options: object) -> argparse.Namespace:
    defaults = {"run": RUN_ID, "question": question, "probes": False, "no_rerank": True, "top_k": 8,
                "fulltext": False, "fulltext_limit": 20, "json": False, "jsonl": False, "trace": False}  # fmt: skip
    return argparse.Namespace(**{**defaults, **options})


async def test_streams_the_answer_then_the_numbered_sources(tmp_path):
    save_run(tmp_path)
    settings = load_settings(data_dir=tmp_path, llm="rules")
    out, err = io.StringIO(), io.StringIO()
    llm = ScriptedLLM(
        replies={"answer": "Speech was decoded from high-gamma activity [1], at 70-150 Hz [2]."}
    )
    code = await run_ask(
        namespace("How was speech decoded from high-gamma activity?"),
        settings=settings,
        engine=FakeEngine(),
        llm=llm,
        out=out,
        err=err,
    )
    assert code == 0, err.getvalue()
    text = out.getvalue()
    assert text.startswith("Speech was decoded from high-gamma activity [1], at 70-150 Hz [2].\n")
    sources = text.split("Sources:\n", 1)[1].splitlines()
    assert (
        sources[0]
        == "[1] Speech decoding from high-gamma ECoG activity (2020) — Abstract. https://doi.org/10.1000/ecog"
    )
    assert sources[1].startswith('    "We decoded speech') and sources[2].startswith("[2] ")
    assert "answered by a scripted model" in err.getvalue()


async def test_jsonl_mode_prints_one_chunk_per_line(tmp_path):
    save_run(tmp_path)
    out = io.StringIO()
    code = await run_ask(
        namespace("high-gamma decoding", jsonl=True),
        settings=load_settings(data_dir=tmp_path),
        engine=FakeEngine(),
        llm=RulesLLM(),
        out=out,
        err=io.StringIO(),
    )
    assert code == 0
    chunks = [TypeAdapter(AskChunk).validate_json(line) for line in out.getvalue().splitlines()]
    assert isinstance(chunks[0], AskStart) and isinstance(chunks[-1], AskEnd)


async def test_json_mode_prints_the_answer_and_its_decision_as_one_object(tmp_path):
    save_run(tmp_path)
    out = io.StringIO()
    code = await run_ask(
        namespace("How was speech decoded from high-gamma activity?", json=True, trace=True),
        settings=load_settings(data_dir=tmp_path),
        engine=FakeEngine(),
        llm=RulesLLM(),
        out=out,
        err=io.StringIO(),
    )
    assert code == 0
    body = json.loads(out.getvalue())
    assert body["answerable"] is True and body["answer"].startswith("No language model answered")
    assert body["citations"][0]["paper_key"] == "doi:10.1000/ecog"
    numbers = [c["n"] for c in body["citations"]]  # 1..k in the order the answer cites them
    assert numbers == list(range(1, len(numbers) + 1))
    assert [int(n) for n in dict.fromkeys(re.findall(r"\[(\d+)\]", body["answer"]))] == numbers
    assert body["trace"]["normalized_query"]["original_text"].startswith("How was speech")


async def test_engine_failures_are_one_line(tmp_path, caplog):
    from tools.retrieval.engine import RunNotIndexed

    save_run(tmp_path)

    def broken(exc: Exception) -> FakeEngine:
        class Broken(FakeEngine):
            async def search(self, run_id, question, **options):
                raise exc

        return Broken()

    async def ask_with(engine: FakeEngine) -> tuple[int, str]:
        err = io.StringIO()
        code = await run_ask(
            namespace("q?"),
            settings=load_settings(data_dir=tmp_path),
            engine=engine,
            llm=RulesLLM(),
            out=io.StringIO(),
            err=err,
        )
        return code, err.getvalue()

    # A named failure: its own message.
    code, said = await ask_with(broken(RunNotIndexed("run 'r1' has no retrieval index; ingest it first")))
    assert code == 1 and said == "scholarmap: error: run 'r1' has no retrieval index; ingest it first\n"
    # A bug: one line with a reference; its text and traceback only in the log.
    code, said = await ask_with(broken(KeyError("/srv/scholarmap/index.json")))
    assert code == 1 and said.count("\n") == 1 and "/srv/" not in said and "KeyError" not in said
    assert said.startswith("scholarmap: error: Something went wrong inside ScholarMap while answering")
    reference = said.split("(reference ")[1][:8]
    logged = [r for r in caplog.records if reference in r.getMessage()]
    assert logged and isinstance(logged[0].exc_info[1], KeyError)


# -- the real engine and database ---------------------------------------------------------------------


@pytest.mark.slow
def test_main_indexes_once_then_answers(tmp_path, pg_url, monkeypatch, capsys):
    import tools.embeddings.sentence
    from server.cli.main import main

    save_run(tmp_path)
    monkeypatch.setenv("SCHOLARMAP_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SCHOLARMAP_DATABASE_URL", pg_url)
    monkeypatch.setenv("SCHOLARMAP_LLM", "rules")
    monkeypatch.setattr(tools.embeddings.sentence, "get_embedder", lambda name, **_: HashEmbedder())
    get_settings.cache_clear()
    try:
        assert (
            main(
                [
                    "ask",
                    RUN_ID,
                    "Which target of miR-122 was identified by affinity purification?",
                    "--no-rerank",
                ]
            )
            == 0
        )
        first = capsys.readouterr()
        assert f"indexing run {RUN_ID}: 2 papers" in first.err and "indexed" in first.err
        assert "No language model answered" in first.out
        assert (
            "[1] Hepato-specific microRNA-122" in first.out
            and "https://doi.org/10.1093/nar/gkr715" in first.out
        )

        assert main(["ask", RUN_ID, "What drove the cursor?", "--no-rerank", "--json"]) == 0
        second = capsys.readouterr()
        assert "indexing" not in second.err  # the index is reused
        body = json.loads(second.out)
        assert set(body) >= {"answer", "answerable", "citations"} and isinstance(body["answerable"], bool)
        assert body["citations"] and body["citations"][0]["paper_key"] == "pmid:2"

        assert main(["ask", RUN_ID, "What drove the cursor?", "--no-rerank", "--jsonl", "--trace"]) == 0
        chunks = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        start = chunks[0]
        assert start["type"] == "start" and "answerable" in start
        assert {"normalized_query", "intent_analysis", "multi_recall_results", "aggregated_results"} <= set(
            start["trace"]
        )
        assert start["trace"]["aggregated_results"]["candidates"][0]["fusion_weights"]
    finally:
        get_settings.cache_clear()


@pytest.mark.slow
async def test_fulltext_is_fetched_and_indexed(tmp_path, pg_url):
    save_run(tmp_path)
    settings = load_settings(data_dir=tmp_path, database_url=pg_url, llm="rules", cache_ttl=0)
    requests: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(str(request.url))
        if request.url.path.endswith("/PMC3258128/fullTextXML"):
            return httpx.Response(200, text=NAR)
        if request.url.path.endswith("/search"):
            return httpx.Response(200, json={"hitCount": 0, "resultList": {"result": []}})
        return httpx.Response(404, json={"message": "not found"})

    out, err = io.StringIO(), io.StringIO()
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        code = await run_ask(
            namespace("How was the luciferase reporter assay performed?", fulltext=True),
            settings=settings,
            embedder=HashEmbedder(),
            http_client=client,
            out=out,
            err=err,
        )
    assert code == 0, err.getvalue()
    assert any(url.endswith("/PMC3258128/fullTextXML") for url in requests)
    assert "full text: 1 from PMC" in err.getvalue()
    # the answer now quotes the full text's methods, which the abstract never mentions
    assert "MATERIALS AND METHODS › Luciferase reporter assay" in out.getvalue()
    assert "firefly luciferase reporter vector" in out.getvalue()
