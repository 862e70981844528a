"""`scholarmap mcp`, `scholarmap slack`, `scholarmap teams`: the conversation where researchers already are.

Each command starts one adapter process over the same graph, thread manager, database and project
folders as `scholarmap serve` (see `server.adapter_runtime`). This module only registers the commands;
the SDKs (mcp, slack_bolt, the Microsoft 365 Agents SDK) are imported when a command runs, so
`scholarmap --help` stays instant.
"""

from __future__ import annotations

import argparse

from agent.settings import get_settings
from server.cli import CommandError


def add_mcp_command(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="serve ScholarMap as an MCP server (stdio, or streamable HTTP with --http)",
        description="Tools plan_search, run_search, ask_run, academic_map, list_runs, export_run; each "
        "Run's files as resources scholarmap://runs/{id}/{file}. stdio by default (for Claude Desktop, "
        "Cursor and other MCP hosts); --http serves streamable HTTP on 127.0.0.1.",
    )
    parser.add_argument("--http", action="store_true", help="streamable HTTP instead of stdio")
    parser.add_argument("--host", help="address to bind with --http (default: SCHOLARMAP_HOST)")
    parser.add_argument("--port", type=int, default=8765, help="port with --http (default 8765)")
    parser.add_argument("--path", default="/mcp", help="endpoint path with --http (default /mcp)")
    parser.set_defaults(handler=mcp_command)


def mcp_command(args: argparse.Namespace) -> int:
    from server.mcp_server import run_mcp

    if not args.path.startswith("/"):
        raise CommandError(f"--path must start with '/', got {args.path!r}", 2)
    run_mcp(get_settings(), http=args.http, host=args.host, port=args.port, path=args.path)
    return 0
