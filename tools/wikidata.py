"""Wikidata: entity search and the labels and aliases of entities, in English and Chinese.

`wbsearchentities` finds items by label or alias in one language; `wbgetentities` then fetches the
labels, descriptions and aliases of the hits in every language asked for. Aliases are what makes
Wikidata useful here: "书籍" and "books" for "book", abbreviations, older names, and the English
canonical name of a Chinese term.

The path is the policy's base URL itself (`https://www.wikidata.org/w/api.php`). Wikimedia's
User-Agent policy requires a descriptive User-Agent; the caller sets it in `SourceConfig.headers`.
Errors arrive as HTTP 200 with an `error` object and become typed errors (`check_mediawiki`);
a deleted or unknown id comes back marked `missing` and is left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tools.errors import BadResponse, EmptyQuery
from tools.http import HttpPolicy
from tools.values import unique_strings
from tools.wikipedia import check_mediawiki

SERVICE = "wikidata"
MAX_IDS = 50  # wbgetentities accepts up to 50 ids per request
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# Chinese is spread over script and regional codes; "zh" asks for all of them.
_VARIANTS: dict[str, tuple[str, ...]] = {
    "zh": ("zh", "zh-hans", "zh-cn", "zh-sg", "zh-my", "zh-hant", "zh-tw", "zh-hk", "zh-mo"),
    "en": ("en", "en-gb", "en-ca"),
}


class WikidataEntity(BaseModel):
    """One Wikidata item: its label and description in the search language, and names per language."""

    model_config = ConfigDict(extra="forbid")

    id: str  # "Q571"
    label: str = ""
    description: str = ""
    labels: dict[str, str] = Field(default_factory=dict)  # language (as asked, "zh") → label
    aliases: dict[str, list[str]] = Field(default_factory=dict)  # language (as asked) → aliases
    matched: str | None = None  # how the search matched: "label" or "alias"

    def names(self, languages: Sequence[str] = ("en", "zh")) -> list[str]:
        """Labels then aliases in `languages`, distinct (case-insensitively), in that order."""
        values = [self.labels.get(lang) for lang in languages]
        values += [alias for lang in languages for alias in self.aliases.get(lang, [])]
        return unique_strings(values)


def guess_language(term: str) -> str:
    """ "zh" when the term is written in Chinese characters, else "en"."""
    return "zh" if _CJK.search(term) else "en"


def _codes(languages: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(code for lang in languages for code in _VARIANTS.get(lang, (lang,))))


def entity_from_wikidata(
    record: dict[str, Any], languages: Sequence[str] = ("en", "zh")
) -> WikidataEntity | None:
    """Map a `wbgetentities` entity (either formatversion) into a `WikidataEntity`; None if missing."""
    if not isinstance(record, dict) or not record.get("id"):
        raise BadResponse(SERVICE, "expected an entity object with an id")
    if "missing" in record:
        return None

    def value(entry: Any) -> str | None:
        return entry.get("value") if isinstance(entry, dict) else None

    raw_labels = record.get("labels") or {}
    raw_aliases = record.get("aliases") or {}
    labels: dict[str, str] = {}
    aliases: dict[str, list[str]] = {}
    for lang in languages:
        codes = _VARIANTS.get(lang, (lang,))
        label = next((v for c in codes if (v := value(raw_labels.get(c)))), None)
        if label:
            labels[lang] = label
        # the other variants' labels are aliases too ("图书" zh vs "圖書" zh-hant)
        names = [value(raw_labels.get(c)) for c in codes] + [
            value(a) for c in codes for a in raw_aliases.get(c) or []
        ]
        found = unique_strings(names, exclude=[label] if label else [])
        if found:
            aliases[lang] = found
    descriptions = record.get("descriptions") or {}
    first = languages[0] if languages else "en"
    return WikidataEntity(
        id=record["id"],
        label=labels.get(first) or next(iter(labels.values()), ""),
        description=next(
            (v for c in _VARIANTS.get(first, (first,)) if (v := value(descriptions.get(c)))),
            "",
        ),
        labels=labels,
        aliases=aliases,
    )


class WikidataClient:
    """Typed access to the Wikidata (Wikibase) API through the shared HTTP policy."""

    service = SERVICE

    def __init__(self, http: HttpPolicy) -> None:
        self.http = http

    async def _call(self, params: dict[str, Any]) -> dict[str, Any]:
        body = await self.http.get_json("", {"format": "json", "formatversion": 2, **params})
        return check_mediawiki(SERVICE, body)

    async def search_entities(
        self,
        term: str,
        *,
        language: str | None = None,
        limit: int = 5,
        languages: Sequence[str] = ("en", "zh"),
    ) -> list[WikidataEntity]:
        """Items whose label or alias matches `term`, best first, with labels and aliases in `languages`.

        `language` is the language of `term` for the search; None guesses it ("zh" for Chinese
        characters, else "en"). The entity's `label`/`description` are in that language.
        """
        term = (term or "").strip()
        if not term:
            raise EmptyQuery(SERVICE)
        language = language or guess_language(term)
        body = await self._call(
            {
                "action": "wbsearchentities",
                "search": term,
                "language": language,
                "uselang": language,
                "type": "item",
                "limit": max(1, min(limit, 50)),
            }
        )
        hits = body.get("search")
        if not isinstance(hits, list):
            raise BadResponse(SERVICE, "the wbsearchentities answer has no search list")
        matched = {
            h["id"]: (h.get("match") or {}).get("type") for h in hits if isinstance(h, dict) and h.get("id")
        }
        order = list(matched)[:limit]
        wanted = list(dict.fromkeys([language, *languages]))
        entities = await self.get_entities(order, languages=wanted)
        by_id = {e.id: e for e in entities}
        return [by_id[i].model_copy(update={"matched": matched[i]}) for i in order if i in by_id]

    async def get_entities(
        self, ids: Sequence[str], *, languages: Sequence[str] = ("en", "zh")
    ) -> list[WikidataEntity]:
        """Entities by id (`wbgetentities`), in the order asked; missing or deleted ids are left out."""
        ids = [i.strip() for i in ids if i and i.strip()]
        out: list[WikidataEntity] = []
        for start in range(0, len(ids), MAX_IDS):
            chunk = ids[start : start + MAX_IDS]
            body = await self._call(
                {
                    "action": "wbgetentities",
                    "ids": "|".join(chunk),
                    "props": "labels|aliases|descriptions",
                    "languages": "|".join(_codes(languages)),
                    "redirects": "yes",
                }
            )
            records = body.get("entities")
            if not isinstance(records, dict):
                raise BadResponse(SERVICE, "the wbgetentities answer has no entities object")
            # a redirected id comes back under its target's id; keep the asked order where we can
            keyed = {k: v for k, v in records.items() if isinstance(v, dict)}
            for entity_id in [*chunk, *(k for k in keyed if k not in chunk)]:
                record = keyed.pop(entity_id, None)
                if record is not None and (entity := entity_from_wikidata(record, languages)):
                    out.append(entity)
        return out

    async def aliases(self, term: str, languages: Sequence[str] = ("en", "zh")) -> list[str]:
        """Other names of the best-matching item in `languages` (labels and aliases), without `term`.

        The best match is Wikidata's first search hit; callers validate the names (e.g. by hit
        counts) because a short or ambiguous term can match the wrong item.
        """
        entities = await self.search_entities(term, limit=1, languages=languages)
        if not entities:
            return []
        return unique_strings(entities[0].names(languages), exclude=[term.strip()])
