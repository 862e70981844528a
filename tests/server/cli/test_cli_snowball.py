"""`scholarmap run --snowball` end to end against the fake sources, and its bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.fake_sources import FakeConfig, running_fake_sources
from tests.server.cli.test_cli_run import cli_env, run_cli, saved_folder


@pytest.mark.slow
def test_run_with_snowball_says_how_it_stopped(tmp_path: Path) -> None:
    with running_fake_sources(FakeConfig(seed=5)) as fake:
        env = cli_env(tmp_path / "data", fake.base_urls)
        result = run_cli(
            tmp_path, env, "--yes", "--max-per-source", "40", "--snowball", "--depth", "1", "--budget", "30"
        )
    assert result.returncode == 0, result.stderr
    assert "snowball: snowballing from" in result.stderr and "a budget of 30 requests" in result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("Snowball: ")]
    assert len(lines) == 1
    assert "search saturated after 1 round" in lines[0] or "stopped at" in lines[0]
    folder = saved_folder(result.stdout)
    run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    assert run["snowball"]["depth"] == 1 and run["snowball"]["requests"] <= 30
    assert (folder / "results_snowball.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--snowball", "--depth", "9"],
            "snowball depth: input should be less than or equal to 5 (allowed: 1-5), got 9",
        ),
        (["--snowball", "--budget", "0"], "snowball budget"),
        (["--depth", "2"], "belong to --snowball"),
    ],
)
def test_out_of_range_options_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    env = cli_env(tmp_path / "data", {})
    result = run_cli(tmp_path, env, "--yes", *args, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0 and message in result.stderr, result.stderr
    assert not (tmp_path / "data" / "projects").exists() or not list((tmp_path / "data").rglob("run.json"))
