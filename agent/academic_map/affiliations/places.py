"""Places written in an affiliation segment: country and region names, cities, and cities inside a name."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.academic_map.affiliations.lexicon import DEPENDENCIES, Lexeme, lexicon
from agent.academic_map.affiliations.text import STREET
from tools.geocode import Gazetteer, Place, fold, get_gazetteer


@dataclass
class Hit:
    lexeme: Lexeme
    start: int  # offset in the folded segment
    end: int


def place_hits(folded: str) -> list[Hit]:
    lex = lexicon()
    return [Hit(lex.entries[m.group(1)], m.start(), m.end()) for m in lex.pattern.finditer(folded)]


def mask(folded: str, hits: list[Hit]) -> str:
    for hit in hits:
        folded = folded[: hit.start] + " " * (hit.end - hit.start) + folded[hit.end :]
    return folded


def covers(folded: str, hits: list[Hit]) -> bool:
    return bool(hits) and not mask(folded, hits).strip()


def dominant(places: list[Place], *, ratio: float = 3.0, min_population: int = 0) -> Place | None:
    """The largest place if it clearly outweighs every namesake in another country (Paris FR vs Paris TX)."""
    if not places or places[0].population < min_population:
        return None
    top = places[0]
    rivals = [p for p in places[1:] if p.country_code != top.country_code]
    if rivals and rivals[0].population * ratio > top.population:
        return None
    return top


_WORD = re.compile(r"[^\W\d_][\w'’.-]*", re.UNICODE)


def _lookup_in(gazetteer: Gazetteer, phrase: str, country: str | None) -> list[Place]:
    """Cities called `phrase` in `country` (or its overseas territories), or anywhere when unknown."""
    if not country:
        return gazetteer.lookup(phrase)
    places = gazetteer.lookup(phrase, country)
    for territory in DEPENDENCIES.get(country, ()) if not places else ():
        places = places or gazetteer.lookup(phrase, territory)
    return places


@dataclass(frozen=True)
class CityHit:
    place: Place
    phrase: str
    whole: bool  # the phrase is all that is left of the segment (besides "City", street words ...)
    trailing: bool  # the phrase ends the segment


_CITY_FILLER = frozenset({"city", "cedex", "shi", "town"})


def city_in_segment(segment: str, country: str | None) -> CityHit | None:
    """The city an address segment names: the longest capitalised run of words (<= 4) that is a city,
    latest in the segment first ("Park Angelinum 9, Kosice"), in `country` when it is known.
    A run that is a country or region name ("Slovakia", "Indiana") is not a city here.
    """
    gazetteer = get_gazetteer()
    entries = lexicon().entries
    text = re.sub(r"\([^)]*\)", " ", segment)
    words = [m.group(0).rstrip(".-'’") for m in _WORD.finditer(text)]
    words = [w for w in words if w and not STREET.fullmatch(w)]
    folded = fold(text)
    place_words = {t for h in place_hits(folded) for t in folded[h.start : h.end].split()}
    best: tuple[tuple[int, int], CityHit] | None = None
    for size in range(min(4, len(words)), 0, -1):
        for start in range(len(words) - size, -1, -1):
            run = words[start : start + size]
            if not run[0][0].isupper():
                continue
            phrase = " ".join(run)
            rest = [
                w
                for w in words[:start] + words[start + size :]
                if fold(w) not in _CITY_FILLER and not all(t in place_words for t in fold(w).split())
            ]
            if gazetteer.is_ambiguous(phrase) and rest or fold(phrase) in entries:
                continue  # "Victoria" only as a segment of its own
            places = _lookup_in(gazetteer, phrase, country)
            if not places:
                continue
            hit = CityHit(places[0], phrase, whole=not rest, trailing=start + size == len(words))
            score = (size, start)
            if best is None or score > best[0]:
                best = (score, hit)
        if best is not None:
            break
    return best[1] if best else None


_NAME_CITY = re.compile(
    r"(?:\b(?:in|at|de|di|du|of|zu|van|della|del)\s+|\bd'|-)([A-Z][\w'’.-]+(?:\s[A-Z][\w'’.-]+){0,2})\s*$"
    r"|^(?:Universit\w+|Hochschule|Klinikum|Universidad\w*|Technische Universität)\s+([A-Z][\w'’.-]+(?:\s[A-Z][\w'’.-]+)?)$"
    r"|^([A-Z][\w'’.-]+(?:\s[A-Z][\w'’.-]+)?)\s+(?:University|Universit\w+|Hospital|Medical University|"
    r"Normal University|Institute of Technology|City University|Polytechnic|Medical College)\b",
)


def city_in_name(segment: str, country: str | None) -> tuple[Place, str] | None:
    """A city in the institution's own name: 'University of Verona', 'Wuhan University', '... in Prague'."""
    match = _NAME_CITY.search(segment)
    if not match:
        return None
    phrase = next(g for g in match.groups() if g)
    gazetteer = get_gazetteer()
    if gazetteer.is_ambiguous(phrase):
        return None
    places = gazetteer.lookup(phrase, country) if country else gazetteer.lookup(phrase)
    if not places:
        return None
    place = places[0] if country else dominant(places, min_population=50000)
    return (place, phrase) if place else None
