"""The fake-sources server (`python -m evals.fake_sources`) in a child process, for benchmarks.

A benchmark measures its own process (CPU, peak RSS), so the server that stands for PubMed, Semantic
Scholar and OpenAlex runs beside it, not inside it.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx

from evals.paths import REPO


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def fake_sources_process(
    *, seed: int, latency_ms: float = 0.0, total: int | None = None, start_timeout: float = 60.0
) -> Iterator[str]:
    """Start the server, wait until it answers, yield its root URL, and stop it (SIGINT, then kill)."""
    port = free_port()
    command = [sys.executable, "-m", "evals.fake_sources", "--port", str(port), "--seed", str(seed)]
    if latency_ms:
        command += ["--latency-ms", str(latency_ms)]
    if total is not None:
        command += ["--total", str(total)]
    process = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    root = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_timeout
        while True:
            if process.poll() is not None:
                stderr = process.stderr.read().decode() if process.stderr else ""
                raise RuntimeError(f"the fake-sources server exited: {stderr[-500:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{root}/", timeout=1).status_code < 500:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the fake-sources server did not start within {start_timeout:g} s")
            time.sleep(0.1)
        yield root
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
