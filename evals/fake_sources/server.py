"""Run the fake-sources app with uvicorn on 127.0.0.1: in a background thread (tests) or in the
foreground (`python -m evals.fake_sources`)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn

from evals.fake_sources.app import FakeSources
from evals.fake_sources.config import SOURCE_PREFIXES, FakeConfig


def base_urls(root: str) -> dict[str, str]:
    """Each service's base URL on a server at `root` ("http://127.0.0.1:PORT")."""
    return {service: f"{root.rstrip('/')}/{prefix}" for service, prefix in SOURCE_PREFIXES.items()}


def env_lines(root: str) -> list[str]:
    return [f"SCHOLARMAP_{service.upper()}_BASE_URL={url}" for service, url in base_urls(root).items()]


@dataclass
class RunningFakeSources:
    url: str  # "http://127.0.0.1:PORT"
    port: int
    app: FakeSources

    @property
    def env(self) -> dict[str, str]:
        """`SCHOLARMAP_<SOURCE>_BASE_URL` for every source."""
        return dict(line.split("=", 1) for line in env_lines(self.url))

    @property
    def base_urls(self) -> dict[str, str]:
        return base_urls(self.url)

    def settings_overrides(self) -> dict[str, str]:
        """Keyword arguments for `load_settings(**...)` pointing every client at this server."""
        return {f"{service}_base_url": url for service, url in self.base_urls.items()}


def _uvicorn(app: FakeSources) -> uvicorn.Server:
    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="off",
        access_log=False,
        # hanging requests must not hold a shutdown for long
        timeout_graceful_shutdown=1,
        timeout_keep_alive=30,
    )
    return uvicorn.Server(config)


@contextmanager
def running_fake_sources(config: FakeConfig | None = None, *, port: int = 0) -> Iterator[RunningFakeSources]:
    """Serve a FakeSources app on 127.0.0.1 (a free port unless given) in a background thread."""
    app = FakeSources(config)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    bound_port = sock.getsockname()[1]
    server = _uvicorn(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="fake-sources", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError("the fake-sources server did not start")
        time.sleep(0.01)
    try:
        yield RunningFakeSources(url=f"http://127.0.0.1:{bound_port}", port=bound_port, app=app)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def serve_forever(config: FakeConfig, port: int) -> None:
    """Serve in the foreground until interrupted (the command line)."""
    server = uvicorn.Server(
        uvicorn.Config(FakeSources(config), host="127.0.0.1", port=port, log_level="info", lifespan="off")
    )
    server.run()
