"""Conversations as event streams: threads running the graph, replayable typed events, workers sharing them.

Owns: `threads` (the graph in the background, every event stored), `events` (the event types), `workers`
(several processes on one PostgreSQL) and `render` (events as plain text for chat clients and the terminal).
May import: `server.inputs`, `graph` and `agent`.
"""
