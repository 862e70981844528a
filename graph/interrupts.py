"""The three pauses of a conversation: what each interrupt shows, and the reply each one accepts.

Clients resume a paused thread with one of the reply models below; the server validates a resume payload
against the model of the pending interrupt, so a reply that does not fit is refused (422) before the graph
sees it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graph.state import InterruptKind

ACCEPT_WORDS = frozenset(
    {"yes", "y", "ok", "okay", "confirm", "confirmed", "accept", "go", "确认", "好", "好的", "是", "对"}
)


class Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClarificationReply(Reply):
    """Answers to the clarifying questions: a list in question order, a mapping slot -> answer, or free
    text; or `accept` alone: no answers, go on to the confirmation with the interpretation as it stands
    (`scholarmap run --yes`, or a person who leaves every question empty)."""

    answers: list[str] | dict[str, str] | str = ""
    accept: bool = False

    @model_validator(mode="after")
    def _not_empty(self) -> ClarificationReply:
        values = self.answers.values() if isinstance(self.answers, dict) else self.answers
        text = values if isinstance(values, str) else " ".join(values)
        if not text.strip() and not self.accept:
            raise ValueError("send answers, or accept=true to go on without answering")
        return self


class ConfirmationReply(Reply):
    """Accept the interpretation, or reject it with a correction that is folded into the description."""

    accept: bool
    feedback: str | None = Field(None, max_length=5000)


class ReviewReply(Reply):
    """Accept the keyword plan, or change it: structured edits and/or plain-text edits."""

    accept: bool = False
    edits: list[dict[str, Any]] = Field(default_factory=list)
    text: str | None = Field(None, max_length=5000)

    @model_validator(mode="after")
    def _something(self) -> ReviewReply:
        if not self.accept and not self.edits and not (self.text or "").strip():
            raise ValueError("send accept=true, or edits, or text describing the edits")
        return self


REPLY_MODELS: dict[InterruptKind, type[Reply]] = {
    "clarification": ClarificationReply,
    "confirmation": ConfirmationReply,
    "review": ReviewReply,
}


def expected_fields(kind: InterruptKind) -> str:
    model = REPLY_MODELS[kind]
    return ", ".join(
        f"{name}{'' if field.is_required() else ' (optional)'}" for name, field in model.model_fields.items()
    )


def reply_from_text(kind: InterruptKind, text: str) -> Reply:
    """A plain chat message as a reply (OpenAI-compatible clients, bots, the terminal)."""
    accepted = text.strip().strip(".!。！").lower() in ACCEPT_WORDS
    if kind == "clarification":
        return ClarificationReply(answers=text)
    if kind == "confirmation":
        return ConfirmationReply(accept=accepted, feedback=None if accepted else text)
    return ReviewReply(accept=True) if accepted else ReviewReply(text=text)
