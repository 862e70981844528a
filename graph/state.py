"""The conversation's state: plain JSON-able values, so every checkpoint is readable and portable.

Pydantic models from `agent.models` are stored as their JSON dumps and revalidated by the nodes that use
them; the checkpoint then never depends on Python class paths.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Mode = Literal["search", "ask", "map"]
InterruptKind = Literal["clarification", "confirmation", "review"]


class ConversationState(TypedDict, total=False):
    project_id: str
    message: str  # the latest user message (graph input)
    mode: Mode  # what the latest message asks for; `route` decides when absent
    description: str  # the research description, with clarification answers folded in
    round: int  # clarification round of the current search
    clarified: bool | None  # the last clarification was accepted without answers: confirm, ask no more
    understanding: dict[str, Any] | None  # Understanding
    keywords: dict[str, Any] | None  # KeywordPlan
    queries: dict[str, Any] | None  # QueryPlan
    confirmed: bool | None  # the user accepted the interpretation
    reviewed: bool | None  # the user accepted the keyword plan
    review_diff: dict[str, Any] | None  # the last keyword-review diff shown to the user
    review_error: str | None  # an edit the user typed that could not be understood
    run_ids: list[str]  # every Run this thread made, oldest first
    active_run_id: str | None  # the Run that `ask` and `map` use
    question: str | None
    answer: dict[str, Any] | None  # the last answer: text + citations
    map_summary: dict[str, Any] | None
    options: dict[str, Any]  # per-conversation search knobs (sources, max_per_source), kept once sent
