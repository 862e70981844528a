"""What a client is told about a failure: a named failure's own message, or a generic one with a reference.

ScholarMap's own exceptions (`agent/errors.py`, all under `ScholarMapError`) carry messages written for the
person using it: what to fix, which service failed, which setting is wrong, never a secret or a server path.
Anything else that escapes a step is a bug or a library's failure: its text ("name 'is_chinese' is not
defined", a dictionary key, a library message naming a file or a SQL statement) means nothing to that person
and shows the server's insides. Such a failure reaches clients (thread events, and through them `/v1`, the
chat bots and MCP) as one generic sentence with a short reference; the server log has the traceback under
the same reference, so an operator can find it from a user's screenshot.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from agent.errors import ScholarMapError

MAX_MESSAGE_CHARS = 500
INTERNAL = "internal"


@dataclass(frozen=True)
class PublicFailure:
    """A failure as clients see it."""

    message: str
    kind: str  # the named failure's class (e.g. NothingToSearch, StepTimeout), or "internal"
    reference: str | None = None  # set for an internal failure: the id of its traceback in the log


def _named(exc: BaseException) -> ScholarMapError | None:
    """The named failure `exc` is, or the first one of a group made only of named failures."""
    if isinstance(exc, ScholarMapError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        leaves = [_named(inner) for inner in exc.exceptions]
        if leaves and all(leaf is not None for leaf in leaves):
            return leaves[0]
    return None


def public_failure(
    exc: BaseException,
    log: logging.Logger,
    *,
    doing: str,
    next_step: str = "",
    where: str = "",
    details: str = "the server's log",
) -> PublicFailure:
    """Log `exc` and say what a client may see of it.

    `doing` completes "Something went wrong inside ScholarMap while ..."; `next_step` is a sentence on what the
    user can do now (e.g. how to retry); `where` (a thread id, a command) is for the log only; `details`
    names where the traceback is (a command's log is its terminal). A named
    failure is logged as a warning without a traceback (it is expected: a source down, an input that cannot
    be searched); anything else with its traceback.
    """
    place = f"{where}: " if where else ""
    named = _named(exc)
    text = " ".join(str(named).split())[:MAX_MESSAGE_CHARS] if named is not None else ""
    if named is not None and text:
        log.warning("%s%s failed: %s: %s", place, doing, type(named).__name__, text)
        return PublicFailure(text, type(named).__name__)
    reference = secrets.token_hex(4)
    log.error("%s%s failed (reference %s)", place, doing, reference, exc_info=exc)
    message = (
        f"Something went wrong inside ScholarMap while {doing} (reference {reference}); the details are in "
        f"{details}."
    )
    return PublicFailure(f"{message} {next_step}".strip(), INTERNAL, reference)
