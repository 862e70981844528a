"""`scholarmap plan`: the installed script against the fake-sources server (no search is run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evals.fake_sources import RunningFakeSources
from tests.server.cli.test_cli_run import cli_env

SCRIPT = Path(sys.executable).with_name("scholarmap")


def plan(tmp_path: Path, server: RunningFakeSources, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(SCRIPT), "plan", *args],
        cwd=tmp_path,
        env=cli_env(tmp_path / "data", server.base_urls),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_json_has_the_shapes_of_a_runs_files(tmp_path: Path, sources_server: RunningFakeSources) -> None:
    done = plan(tmp_path, sources_server, "Metformin versus insulin for gestational diabetes", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"understanding", "keywords", "queries"}
    query = data["queries"]["queries"]["pubmed"]["query"]
    assert '"Diabetes, Gestational"[Mesh]' in query and '"Metformin"[Mesh]' in query
    roles = {c["label"]: (c["role"], c["required"]) for c in data["keywords"]["concepts"]}
    assert roles["gestational diabetes"] == ("condition", True)
    # the fake databases answered the counts: one per block and database, then the whole query
    assert {c["source"] for c in data["queries"]["counts"]} == {"pubmed", "openalex"}
    assert not list(tmp_path.glob("data/projects/*/runs/*"))  # nothing was searched or saved


def test_text_for_a_person_with_chinese_kept(tmp_path: Path, sources_server: RunningFakeSources) -> None:
    done = plan(tmp_path, sources_server, "我们研究癫痫患者的脑机接口")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Concepts (required ones are AND'ed" in out and "Queries:" in out
    assert "(written: 癫痫患者)" in out and '"Epilepsy"[Mesh]' in out
    pubmed = next(line for line in out.splitlines() if line.startswith("- PubMed:"))
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in pubmed)  # no Chinese [tiab] words


@pytest.mark.parametrize(
    ("description", "message"),
    [
        ("", "empty"),
        ("?!... ;;", "no words"),
        ("x " * 10_001, "20,000"),
    ],
)
def test_bad_descriptions_are_one_line(
    tmp_path: Path, sources_server: RunningFakeSources, description: str, message: str
) -> None:
    done = plan(tmp_path, sources_server, description)
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("scholarmap: error:") and message in lines[0], lines


def test_no_concept_is_a_clear_message_not_a_failed_run(
    tmp_path: Path, sources_server: RunningFakeSources
) -> None:
    done = plan(tmp_path, sources_server, "the of and with")
    assert done.returncode == 2
    assert "no searchable concept" in done.stderr
