"""The conversation where researchers already are: an MCP server, a Slack bot, a Teams bot.

Owns: `runtime` (what the adapters share), one module per adapter, and their message layouts.
May import: `server.streaming`, `server.inputs`, `graph` and `agent`.
"""
