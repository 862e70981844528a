"""`scholarmap mcp`, `scholarmap slack`, `scholarmap teams`: the conversation where researchers already are.

Each command starts one adapter process over the same graph, thread manager, database and project
folders as `scholarmap serve` (see `server.adapters.runtime`). This module only registers the commands;
the SDKs (mcp, slack_bolt, the Microsoft 365 Agents SDK) are imported when a command runs, so
`scholarmap --help` stays instant.
"""

from __future__ import annotations

import argparse

from agent.settings import get_settings
from server.cli.errors import fail


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
    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from server.adapters.mcp_server import run_mcp

    if not args.path.startswith("/"):
        return fail(f"--path must start with '/', got {args.path!r}", 2)
    run_mcp(get_settings(), http=args.http, host=args.host, port=args.port, path=args.path)
    return 0


def add_slack_command(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "slack",
        help="run the Slack bot (Socket Mode, or HTTP events with --http)",
        description="Mention the bot or send it a direct message to start a conversation in a thread. "
        "Needs SCHOLARMAP_SLACK_BOT_TOKEN, and SCHOLARMAP_SLACK_APP_TOKEN (Socket Mode) or "
        "SCHOLARMAP_SLACK_SIGNING_SECRET (--http: POST /slack/events).",
    )
    parser.add_argument("--http", action="store_true", help="serve the Events API instead of Socket Mode")
    parser.add_argument("--host", help="address to bind with --http (default: SCHOLARMAP_HOST)")
    parser.add_argument("--port", type=int, default=3000, help="port with --http (default 3000)")
    parser.set_defaults(handler=slack_command)


def slack_command(args: argparse.Namespace) -> int:
    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from server.adapters.slack_bot import check_settings, run_slack

    settings = get_settings()
    try:
        check_settings(settings, http=args.http)
    except ValueError as exc:
        return fail(str(exc), 2)
    run_slack(settings, http=args.http, host=args.host, port=args.port)
    return 0


def add_teams_command(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "teams",
        help="run the Microsoft Teams bot (Bot Framework messaging endpoint POST /api/messages)",
        description="The conversation in Teams on the Microsoft 365 Agents SDK: streamed in 1:1 chats, "
        "plain messages in group chats and channels, Adaptive Cards for questions and review. Needs "
        "SCHOLARMAP_TEAMS_APP_ID and SCHOLARMAP_TEAMS_APP_PASSWORD (and SCHOLARMAP_TEAMS_TENANT_ID for "
        "a single-tenant bot).",
    )
    parser.add_argument("--host", help="address to bind (default: SCHOLARMAP_HOST)")
    parser.add_argument("--port", type=int, default=3978, help="port (default 3978)")
    parser.set_defaults(handler=teams_command)


def teams_command(args: argparse.Namespace) -> int:
    # imported when the subcommand runs, so `scholarmap --help` and the other commands start fast
    from server.adapters.teams_bot import check_settings, run_teams

    settings = get_settings()
    try:
        check_settings(settings)
    except ValueError as exc:
        return fail(str(exc), 2)
    run_teams(settings, host=args.host, port=args.port)
    return 0
