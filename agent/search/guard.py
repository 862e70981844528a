"""Refuse a search with nothing to search for, before any source is asked or any Run is saved.

A description with no concept the understanding can read ("please help me", "12345") gave an empty
keyword plan; the Run then asked every source for nothing, saved a failed Run and said "every source
failed", which points at the sources instead of at the description. Every entry point checks here.
"""

from __future__ import annotations

from agent.errors import InputError
from agent.models import KeywordPlan, QueryPlan


class NothingToSearch(InputError):
    """The description yields no search term; the message says what to change."""


def ensure_something_to_search(plan: KeywordPlan, queries: QueryPlan) -> None:
    if plan.terms and any(query.query.strip() for query in queries.queries.values()):
        return
    raise NothingToSearch(
        "no research concept could be read from the description, so there is nothing to search for; "
        "describe the topic in subject words (for example: what is studied, in whom, with which method)"
    )
