"""The typed stream events every client adapter is built from (ARCHITECTURE.md, "Stream events").

Each event has an `id` (monotonic per thread, so a client resumes with `Last-Event-ID`), a `type`, its
`data` and a timestamp `ts`. `data` is validated per type, so adapters can rely on its fields.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

EventType = Literal[
    "node",
    "text",
    "interrupt",
    "search_progress",
    "run_ready",
    "citation",
    "map_ready",
    "info",
    "error",
    "done",
]


class EventData(BaseModel):
    model_config = ConfigDict(extra="allow")  # sources add detail (pages, totals) without a schema change


class NodeData(EventData):
    node: str
    status: str  # started | finished; the ask node also: fetching_fulltext, indexing, indexed (with counts)


class TextData(EventData):
    delta: str


class InterruptData(EventData):
    kind: Literal["clarification", "confirmation", "review"]
    expects: str = ""  # the reply fields this interrupt accepts
    pause_id: str | None = None  # names this pause; a reply may name it back (a stale one gets 409)


class SearchProgressData(EventData):
    source: str
    stage: str


class RunReadyData(EventData):
    run_id: str
    status: str
    counts: dict[str, int] = Field(default_factory=dict)


class CitationData(EventData):
    n: int
    paper_key: str


class ErrorData(EventData):
    message: str
    kind: str = "internal"


class DoneData(EventData):
    # interrupted: the process running the step stopped (a crash); `retry` runs the step again
    state: Literal["waiting", "finished", "cancelled", "failed", "interrupted"]
    pending: str | None = None  # the interrupt kind the thread waits on, if any


DATA_MODELS: dict[str, type[EventData]] = {
    "node": NodeData,
    "text": TextData,
    "interrupt": InterruptData,
    "search_progress": SearchProgressData,
    "run_ready": RunReadyData,
    "citation": CitationData,
    "error": ErrorData,
    "done": DoneData,
}


class Event(BaseModel):
    id: int
    type: EventType
    data: dict[str, Any]
    ts: datetime = Field(default_factory=lambda: datetime.now(UTC))

    @classmethod
    def make(cls, event_id: int, type: str, data: dict[str, Any]) -> Event:
        """Build an event, validating its data against the model for its type."""
        model = DATA_MODELS.get(type, EventData)
        return cls(id=event_id, type=type, data=model.model_validate(data).model_dump(mode="json"))
