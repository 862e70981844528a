"""Shared fixtures. Larger fixture sets live in their own modules, listed here as plugins."""

import os
import tempfile

pytest_plugins = ["tests.fixtures_db", "evals.fake_sources.fixtures"]

# ONNX exports of embedding models go to a folder of this test session (inherited by child processes),
# so a test never depends on what an earlier session or the developer's own runs left in ~/.cache.
os.environ.setdefault("SCHOLARMAP_MODEL_CACHE_DIR", tempfile.mkdtemp(prefix="scholarmap-models-"))
