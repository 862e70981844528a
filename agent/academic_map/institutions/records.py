"""Registry records: name keys, and reading a registry file (ROR's compact table or its v2 dump)."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from tools.geocode import fold

# ----------------------------------------------------------------------------------------------
# Name keys
# ----------------------------------------------------------------------------------------------

# fmt: off
_ABBREVIATIONS = {
    "univ": "university", "universitaet": "universitat", "uni": "university", "inst": "institute",
    "natl": "national", "nat": "national", "hosp": "hospital", "ctr": "center", "centre": "center",
    "cent": "center", "coll": "college", "sch": "school", "acad": "academy", "res": "research",
    "lab": "laboratory", "labs": "laboratories", "technol": "technology", "tech": "technology",
    "med": "medical", "sci": "science", "dept": "department", "st": "saint", "ste": "sainte", "mt": "mount",
    "intl": "international", "assoc": "association", "fac": "faculty", "and": "and",
}
# fmt: on
_DROP = frozenset(
    {"the", "of", "and", "for", "de", "la", "le", "di", "del", "des", "du", "der", "und", "y", "e"}
)


def name_key(text: str) -> str:
    """Matching key of an institution name: folded, abbreviations expanded, '&' and 'and' alike,
    footnote numbers and bracketed parts dropped ('The Univ. of Tokyo (UT) 2' -> 'university tokyo')."""
    text = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", text.replace("&", " and "))
    words = fold(text).split()
    out = []
    for word in words:
        word = _ABBREVIATIONS.get(word, word)
        if word in _DROP or word.isdigit():
            continue
        out.append(word)
    return " ".join(out)


# ----------------------------------------------------------------------------------------------
# Records
# ----------------------------------------------------------------------------------------------


class RegistryRecord(BaseModel):
    """One institution of a registry, in the columns of the compact ROR table."""

    id: str  # bare ROR id ("03cve4549") or "builtin:<slug>"
    name: str
    aliases: list[str] = Field(default_factory=list)
    acronyms: list[str] = Field(default_factory=list)
    labels: list[str] = Field(default_factory=list)  # names in other languages
    city: str | None = None
    admin1: str | None = None
    country_code: str | None = None
    country_name: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    types: list[str] = Field(default_factory=list)
    status: str = "active"
    parents: list[str] = Field(default_factory=list)

    @property
    def ror(self) -> str | None:
        return None if self.id.startswith("builtin:") else self.id

    def names(self) -> list[str]:
        return [self.name, *self.aliases, *self.labels]


def strip_ror(value: str | None) -> str | None:
    if not value:
        return None
    match = re.search(r"(0[a-z0-9]{6}\d{2})\s*$", value.strip())
    return match.group(1) if match else None


def record_from_compact(row: dict[str, Any]) -> RegistryRecord:
    """A row of the compact table (`ror_records_compact.jsonl.gz`)."""
    return RegistryRecord(
        id=strip_ror(row["ror_id"]) or row["ror_id"],
        name=row["name"],
        aliases=list(row.get("aliases") or []),
        acronyms=list(row.get("acronyms") or []),
        labels=[
            label["value"] if isinstance(label, dict) else str(label) for label in row.get("labels") or []
        ],
        city=row.get("city"),
        admin1=row.get("admin1"),
        country_code=row.get("country_code"),
        country_name=row.get("country_name"),
        latitude=row.get("lat"),
        longitude=row.get("lng"),
        types=[t.lower() for t in row.get("types") or []],
        status=row.get("status") or "active",
        parents=[strip_ror(p) or p for p in row.get("parents") or []],
    )


def record_from_v2(row: dict[str, Any]) -> RegistryRecord:
    """A record of ROR's own v2 schema (the Zenodo data dump)."""
    names = row.get("names") or []
    display = next((n["value"] for n in names if "ror_display" in n.get("types", [])), None)
    location = (row.get("locations") or [{}])[0].get("geonames_details") or {}
    return RegistryRecord(
        id=strip_ror(row["id"]) or row["id"],
        name=display or (names[0]["value"] if names else row["id"]),
        aliases=[n["value"] for n in names if "alias" in n.get("types", [])],
        acronyms=[n["value"] for n in names if "acronym" in n.get("types", [])],
        labels=[n["value"] for n in names if "label" in n.get("types", []) and n["value"] != display],
        city=location.get("name"),
        admin1=location.get("country_subdivision_name"),
        country_code=location.get("country_code"),
        country_name=location.get("country_name"),
        latitude=location.get("lat"),
        longitude=location.get("lng"),
        types=[t.lower() for t in row.get("types") or []],
        status=row.get("status") or "active",
        parents=[
            strip_ror(r["id"]) or r["id"] for r in row.get("relationships") or [] if r.get("type") == "parent"
        ],
    )


def _iter_registry_file(path: Path) -> Iterator[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        head = handle.read(1)
        while head and head.isspace():
            head = handle.read(1)
        rest = handle.read()
    text = head + rest
    if head == "[":
        yield from json.loads(text)
        return
    for line in text.splitlines():
        if line.strip():
            yield json.loads(line)


def load_records(path: Path) -> list[RegistryRecord]:
    """Records of a registry file: the compact table or ROR v2 records, as JSON Lines or a JSON list."""
    records = []
    for row in _iter_registry_file(Path(path)):
        records.append(record_from_v2(row) if "names" in row else record_from_compact(row))
    return records
