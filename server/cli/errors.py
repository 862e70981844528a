"""How a command fails: one line on stderr and an exit code, never a traceback or internal text."""

from __future__ import annotations

import sys
from typing import TextIO

from agent.errors import InputError


class CommandError(InputError):
    """A user-facing failure: printed as one line, exit code `code`."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def fail(message: str, code: int = 1, err: TextIO | None = None) -> int:
    """One line on stderr (or `err`), and the exit code to return: every command's way to fail."""
    print(f"scholarmap: error: {message}", file=err or sys.stderr)
    return code
