"""The clarification reply: answers, or `accept` alone (go on with the interpretation as it stands)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graph.interrupts import ClarificationReply, reply_from_text


def test_a_clarification_is_answered_or_accepted_as_it_stands() -> None:
    assert ClarificationReply(answers=["adults"]).accept is False
    assert ClarificationReply(accept=True).answers == ""
    assert ClarificationReply(accept=True, answers={"task": "decode"}).answers == {"task": "decode"}
    for empty in ({}, {"answers": ""}, {"answers": ["  ", ""]}, {"answers": {"task": " "}}):
        with pytest.raises(ValidationError, match="send answers, or accept=true"):
            ClarificationReply.model_validate(empty)


def test_typed_text_stays_an_answer() -> None:
    # a person typing "yes" to a question answers it; only the structured reply skips the questions
    assert reply_from_text("clarification", "yes") == ClarificationReply(answers="yes")
