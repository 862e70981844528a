"""The HTTP routes, one module per router; `server.app` includes each of them by name.

May import: `server` root modules (deps, inputs), `server.streaming`, `graph` and `agent`.
"""
