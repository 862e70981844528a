"""Parsing an affiliation in Latin script: organisations first, the address read from the end."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.academic_map.affiliations.lexicon import AU_STATES, CA_PROVINCES, CN_SPECIAL, DEPENDENCIES, lexicon
from agent.academic_map.affiliations.parsed import CitySource, CountrySource, ParsedAffiliation, fill
from agent.academic_map.affiliations.places import (
    CityHit,
    Hit,
    city_in_name,
    city_in_segment,
    covers,
    dominant,
    place_hits,
)
from agent.academic_map.affiliations.text import STREET, STRONG, SegmentKind, remove_postcodes, segment_kind
from tools.geocode import Place, fold, get_gazetteer


@dataclass
class _Segment:
    text: str
    folded: str
    hits: list[Hit]
    kind: SegmentKind
    covered: bool  # every word is a country or region name

    @classmethod
    def of(cls, text: str) -> _Segment:
        folded = fold(text)
        hits = [h for h in place_hits(folded) if h.lexeme.kind != "neutral"]
        # "United Kingdom (WNC)": a bracketed code does not make a place name something else
        bare = fold(re.sub(r"\([^)]*\)", " ", text))
        return cls(text, folded, hits, segment_kind(text), covers(bare, place_hits(bare)))

    @property
    def bare_code(self) -> str | None:
        bare = self.text.replace(".", "").strip()
        return bare if re.fullmatch(r"[A-Z]{2,3}", bare) else None


# Leftovers that are no part of an address: "and", footnote numbers, "(WNC)".
_JUNK_SEGMENT = re.compile(r"(?:\d{1,3}\s*)?(?:and|und|et|y|e)?|\([^)]*\)|\d{1,3}", re.IGNORECASE)


def _is_addressy(segment: _Segment, *, after_address: bool) -> bool:
    """Could this organisation-free segment be part of an address (city, region, street, code)?

    A short unknown segment ("Villigen PSI") counts only between the organisations and a segment
    already read as address; on its own it may be an organisation without a keyword.
    """
    if segment.kind != "other":
        return False
    if segment.covered or segment.bare_code or STREET.search(segment.text):
        return True
    if re.fullmatch(r"[A-Z][A-Z&-]{1,9}", segment.text.replace(".", "").strip()):
        return False  # an acronym such as "UPJS" is an organisation
    found = city_in_segment(segment.text, None)
    if found is not None and found.whole:
        return True
    return after_address and (found is not None or len(segment.text.split()) <= 3)


def parse_latin(text: str, raw: str) -> ParsedAffiliation:
    gazetteer = get_gazetteer()
    lex = lexicon()
    text, postcode = remove_postcodes(text)
    parsed = ParsedAffiliation(raw=raw, postcode=postcode)
    pieces = [s.strip(" .-") for s in re.split(r"\s*[,\n]\s*|\s+/\s+", text)]
    segments = [_Segment.of(s) for s in pieces if s and not _JUNK_SEGMENT.fullmatch(s)]
    if not segments:
        return parsed
    us_zip = bool(postcode and re.fullmatch(r"\d{5}(?:-\d{4})?", postcode))

    # -- the address: trailing segments naming no organisation, and leading pure place names ------
    end = len(segments)
    while end > 1 and _is_addressy(segments[end - 1], after_address=end < len(segments)):
        end -= 1
    start = 0
    while (
        start < end - 1
        and segments[start].kind == "other"
        and (segments[start].covered or gazetteer.has(segments[start].folded))
    ):
        start += 1
    if end == 1 and len(segments) > 1 and _is_addressy(segments[0], after_address=False):
        end = 0  # "Denver, CO": nothing but an address
    address = segments[:start] + segments[end:]
    organisations = segments[start:end]
    # -- country and region: the address read from its end ----------------------------------------
    country: str | None = None
    country_source: CountrySource = "none"
    region: str | None = None
    georgia = any(h.lexeme.kind == "georgia" for s in segments for h in s.hits)
    address_hits: list[Hit] = []
    if organisations and not any(s.hits or s.bare_code for s in address):
        # "... LORIA/INRIA Vandoeuvre-lès-Nancy FRANCE": a country ending the last organisation segment
        last = organisations[-1]
        if last.hits and last.hits[-1].end == len(last.folded) and last.hits[-1].lexeme.kind == "country":
            address_hits.append(last.hits[-1])
            country, country_source = last.hits[-1].lexeme.code, "name"
    for index in range(len(address) - 1, -1, -1):
        segment = address[index]
        code = segment.bare_code
        if code and country == "US" and code in DEPENDENCIES["US"]:
            country, country_source = code, "code"  # "San Juan, PR, USA": Puerto Rico has its own code
            continue
        if code and country == "US" and code in lex.us_codes and region is None:
            region = lex.us_codes[code]  # "..., MA 02142, USA": the state after the country was read
            continue
        if (
            code
            and country is None
            and (code in lex.us_codes or code in lex.iso3 or code in lex.country_codes)
        ):
            previous = address[index - 1].text if index else ""
            city_here = city_in_segment(previous, None) if previous else None
            if code in DEPENDENCIES["US"]:
                country, country_source = code, "code"  # "San Juan, PR": Puerto Rico has its own code
            elif code in lex.us_codes and not (
                code in lex.country_codes and city_here and city_here.place.country_code == code
            ):
                country, country_source, region = "US", "region", lex.us_codes[code]
            else:
                country, country_source = lex.iso3.get(code, code), "code"
            continue
        tokens = segment.text.replace(".", "").split()
        if country is None and len(tokens) in (2, 3) and not segment.hits:
            last_token = tokens[-1]
            if last_token in lex.us_codes and (us_zip or last_token not in lex.country_codes):
                country, country_source, region = "US", "region", lex.us_codes[last_token]
            elif last_token in CA_PROVINCES and postcode and re.match(r"[A-Z]\d", postcode):
                country, country_source, region = "CA", "region", CA_PROVINCES[last_token]
            elif last_token in AU_STATES and postcode and re.fullmatch(r"\d{4}", postcode):
                country, country_source, region = "AU", "region", AU_STATES[last_token]
        for hit in reversed(segment.hits):
            lexeme = hit.lexeme
            address_hits.append(hit)
            if lexeme.kind == "georgia":
                continue
            if country is None:
                country = lexeme.code
                country_source = "name" if lexeme.kind == "country" else "region"
                region = lexeme.region or None
            elif lexeme.kind in {"us_state", "region"} and region is None and lexeme.code == country:
                region = lexeme.region
    if country is None and any(h.lexeme.kind == "georgia" for h in address_hits):
        country, country_source = ("GE", "name") if "tbilisi" in fold(text) else ("US", "region")
        region = None if country == "GE" else "Georgia"
    if us_zip and country is None:
        country, country_source = "US", "code"
    if country == "CN":
        # "Hong Kong SAR, China": ROR, GeoNames and ISO give Hong Kong, Macao and Taiwan their own codes
        special = [h.lexeme.code for h in address_hits if h.lexeme.code in CN_SPECIAL]
        if special:
            country = special[0]

    # -- city: the first address segment that is a city; else one that contains one ----------------
    city: Place | None = None
    city_text: str | None = None
    city_source: CitySource = "none"
    candidates: list[CityHit] = []
    for segment in address:
        if segment.covered and segment.hits:
            # "Beijing, China", "New York, NY", "Singapore": a region or city-state that is its own city
            lexeme = segment.hits[0].lexeme
            place = gazetteer.best(segment.text, country or lexeme.code or None)
            if len(segment.hits) == 1 and place is not None and place.population >= 100000:
                candidates.append(CityHit(place, segment.text, whole=True, trailing=True))
            continue
        found = city_in_segment(segment.text, country)
        if found:
            candidates.append(found)
    if not candidates and organisations and address_hits and address_hits[0] in organisations[-1].hits:
        found = city_in_segment(organisations[-1].folded[: address_hits[0].start], country)
        if found is None:
            found = city_in_segment(
                organisations[-1].text[
                    : len(organisations[-1].text) - len(organisations[-1].text.split()[-1])
                ],
                country,
            )
        if found and found.trailing:
            candidates.append(found)
    if (
        not candidates
        and organisations
        and address
        and (address[0].bare_code or address[0].covered)
        and (country == "US" and us_zip)
    ):
        # "The Ohio State University Columbus, OH 43210": a city ending the last organisation segment
        found = city_in_segment(organisations[-1].text, country)
        if (
            found
            and found.trailing
            and not re.search(
                rf"\b(?:of|de|di|du|in|at|zu|van)\s+{re.escape(found.phrase)}$", organisations[-1].text
            )
        ):
            candidates.append(found)
    chosen = next((c for c in candidates if c.whole), None) or next(
        (c for c in candidates if c.place.population >= 15000 or country), None
    )
    if chosen is not None:
        city, city_text, city_source = chosen.place, chosen.phrase, "address"

    # -- what the organisations' names say, when the address says nothing -------------------------
    inner = [h for s in organisations for h in s.hits if h not in address_hits]
    if country is None and inner:
        countries = [h for h in inner if h.lexeme.kind == "country"] or [
            h for h in inner if h.lexeme.kind in {"us_state", "region"}
        ]
        if countries:
            country, country_source = countries[0].lexeme.code, "institution_name"
            region = region or countries[0].lexeme.region or None
        elif georgia:
            country, country_source, region = "US", "institution_name", "Georgia"
    if city is None:
        for segment in reversed(organisations or segments[:1]):
            named = city_in_name(segment.text, country)
            if named:
                city, city_text = named
                city_source = "name"
                break
    if country is None and city is not None:
        outweighing = dominant(
            gazetteer.lookup(city_text or city.name),
            min_population=20000 if city_source == "address" else 100000,
        )
        if outweighing is not None and outweighing.geonameid == city.geonameid:
            country = city.country_code
            country_source = "city" if city_source == "address" else "institution_name"
    if region is None and city is not None and city.country_code == "US" and country == "US":
        region = lex.us_codes.get(city.admin1)  # GeoNames gives US cities their state code
    if city is not None and country is not None and city.country_code != country:
        same_country = gazetteer.best(city_text or city.name, country)
        if same_country is None and city.country_code in DEPENDENCIES.get(country, ()):
            country = city.country_code  # "Fort-de-France, France": Martinique has its own code
        else:
            # a same-named city in the country the address names ("Cambridge, MA" -> Cambridge, US)
            city = same_country
            if city is None:
                city_text, city_source = None, "none"

    # -- institution and departments -------------------------------------------------------------
    departments = [s.text for s in organisations if s.kind == "department"]
    institutions = [s.text for s in organisations if s.kind == "institution"]
    others = [s.text for s in organisations if s.kind == "other" and not s.covered]
    institution = _choose_institution(institutions) or (others[0] if others else None)
    if institution is None and departments:
        institution = departments.pop()  # "Department of Surgery" alone: better than nothing
    institution = _with_campus(institution, segments, city_text if city_source == "address" else None)
    return fill(
        parsed,
        institution=institution,
        departments=departments,
        organisations=[s.text for s in organisations if not s.covered],
        country=(country, country_source),
        region=region,
        city=(city, city_text, city_source),
    )


# State university systems whose campuses are told apart only by the city after the comma.
_CAMPUS_SYSTEMS = re.compile(
    r"^(?:the\s+)?university of (?:california|texas|illinois|wisconsin|maryland|massachusetts|colorado|"
    r"missouri|nebraska|north carolina|tennessee|alabama|hawaii|minnesota|arkansas|louisiana|michigan)$",
    re.IGNORECASE,
)


def _with_campus(institution: str | None, segments: list[_Segment], city: str | None) -> str | None:
    """'University of California, San Francisco': the campus city is part of the institution's name."""
    if not institution or not city or not _CAMPUS_SYSTEMS.match(institution):
        return institution
    texts = [s.text for s in segments]
    index = texts.index(institution) if institution in texts else -1
    if 0 <= index < len(texts) - 1 and fold(texts[index + 1]) == fold(city):
        return f"{institution}, {texts[index + 1]}"
    return institution


def _choose_institution(candidates: list[str]) -> str | None:
    """The institution among organisation segments: the strongest, and of equals the last (broadest)."""
    if not candidates:
        return None
    scored = [(2 if STRONG.search(c) else 1, i, c) for i, c in enumerate(candidates)]
    return max(scored)[2]
