"""Value helpers every client shares, so each service module keeps only what is particular to it."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def unique_strings(
    values: Iterable[str | None], *, exclude: Iterable[str] = (), key: Callable[[str], str] = str.casefold
) -> list[str]:
    """The non-empty values, stripped, in first-seen order, each `key` once and none whose key is excluded."""
    seen = {key(e) for e in exclude if e}
    out: list[str] = []
    for value in values:
        text = (value or "").strip()
        if text and key(text) not in seen:
            seen.add(key(text))
            out.append(text)
    return out
