"""Parsing raw affiliation strings: splitting, cleaning, country, city, institution vs department."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.academic_map.affiliations import clean, parse_affiliation, parse_one, split_affiliations
from evals.affiliations.metrics import (
    city_matches,
    names_country,
    read_jsonl,
    score_cities,
    score_countries,
)
from tests.paths import DATA
from tools.geocode import fold

ZH_CASES = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "affiliations_zh.jsonl").open(encoding="utf-8")
]


def test_the_chinese_set_is_large_enough():
    assert len(ZH_CASES) >= 50
    assert {c["country"] for c in ZH_CASES} >= {"CN", "HK", "TW", "MO"}


@pytest.mark.parametrize("case", ZH_CASES, ids=[c["raw"][:24] for c in ZH_CASES])
def test_chinese_affiliations(case):
    parsed = parse_affiliation(case["raw"])[0]
    assert parsed.language == "zh"
    assert parsed.country_code == case["country"]
    assert fold(parsed.city or "") == fold(case["city"])
    assert parsed.institution == case["institution"]


def test_department_is_not_the_institution_in_chinese():
    parsed = parse_one("北京大学生命科学学院，北京 100871")
    assert parsed.institution == "北京大学"
    assert parsed.departments == ["生命科学学院"]
    assert parsed.postcode == "100871"


def test_emails_urls_phones_and_markers_are_removed():
    text, emails = clean(
        "1 Dept. of X, Univ. of Y, Paris, France. Electronic address: a.b@y.fr; Tel: +33 1 23 45 67 89"
    )
    assert emails == ["a.b@y.fr"]
    assert "@" not in text and "33 1 23" not in text
    parsed = parse_affiliation(
        "* Department of Physics, Stanford University, Stanford, CA 94305, USA. jane@stanford.edu"
    )
    assert parsed[0].emails == ["jane@stanford.edu"]
    assert parsed[0].institution == "Stanford University"
    assert parsed[0].postcode == "94305"


def test_several_institutions_are_split():
    raw = (
        "1 Dept. of Neurology, Xuanwu Hospital, Capital Medical University, Beijing 100053, P.R. China; "
        "2 Broad Institute, Cambridge, MA 02142, USA"
    )
    first, second = parse_affiliation(raw)
    assert (first.institution, first.city, first.country_code) == (
        "Capital Medical University",
        "Beijing",
        "CN",
    )
    assert first.departments == ["Dept. of Neurology"]
    assert (second.institution, second.city, second.country_code, second.region) == (
        "Broad Institute",
        "Cambridge",
        "US",
        "Massachusetts",
    )
    joined = "Dept of X, University of Lyon, Lyon, France. Department of Z, University of Rome, Rome, Italy"
    assert [p.country_code for p in parse_affiliation(joined)] == ["FR", "IT"]
    # a country inside an organisation's name does not end an affiliation
    one = "Institute of Medical Research Israel-Canada, Faculty of Medicine, Hebrew University of Jerusalem"
    assert len(split_affiliations(one)) == 1


@pytest.mark.parametrize(
    ("raw", "country", "city", "institution"),
    [
        (
            "Department of Chemistry, University of Köln, Greinstr. 6, D-50939 Köln, Germany",
            "DE",
            "Köln",
            "University of Köln",
        ),
        (
            "Department of Genetics, University of Cologne, 50931 Cologne, Germany",
            "DE",
            "Köln",
            "University of Cologne",
        ),
        ("Dept. of CS, Georgia State Univ., Atlanta, GA", "US", "Atlanta", "Georgia State Univ"),
        (
            "Faculty of Medicine, Tbilisi State Medical University, Tbilisi, Georgia",
            "GE",
            "Tbilisi",
            "Tbilisi State Medical University",
        ),
        (
            "Department of Physics, University of New Mexico, Albuquerque, NM 87131",
            "US",
            "Albuquerque",
            "University of New Mexico",
        ),
        (
            "Center for Brain Science, University of Cambridge, Cambridge CB2 3EB, UK",
            "GB",
            "Cambridge",
            "University of Cambridge",
        ),
        (
            "Department of Sociology, The University of Hong Kong, Hong Kong, China",
            "HK",
            "Hong Kong",
            "The University of Hong Kong",
        ),
        (
            "Nanyang Technological University, 639798, Singapore",
            "SG",
            "Singapore",
            "Nanyang Technological University",
        ),
        (
            "Centrum Wiskunde & Informatica, Science Park 123, 1098 XG Amsterdam, The Netherlands",
            "NL",
            "Amsterdam",
            "Centrum Wiskunde & Informatica",
        ),
        (
            "Institute for Clinical Evaluative Sciences, 2075 Bayview Avenue, Toronto, Ontario, Canada",
            "CA",
            "Toronto",
            "Institute for Clinical Evaluative Sciences",
        ),
        (
            "Department of Clinical Research, University Hospital of Martinique, Fort-de-France, France",
            "MQ",
            "Fort-de-France",
            "University Hospital of Martinique",
        ),
        (
            "Centro de Neumología Pediátrica, San Juan, PR, USA",
            "PR",
            "San Juan",
            "Centro de Neumología Pediátrica",
        ),
        (
            "Stuttgart, Max-Planck-Institut für Festkörperforschung",
            "DE",
            "Stuttgart",
            "Max-Planck-Institut für Festkörperforschung",
        ),
        (
            "Department of Neurology, Xiangya Hospital, Central South University, Changsha, Hunan, China",
            "CN",
            "Changsha",
            "Central South University",
        ),
    ],
)
def test_english_and_european_addresses(raw, country, city, institution):
    parsed = parse_one(raw)
    assert parsed.country_code == country
    assert parsed.city == city
    assert parsed.city_source == "address"
    assert parsed.institution == institution


def test_country_from_a_us_state_inside_the_name():
    parsed = parse_one("Department of Physiology, Perelman School of Medicine University of Pennsylvania")
    assert (parsed.country_code, parsed.country_source, parsed.region) == (
        "US",
        "institution_name",
        "Pennsylvania",
    )
    assert parse_one("Complex Carbohydrate Research Center, University of Georgia").country_code == "US"
    assert parse_one("Massachusetts General Hospital Cancer Center").country_code == "US"


def test_city_inside_the_name_is_kept_apart_from_the_address():
    parsed = parse_one("School of Computer Science, Wuhan University")
    assert (parsed.city, parsed.city_source, parsed.country_code) == ("Wuhan", "name", "CN")
    assert parse_one("University of Verona").city_source == "name"


def test_campus_of_a_state_system_stays_in_the_name():
    parsed = parse_one(
        "Department of Surgery, University of California, San Francisco, San Francisco, CA 94143, USA"
    )
    assert parsed.institution == "University of California, San Francisco"
    assert (
        parse_one("Department of Surgery, University of Oxford, Oxford, UK").institution
        == "University of Oxford"
    )


def test_nothing_to_parse():
    assert parse_affiliation("") == []
    assert parse_affiliation("   ;  ") == []
    assert parse_one("").institution is None


def test_a_bare_address():
    parsed = parse_one("Denver, CO")
    assert (parsed.city, parsed.country_code, parsed.institution) == ("Denver", "US", None)


# -- metrics ----------------------------------------------------------------------------------------


def test_metrics():
    assert names_country("Dept X, Univ Y, Lyon, France") and names_country("Boston, Massachusetts")
    assert not names_country("Department of Physics, Harvard University")
    countries = score_countries([({"US"}, {"US"}), ({"GB"}, {"US"}), ({"CN"}, set()), (set(), {"FR"})])
    assert (countries.precision.hits, countries.precision.total) == (1, 2)
    assert (countries.recall.hits, countries.recall.total) == (1, 3)
    assert city_matches(["Köln", "Cologne"], "Köln") and city_matches(["Stuttgart"], "Stuttgart 80")
    assert city_matches(["Wako"], "Wako City") and not city_matches(["Paris"], "Lyon")
    cities = score_cities(
        [(["Boston"], [["Boston"]]), (["Lyon"], [["Paris"]]), ([], [["Rome"]]), (["Oslo"], [])]
    )
    assert (cities.true_positives, cities.false_positives, cities.false_negatives) == (1, 2, 2)
    assert cities.f1 == pytest.approx(2 * (1 / 3) * (1 / 3) / (2 / 3))


# -- quality floors on the shared gold sets (a regression guard; the full figures come from evals) -----

GROBID = DATA / "affiliations" / "grobid_affiliation_address" / "grobid_affiliation_address_gold.jsonl.gz"
COMBINED = DATA / "affiliations" / "affiliations_gold_combined.jsonl.gz"


@pytest.mark.skipif(not GROBID.exists(), reason="shared GROBID gold set not present")
def test_city_f1_on_grobid_sample():
    rows = list(read_jsonl(GROBID))[:800]
    pairs = [
        (
            r["settlement"],
            [
                [p.city_text or "", p.city or ""]
                for p in parse_affiliation(r["affiliation"])
                if p.city_source == "address"
            ],
        )
        for r in rows
    ]
    assert score_cities(pairs).f1 >= 0.80


@pytest.mark.skipif(not COMBINED.exists(), reason="shared combined gold set not present")
def test_country_precision_on_combined_sample():
    rows = [r for r in list(read_jsonl(COMBINED))[:3000] if r["country_codes"] and r["all_ids_in_ror_table"]]
    named = [
        (
            set(r["country_codes"]),
            {p.country_code for p in parse_affiliation(r["affiliation"]) if p.country_code},
        )
        for r in rows
        if names_country(r["affiliation"])
    ]
    score = score_countries(named)
    assert score.precision.value >= 0.98
    assert score.coverage >= 0.95
