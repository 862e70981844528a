"""The academic map of one Run: hierarchy, counts, placement, unplaced institutions, storage beside the Run."""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from pathlib import Path

import httpx
import pytest

from agent.academic_map.build import AcademicMap, InstitutionNode, build_map, map_for_run, read_map
from agent.academic_map.researchers import AuthorRecord
from agent.llm import RulesLLM, ScriptedLLM
from agent.models import Affiliation, AggregatedPaper, Author, Paper, Produced, Run
from agent.runs.store import RunNotFound, RunStore, new_run_id
from agent.settings import load_settings
from tools.errors import SourceUnavailable
from tools.geocode import GeoPoint, NominatimGeocoder, OfflineGeocoder, get_gazetteer

DATA = Path(__file__).parent / "data" / "map_papers.json"
RUN_ID = "20260101T000000-abcdef"


def sample_papers() -> list[AggregatedPaper]:
    return [AggregatedPaper.model_validate(item) for item in json.loads(DATA.read_text(encoding="utf-8"))]


def all_institutions(result: AcademicMap) -> list[InstitutionNode]:
    nodes = list(result.unplaced_institutions)
    for country in result.countries:
        nodes += country.unplaced_institutions
        nodes += [n for city in country.cities for n in city.institutions]
    return nodes


def find(result: AcademicMap, name: str) -> InstitutionNode:
    return next(n for n in all_institutions(result) if n.name == name)


@pytest.fixture(scope="module")
def world() -> AcademicMap:
    # built once for the module (a sync fixture: the event loops of the tests are per function)
    return asyncio.run(build_map(RUN_ID, sample_papers(), llm=RulesLLM(), reference_year=2026))


async def test_hierarchy_and_counts(world):
    assert world.run_id == RUN_ID and world.scope == "run"
    assert "this Run's 14 papers" in world.note and "not the field's global total" in world.note
    codes = [c.code for c in world.countries]
    assert codes[:2] == ["US", "CN"] and set(codes) == {"US", "CN", "GB", "DE", "HK", "SG"}
    china = world.countries[1]
    assert (china.name, china.iso_numeric) == ("China", "156")
    assert {city.name for city in china.cities} == {"Beijing", "Hangzhou"}
    # counts add up at every level
    for country in world.countries:
        assert country.researcher_count == sum(c.researcher_count for c in country.cities) + sum(
            n.researcher_count for n in country.unplaced_institutions
        )
        for city in country.cities:
            assert city.researcher_count == sum(n.researcher_count for n in city.institutions)
            assert all(n.researcher_count == len(n.researchers) for n in city.institutions)
    assert world.counts.researchers == sum(len(n.researchers) for n in all_institutions(world)) + len(
        world.unaffiliated_researchers
    )
    assert world.counts.countries == 6 and world.counts.papers == 14


async def test_no_institution_is_dropped(world):
    nodes = all_institutions(world)
    assert len(nodes) == world.counts.institutions == len({n.id for n in nodes})
    acme = find(world, "Acme Neurotech Inc")  # no country, no city: listed at world level
    assert acme in world.unplaced_institutions and acme.latitude is None
    assert [r.name for r in acme.researchers] == ["Jane Doe"]
    assert [r.name for r in world.unaffiliated_researchers] == ["John Roe"]
    assert world.counts.unplaced_institutions == 1


async def test_translated_names_are_one_institution(world):
    tsinghua = find(world, "Tsinghua University")
    assert {"Tsinghua University", "清华大学"} <= set(tsinghua.aliases)
    assert {"doi:10.1000/c1", "doi:10.1000/c2", "doi:10.1000/c4"} <= set(tsinghua.paper_keys)
    assert tsinghua.coordinates_from == "city_centroid" and tsinghua.city == "Beijing"


async def test_researchers_are_merged_within_an_institution_only(world):
    tsinghua = find(world, "Tsinghua University")
    wang = [r for r in tsinghua.researchers if r.name == "Wei Wang"]
    # two papers share the co-author Xiaorong Gao: a second signal for a romanised Chinese name
    assert len(wang) == 1 and len(wang[0].paper_keys) == 2 and wang[0].merged_by == ["coauthor"]
    zju = find(world, "Zhejiang University")
    assert [r.name for r in zju.researchers if r.name == "Wei Wang"] == ["Wei Wang"]  # another person
    ucsf = find(world, "University of California, San Francisco")
    chang = next(r for r in ucsf.researchers if r.name == "Edward F. Chang")
    assert chang.merged_by == ["orcid"] and len(chang.paper_keys) == 3
    assert chang.is_pi and chang.pi_confidence > 0.8 and chang.orcid == "0000-0003-2480-4700"
    assert chang.career_label == "at least 15 years (earliest paper in this Run: 2012)"
    assert ucsf.researchers[0] is chang  # PIs first
    assert all(not r.is_pi for r in ucsf.researchers if r.name != "Edward F. Chang")


async def test_structured_openalex_affiliations_keep_their_coordinates(world):
    emory = find(world, "Emory University")
    assert (emory.ror, emory.coordinates_from, emory.latitude) == ("03czfpz43", "openalex", 33.749)


async def test_summaries_say_who_wrote_them(world):
    assert world.summaries_produced_by is Produced.RULES
    assert any("no LLM" in note for note in world.notes)
    scripted = ScriptedLLM({"researcher_summary": {"summary": "Works on speech neuroprostheses."}})
    result = await build_map(RUN_ID, sample_papers()[:3], llm=scripted, reference_year=2026)
    assert result.summaries_produced_by is Produced.SCRIPTED
    assert (
        find(result, "University of California, San Francisco").researchers[0].summary
        == "Works on speech neuroprostheses."
    )


class FakeGeocoder:
    service = "fake"

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.queries: list[tuple[str, str | None]] = []

    async def geocode(self, query: str, *, country_code: str | None = None) -> GeoPoint | None:
        self.queries.append((query, country_code))
        if self.fail:
            raise SourceUnavailable("fake", "offline")
        return GeoPoint(latitude=48.5, longitude=9.05, label=query, source="geocoder")


def _paper(raw: str) -> AggregatedPaper:
    return AggregatedPaper(
        key="doi:10.1/x",
        paper=Paper(
            title="t", year=2020, authors=[Author(name="Ann Miller", affiliations=[Affiliation(raw=raw)])]
        ),
    )


async def test_geocoder_places_what_has_no_coordinates_and_failures_fall_back():
    raw = "Neuro Lab, Acme Institute of Neuroengineering, Germany"
    geocoder = FakeGeocoder()
    placed = await build_map(RUN_ID, [_paper(raw)], llm=RulesLLM(), geocoder=geocoder)
    node = find(placed, "Acme Institute of Neuroengineering")
    assert geocoder.queries == [("Acme Institute of Neuroengineering", "DE")]
    assert (node.coordinates_from, node.latitude, placed.geocoder) == ("geocoder", 48.5, "fake")
    offline = await build_map(RUN_ID, [_paper(raw)], llm=RulesLLM(), geocoder=FakeGeocoder(fail=True))
    node = find(offline, "Acme Institute of Neuroengineering")
    assert (
        node.latitude is None and node in offline.countries[0].unplaced_institutions
    )  # listed under Germany
    assert any("geocoding failed" in n for n in offline.notes)


async def test_openalex_author_records_give_the_career_overall():
    async def enrich(ids: list[str]) -> dict[str, AuthorRecord]:
        assert ids == ["https://openalex.org/A5000000001"]
        return {ids[0]: AuthorRecord(openalex_id=ids[0], first_year=2008)}

    result = await build_map(RUN_ID, sample_papers(), llm=RulesLLM(), enrich=enrich, reference_year=2026)
    person = find(result, "Emory University").researchers[0]
    assert (person.first_year_overall, person.career_basis, person.career_years) == (2008, "openalex", 19)

    async def broken(ids: list[str]) -> dict[str, AuthorRecord]:
        raise SourceUnavailable("openalex", "HTTP 503")

    degraded = await build_map(RUN_ID, sample_papers(), llm=RulesLLM(), enrich=broken)
    assert any("OpenAlex author records unavailable" in n for n in degraded.notes)


# -- a Run's map, stored beside it ---------------------------------------------------------------------


@pytest.fixture
def stored_run(tmp_path):
    store = RunStore(tmp_path / "projects")
    store.create_project("Speech BCI")
    run = Run(id=new_run_id(), project_id="speech-bci")
    store.save_run(run, aggregated=sample_papers())
    return store, run


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


async def test_map_for_run_stores_map_json_and_leaves_the_run_untouched(stored_run, tmp_path):
    store, run = stored_run
    settings = load_settings(data_dir=tmp_path, llm="rules")
    before = _snapshot(store.run_dir(run.id))
    first = await map_for_run(store, run.id, llm=RulesLLM(), settings=settings)
    assert _snapshot(store.run_dir(run.id)) == before
    assert (store.derived_dir(run.id) / "map.json").exists()
    assert read_map(store, run.id) == first
    again = await map_for_run(store, run.id, llm=RulesLLM(), settings=settings)
    assert again.generated_at == first.generated_at  # stored, not recomputed
    forced = await map_for_run(store, run.id, llm=RulesLLM(), settings=settings, force=True)
    assert forced.generated_at > first.generated_at
    with pytest.raises(RunNotFound):
        await map_for_run(store, "20200101T000000-000000", llm=RulesLLM(), settings=settings)


async def test_an_outdated_map_json_is_recomputed(stored_run, tmp_path):
    store, run = stored_run
    store.write_derived(run.id, "map.json", b'{"version": 0, "run_id": "x"}')
    assert read_map(store, run.id) is None
    result = await map_for_run(
        store, run.id, llm=RulesLLM(), settings=load_settings(data_dir=tmp_path, llm="rules")
    )
    assert result.run_id == run.id


async def test_a_configured_registry_gives_ror_ids(stored_run, tmp_path):
    store, run = stored_run
    registry = tmp_path / "ror.jsonl.gz"
    rows = [
        {
            "ror_id": "03cve4549",
            "name": "Tsinghua University",
            "labels": [{"value": "清华大学", "lang": "zh"}],
            "acronyms": ["THU"],
            "city": "Beijing",
            "country_code": "CN",
            "lat": 40.0,
            "lng": 116.33,
            "status": "active",
        },
        {
            "ror_id": "043mz5j54",
            "name": "University of California, San Francisco",
            "acronyms": ["UCSF"],
            "city": "San Francisco",
            "country_code": "US",
            "lat": 37.76,
            "lng": -122.46,
            "status": "active",
        },
    ]
    with gzip.open(registry, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(json.dumps(r) for r in rows))
    settings = load_settings(data_dir=tmp_path, llm="rules", ror_registry=registry)
    result = await map_for_run(store, run.id, llm=RulesLLM(), settings=settings, force=True)
    tsinghua = find(result, "Tsinghua University")
    assert (tsinghua.id, tsinghua.ror, tsinghua.coordinates_from, tsinghua.latitude) == (
        "03cve4549",
        "03cve4549",
        "ror",
        40.0,
    )
    assert find(result, "University of California, San Francisco").ror == "043mz5j54"
    assert result.registry == str(registry)


# -- places: the offline gazetteer and the optional Nominatim geocoder -------------------------------------


def test_gazetteer_and_city_centroids():
    gazetteer = get_gazetteer()
    assert (
        gazetteer.best("北京").name == "Beijing"
        and gazetteer.best("Köln").name == gazetteer.best("Cologne", "DE").name
    )
    assert gazetteer.best("Cambridge", "US").country_code == "US"
    assert gazetteer.lookup("University") == []  # a word of affiliation strings, never a town
    assert gazetteer.country_numeric("CN") == "156" and gazetteer.country_name("DE") == "Germany"
    point = OfflineGeocoder(gazetteer).city_centroid("Hangzhou", "CN")
    assert point is not None and point.source == "city_centroid" and round(point.latitude) == 30


async def test_nominatim_is_spaced_cached_and_typed(tmp_path):
    seen: list[tuple[float, str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((time.monotonic(), request.url.params["q"]))
        assert request.headers["user-agent"].startswith("ScholarMap")
        query = request.url.params["q"]
        if query == "nowhere":
            return httpx.Response(200, json=[])
        if query == "broken":
            return httpx.Response(503, text="maintenance")
        return httpx.Response(
            200, json=[{"lat": "48.52", "lon": "9.05", "display_name": f"{query}, DE", "place_id": 1}]
        )

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        geocoder = NominatimGeocoder(client, min_delay=0.2, cache_path=tmp_path / "geo.sqlite")
        found = await geocoder.geocode("Hertie Institute, Tübingen", country_code="DE")
        assert found is not None and (found.latitude, found.source) == (48.52, "geocoder")
        assert await geocoder.geocode("Hertie Institute,  Tübingen", country_code="DE") == found  # cached
        assert await geocoder.geocode("nowhere") is None
        assert await geocoder.geocode("nowhere") is None  # "not found" is cached too
        with pytest.raises(SourceUnavailable):
            await geocoder.geocode("broken")
        assert [q for _, q in seen] == ["Hertie Institute, Tübingen", "nowhere", "broken"]
        gaps = [b - a for (a, _), (b, _) in zip(seen, seen[1:], strict=False)]
        assert all(gap >= 0.18 for gap in gaps)  # at most one request per min_delay
        # answers survive the process: a new geocoder with the same cache file asks nothing
        again = NominatimGeocoder(client, min_delay=0.2, cache_path=tmp_path / "geo.sqlite")
        assert await again.geocode("Hertie Institute, Tübingen", country_code="DE") == found
        assert again.requests == 0


async def test_one_institution_reached_by_openalex_and_by_a_parsed_string():
    structured = Affiliation(
        raw="Department of Biology, Foo University, Boston, MA, USA",
        institution="Foo University",
        openalex_id="I123",
        country_code="US",
    )
    raw_only = Affiliation(raw="Foo University, Boston, Massachusetts")
    papers = [
        AggregatedPaper(
            key="doi:10.1/a",
            paper=Paper(
                title="a",
                year=2020,
                # the merged paper carries OpenAlex's record and PubMed's string for the same author
                authors=[
                    Author(name="Ann Miller", affiliations=[structured, Affiliation(raw=structured.raw)])
                ],
            ),
        ),
        AggregatedPaper(
            key="doi:10.1/b",
            paper=Paper(title="b", year=2021, authors=[Author(name="Ann Miller", affiliations=[raw_only])]),
        ),
    ]
    result = await build_map(RUN_ID, papers, llm=RulesLLM())
    (node,) = all_institutions(result)
    assert node.id == "openalex:I123" and node.city == "Boston" and node.coordinates_from == "city_centroid"
    assert [(r.name, len(r.paper_keys)) for r in node.researchers] == [("Ann Miller", 2)]
    assert result.counts.authorships == 2
