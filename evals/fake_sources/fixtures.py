"""pytest fixtures for the fake-sources server (listed in tests/conftest.py as a plugin).

`fake_sources_server` runs one server for the whole session (starting it costs ~50 ms, but every
test module that needs one shares it); `fake_sources` hands it to a test with a clean slate:
no recorded requests, fault counters, replay positions or E-utilities history from earlier tests.
Tests that need other start options (latency, forced faults) use `running_fake_sources(config)`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from evals.fake_sources import mesh
from evals.fake_sources.server import RunningFakeSources, running_fake_sources


@pytest.fixture(scope="session")
def fake_sources_server() -> Iterator[RunningFakeSources]:
    # Read the MeSH table (half a second) while the first tests run, not inside the first MeSH request.
    threading.Thread(target=mesh.table, name="fake-mesh-preload", daemon=True).start()
    with running_fake_sources() as running:
        yield running


@pytest.fixture
def fake_sources(fake_sources_server: RunningFakeSources) -> RunningFakeSources:
    fake_sources_server.app.reset()
    return fake_sources_server
