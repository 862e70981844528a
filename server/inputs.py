"""What a conversation accepts from a client, checked once for every adapter (REST, /v1, bots, terminal).

Everything here runs before a thread starts working, so a bad input is a 4xx with a message that says
what to fix, never a stream that fails later, a 500 from PostgreSQL (which refuses NUL bytes and lone
surrogates in text) or a stored option that breaks every later search of the thread.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.errors import InputError
from agent.models import Source

MAX_MESSAGE_CHARS = 20_000
MAX_KEY_CHARS = 200


class ResumeMismatch(InputError):
    """A message or reply that does not fit the thread now (nothing pending, a reply of the wrong shape);
    a 422. Also importable from server.streaming.threads, where it has always been."""


class InvalidInput(ResumeMismatch):
    """A client input that cannot be used at all; the message says what to fix (a 422). A ResumeMismatch,
    so an adapter that handles that one handles this one too."""


class ConversationOptions(BaseModel):
    """Per-conversation knobs a message or reply may carry; kept in the thread's state once sent."""

    model_config = ConfigDict(extra="forbid")

    sources: list[Source] | None = Field(None, min_length=1, description="databases a search uses")
    max_per_source: int | None = Field(None, ge=1, le=10_000, description="records fetched per source")
    top_k: int | None = Field(None, ge=1, le=50, description="passages an answer is built from")
    rerank: bool | None = Field(None, description="rerank passages with the cross-encoder")
    probes: bool | None = Field(None, description="ask follow-up probe questions")
    # citation snowballing after a search (agent/search/snowball.py); defaults from the settings
    snowball: bool | None = Field(None, description="follow the citations of the best papers after a search")
    snowball_depth: int | None = Field(None, ge=1, le=5, description="snowballing rounds")
    snowball_budget: int | None = Field(None, ge=1, le=5000, description="requests snowballing may send")
    snowball_seeds: list[str] | None = Field(
        None, max_length=50, description="papers to snowball from besides the best ones (DOI, pmid:N, W…)"
    )
    trace: bool | None = Field(
        None, description="add each retrieval step's output to the answer's start event"
    )
    fulltext: bool | None = Field(
        None, description="fetch full texts a question needs (named papers, Methods/Results); default on"
    )


def _bad_characters(text: str) -> bool:
    """Control characters (NUL ...) other than tab and line breaks, or lone surrogates."""
    return any(
        unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t\n\r" for ch in text if not ch.isprintable()
    )


def validate_key(value: str, what: str = "thread id") -> str:
    """The one check for identifiers clients choose or echo: thread ids and chat keys."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"the {what} must not be empty")
    if len(value) > MAX_KEY_CHARS:
        raise InvalidInput(f"the {what} is longer than {MAX_KEY_CHARS} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value if not ch.isprintable()):
        raise InvalidInput(f"the {what} contains control characters (such as NUL); send printable text")
    return value


def validate_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The options that were sent, checked; {} for none. Unknown names and bad values are refused."""
    if not options:
        return {}
    try:
        checked = ConversationOptions.model_validate(options)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'options'}: {e['msg']}" for e in exc.errors(include_url=False)
        )
        raise InvalidInput(f"invalid options ({problems})") from None
    return checked.model_dump(mode="json", exclude_none=True)


def validate_text(text: str, *, what: str = "message") -> str:
    """A message or a text reply: not empty, within the size limit, no control characters."""
    if not text.strip():
        raise InvalidInput(f"the {what} is empty; send some text")
    if len(text) > MAX_MESSAGE_CHARS:
        raise InvalidInput(f"the {what} is longer than {MAX_MESSAGE_CHARS} characters; shorten it")
    if _bad_characters(text):
        raise InvalidInput(f"the {what} contains control characters (such as NUL); send plain text")
    return text


def validate_new_message(text: str) -> str:
    """A message that starts something (a search, a question): it needs at least one word to work with."""
    validate_text(text)
    if not any(ch.isalnum() for ch in text):
        raise InvalidInput(
            "the message has no words to work with (only symbols or emoji); describe your research "
            "or ask your question in words"
        )
    return text


def validate_reply(resume: dict[str, Any]) -> dict[str, Any]:
    """A structured reply: under the same size limit as a message, no control characters in it."""
    encoded = json.dumps(resume, ensure_ascii=False)
    if len(encoded) > MAX_MESSAGE_CHARS:
        raise InvalidInput(f"the reply is longer than {MAX_MESSAGE_CHARS} characters; shorten it")
    if any(_bad_characters(text) for text in _strings(resume)):
        raise InvalidInput("the reply contains control characters (such as NUL); send plain text")
    return resume


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (*_strings(key), *_strings(item))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []
