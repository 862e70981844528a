"""What the parsers return: `ParsedAffiliation`, one per institution a string names."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

CountrySource = Literal["name", "code", "region", "city", "institution_name", "none"]
CitySource = Literal["address", "name", "none"]


class ParsedAffiliation(BaseModel):
    """One institution named in a raw affiliation string, with what the string says about it."""

    raw: str  # the piece of the original string this was read from
    institution: str | None = None  # the institution itself, as written
    departments: list[str] = Field(default_factory=list)  # departments, labs, schools inside it
    organisations: list[str] = Field(default_factory=list)  # every organisation-like segment, in order
    city: str | None = None  # gazetteer name ("Cologne"); None when not found
    city_text: str | None = None  # as written ("Köln")
    city_source: CitySource = "none"
    geonameid: int | None = None
    region: str | None = None  # state or province
    country_code: str | None = None
    country_source: CountrySource = "none"
    postcode: str | None = None
    emails: list[str] = Field(default_factory=list)
    language: Literal["en", "zh"] = "en"


def fill(
    parsed: ParsedAffiliation,
    *,
    institution: str | None,
    departments: list[str],
    organisations: list[str],
    country: tuple[str | None, Any],
    region: str | None,
    city: tuple[Any, Any, Any],
) -> ParsedAffiliation:
    """Write what a parser found into `parsed` (shared by the Latin-script and Chinese parsers)."""
    parsed.institution = institution
    parsed.departments = departments
    parsed.organisations = organisations
    parsed.country_code, parsed.country_source = country
    parsed.region = region
    place, city_text, city_source = city
    if place is not None:
        parsed.city, parsed.city_text, parsed.city_source, parsed.geonameid = (
            place.name,
            city_text,
            city_source,
            place.geonameid,
        )
    return parsed
