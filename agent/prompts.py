"""Prompt templates: text files in `prompts/`, loaded by name, with `{{placeholder}}` fields.

A file holds a system part and a user part separated by a line `=== user ===`. Double braces keep
placeholders apart from the JSON examples prompts are full of. A template is checked when it is loaded:
the caller names the placeholders it will fill, and any difference is an error then, not a silently
half-filled prompt at run time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from agent.errors import ScholarMapError

PLACEHOLDER = re.compile(r"\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}")
USER_SEPARATOR = re.compile(r"^=== user ===\s*$", re.MULTILINE)


class PromptError(ScholarMapError):
    """A prompt file is missing or does not match the way it is called."""


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    system: str
    user: str

    @property
    def placeholders(self) -> frozenset[str]:
        return frozenset(PLACEHOLDER.findall(self.system) + PLACEHOLDER.findall(self.user))

    def render(self, **values: object) -> tuple[str, str]:
        """(system, user) with every placeholder filled; missing or extra values are errors."""
        given = set(values)
        if given != self.placeholders:
            raise PromptError(_mismatch(self.name, self.placeholders, given))

        def fill(text: str) -> str:
            return PLACEHOLDER.sub(lambda match: str(values[match.group(1)]), text)

        return fill(self.system), fill(self.user)


def _mismatch(name: str, expected: frozenset[str], given: set[str]) -> str:
    parts = []
    if missing := sorted(expected - given):
        parts.append(f"missing values for {', '.join(missing)}")
    if extra := sorted(given - expected):
        parts.append(f"no placeholder for {', '.join(extra)}")
    return f"prompt '{name}': " + "; ".join(parts)


def _prompt_text(name: str, directory: Path | None) -> str:
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise PromptError(f"invalid prompt name {name!r}")
    try:
        if directory is not None:
            return (directory / f"{name}.txt").read_text(encoding="utf-8")
        return resources.files("prompts").joinpath(f"{name}.txt").read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise PromptError(f"no prompt named '{name}' (expected prompts/{name}.txt)") from exc


def parse_prompt(name: str, text: str) -> PromptTemplate:
    parts = USER_SEPARATOR.split(text, maxsplit=1)
    if len(parts) != 2:
        raise PromptError(f"prompt '{name}' has no '=== user ===' line separating system and user parts")
    return PromptTemplate(name=name, system=parts[0].strip(), user=parts[1].strip())


@cache
def _load_cached(name: str, directory: Path | None) -> PromptTemplate:
    return parse_prompt(name, _prompt_text(name, directory))


def load_prompt(
    name: str, placeholders: set[str] | frozenset[str], *, directory: Path | None = None
) -> PromptTemplate:
    """Load prompts/<name>.txt and check that its placeholders are exactly the ones the caller fills."""
    template = _load_cached(name, directory)
    if template.placeholders != frozenset(placeholders):
        raise PromptError(_mismatch(name, template.placeholders, set(placeholders)))
    return template
