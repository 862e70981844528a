"""`scholarmap chat` in a subprocess, answered through stdin like a person would: rules LLM, fake sources."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from agent.runs.store import RunStore
from evals.bench_sse import DESCRIPTION
from evals.fake_sources.server import RunningFakeSources
from tests.paths import REPO

PROMPTS = ("Describe your research: ", "> ", "or /quit: ")


class Terminal:
    """The chat process with a reader thread collecting everything it prints."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            command,
            cwd=REPO,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self.output = ""
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        while chunk := os.read(self.process.stdout.fileno(), 4096):
            with self._lock:
                self.output += chunk.decode("utf-8", errors="replace")

    def wait_for_prompt(self, since: int, timeout: float = 90.0) -> str:
        """The text printed after offset `since`, once it ends with a prompt waiting for input."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                text = self.output[since:]
            if text.endswith(PROMPTS):
                return text
            if self.process.poll() is not None:
                raise AssertionError(f"chat exited with {self.process.returncode}:\n{self.output}")
            time.sleep(0.05)
        raise AssertionError(f"no prompt within {timeout} s:\n{self.output}")

    def answer(self, line: str) -> int:
        assert self.process.stdin is not None
        with self._lock:
            mark = len(self.output)
        self.process.stdin.write(f"{line}\n".encode())
        self.process.stdin.flush()
        return mark


def test_chat_reaches_a_saved_run(pg_url: str, tmp_path: Path, sources_server: RunningFakeSources) -> None:
    env = {
        **os.environ,
        **sources_server.env,
        "SCHOLARMAP_DATA_DIR": str(tmp_path / "data"),
        "SCHOLARMAP_DATABASE_URL": pg_url,
        "SCHOLARMAP_LLM": "rules",
        "SCHOLARMAP_RATE_PUBMED": "1000",
        "SCHOLARMAP_RATE_SEMANTIC_SCHOLAR": "1000",
        "SCHOLARMAP_RATE_OPENALEX": "1000",
        "SCHOLARMAP_RATE_WIKIMEDIA": "1000",
        "PYTHONUNBUFFERED": "1",
        "COLUMNS": "200",
    }
    terminal = Terminal([sys.executable, "-m", "server.cli.main", "chat", "--max-per-source", "1"], env)
    try:
        shown = terminal.wait_for_prompt(0)
        assert "No LLM configured" in shown and "Describe your research: " in shown
        thread_id = re.search(r"Thread (th_[0-9a-f]+) in project default", shown).group(1)
        mark = terminal.answer(DESCRIPTION)
        seen: list[str] = []
        for _ in range(8):  # clarification rounds (the rules may ask), confirmation, review, the end
            shown = terminal.wait_for_prompt(mark)
            if "Before I search, a few questions:" in shown:
                seen.append("clarification")
                mark = terminal.answer("decoding speech; ECoG; adults with epilepsy")
            elif "Reply 'yes' to confirm" in shown:
                seen.append("confirmation")
                assert "rule-based fallback" in shown  # the user is told where the interpretation came from
                mark = terminal.answer("yes")
            elif "Reply 'yes' to search" in shown:
                seen.append("review")
                assert (
                    "Concepts (required ones are AND'ed" in shown
                    and "- speech decoding [method, required]" in shown
                )
                assert "[tiab]" in shown  # queries are shown as written, not read as markup
                mark = terminal.answer("yes")
            elif shown.endswith("or /quit: "):
                seen.append("end")
                break
            else:
                raise AssertionError(f"unexpected prompt:\n{shown}")
        assert seen[-3:] == ["confirmation", "review", "end"]
        assert "Searching" in shown
        assert re.search(r"pubmed\s.*\s1/1\s", shown)  # the progress bar counts up to what was asked
        summary = re.search(r"Run (\S+) \((completed|partial)\)", shown)
        assert summary, shown
        terminal.answer("/quit")
        assert terminal.process.wait(timeout=30) == 0
    finally:
        if terminal.process.poll() is None:
            terminal.process.kill()
            terminal.process.wait()

    [run] = RunStore(tmp_path / "data" / "projects").list_runs("default")
    assert run.id == summary.group(1) and run.thread_id == thread_id
    assert set(run.counts) >= {"pubmed", "semantic_scholar", "openalex", "aggregated"}
