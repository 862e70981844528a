"""The `scholarmap` command: `main` parses the command line, one module per subcommand.

May import: `server.streaming` (the same conversation machinery as the API), `graph` and `agent`.
"""
