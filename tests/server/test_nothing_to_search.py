"""A description with no concept to search for is a clear one-line error, and no failed Run is saved
(it saved a Run whose every source "failed", exit 2, which blamed the sources)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.keywords.plan import plan_search
from agent.llm import RulesLLM
from agent.runs.store import RunStore
from agent.search.guard import NothingToSearch, ensure_something_to_search
from tests.server.cli.test_cli_run import closed_port, parse

VAGUE = "please help me"


async def test_a_description_without_concepts_has_nothing_to_search() -> None:
    plan = await plan_search(VAGUE, RulesLLM(), None)
    with pytest.raises(NothingToSearch, match="no research concept"):
        ensure_something_to_search(plan.keywords, plan.queries)
    searchable = await plan_search("deep brain stimulation in Parkinson's disease", RulesLLM(), None)
    ensure_something_to_search(searchable.keywords, searchable.queries)


def test_run_refuses_it_in_one_line_and_saves_no_run(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    from server.cli.run import run_command

    unreachable = f"http://127.0.0.1:{closed_port()}"
    monkeypatch.setenv("SCHOLARMAP_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SCHOLARMAP_LLM", "rules")
    monkeypatch.setenv("SCHOLARMAP_HTTP_RETRIES", "0")
    for service in ("pubmed", "mesh", "openalex", "semantic_scholar", "wikidata", "wikipedia", "europepmc"):
        monkeypatch.setenv(f"SCHOLARMAP_{service.upper()}_BASE_URL", f"{unreachable}/{service}")
    monkeypatch.chdir(tmp_path)
    assert run_command(parse(VAGUE, "--yes", "--project", "p")) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("scholarmap: error: no research concept"), err
    assert RunStore(tmp_path / "projects").list_runs("p") == []
