"""The overall deadline of a conversation step's outside calls (SCHOLARMAP_STEP_TIME_LIMIT).

Each outside request has its own timeout and retries, but the keyword step makes dozens of them (MeSH,
hit counts per synonym and per query block): a service that hangs on each one added minutes before the
search could start. Past the deadline the step runs again without outside services (morphology, the
user's words, the model's unchecked candidates), which needs no network, and the plan says so.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from agent.errors import ScholarMapError
from agent.models import ErrorKind, KeywordPlan, QueryPlan, SourceError

log = logging.getLogger(__name__)


class StepTimeout(ScholarMapError):
    """A step could not finish within its deadline even without outside services."""


async def keywords_within(
    step: Callable[[Any], Awaitable[tuple[KeywordPlan, QueryPlan]]], sources: Any, seconds: float
) -> tuple[KeywordPlan, QueryPlan]:
    """`step(sources)` within `seconds`; past them, `step(None)` within `seconds` again, its plan
    carrying a timeout error that names the setting."""
    try:
        return await asyncio.wait_for(step(sources), seconds)
    except TimeoutError:
        log.warning("the keyword step passed its %g s deadline; running it without outside services", seconds)
    try:
        plan, queries = await asyncio.wait_for(step(None), seconds)
    except TimeoutError:
        raise StepTimeout(
            f"the keyword step did not finish within {seconds:g} s (SCHOLARMAP_STEP_TIME_LIMIT), even "
            "without outside services; try again, or raise the limit"
        ) from None
    message = (
        f"the outside services did not finish within {seconds:g} s (SCHOLARMAP_STEP_TIME_LIMIT): "
        "synonyms and queries are not checked against the databases"
    )
    error = SourceError(source="keywords", kind=ErrorKind.TIMEOUT, message=message)
    plan = plan.model_copy(
        update={"source_errors": [*plan.source_errors, error], "notes": [*plan.notes, message]}
    )
    return plan, queries
