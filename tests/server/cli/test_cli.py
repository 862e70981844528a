import json
import os
import subprocess
import sys

import pytest

from agent.models import Run
from agent.runs.store import RunStore, new_run_id
from server.cli.main import main
from tests.paths import REPO


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHOLARMAP_DATA_DIR", str(tmp_path))
    from agent.settings import get_settings

    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


def test_help_lists_the_commands():
    result = subprocess.run(
        [sys.executable, "-m", "server.cli.main", "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert result.returncode == 0
    for command in ("projects", "runs", "show", "serve"):
        assert command in result.stdout


def test_projects_runs_show(data_dir, capsys):
    assert main(["projects"]) == 0
    assert "no projects yet" in capsys.readouterr().out
    assert main(["projects", "--create", "Speech BCI"]) == 0
    store = RunStore(data_dir / "projects")
    run = Run(id=new_run_id(), project_id="speech-bci", description="ECoG speech", counts={"aggregated": 3})
    store.save_run(run)
    capsys.readouterr()
    assert main(["runs", "speech-bci"]) == 0
    assert run.id in capsys.readouterr().out
    assert main(["show", run.id]) == 0
    assert "3 papers" in capsys.readouterr().out
    assert main(["show", run.id, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == run.id
    assert main(["choose", run.id]) == 0
    assert store.get_project("speech-bci").chosen_run_id == run.id


def test_errors_are_one_line_and_non_zero(data_dir, capsys):
    assert main(["runs", "missing"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == "scholarmap: error: project 'missing' does not exist"
    assert main(["show", "not-a-run"]) == 1
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_invalid_configuration_exits_2(tmp_path):
    env = {**os.environ, "SCHOLARMAP_DATA_DIR": str(tmp_path), "SCHOLARMAP_PORT": "0"}
    result = subprocess.run(
        [sys.executable, "-m", "server.cli.main", "projects"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "SCHOLARMAP_PORT" in result.stderr


def test_a_bug_is_one_line_with_a_reference_and_the_traceback_goes_to_the_log(data_dir, capsys, monkeypatch):
    def broken(args):
        raise RuntimeError("internal detail: /srv/scholarmap/secret.py line 12")

    monkeypatch.setattr("server.cli.main.cmd_projects", broken)
    assert main(["projects"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "reference" in err
    assert "internal detail" not in err and "Traceback" not in err
    log_text = (data_dir / "logs" / "cli.log").read_text()
    assert "internal detail: /srv/scholarmap/secret.py" in log_text and "Traceback" in log_text
