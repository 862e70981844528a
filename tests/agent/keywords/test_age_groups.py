"""Ages read as MeSH age groups: the ranges of the scope notes, the spans and words that give them, and
the one population block they make."""

from __future__ import annotations

import pytest

from agent.keywords.age_groups import age_mentions, groups_for_range, headings_of, only_adulthood
from agent.keywords.concepts import build_concepts
from agent.language.mesh_recognition import MeshVocabulary
from agent.models import Slots, Understanding

YEAR = 12.0


@pytest.mark.parametrize(
    ("low", "high", "headings"),
    [
        (0, 5 * YEAR, ["Infant", "Child, Preschool"]),  # under five: Newborn is inside Infant
        (6 * YEAR, 13 * YEAR, ["Child"]),  # 6 to 12
        (12 * YEAR, 19 * YEAR, ["Adolescent"]),  # 12 to 18: one year of Child is no Child
        (15 * YEAR, 25 * YEAR, ["Adolescent", "Young Adult"]),
        (65 * YEAR, 1000 * YEAR, ["Aged"]),  # Aged explodes to Aged, 80 and over
        (80 * YEAR, 1000 * YEAR, ["Aged, 80 and over"]),
        (18 * YEAR, 1000 * YEAR, ["Adult"]),
        (40 * YEAR, 71 * YEAR, ["Middle Aged"]),
        (4, 7, ["Infant"]),  # 4 to 6 months
        (0, 1, ["Infant, Newborn"]),
    ],
)
def test_a_range_of_ages_is_the_age_groups_it_overlaps(low: float, high: float, headings: list[str]) -> None:
    assert groups_for_range(low, high) == headings


@pytest.mark.parametrize(
    ("text", "headings"),
    [
        ("zinc for diarrhoea in children under five years of age", ["Infant", "Child, Preschool"]),
        ("PrEP among young people aged 15-24 years", ["Adolescent", "Young Adult"]),
        ("falls in community-dwelling adults aged 65 years and over", ["Aged"]),
        ("trials in people aged 80 years or older", ["Aged, 80 and over"]),
        ("hypertension in the oldest old", ["Aged, 80 and over"]),
        ("screen time in toddlers", ["Infant", "Child, Preschool"]),
        ("vitamin A in children aged 6 to 59 months", ["Infant", "Child, Preschool"]),
        ("under-five mortality", ["Infant", "Child, Preschool"]),
        ("5-year-old children", ["Child, Preschool"]),
        ("women over 50", ["Middle Aged", "Aged"]),
        ("patients aged ≥ 65 years", ["Aged"]),
        ("loneliness in older adults", ["Aged"]),
        ("gait training in older folks", ["Aged"]),  # an everyday word for the same people
    ],
)
def test_ages_are_read_from_spans_and_age_words(text: str, headings: list[str]) -> None:
    assert headings_of(age_mentions(text)) == headings


@pytest.mark.parametrize(
    "text", ["mortality over 10 years of follow-up", "the last five years", "adults with asthma", "children"]
)
def test_durations_and_bare_people_words_are_no_ages(text: str) -> None:
    assert age_mentions(text) == []


def test_an_adult_age_range_only_narrows() -> None:
    assert only_adulthood(["Middle Aged"]) and not only_adulthood(["Aged"]) and not only_adulthood([])


def _population(vocabulary: MeshVocabulary, description: str, **slots: list[str]):
    result = build_concepts(Understanding(description=description, slots=Slots(**slots)), vocabulary)
    people = [
        c
        for c in result.concepts
        if any(
            t.concept == c.id and t.mesh and t.mesh.tree_numbers[0].startswith("M01.060")
            for t in result.terms
        )
    ]
    return result, people


def test_children_under_five_are_infants_or_preschool_children(vocabulary: MeshVocabulary) -> None:
    description = "Oral zinc for acute diarrhoea in children under five years of age"
    result, people = _population(
        vocabulary,
        description,
        context=["Oral zinc", "acute diarrhoea"],
        subject_population=["children under five years of age"],
    )
    (concept,) = people
    headings = [t.mesh.heading for t in result.terms if t.concept == concept.id and t.mesh]
    assert headings == ["Infant", "Child, Preschool"]
    assert concept.required


def test_the_word_aged_of_a_span_is_no_concept_of_its_own(vocabulary: MeshVocabulary) -> None:
    description = "Pre-exposure prophylaxis among young people aged 15-24 years in sub-Saharan Africa"
    result, people = _population(
        vocabulary,
        description,
        subject_population=["young people aged 15-24 years"],
        context=["Pre-exposure prophylaxis", "sub-Saharan Africa"],
    )
    assert not any(t.mesh and t.mesh.heading == "Aged" for t in result.terms)
    (concept,) = people
    terms = [t for t in result.terms if t.concept == concept.id]
    assert [t.mesh.heading for t in terms if t.mesh] == ["Adolescent", "Young Adult"]
    assert "young people" in {s.text for t in terms for s in t.synonyms} | {t.canonical for t in terms}


def test_people_sharing_an_age_noun_in_a_coordination_lose_the_age_adjective(
    vocabulary: MeshVocabulary,
) -> None:
    """'transgender and non-binary young people', distributed as 'transgender young people' and
    'non-binary young people': the people are transgender and non-binary (Transgender Persons), the
    age is the age block's; 'transgender young' had been searched as a phrase."""
    description = "Minority stress and suicidal ideation among transgender and non-binary young people."
    result, people = _population(
        vocabulary,
        description,
        subject_population=["transgender young people", "non-binary young people"],
        output_target=["suicidal ideation"],
    )
    canonicals = {t.canonical for t in result.terms}
    assert {"transgender", "non-binary"} <= canonicals and not any(c.endswith(" young") for c in canonicals)
    assert any(
        t.canonical == "transgender" and t.mesh and t.mesh.heading == "Transgender Persons"
        for t in result.terms
    )
    (ages,) = people
    assert "non-binary" not in {t.canonical for t in result.terms if t.concept == ages.id}


def test_an_age_range_within_adulthood_is_optional(vocabulary: MeshVocabulary) -> None:
    description = "Aspirin for the primary prevention of cardiovascular disease in adults aged 40 to 70 years"
    result, people = _population(
        vocabulary,
        description,
        context=["Aspirin", "cardiovascular disease"],
        subject_population=["adults aged 40 to 70 years"],
    )
    (concept,) = people
    assert not concept.required and "adulthood" in concept.reason


def test_aged_65_and_over_is_searched_by_the_name_of_the_age_not_the_word_aged(
    vocabulary: MeshVocabulary,
) -> None:
    description = (
        "Resistance training for preventing falls in community-dwelling adults aged 65 years and over"
    )
    result, people = _population(
        vocabulary,
        description,
        subject_population=["community-dwelling adults aged 65 years and over"],
        context=["Resistance training", "falls"],
    )
    (concept,) = people
    terms = [t for t in result.terms if t.concept == concept.id]
    assert [(t.canonical, t.mesh and t.mesh.heading) for t in terms] == [("older adults", "Aged")]
    assert any(t.mesh and t.mesh.heading == "Independent Living" for t in result.terms)


@pytest.mark.parametrize(
    ("text", "headings"),
    [
        ("补充锌治疗5岁以下儿童急性腹泻", ["Infant", "Child, Preschool"]),
        ("15-24岁青少年", ["Adolescent", "Young Adult"]),
        ("65岁及以上老年人", ["Aged"]),
        ("八十岁以上老人", ["Aged, 80 and over"]),
        ("6至12岁儿童", ["Child"]),
    ],
)
def test_chinese_ages_are_read_as_the_same_age_groups(text: str, headings: list[str]) -> None:
    assert headings_of(age_mentions(text)) == headings
