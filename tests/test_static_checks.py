"""The code stays clean: ruff's lint rules and formatting, and mypy on the product code (pyproject.toml)."""

import subprocess
import sys

from tests.paths import REPO


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True)


def test_ruff_finds_nothing():
    result = _run("ruff", "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_code_is_formatted():
    result = _run("ruff", "format", "--check", "--no-cache", ".")
    assert result.returncode == 0, f"run `ruff format .`:\n{result.stdout}{result.stderr}"


def test_mypy_finds_nothing():
    result = _run("mypy")  # files, plugins and strictness come from [tool.mypy]
    assert result.returncode == 0, result.stdout + result.stderr
