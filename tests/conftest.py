"""Shared fixtures. Larger fixture sets live in their own modules, listed here as plugins."""

pytest_plugins = ["tests.fixtures_db", "tests.fake_sources.fixtures"]
