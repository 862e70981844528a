"""`scholarmap run` end to end: the installed script in a subprocess against the fake-sources server.

Only the first test loads the embedding model (the real MiniLM, through the real flow); the others fail
or are killed before ranking, and the terminal dialogue is tested in-process with a stubbed reader.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import agent.understanding.description
from agent.llm import RulesLLM
from agent.models import ClarifyingQuestion, Slots, Understanding
from agent.runs.store import RUN_FILES, RunStore
from agent.settings import load_settings
from agent.understanding.description import InvalidDescription
from evals.fake_sources import FakeConfig, running_fake_sources
from graph.context import GraphContext
from server.cli import run as cli_run
from server.cli.conversation import LocalConversation, automatic_reply

SCRIPT = Path(sys.executable).with_name("scholarmap")
DESCRIPTION = (
    "I study closed-loop deep brain stimulation for Parkinson's disease using local field potentials"
)


def cli_env(data_dir: Path, base_urls: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCHOLARMAP_", "OPENAI_"))}
    env.update({f"SCHOLARMAP_{service.upper()}_BASE_URL": url for service, url in base_urls.items()})
    env.update(
        SCHOLARMAP_DATA_DIR=str(data_dir),
        SCHOLARMAP_LLM="rules",
        SCHOLARMAP_HTTP_RETRIES="0",
        SCHOLARMAP_CACHE_TTL="0",
        # the fake server is local: spend no test time on the real services' politeness limits
        SCHOLARMAP_RATE_PUBMED="100",
        SCHOLARMAP_RATE_SEMANTIC_SCHOLAR="100",
        SCHOLARMAP_RATE_OPENALEX="100",
        SCHOLARMAP_RATE_WIKIMEDIA="100",
    )
    return env


def run_cli(
    tmp_path: Path, env: dict[str, str], *args: str, timeout: float = 300
) -> subprocess.CompletedProcess:
    assert SCRIPT.exists(), f"the scholarmap script is not installed at {SCRIPT}"
    return subprocess.run(
        [str(SCRIPT), "run", DESCRIPTION, *args],
        cwd=tmp_path,  # no developer .env is picked up
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def saved_folder(stdout: str) -> Path:
    lines = [line for line in stdout.splitlines() if line.startswith("Run saved: ")]
    assert len(lines) == 1, stdout
    return Path(lines[0].removeprefix("Run saved: ").strip())


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_run_yes_against_fake_sources_with_openalex_down(tmp_path: Path) -> None:
    with running_fake_sources(FakeConfig(seed=5, faults={"openalex": "503"})) as fake:
        env = cli_env(tmp_path / "data", fake.base_urls)
        result = run_cli(
            tmp_path, env, "--yes", "--project", "dbs", "--max-per-source", "40", "--export", "csv"
        )
    assert result.returncode == 0, result.stderr
    folder = saved_folder(result.stdout)
    assert folder.parent == tmp_path / "data" / "projects" / "dbs" / "runs"

    # every file of the Run layout, each valid JSON, counts consistent with the files
    assert sorted(p.name for p in folder.iterdir()) == sorted(RUN_FILES)
    data = {name: json.loads((folder / name).read_text(encoding="utf-8")) for name in RUN_FILES}
    run = data["run.json"]
    assert run["status"] == "partial"
    assert run["thread_id"] is None  # the command's conversation is not kept: its Run names no thread
    assert [(e["source"], e["kind"]) for e in run["errors"]] == [("openalex", "unavailable")]
    for source in ("pubmed", "semantic_scholar", "openalex"):
        assert run["counts"][source] == len(data[f"results_{source}.json"])
    assert run["counts"]["pubmed"] == run["counts"]["semantic_scholar"] == 40
    assert run["counts"]["openalex"] == 0
    aggregated = data["results_aggregated.json"]
    assert run["counts"]["aggregated"] == len(aggregated) > 0
    assert sum(len(p["evidence"]) for p in aggregated) == 80
    assert any(p["score"]["semantic"] > 0 for p in aggregated)  # the real embedding model ranked them
    assert data["understanding.json"]["description"].startswith("I study closed-loop")
    assert data["keywords.json"]["terms"]
    assert set(data["queries.json"]["queries"]) == {"pubmed", "semantic_scholar", "openalex"}

    # one line on stderr for the failed source; the summary and the export on stdout
    assert [line for line in result.stderr.splitlines() if line.startswith("openalex:")] == [
        next(line for line in result.stderr.splitlines() if line.startswith("openalex:"))
    ]
    assert "partial" in result.stdout
    export_line = next(line for line in result.stdout.splitlines() if line.startswith("Exported "))
    export_path = Path(export_line.rsplit(": ", 1)[1])
    rows = list(csv.DictReader(io.StringIO(export_path.read_text(encoding="utf-8-sig"))))
    assert [r["key"] for r in rows] == [p["key"] for p in aggregated]

    listing = subprocess.run(
        [str(SCRIPT), "runs", "dbs", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert [r["id"] for r in json.loads(listing.stdout)] == [run["id"]]


def test_no_network_saves_a_failed_run_and_exits_2(tmp_path: Path) -> None:
    port = closed_port()
    base = {
        s: f"http://127.0.0.1:{port}/{s}"
        for s in (
            "pubmed",
            "mesh",
            "openalex",
            "semantic_scholar",
            "wikidata",
            "wikipedia",
            "europepmc",
            "unpaywall",
            "zotero",
        )
    }
    result = run_cli(
        tmp_path, cli_env(tmp_path / "data", base), "--yes", "--max-per-source", "10", timeout=120
    )
    assert result.returncode == 2, result.stderr
    folder = saved_folder(result.stdout)
    run = json.loads((folder / "run.json").read_text())
    assert run["status"] == "failed"
    assert [(e["source"], e["kind"]) for e in run["errors"]] == [
        ("pubmed", "unavailable"),
        ("semantic_scholar", "unavailable"),
        ("openalex", "unavailable"),
    ]
    lines = result.stderr.splitlines()
    for source in ("pubmed", "semantic_scholar", "openalex"):
        mine = [line for line in lines if line.startswith(f"{source}:")]
        assert len(mine) == 1, lines  # one line per unreachable source
        assert "unavailable" in mine[0]
    assert not any("Traceback" in line for line in lines)


def test_sigkill_midway_leaves_no_partial_run(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    # the bulk search answers slowly, so the search is certainly under way when the process is killed
    with running_fake_sources(FakeConfig(seed=5, faults={"semantic_scholar": "latency:5000"})) as fake:
        env = cli_env(data_dir, fake.base_urls)
        process = subprocess.Popen(
            [str(SCRIPT), "run", DESCRIPTION, "--yes", "--project", "p", "--max-per-source", "50"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 120
            while not any("search/bulk" in r.path for r in fake.app.requests_for("semantic_scholar")):
                assert process.poll() is None, "the run ended before the search started"
                assert time.monotonic() < deadline, "the search never started"
                time.sleep(0.05)
            time.sleep(0.3)  # PubMed and OpenAlex are fetching meanwhile
            process.send_signal(signal.SIGKILL)
            assert process.wait(timeout=30) == -signal.SIGKILL
        finally:
            if process.poll() is None:
                process.kill()
    runs_dir = data_dir / "projects" / "p" / "runs"
    assert [p.name for p in runs_dir.iterdir() if p.name.startswith("run_")] == []
    assert RunStore(data_dir / "projects").list_runs("p") == []
    listing = subprocess.run(
        [str(SCRIPT), "runs", "p"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert listing.returncode == 0 and "no runs" in listing.stdout


# -- in-process: arguments, errors, the terminal dialogue ----------------------------------------------


def parse(*argv: str) -> argparse.Namespace:
    from server.cli.run import add_run_command

    parser = argparse.ArgumentParser(prog="scholarmap")
    add_run_command(parser.add_subparsers(dest="command"))
    return parser.parse_args(["run", *argv])


def test_arguments() -> None:
    args = parse(
        "my research", "--sources", "pubmed, openalex", "--max-per-source", "50", "--export", "ris", "-y"
    )
    assert [s.value for s in args.sources] == ["pubmed", "openalex"]
    assert (args.max_per_source, args.export, args.yes, args.project) == (50, "ris", True, "default")
    assert args.handler.__name__ == "run_command"
    with pytest.raises(SystemExit):
        parse("x", "--sources", "scopus")
    with pytest.raises(SystemExit):
        parse("x", "--export", "docx")


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["   "], "description is empty"), (["x", "--max-per-source", "20000"], "between 1 and 10000")],
)
def test_user_errors_are_one_line_and_non_zero(
    argv: list[str], message: str, tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    from server.cli.run import run_command

    monkeypatch.setenv("SCHOLARMAP_DATA_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert run_command(parse(*argv)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and err[0].startswith("scholarmap: error:")


@pytest.mark.parametrize(
    ("raised", "shown"),
    [
        (InvalidDescription("the description is too long; shorten it"), "the description is too long"),
        (KeyError("/srv/scholarmap/secret.json"), "Something went wrong inside ScholarMap while running"),
    ],
)
def test_a_failure_in_the_graph_is_one_line(
    raised: Exception, shown: str, tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    async def failing(*_: Any, **__: Any) -> Understanding:
        raise raised

    monkeypatch.setattr(agent.understanding.description, "understand", failing)
    monkeypatch.setenv("SCHOLARMAP_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SCHOLARMAP_LLM", "rules")
    monkeypatch.chdir(tmp_path)
    assert cli_run.run_command(parse("DBS study", "--yes")) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("scholarmap: error:")]
    assert len(err) == 1 and shown in err[0] and "secret" not in err[0], err
    assert not list(tmp_path.rglob("run.json"))


class Terminal:
    """Stands in for the prompts: answers in order, and records what was asked."""

    def __init__(self, answers: list[str], confirms: list[bool]) -> None:
        self.answers, self.confirms, self.asked = list(answers), list(confirms), []

    def ask(self, prompt: str, **_: Any) -> str:
        self.asked.append(prompt)
        return self.answers.pop(0)

    def confirm(self, prompt: str) -> bool:
        self.asked.append(prompt)
        return self.confirms.pop(0)


def offline_conversation(tmp_path: Path) -> Any:
    """The command's graph in-process on the rules LLM, without sources (the keyword step needs none)."""

    settings = load_settings(data_dir=tmp_path, llm="rules")
    store = RunStore(settings.projects_dir)
    store.ensure_project("p")
    context = GraphContext(settings=settings, store=store, llm=RulesLLM(), record_thread=False)
    return LocalConversation(context)


def scripted_understanding(seen: list[tuple[str, int]], *, ask_every_round: bool = False) -> Any:
    """`understand` that asks one question (in the first round only, unless `ask_every_round`)."""

    async def fake_understand(
        description: str, llm: Any, *, round: int, max_rounds: int, previous: Any
    ) -> Understanding:
        seen.append((description, round))
        asks = ask_every_round or len(seen) == 1
        questions = (
            [ClarifyingQuestion(slot="subject_population", question="Which patients?")] if asks else []
        )
        return Understanding(
            description=description,
            slots=Slots(research_goal=description, method_measurement=["deep brain stimulation"]),
            questions=questions,
            round=round,
            ready=not questions,
        )

    return fake_understand


def ignore(event: dict[str, Any]) -> None:
    """The graph's progress events, not looked at by these tests."""


async def until_review(conversation: Any, message: str, answer: Any) -> dict[str, Any]:
    """Send the description, answer every pause with `answer` until the keyword review; its payload."""
    pending = await conversation.send({"message": message, "mode": "search", "project_id": "p"}, ignore)
    while pending is not None and pending["kind"] != "review":
        pending = await conversation.reply(await answer(pending), ignore)
    assert pending is not None
    return pending


async def test_dialogue_asks_questions_then_confirms_with_a_correction(
    tmp_path: Path, monkeypatch: Any
) -> None:

    seen: list[tuple[str, int]] = []
    monkeypatch.setattr(agent.understanding.description, "understand", scripted_understanding(seen))
    terminal = Terminal(answers=["adults with Parkinson's disease", "also tremor"], confirms=[False, True])
    monkeypatch.setattr(cli_run, "_ask", terminal.ask)
    monkeypatch.setattr(cli_run, "_confirm", terminal.confirm)
    conversation = offline_conversation(tmp_path)
    out = io.StringIO()
    review = await until_review(
        conversation, "DBS study", cli_run.TerminalReplies(Console(file=out, width=200))
    )
    assert "Which patients?" in terminal.asked[0]
    assert "adults with Parkinson's disease" in seen[1][0] and seen[1][1] == 2
    # the rejected interpretation's correction is folded in and understanding restarts at round 1
    state = await conversation.values()
    assert state["description"].endswith("also tremor") and seen[-1] == (state["description"], 1)
    assert state["understanding"]["description"] == state["description"]
    assert "What I understood" in out.getvalue() and review["terms"]


async def test_questions_left_empty_go_on_to_the_confirmation(tmp_path: Path, monkeypatch: Any) -> None:

    seen: list[tuple[str, int]] = []
    fake = scripted_understanding(seen, ask_every_round=True)
    monkeypatch.setattr(agent.understanding.description, "understand", fake)
    terminal = Terminal(answers=["  "], confirms=[True])
    monkeypatch.setattr(cli_run, "_ask", terminal.ask)
    monkeypatch.setattr(cli_run, "_confirm", terminal.confirm)
    conversation = offline_conversation(tmp_path)
    await until_review(conversation, "DBS study", cli_run.TerminalReplies(Console(file=io.StringIO())))
    # one question, left empty: no second round of understanding, the interpretation as it stood
    assert seen == [("DBS study", 1)]
    assert terminal.asked[-1] == "Is this what you are looking for?"


async def test_yes_takes_the_first_interpretation_as_it_stands(tmp_path: Path, monkeypatch: Any) -> None:

    seen: list[tuple[str, int]] = []
    fake = scripted_understanding(seen, ask_every_round=True)
    monkeypatch.setattr(agent.understanding.description, "understand", fake)
    conversation = offline_conversation(tmp_path)
    review = await until_review(conversation, "DBS study", automatic_reply)
    state = await conversation.values()
    assert seen == [("DBS study", 1)]  # its questions are not asked, nothing is folded in
    assert state["confirmed"] is True and state["description"] == "DBS study"
    assert [q["question"] for q in state["understanding"]["questions"]] == ["Which patients?"]
    assert await automatic_reply(review) == {"accept": True}


async def test_keyword_review_applies_typed_edits_until_accepted(tmp_path: Path, monkeypatch: Any) -> None:

    monkeypatch.setattr(agent.understanding.description, "understand", scripted_understanding([]))
    terminal = Terminal(
        answers=["add term: local field potentials", "gibberish that is no edit", ""], confirms=[]
    )
    monkeypatch.setattr(cli_run, "_ask", terminal.ask)
    conversation = offline_conversation(tmp_path)
    pending = await until_review(conversation, "DBS study", automatic_reply)
    out = io.StringIO()
    replies = cli_run.TerminalReplies(Console(file=out, width=200))
    pending = await conversation.reply(await replies(pending), ignore)
    assert pending is not None and pending["kind"] == "review"
    terms = {t["canonical"] for t in pending["terms"]}
    assert {"deep brain stimulation", "local field potentials"} <= terms
    pending = await conversation.reply(await replies(pending), ignore)
    assert pending is not None and "gibberish" in pending["error"]
    assert await replies(pending) == {"accept": True, "edits": [], "text": None}
    assert len(terminal.asked) == 3
    shown = out.getvalue()
    assert "could not understand" in shown and "local field potentials" in shown
