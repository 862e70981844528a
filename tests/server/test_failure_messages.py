"""A failure inside a step never shows its internal text to clients; a named failure keeps its message.

An unexpected exception (a bug such as a NameError, a library error naming a server path) is injected into
a graph node of a real server: the thread's `error` event carries one generic sentence with a reference,
the server log has the traceback under that reference, and `retry` runs the step again. A named failure
(`agent/errors.py`) still reaches the client with its own clear message.
"""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest

from agent.errors import ScholarMapError
from agent.understanding import description
from agent.understanding.description import InvalidDescription
from evals.bench_sse import DESCRIPTION
from server.streaming.failures import INTERNAL, public_failure
from tests.server.conftest import interrupt_of, send

LEAKS = ("is_chinese", "Traceback", "/srv/", "NameError", "KeyError")


def _failing_understand(exc: Exception) -> Any:
    async def understand(*args: Any, **kwargs: Any) -> Any:
        raise exc

    return understand


def _error_event(events: list[dict[str, Any]]) -> dict[str, Any]:
    errors = [e["data"] for e in events if e["type"] == "error"]
    assert len(errors) == 1, events
    assert events[-1]["type"] == "done" and events[-1]["data"]["state"] == "failed"
    return errors[0]


@pytest.mark.parametrize(
    "exc",
    [NameError("name 'is_chinese' is not defined"), KeyError("/srv/scholarmap/data/secret-table.json")],
    ids=["name-error", "key-error-with-path"],
)
def test_an_unexpected_exception_in_a_node_gives_the_generic_message(
    server: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, exc: Exception
) -> None:
    monkeypatch.setattr(description, "understand", _failing_understand(exc))
    caplog.set_level(logging.ERROR, logger="server.streaming")
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = client.post("/threads", json={}).json()["thread_id"]
        error = _error_event(send(client, thread_id, {"text": DESCRIPTION}))
        assert error["kind"] == INTERNAL
        assert error["message"].startswith(
            "Something went wrong inside ScholarMap while working on this message"
        )
        assert "retry" in error["message"]
        assert not any(leak in error["message"] for leak in LEAKS), error
        reference = error["reference"]
        assert len(reference) == 8 and reference in error["message"]

        # The operator finds the traceback in the log under the same reference.
        logged = [r for r in caplog.records if reference in r.getMessage()]
        assert logged and logged[0].exc_info is not None and logged[0].exc_info[1] is exc
        assert thread_id in logged[0].getMessage()

        # The state is kept: once the bug is gone, `retry` runs the step again and the conversation goes on.
        monkeypatch.undo()
        events = send(client, thread_id, {"text": "retry"})
        assert not [e for e in events if e["type"] == "error"]
        pending = interrupt_of(events)
        assert pending is not None and pending["kind"] == "confirmation"


def test_a_named_failure_keeps_its_clear_message(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    said = "the description names no research topic; say what you study and in whom"
    monkeypatch.setattr(description, "understand", _failing_understand(InvalidDescription(said)))
    with httpx.Client(base_url=server, timeout=60) as client:
        thread_id = client.post("/threads", json={}).json()["thread_id"]
        error = _error_event(send(client, thread_id, {"text": DESCRIPTION}))
    assert error == {"message": said, "kind": "InvalidDescription"}


# -- the rule itself, without a server ---------------------------------------------------------------------


def test_public_failure_rule(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("test.failures")
    caplog.set_level(logging.WARNING, logger="test.failures")

    named = public_failure(InvalidDescription("  say what you study\n in whom "), log, doing="x")
    assert (named.message, named.kind, named.reference) == (
        "say what you study in whom",
        "InvalidDescription",
        None,
    )
    assert caplog.records[-1].levelno == logging.WARNING and caplog.records[-1].exc_info is None

    bug = public_failure(ZeroDivisionError("division by zero"), log, doing="ranking", next_step="Try again.")
    assert bug.kind == INTERNAL and "division" not in bug.message and bug.message.endswith("Try again.")
    assert caplog.records[-1].levelno == logging.ERROR and caplog.records[-1].exc_info is not None

    # A named failure with no text, or a group with one unnamed failure in it, is not trusted either.
    assert public_failure(ScholarMapError(), log, doing="x").kind == INTERNAL
    group = ExceptionGroup("sources", [InvalidDescription("clear"), RuntimeError("/srv/x")])
    assert public_failure(group, log, doing="x").kind == INTERNAL
    only_named = ExceptionGroup("sources", [InvalidDescription("clear"), InvalidDescription("other")])
    assert public_failure(only_named, log, doing="x").message == "clear"
    long = public_failure(InvalidDescription("word " * 300), log, doing="x")
    assert len(long.message) <= 500


def test_healthz_database_error_shows_no_connection_details(caplog: pytest.LogCaptureFixture) -> None:
    """/healthz answers without a token: libpq's text (socket paths, users) stays in the log, no password."""
    import asyncio
    from contextlib import asynccontextmanager

    import psycopg

    from agent.db import Database

    class DownPool:
        @asynccontextmanager
        async def connection(self, timeout: float | None = None) -> Any:
            raise psycopg.OperationalError(
                'connection to server on socket "/srv/pg/.s.PGSQL.5432" failed: FATAL: password '
                'authentication failed for user "scholar" (password "hunter2")'
            )
            yield  # pragma: no cover

    database = Database("postgresql://scholar:hunter2@db/sm", DownPool(), embedded=False)  # type: ignore[arg-type]
    caplog.set_level(logging.WARNING, logger="agent.db")
    health = asyncio.run(database.health())
    assert health["ok"] is False and health["error"].startswith("the database does not answer")
    assert "/srv/pg" not in health["error"] and "scholar" not in health["error"]
    assert "/srv/pg" in caplog.text and "hunter2" not in caplog.text


def test_a_failed_teams_turn_shows_no_exception_text() -> None:
    """The Agents SDK's default turn-error handler sends "Exception caught : <text>" to the user."""
    import asyncio

    from server.adapters.teams_bot import report_turn_error
    from server.streaming.threads import ThreadBusy

    class Context:
        def __init__(self) -> None:
            self.sent: list[str] = []

        async def send_activity(self, text: str) -> None:
            self.sent.append(text)

    context = Context()
    asyncio.run(report_turn_error(context, NameError("name 'is_chinese' is not defined")))  # type: ignore[arg-type]
    asyncio.run(report_turn_error(context, ThreadBusy("th_1")))  # type: ignore[arg-type]
    bug, busy = context.sent
    assert "is_chinese" not in bug and bug.startswith("Something went wrong inside ScholarMap")
    assert busy == str(ThreadBusy("th_1"))
