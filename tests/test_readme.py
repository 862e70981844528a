"""The README stays true: its settings table is the Settings model, and CI runs its test command."""

import subprocess
import sys

from tests.paths import REPO


def test_settings_table_matches_the_code():
    table = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "settings_table.py")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert table in (REPO / "README.md").read_text(encoding="utf-8"), (
        "README settings table is stale: run scripts/settings_table.py --write"
    )


def test_ci_runs_the_readme_test_command():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    marker = next(line for line in readme.splitlines() if line.startswith("<!-- test-command: "))
    command = marker.removeprefix("<!-- test-command: ").removesuffix(" -->")
    assert f"```bash\n{command}\n```" in readme
    ci_lines = [line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines()]
    assert command in ci_lines, ".ci/run must run the README's test command verbatim"
