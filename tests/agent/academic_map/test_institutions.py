"""Institution normalisation: names, acronyms, aliases, translations, registry matching and resolving."""

from __future__ import annotations

import gzip
import json

import pytest

from agent.academic_map.affiliations import parse_one
from agent.academic_map.institutions import (
    InstitutionRegistry,
    InstitutionResolver,
    builtin_registry,
    load_records,
    load_registry,
    name_id,
    name_key,
    record_from_compact,
    translate_chinese_name,
)
from agent.models import Affiliation
from tests.paths import DATA

ROWS = [
    {
        "ror_id": "00f54p054",
        "name": "Stanford University",
        "acronyms": ["SU"],
        "city": "Stanford",
        "country_code": "US",
        "lat": 37.42,
        "lng": -122.17,
        "types": ["education"],
        "status": "active",
    },
    {
        "ror_id": "01an7q238",
        "name": "University of California, Berkeley",
        "aliases": ["UC Berkeley"],
        "acronyms": ["UCB"],
        "city": "Berkeley",
        "country_code": "US",
        "lat": 37.87,
        "lng": -122.27,
        "status": "active",
    },
    {
        "ror_id": "02jzgtq86",
        "name": "Mayo Clinic",
        "city": "Rochester",
        "country_code": "US",
        "lat": 44.02,
        "lng": -92.46,
        "status": "active",
    },
    {
        "ror_id": "03zzw1w08",
        "name": "Mayo Clinic in Florida",
        "aliases": ["Mayo Clinic Florida"],
        "city": "Jacksonville",
        "country_code": "US",
        "lat": 30.33,
        "lng": -81.65,
        "status": "active",
        "parents": ["02jzgtq86"],
    },
    {
        "ror_id": "05a28rw58",
        "name": "ETH Zurich",
        "aliases": ["Swiss Federal Institute of Technology in Zurich"],
        "acronyms": ["ETH"],
        "labels": [{"value": "ETH Zürich", "lang": "de"}],
        "city": "Zurich",
        "country_code": "CH",
        "lat": 47.37,
        "lng": 8.55,
        "status": "active",
    },
    {
        "ror_id": "02v51f717",
        "name": "Peking University",
        "acronyms": ["PKU"],
        "labels": [{"value": "北京大学", "lang": "zh"}],
        "city": "Beijing",
        "country_code": "CN",
        "lat": 39.91,
        "lng": 116.40,
        "status": "active",
    },
    {
        "ror_id": "0000aaa01",
        "name": "Mercy Hospital",
        "city": "Cork",
        "country_code": "IE",
        "lat": 51.9,
        "lng": -8.47,
        "status": "active",
    },
    {
        "ror_id": "0000aaa02",
        "name": "Mercy Hospital",
        "city": "Baltimore",
        "country_code": "US",
        "lat": 39.29,
        "lng": -76.61,
        "status": "active",
    },
    {
        "ror_id": "0000aaa03",
        "name": "Saint Mary's Hospital",
        "city": "London",
        "country_code": "GB",
        "lat": 51.5,
        "lng": -0.17,
        "status": "active",
    },
    {
        "ror_id": "0000aaa04",
        "name": "Saint Mary's Hospital",
        "city": "Rochester",
        "country_code": "US",
        "lat": 44.0,
        "lng": -92.5,
        "status": "active",
    },
    {
        "ror_id": "0000aaa05",
        "name": "KTH Royal Institute of Technology",
        "acronyms": ["KTH"],
        "city": "Stockholm",
        "country_code": "SE",
        "lat": 59.35,
        "lng": 18.07,
        "status": "active",
    },
    {
        "ror_id": "0000aaa06",
        "name": "Heinrich Heine University Düsseldorf",
        "city": "Düsseldorf",
        "country_code": "DE",
        "lat": 51.2,
        "lng": 6.8,
        "status": "active",
    },
]


@pytest.fixture(scope="module")
def registry() -> InstitutionRegistry:
    return InstitutionRegistry.from_records([record_from_compact(r) for r in ROWS], "test")


def match(registry: InstitutionRegistry, raw: str):
    found = registry.match(parse_one(raw))
    return found.record.id if found else None


def test_name_key():
    assert name_key("The Univ. of Tokyo (UT) 2") == "university tokyo"
    assert name_key("Centre for X & Y") == name_key("Center for X and Y")
    assert name_key("Universität Zürich") == "universitat zurich"


def test_exact_names_aliases_labels_and_commas(registry):
    assert (
        match(registry, "Department of Physics, Stanford University, Stanford, CA 94305, USA") == "00f54p054"
    )
    # the name has a comma, and so does the string
    assert (
        match(registry, "Dept. of Chemistry, University of California, Berkeley, Berkeley, CA, USA")
        == "01an7q238"
    )
    assert match(registry, "Institut für Chemie, ETH Zürich, 8093 Zürich, Switzerland") == "05a28rw58"
    assert match(registry, "北京大学生命科学学院，北京 100871") == "02v51f717"


def test_a_shared_name_is_settled_by_geography_or_not_at_all(registry):
    assert match(registry, "Department of Surgery, Mercy Hospital, Cork, Ireland") == "0000aaa01"
    assert match(registry, "Department of Surgery, Mercy Hospital, Baltimore, MD") == "0000aaa02"
    assert match(registry, "Department of Surgery, Mercy Hospital") is None
    # the address names a country that none of the same-named institutions is in
    assert match(registry, "Saint Mary's Hospital, Dublin, Ireland") is None


def test_a_campus_child_in_the_address_city(registry):
    assert match(registry, "Department of Neurology, Mayo Clinic, Rochester, MN, USA") == "02jzgtq86"
    assert match(registry, "Division of Hematology, Mayo Clinic, Jacksonville, FL, USA") == "03zzw1w08"


def test_acronyms_only_as_a_whole_segment_in_a_known_country(registry):
    assert match(registry, "School of Engineering Sciences, KTH, Stockholm, Sweden") == "0000aaa05"
    assert (
        match(registry, "School of Engineering Sciences, KTH") is None
    )  # no country: an acronym names too much
    assert match(registry, "KTH Research Group on Aging, Stockholm, Sweden") is None


def test_fuzzy_names_need_agreeing_geography(registry):
    found = registry.match(
        parse_one("Molecular Physical Chemistry, Heinrich-Heine-Universty Dusseldorf, Germany")
    )
    assert found is not None and found.record.id == "0000aaa06" and found.kind == "fuzzy"
    assert registry.match(parse_one("Heinrich-Heine-Universty Dusseldorf, Brazil")) is None


def test_generic_names_do_not_match(registry):
    assert registry.match(parse_one("University Hospital, Bern, Switzerland")) is None


def test_v2_records_and_json_lists(tmp_path):
    v2 = {
        "id": "https://ror.org/05a28rw58",
        "names": [
            {"value": "ETH Zurich", "types": ["ror_display", "label"], "lang": "en"},
            {"value": "ETH", "types": ["acronym"]},
            {"value": "ETH Zürich", "types": ["label"], "lang": "de"},
        ],
        "locations": [
            {"geonames_details": {"name": "Zurich", "country_code": "CH", "lat": 47.37, "lng": 8.55}}
        ],
        "relationships": [{"type": "parent", "id": "https://ror.org/0000bbb01"}],
        "types": ["education"],
        "status": "active",
    }
    path = tmp_path / "ror.json"
    path.write_text(json.dumps([v2]), encoding="utf-8")
    (record,) = load_records(path)
    assert (record.id, record.name, record.acronyms, record.labels) == (
        "05a28rw58",
        "ETH Zurich",
        ["ETH"],
        ["ETH Zürich"],
    )
    assert (record.city, record.country_code, record.parents) == ("Zurich", "CH", ["0000bbb01"])
    compact = tmp_path / "compact.jsonl.gz"
    with gzip.open(compact, "wt", encoding="utf-8") as handle:
        for row in ROWS:
            handle.write(json.dumps(row) + "\n")
    assert len(load_registry(compact)) == len(ROWS)
    with pytest.raises(FileNotFoundError, match="SCHOLARMAP_ROR_REGISTRY"):
        load_registry(tmp_path / "missing.jsonl")


def test_translated_names_meet_without_a_registry():
    builtin = builtin_registry()
    english = builtin.match(parse_one("Institute of X, Chinese Academy of Sciences, Beijing, China"))
    chinese = builtin.match(parse_one("中国科学院，北京"))
    assert english is not None and chinese is not None and english.record.id == chinese.record.id
    assert chinese.record.name == "Chinese Academy of Sciences"
    assert translate_chinese_name("郑州大学") == "Zhengzhou University"
    assert translate_chinese_name("河北医科大学") == "Hebei Medical University"
    assert (
        translate_chinese_name("郑州大学第一附属医院")
        == "The First Affiliated Hospital of Zhengzhou University"
    )
    assert translate_chinese_name("华为技术有限公司") is None


def test_resolver_gives_one_identity_to_every_form(registry):
    resolver = InstitutionResolver(registry)
    forms = [
        Affiliation(raw="School of Life Sciences, Peking University, Beijing 100871, China"),
        Affiliation(raw="北京大学生命科学学院，北京 100871"),
        Affiliation(institution="Peking University", ror="https://ror.org/02v51f717", country_code="CN"),
    ]
    ids = {r.id for form in forms for r in resolver.resolve(form)}
    assert ids == {"02v51f717"}
    (structured,) = resolver.resolve(forms[2])
    assert (structured.matched_by, structured.coordinates_from, structured.city) == (
        "ror_id",
        "ror",
        "Beijing",
    )
    # without a registry: built-in names for famous Chinese institutions, rules for place names
    bare = InstitutionResolver()
    zh = bare.resolve(Affiliation(raw="郑州大学 化学学院，河南 郑州 450001"))[0]
    en = bare.resolve(Affiliation(raw="College of Chemistry, Zhengzhou University, Zhengzhou, China"))[0]
    assert zh.id == en.id == name_id("Zhengzhou University", "CN")
    assert zh.matched_by == "translation" and "郑州大学" in zh.aliases


def test_resolver_keeps_openalex_institutions_without_a_registry():
    resolver = InstitutionResolver()
    (found,) = resolver.resolve(
        Affiliation(
            institution="Emory University",
            openalex_id="https://openalex.org/I150468666",
            country_code="US",
            city="Atlanta",
            latitude=33.7,
            longitude=-84.4,
        )
    )
    assert (found.id, found.coordinates_from, found.matched_by) == (
        "openalex:I150468666",
        "openalex",
        "openalex",
    )
    unknown = resolver.resolve(Affiliation(raw="Acme Neurotech Inc."))
    assert [(u.name, u.country_code, u.latitude) for u in unknown] == [("Acme Neurotech Inc", None, None)]


COMPACT = DATA / "ror" / "ror_records_compact.jsonl.gz"


@pytest.mark.skipif(not COMPACT.exists(), reason="shared compact ROR table not present")
def test_the_shared_registry():
    registry = load_registry(COMPACT)
    assert len(registry) > 50000
    resolver = InstitutionResolver(registry)
    cases = {
        "College of Biomedical Engineering, Zhejiang University, Hangzhou 310027, China": "00a2xv884",
        "浙江大学医学院，杭州": "00a2xv884",
        "Department of Neurology, Massachusetts General Hospital, Boston, MA, USA": "002pd6e78",
    }
    for raw, ror in cases.items():
        assert [r.ror for r in resolver.resolve(Affiliation(raw=raw))] == [ror], raw


# ----------------------------------------------------------------------------------------------
# Matching rules found on the Crossref train split: one small registry, one test per error class
# ----------------------------------------------------------------------------------------------


def _row(ror_id: str, name: str, city: str, country: str, **extra) -> dict:
    return {
        "ror_id": ror_id,
        "name": name,
        "city": city,
        "country_code": country,
        "status": "active",
        **extra,
    }


RULE_ROWS = [
    _row("0000bbb01", "King's College Hospital", "London", "GB", aliases=["King's"], types=["healthcare"]),
    _row("0000bbb02", "King's College London", "London", "GB", types=["education"]),
    _row("0000bbb03", "University of Vienna", "Vienna", "AT", types=["education"]),
    _row("0000bbb04", "Medical University of Vienna", "Vienna", "AT", types=["education"]),
    _row("0000bbb05", "Stanford University", "Stanford", "US", types=["education"]),
    _row("0000bbb06", "Tokyo University of Science", "Tokyo", "JP", aliases=["Science University of Tokyo"]),
    _row("0000bbb07", "The University of Tokyo", "Tokyo", "JP"),
    _row("0000bbb08", "Newcastle University", "Newcastle upon Tyne", "GB"),
    _row(
        "0000bbb09", "University of Newcastle Australia", "Newcastle", "AU", aliases=["Newcastle University"]
    ),
    _row("0000bbb13", "Université Paris 8", "Paris", "FR"),
    _row("0000bbb14", "Université Paris Cité", "Paris", "FR", aliases=["Université de Paris"]),
    _row("0000bbb15", "University of Miami", "Coral Gables", "US", types=["education"]),
    _row(
        "0000bbb16",
        "University of Miami Health System",
        "Miami",
        "US",
        types=["healthcare"],
        parents=["0000bbb15"],
    ),
    _row("0000bbb17", "Institute of Ecology and Evolution", "Moscow", "RU"),
    _row("0000bbb18", "University of Oregon", "Eugene", "US"),
    _row("0000bbb19", "Leiden University", "Leiden", "NL"),
    _row(
        "0000bbb20",
        "Institut des Sciences Cognitives",
        "Bron",
        "FR",
        aliases=["Institute of Cognitive Science"],
    ),
    _row(
        "0000bbb21",
        "University of Colorado System",
        "Denver",
        "US",
        labels=[{"value": "Université du Colorado", "lang": "fr"}],
    ),
    _row(
        "0000bbb22",
        "Leipzig University",
        "Leipzig",
        "DE",
        labels=[{"value": "Universität Leipzig", "lang": "de"}],
    ),
]


@pytest.fixture(scope="module")
def rules() -> InstitutionRegistry:
    return InstitutionRegistry.from_records([record_from_compact(r) for r in RULE_ROWS], "rules")


def test_a_longer_name_is_a_subunit_only_after_a_whole_institution_name(rules):
    # "King's" (an alias of the hospital) starts "King's College London", which is no part of it
    assert match(rules, "Department of Infectious Diseases, King's College London") == "0000bbb02"
    # "University of Vienna" ends "Medical University of Vienna": the longer name is the institution
    assert match(rules, "Department of Pathology, Medical University of Vienna") == "0000bbb04"
    # a school named after its university is still the university
    found = rules.match(
        parse_one("Department of Genetics, Stanford University School of Medicine, Stanford, CA")
    )
    assert found is not None and found.record.id == "0000bbb05" and found.score >= 0.7


def test_a_name_across_a_comma_starts_where_its_segment_starts(rules):
    raw = "Medical Proteomics Laboratory, The Institute of Medical Science, The University of Tokyo"
    assert match(rules, raw) == "0000bbb07"  # not "Science, The University of Tokyo"


def test_namesakes_are_settled_by_a_city_named_outside_the_name(rules):
    # "Newcastle" inside the name says nothing of which Newcastle University is meant
    assert match(rules, "Centre for Bacterial Cell Biology, Newcastle University") == "0000bbb08"
    assert (
        match(rules, "School of Medicine, Newcastle University, Callaghan, Newcastle, Australia")
        == "0000bbb09"
    )


def test_a_numbered_name_is_not_the_plain_name(rules):
    # "Université Paris 8" keys like "Université de Paris" once its number is dropped; it is not it
    assert match(rules, "Université de Paris") != "0000bbb13"


def test_a_campus_is_a_child_of_the_same_kind(rules):
    # the university's health system in Miami is no campus of the university in Coral Gables
    assert match(rules, "Department of Medicine, University of Miami, Miami, FL, USA") == "0000bbb15"


def test_a_namesake_in_another_country_is_no_rival(rules):
    # no address: the namesake in Russia is a candidate, but the string places only Oregon (in the US)
    found = rules.match(parse_one("Institute of Ecology and Evolution, University of Oregon"))
    assert found is not None and found.record.id == "0000bbb18"
    assert found.signals["rivals"] == 0 and found.score >= 0.7


def test_a_name_extended_into_another_institution_is_doubted(rules):
    found = rules.match(parse_one("Department of Anesthesiology, Leiden University Medical Center"))
    assert found is not None and found.signals["extended_name"] == 1.0 and found.score < 0.7
    plain = rules.match(parse_one("Department of Anesthesiology, Leiden University"))
    assert plain is not None and plain.signals["extended_name"] == 0.0 and plain.score >= 0.7


def test_a_match_before_an_unmatched_university_is_doubted(rules):
    found = rules.match(
        parse_one("Comparative BioCognition, Institute of Cognitive Science, University of Osnabrück")
    )
    assert found is not None and found.signals["unmatched_university_after"] == 1.0 and found.score < 0.7
    alone = rules.match(parse_one("Comparative BioCognition, Institute of Cognitive Science, Bron, France"))
    assert alone is not None and alone.record.id == "0000bbb20" and alone.score >= 0.7


def test_a_near_miss_must_say_all_that_the_name_says(rules):
    # "University of Colorado" is a near-miss of the System's French label, but does not say "System"
    system = rules.match(parse_one("Department of Biochemistry, University of Colorado, Denver, CO, USA"))
    assert system is not None and system.kind == "fuzzy" and system.score < 0.7
    leipzig = rules.match(parse_one("Institute of Biology, University of Leipzig, Leipzig, Germany"))
    assert leipzig is not None and leipzig.record.id == "0000bbb22" and leipzig.score >= 0.7
