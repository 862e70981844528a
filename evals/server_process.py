"""Real server processes, for `evals.bench_sse --workers` and the tests of several workers on one
database and of crash recovery.

Each process is `uvicorn evals.bench_sse:bench_app --factory` (the app with the scripted LLM) with its
settings passed in the environment, on its own port on 127.0.0.1, with `--workers N` worker processes
sharing that port. A test can SIGKILL one mid-step.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx

from agent.settings import Settings
from evals.bench_sse import settings_env
from evals.fake_process import free_port
from evals.paths import REPO


@dataclass
class ServerProcess:
    url: str
    process: subprocess.Popen[bytes]
    log_path: str

    def log(self) -> str:
        with open(self.log_path, encoding="utf-8", errors="replace") as handle:
            return handle.read()[-4000:]

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash or an OOM kill."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)


def launch(settings: Settings, *, workers: int = 1) -> ServerProcess:
    """Start a server process (not waiting for it: see `wait_ready`, so several start at once)."""
    port = free_port()
    log_fd, log_path = tempfile.mkstemp(prefix="scholarmap-server-", suffix=".log")
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "evals.bench_sse:bench_app",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--timeout-keep-alive",
        "300",
        *(["--workers", str(workers)] if workers > 1 else []),
    ]
    env = {**os.environ, **settings_env(settings)}
    try:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log_fd, stderr=subprocess.STDOUT)
    finally:
        os.close(log_fd)
    return ServerProcess(f"http://127.0.0.1:{port}", process, log_path)


def wait_ready(server: ServerProcess, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"the server process exited: {server.log()}")
        try:
            if httpx.get(f"{server.url}/healthz", timeout=5).json().get("ok"):
                return
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server process did not start: {server.log()}")


def stop(server: ServerProcess) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=10)
    os.unlink(server.log_path)


@contextmanager
def server_processes(*settings: Settings, workers: int = 1) -> Iterator[list[ServerProcess]]:
    """One server process per settings (each with `workers` worker processes), started together;
    stopped at the end of the block."""
    servers = [launch(s, workers=workers) for s in settings]
    try:
        for server in servers:
            wait_ready(server)
        yield servers
    finally:
        for server in servers:
            stop(server)
