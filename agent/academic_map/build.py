"""The academic map of one Run: world -> countries -> cities -> institutions -> researchers.

Input is exactly one Run's merged papers (`results_aggregated.json`); nothing from other Runs. Each
author's affiliations are resolved to institutions (`agent.academic_map.institutions`), people are merged within
an institution (`agent.academic_map.researchers`), and institutions are placed: registry or OpenAlex coordinates
first, then the optional geocoder, then the centroid of their city from the gazetteer. Institutions
that still have no coordinates are listed (under their country, or at world level), never dropped.

The result is stored as `map.json` beside the Run (`RunStore.write_derived`), a recomputable
artefact that leaves the Run's own files untouched. It says what it shows: this Run's results, not
the field's global total.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from agent.academic_map.institutions import (
    InstitutionRegistry,
    InstitutionResolver,
    ResolvedInstitution,
    load_registry,
    name_key,
)
from agent.academic_map.researchers import (
    AuthorEnricher,
    AuthorRecord,
    Authorship,
    ResearcherProfile,
    build_profile,
    coauthor_key,
    corpus_frequencies,
    merge_authorships,
    person_name,
    summarise,
)
from agent.llm import LLM
from agent.models import AggregatedPaper, Author, Institution, Produced
from agent.runs.store import RunStore
from tools.errors import ServiceCallError
from tools.geocode import Geocoder, OfflineGeocoder, get_gazetteer

log = logging.getLogger(__name__)

MAP_FILE = "map.json"
MAP_VERSION = 1


# ----------------------------------------------------------------------------------------------
# The map's shape
# ----------------------------------------------------------------------------------------------


class InstitutionNode(Institution):
    region: str | None = None
    matched_by: str = "parsed"
    match_confidence: float = 0.0
    researcher_count: int = 0
    paper_count: int = 0
    researchers: list[ResearcherProfile] = Field(default_factory=list)


class CityNode(BaseModel):
    name: str
    country_code: str
    latitude: float | None = None
    longitude: float | None = None
    researcher_count: int = 0
    institution_count: int = 0
    paper_count: int = 0
    institutions: list[InstitutionNode] = Field(default_factory=list)


class CountryNode(BaseModel):
    code: str  # ISO 3166-1 alpha-2
    name: str
    iso_numeric: str | None = None  # the id the bundled world shapes use
    researcher_count: int = 0
    institution_count: int = 0
    paper_count: int = 0
    cities: list[CityNode] = Field(default_factory=list)
    unplaced_institutions: list[InstitutionNode] = Field(default_factory=list)  # no coordinates


class MapCounts(BaseModel):
    papers: int = 0
    papers_with_affiliations: int = 0
    authorships: int = 0
    researchers: int = 0
    institutions: int = 0
    placed_institutions: int = 0
    unplaced_institutions: int = 0
    countries: int = 0
    cities: int = 0
    unaffiliated_researchers: int = 0


class AcademicMap(BaseModel):
    version: int = MAP_VERSION
    run_id: str
    generated_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    scope: str = "run"
    note: str = ""
    counts: MapCounts = Field(default_factory=MapCounts)
    countries: list[CountryNode] = Field(default_factory=list)
    unplaced_institutions: list[InstitutionNode] = Field(default_factory=list)  # country unknown too
    unaffiliated_researchers: list[ResearcherProfile] = Field(default_factory=list)
    summaries_produced_by: Produced = Produced.RULES
    registry: str | None = None  # the institution registry used, if any
    geocoder: str = "offline"
    notes: list[str] = Field(default_factory=list)


def scope_note(n_papers: int) -> str:
    return (
        f"This map shows the researchers and institutions found in this Run's {n_papers} papers, "
        "not the field's global total."
    )


# ----------------------------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------------------------


def _authors(item: AggregatedPaper) -> list[Author]:
    return [a for a in item.paper.authors if not a.collective and a.name.strip()]


_ID_PREFERENCE = ("ror", "openalex:", "builtin:", "name:")


def _rank(resolved: ResolvedInstitution) -> int:
    """Which identity wins when one institution was reached several ways: ROR, OpenAlex, built-in, name."""
    if resolved.ror:
        return 0
    return next((i for i, p in enumerate(_ID_PREFERENCE) if resolved.id.startswith(p)), len(_ID_PREFERENCE))


def _unify(resolved: list[ResolvedInstitution]) -> dict[str, str]:
    """One id per institution: forms with the same name in the same country become the best-ranked id.

    'name:us:foo-university' (a parsed PubMed string) joins 'openalex:I123' (OpenAlex's Foo University,
    US); a form written without a country joins the one country its name is found in.
    """
    groups: dict[tuple[str, str], list[ResolvedInstitution]] = defaultdict(list)
    for item in resolved:
        groups[(name_key(item.name), (item.country_code or "").upper())].append(item)
    countries: dict[str, set[str]] = defaultdict(set)
    for key, country in groups:
        if country:
            countries[key].add(country)
    remap: dict[str, str] = {}
    for (key, country), items in groups.items():
        if not country and len(countries[key]) == 1:
            target_group = groups[(key, next(iter(countries[key])))]
        else:
            target_group = items
        best = min(target_group, key=lambda r: (_rank(r), r.id))
        for item in items:
            if item.id != best.id and not (item.ror and best.ror and item.ror != best.ror):
                remap[item.id] = best.id
    return remap


def _author_institutions(found: list[ResolvedInstitution]) -> list[ResolvedInstitution]:
    """An author's institutions without repeats: OpenAlex's structured record and the same place parsed
    from PubMed's string are one affiliation, not two."""
    unique = list({r.id: r for r in found}.values())
    structured = {name_key(r.name) for r in unique if r.matched_by in ("ror_id", "openalex")}
    return [r for r in unique if r.matched_by in ("ror_id", "openalex") or name_key(r.name) not in structured]


async def build_map(
    run_id: str,
    papers: list[AggregatedPaper],
    *,
    llm: LLM,
    registry: InstitutionRegistry | None = None,
    geocoder: Geocoder | None = None,
    enrich: AuthorEnricher | None = None,
    reference_year: int | None = None,
    min_confidence: float = 0.70,
) -> AcademicMap:
    """The academic map of these papers (one Run's merged results)."""
    notes: list[str] = []
    reference_year = reference_year or datetime.now(UTC).year
    resolver = InstitutionResolver(registry, min_confidence=min_confidence)
    by_key = {item.key: item for item in papers}

    # -- authorships: each author x each institution they give on each paper -----------------------
    raw_authorships: list[tuple[AggregatedPaper, Author, ResolvedInstitution | None]] = []
    resolved_all: list[ResolvedInstitution] = []
    papers_with_affiliations = 0
    cache: dict[str, list[ResolvedInstitution]] = {}
    for item in papers:
        any_affiliation = False
        for author in _authors(item):
            found: list[ResolvedInstitution] = []
            for affiliation in author.affiliations:
                cache_key = affiliation.model_dump_json()
                if cache_key not in cache:
                    cache[cache_key] = resolver.resolve(affiliation)
                found.extend(cache[cache_key])
            unique = _author_institutions(found)
            any_affiliation = any_affiliation or bool(unique)
            resolved_all.extend(unique)
            if not unique:
                raw_authorships.append((item, author, None))
            raw_authorships.extend((item, author, resolved) for resolved in unique)
        papers_with_affiliations += any_affiliation
    remap = _unify(resolved_all)

    institutions: dict[str, ResolvedInstitution] = {}
    for resolved in resolved_all:
        key = remap.get(resolved.id, resolved.id)
        if key not in institutions:
            institutions[key] = resolved.model_copy(update={"id": key})
        else:
            known = institutions[key]
            known.aliases = sorted(set(known.aliases) | set(resolved.aliases))
            known.country_code = known.country_code or resolved.country_code
            known.city = known.city or resolved.city

    authorships: list[Authorship] = []
    for item, author, institution in raw_authorships:
        others = frozenset(coauthor_key(person_name(a)) for a in _authors(item) if a is not author)
        authorships.append(
            Authorship(
                paper_key=item.key,
                author=author,
                institution_id=remap.get(institution.id, institution.id) if institution else None,
                year=item.paper.year,
                n_authors=len(_authors(item)),
                coauthors=others,
            )
        )

    # -- people, enrichment, profiles --------------------------------------------------------------
    people = merge_authorships(authorships)
    records: dict[str, AuthorRecord] = {}
    if enrich is not None:
        ids = sorted({a.author.openalex_id for a in authorships if a.author.openalex_id})
        if ids:
            try:
                records = await enrich(ids)
            except ServiceCallError as exc:
                notes.append(f"career from OpenAlex author records unavailable: {exc}")
    corpus = corpus_frequencies(papers)
    profiles: list[ResearcherProfile] = []
    for index, person in enumerate(people):
        profile = build_profile(
            f"r{index + 1:05d}", person, by_key, reference_year=reference_year, corpus=corpus, records=records
        )
        profiles.append(profile)
    notes += await summarise(profiles, by_key, {k: v.name for k, v in institutions.items()}, llm)
    produced = Counter(p.summary_produced_by for p in profiles)
    summaries_by = max(produced, key=lambda k: produced[k]) if produced else Produced.RULES

    # -- geography -----------------------------------------------------------------------------------
    geocoder_name = "offline"
    if geocoder is not None and not isinstance(geocoder, OfflineGeocoder):
        geocoder_name = getattr(geocoder, "service", type(geocoder).__name__)
        notes += await _geocode(institutions, geocoder)
    _city_centroids(institutions)

    return _assemble(
        run_id, papers, institutions, profiles, papers_with_affiliations, len(authorships)
    ).model_copy(
        update={
            "summaries_produced_by": summaries_by,
            "registry": registry.source if registry is not None else None,
            "geocoder": geocoder_name,
            "notes": notes,
        }
    )


async def _geocode(institutions: dict[str, ResolvedInstitution], geocoder: Geocoder) -> list[str]:
    """Coordinates from the online geocoder for institutions still without them; failures are noted."""
    failures = 0
    last_error = ""
    for institution in institutions.values():
        if institution.latitude is not None:
            continue
        query = ", ".join(p for p in (institution.name, institution.city) if p)
        try:
            point = await geocoder.geocode(query, country_code=institution.country_code)
        except ServiceCallError as exc:
            failures += 1
            last_error = str(exc)
            continue
        if point is not None:
            institution.latitude, institution.longitude = point.latitude, point.longitude
            institution.coordinates_from = "geocoder"
    return (
        [f"geocoding failed for {failures} institutions ({last_error}); city centroids used"]
        if failures
        else []
    )


def _city_centroids(institutions: dict[str, ResolvedInstitution]) -> None:
    """Institutions with a city but no coordinates are placed at the city's centroid (offline)."""
    offline = OfflineGeocoder()
    for institution in institutions.values():
        if institution.latitude is not None or not institution.city:
            continue
        point = offline.city_centroid(institution.city, institution.country_code)
        if point is not None:
            institution.latitude, institution.longitude = point.latitude, point.longitude
            institution.coordinates_from = "city_centroid"


def _node(
    institution: ResolvedInstitution, researchers: list[ResearcherProfile], country: str | None
) -> InstitutionNode:
    paper_keys = sorted({k for r in researchers for k in r.paper_keys})
    return InstitutionNode(
        id=institution.id,
        name=institution.name,
        ror=institution.ror,
        aliases=institution.aliases,
        country_code=institution.country_code,
        country=country,
        city=institution.city,
        latitude=institution.latitude,
        longitude=institution.longitude,
        coordinates_from=institution.coordinates_from,
        paper_keys=paper_keys,
        region=institution.region,
        matched_by=institution.matched_by,
        match_confidence=institution.confidence,
        researcher_count=len(researchers),
        paper_count=len(paper_keys),
        researchers=sorted(researchers, key=lambda r: (-r.is_pi, -len(r.paper_keys), r.name)),
    )


def _assemble(
    run_id: str,
    papers: list[AggregatedPaper],
    institutions: dict[str, ResolvedInstitution],
    profiles: list[ResearcherProfile],
    papers_with_affiliations: int,
    n_authorships: int,
) -> AcademicMap:
    gazetteer = get_gazetteer()
    members: dict[str, list[ResearcherProfile]] = defaultdict(list)
    unaffiliated = []
    for profile in profiles:
        if profile.institution_id is None:
            unaffiliated.append(profile)
        else:
            members[profile.institution_id].append(profile)

    countries: dict[str, CountryNode] = {}
    cities: dict[tuple[str, str], CityNode] = {}
    world_unplaced: list[InstitutionNode] = []
    for key, institution in institutions.items():
        code = (institution.country_code or "").upper() or None
        country_name = gazetteer.country_name(code) if code else None
        node = _node(institution, members.get(key, []), country_name)
        if code is None:
            world_unplaced.append(node)
            continue
        country = countries.setdefault(
            code,
            CountryNode(code=code, name=country_name or code, iso_numeric=gazetteer.country_numeric(code)),
        )
        if node.latitude is None or node.longitude is None:
            country.unplaced_institutions.append(node)
            continue
        city_name = node.city or "(city not given)"
        city = cities.get((code, city_name))
        if city is None:
            place = gazetteer.best(node.city, code) if node.city else None
            city = cities[(code, city_name)] = CityNode(
                name=city_name,
                country_code=code,
                latitude=place.latitude if place else node.latitude,
                longitude=place.longitude if place else node.longitude,
            )
            country.cities.append(city)
        city.institutions.append(node)

    def tally(nodes: Iterable[InstitutionNode]) -> tuple[int, int, int]:
        nodes = list(nodes)
        researchers = sum(n.researcher_count for n in nodes)
        paper_keys = {k for n in nodes for k in n.paper_keys}
        return researchers, len(nodes), len(paper_keys)

    for city in cities.values():
        city.institutions.sort(key=lambda n: (-n.researcher_count, n.name))
        city.researcher_count, city.institution_count, city.paper_count = tally(city.institutions)
    for country in countries.values():
        country.cities.sort(key=lambda c: (-c.researcher_count, c.name))
        country.unplaced_institutions.sort(key=lambda n: (-n.researcher_count, n.name))
        every = [n for c in country.cities for n in c.institutions] + country.unplaced_institutions
        country.researcher_count, country.institution_count, country.paper_count = tally(every)
    world_unplaced.sort(key=lambda n: (-n.researcher_count, n.name))

    placed = sum(c.institution_count for c in cities.values())
    counts = MapCounts(
        papers=len(papers),
        papers_with_affiliations=papers_with_affiliations,
        authorships=n_authorships,
        researchers=len(profiles),
        institutions=len(institutions),
        placed_institutions=placed,
        unplaced_institutions=len(institutions) - placed,
        countries=len(countries),
        cities=len(cities),
        unaffiliated_researchers=len(unaffiliated),
    )
    return AcademicMap(
        run_id=run_id,
        note=scope_note(len(papers)),
        counts=counts,
        countries=sorted(countries.values(), key=lambda c: (-c.researcher_count, c.name)),
        unplaced_institutions=world_unplaced,
        unaffiliated_researchers=sorted(unaffiliated, key=lambda r: (-len(r.paper_keys), r.name)),
    )


# ----------------------------------------------------------------------------------------------
# A Run's map, stored beside it
# ----------------------------------------------------------------------------------------------


def read_map(store: RunStore, run_id: str) -> AcademicMap | None:
    """The stored map of a Run, or None when there is none or it was made by an older version."""
    data = store.read_derived(run_id, MAP_FILE)
    if data is None:
        return None
    try:
        found = AcademicMap.model_validate_json(data)
    except ValidationError:
        log.info("map.json of run %s does not match the current schema; recomputing", run_id)
        return None
    return found if found.version == MAP_VERSION else None


async def map_for_run(
    store: RunStore,
    run_id: str,
    *,
    llm: LLM,
    settings: Any,
    force: bool = False,
    geocoder: Geocoder | None = None,
    enrich: AuthorEnricher | None = None,
) -> AcademicMap:
    """The map of one Run: the stored `map.json`, or computed from that Run's results and stored.

    Reads only the Run's `results_aggregated.json`. `settings.ror_registry`, when set, names the
    institution registry file. Online geocoding and OpenAlex author records are used only when the
    caller passes `geocoder` / `enrich`.
    """
    # file reads and JSON parsing run in a worker thread: a Run's files are megabytes, and a server
    # answering other requests must not wait for them
    if not force:
        stored = await asyncio.to_thread(read_map, store, run_id)
        if stored is not None:
            return stored
    run = store.get_run(run_id)
    papers = await asyncio.to_thread(store.load_aggregated, run_id)
    registry = await asyncio.to_thread(load_registry, getattr(settings, "ror_registry", None))
    result = await build_map(
        run_id,
        papers,
        llm=llm,
        registry=registry,
        geocoder=geocoder,
        enrich=enrich,
        reference_year=run.created_at.year,
    )
    encoded = await asyncio.to_thread(lambda: result.model_dump_json(indent=1).encode())
    await asyncio.to_thread(store.write_derived, run_id, MAP_FILE, encoded)
    return result
