"""A local stand-in for every outside service ScholarMap calls (issue #3, item 8).

It replays the recorded real responses in the shared fixtures where a request matches one and
otherwise generates deterministic responses in the real shapes; faults are injected on request.

    from evals.fake_sources import FakeConfig, running_fake_sources
    with running_fake_sources(FakeConfig(latency_ms=100)) as fake:
        settings = load_settings(**fake.settings_overrides())
        ...
        fake.app.request_times("pubmed"); fake.app.truth_for("deep learning ecg")

Command line: `python -m evals.fake_sources --port 8765 [--seed S] [--latency-ms N] [--fault svc=spec]
[--total N] [--print-env]`.
"""

from evals.fake_sources.app import FakeSources
from evals.fake_sources.config import SOURCE_PREFIXES, FakeConfig, Fault, FaultSpecError, parse_faults
from evals.fake_sources.faults import RequestRecord
from evals.fake_sources.server import RunningFakeSources, base_urls, env_lines, running_fake_sources
from evals.fake_sources.universe import SEARCH_SERVICES, SHARED_FRACTION, Truth, Universe, query_key

__all__ = [
    "SEARCH_SERVICES",
    "SHARED_FRACTION",
    "SOURCE_PREFIXES",
    "FakeConfig",
    "FakeSources",
    "Fault",
    "FaultSpecError",
    "RequestRecord",
    "RunningFakeSources",
    "Truth",
    "Universe",
    "base_urls",
    "env_lines",
    "parse_faults",
    "query_key",
    "running_fake_sources",
]
