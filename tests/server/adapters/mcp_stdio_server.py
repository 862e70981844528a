"""`python -m tests.server.adapters.mcp_stdio_server`: `scholarmap mcp` over stdio with the tests' scripted LLM.

The real command (`server.cli.adapters.mcp_command`) calls `run_mcp(get_settings())`; this one calls the
same function with the settings of a test (as JSON in SCHOLARMAP_TEST_MCP: data folder, database, fake
sources) and the ScriptedLLM of the server tests, which a child process cannot be handed otherwise.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from evals.bench_sse import conversation_llm, fast_settings
from server.adapters.mcp_server import run_mcp

if __name__ == "__main__":
    given = json.loads(os.environ["SCHOLARMAP_TEST_MCP"])
    settings = fast_settings(Path(given["data_dir"]), given["database_url"], given["base_urls"])
    run_mcp(settings, llm=conversation_llm())
